#pragma once

// The buffer ledger: bytes and counts of every large buffer, per class and per stage, with
// high-water marks, updated in one place at stage events. The reference daemon's counters could
// not balance (cuzk-reference.md section 8); here every event is a signed delta applied under one
// lock, a negative balance is a bug that fails loudly (the test suite checks it), and a snapshot
// of the whole ledger is available at any time.

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace zk::engine {

enum class BufferClass : std::uint8_t { kAbc, kAux, kDensity, kPending, kParams };
inline constexpr std::size_t kBufferClasses = 5;
const char* buffer_class_name(BufferClass c);

enum class Stage : std::uint8_t { kQueued, kSynthesizing, kInChannel, kProving, kFinalizing };
inline constexpr std::size_t kStages = 5;
const char* stage_name(Stage s);

enum class Event : std::uint8_t {
  kSynthStart,
  kSynthDone,
  kChannelSend,
  kProveStartBegin,
  kAbcFreed,
  kFinalizeDone,
  kDeallocDone,
  kParamsLoaded,
  kParamsEvicted,
};
const char* event_name(Event e);

/// Bytes per buffer class.
struct ClassBytes {
  std::array<std::int64_t, kBufferClasses> bytes{};
  std::int64_t& operator[](BufferClass c) { return bytes[static_cast<std::size_t>(c)]; }
  std::int64_t operator[](BufferClass c) const { return bytes[static_cast<std::size_t>(c)]; }
  std::int64_t total() const {
    std::int64_t t = 0;
    for (auto b : bytes) t += b;
    return t;
  }
};

struct LedgerSnapshot {
  ClassBytes bytes, high_water;
  std::array<std::int64_t, kBufferClasses> count{};  // live buffers per class
  std::array<std::int64_t, kStages> partitions_in_stage{};
  std::array<std::int64_t, kStages> stage_high_water{};
  std::uint64_t events = 0;
  bool went_negative = false;  // a bug if ever true
  std::string to_string() const;
};

class BufferLedger {
 public:
  /// Applies one event: byte and count deltas per class, and a partition leaving stage `from`
  /// and/or entering stage `to` (nullopt: entering or leaving the pipeline).
  void record(Event e, const ClassBytes& delta_bytes, const std::array<std::int64_t, kBufferClasses>& delta_count,
              std::optional<Stage> from, std::optional<Stage> to);
  LedgerSnapshot snapshot() const;

 private:
  mutable std::mutex m_;
  LedgerSnapshot s_;
};

}  // namespace zk::engine
