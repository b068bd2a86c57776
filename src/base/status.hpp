#pragma once

#include <exception>
#include <new>
#include <string>
#include <utility>
#include <variant>

namespace zk {

/// What went wrong, coarsely; the message says the rest.
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // the caller's input is malformed (bad bytes, bad flags, off-curve point, ...)
  kOutOfRange,       // a value is well-formed but outside the accepted range (non-canonical, too large)
  kNotFound,
  kIoError,
  kUnavailable,  // a capability this build or machine lacks (e.g. built without CUDA), or shutting down
  kInternal,
  kAlreadyExists,     // e.g. a request id reused with a different payload
  kDeadlineExceeded,  // a wait timed out (the operation itself goes on)
  kCancelled,
  kResourceExhausted,  // a limit (memory budget, queue length, message size) does not allow it
  kUnimplemented,      // a request for something this version does not do (e.g. a proof kind not built)
};

const char* status_code_name(StatusCode code);

/// The result of an operation that can fail, with a message a user can act on.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok_status() { return {}; }
  static Status invalid_argument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
  static Status out_of_range(std::string m) { return {StatusCode::kOutOfRange, std::move(m)}; }
  static Status not_found(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status io_error(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
  static Status unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
  static Status internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
  static Status already_exists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
  static Status deadline_exceeded(std::string m) { return {StatusCode::kDeadlineExceeded, std::move(m)}; }
  static Status cancelled(std::string m) { return {StatusCode::kCancelled, std::move(m)}; }
  static Status unimplemented(std::string m) { return {StatusCode::kUnimplemented, std::move(m)}; }
  static Status resource_exhausted(std::string m) { return {StatusCode::kResourceExhausted, std::move(m)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  /// "INVALID_ARGUMENT: message" (or "OK").
  std::string to_string() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

/// Either a value or a non-OK Status. (std::expected is C++23; this is the subset we need.)
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  Result(Status status) : v_(std::move(status)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  /// The error; an OK Status when a value is held.
  Status status() const { return ok() ? Status() : std::get<1>(v_); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace zk

namespace zk {

/// A message for a user, at most `max_bytes` long: errors may quote what a file or a client sent,
/// and a 1 MiB field must not become a 1 MiB error (nor overflow gRPC's metadata limit).
inline std::string bounded_message(const std::string& m, std::size_t max_bytes = 2048) {
  if (m.size() <= max_bytes) return m;
  return m.substr(0, max_bytes) + "... (" + std::to_string(m.size() - max_bytes) + " more bytes not shown)";
}

/// Runs `f` (which returns Status or Result<T>) and turns anything it throws into an error Status:
/// std::bad_alloc becomes RESOURCE_EXHAUSTED, any other exception INTERNAL with its what(). Every
/// thread's entry point and every call across a layer that may allocate by an input's size goes
/// through this, so no exception can end the process; `what` says where it happened.
template <class F>
auto guarded(const char* what, F&& f) noexcept -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return Status::resource_exhausted(std::string(what) + ": out of memory");
  } catch (const std::exception& e) {
    return Status::internal(std::string(what) + ": unexpected error: " + e.what());
  } catch (...) {
    return Status::internal(std::string(what) + ": unexpected error");
  }
}

}  // namespace zk
