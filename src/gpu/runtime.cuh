#pragma once

// RAII over the CUDA runtime for the kernels' host code (.cu files only): streams, events,
// device buffers and pinned host buffers, and ZK_CUDA_TRY, which turns a failing runtime call into
// a Status naming the call, the file and the line.

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "base/status.hpp"
#include "gpu/gpu.hpp"

namespace zk::gpu {

inline Status cuda_status(cudaError_t e, const char* call, const char* file, int line) {
  if (e == cudaSuccess) return {};
  return Status::internal(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                          cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

/// Evaluates a CUDA runtime call; on failure returns its Status from the enclosing function.
#define ZK_CUDA_TRY(call)                                                              \
  do {                                                                                \
    if (::zk::Status zk_cuda_st_ = ::zk::gpu::cuda_status((call), #call, __FILE__, __LINE__); \
        !zk_cuda_st_.ok())                                                            \
      return zk_cuda_st_;                                                             \
  } while (0)

class Stream {
 public:
  Stream() = default;
  Status create() { return cuda_status(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate", __FILE__, __LINE__); }
  ~Stream() {
    if (s_ != nullptr) cudaStreamDestroy(s_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }
  Status sync() { return cuda_status(cudaStreamSynchronize(s_), "cudaStreamSynchronize", __FILE__, __LINE__); }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  Status create() { return cuda_status(cudaEventCreate(&e_), "cudaEventCreate", __FILE__, __LINE__); }
  ~Event() {
    if (e_ != nullptr) cudaEventDestroy(e_);
  }
  Event() = default;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

/// Device memory for `count` T (uninitialised), from the device's pool (gpu::device_alloc). With a
/// stream, ordered on it (gpu::device_alloc_on): only work on that stream (or after synchronising
/// it) may use the buffer, and it is given back in that stream's order without waiting for the
/// device; the stream must outlive the buffer.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)), st_(std::exchange(o.st_, nullptr)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
      st_ = std::exchange(o.st_, nullptr);
    }
    return *this;
  }
  Status allocate(std::size_t count, cudaStream_t st = nullptr) {
    reset();
    if (count == 0) return {};
    auto p = st != nullptr ? device_alloc_on(count * sizeof(T), st) : device_alloc(count * sizeof(T));
    if (!p.ok()) return p.status();
    p_ = static_cast<T*>(*p);
    n_ = count;
    st_ = st;
    return {};
  }
  /// Gives the memory back to the pool: after the device's work (gpu::device_free), or in the
  /// buffer's stream's order.
  void reset() {
    if (st_ != nullptr) {
      device_free_on(p_, st_);
    } else {
      device_free(p_);
    }
    p_ = nullptr;
    n_ = 0;
    st_ = nullptr;
  }
  T* get() const { return p_; }
  std::size_t size() const { return n_; }
  /// Takes ownership of `count` elements from gpu::device_alloc (freed with the buffer).
  void adopt(T* p, std::size_t count) {
    reset();
    p_ = p;
    n_ = count;
  }
  /// Gives up ownership (the caller frees the memory with gpu::device_free).
  T* release() {
    n_ = 0;
    st_ = nullptr;
    return std::exchange(p_, nullptr);
  }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
  cudaStream_t st_ = nullptr;  // null: device_alloc's buffer
};

/// Page-locked host memory (fast, asynchronous copies).
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  ~PinnedBuffer() {
    if (p_ != nullptr) cudaFreeHost(p_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  Status allocate(std::size_t count) {
    void* p = nullptr;
    ZK_CUDA_TRY(cudaMallocHost(&p, count * sizeof(T)));
    p_ = static_cast<T*>(p);
    n_ = count;
    return {};
  }
  T* get() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace zk::gpu
