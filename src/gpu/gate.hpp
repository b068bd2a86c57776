#pragma once

// The dual-worker interlock (cuzk-reference.md §5): several prover workers share one device, and
// only the work that needs the device — allocations, uploads, kernels, downloads — runs inside a
// Turn. Everything a worker can do on the CPU (padding a, b, c, gathering density-filtered
// scalars, combining MSM windows, the next partition's preparation) happens outside, so it
// overlaps the other worker's kernels, and device memory is bounded by one turn's buffers.
// Turns are served first come, first served (a worker that releases and asks again queues behind
// the one already waiting); prove_start takes one turn per partition for all its device calls. One gate per device; it belongs to whoever owns the prover workers
// (the daemon, a bench run), not to the process.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace zk::gpu {

class DeviceGate {
 public:
  explicit DeviceGate(int ordinal = 0) : ordinal_(ordinal) {}
  DeviceGate(const DeviceGate&) = delete;
  DeviceGate& operator=(const DeviceGate&) = delete;

  /// Exclusive use of the device until destroyed (or released).
  class Turn {
   public:
    Turn(Turn&& o) noexcept : gate_(o.gate_), since_(o.since_) { o.gate_ = nullptr; }
    Turn& operator=(Turn&&) = delete;
    Turn(const Turn&) = delete;
    ~Turn() { release(); }
    void release();

   private:
    friend class DeviceGate;
    Turn(DeviceGate* g, std::chrono::steady_clock::time_point since) : gate_(g), since_(since) {}
    DeviceGate* gate_;
    std::chrono::steady_clock::time_point since_;
  };

  /// Blocks until it is this caller's turn.
  [[nodiscard]] Turn enter();

  struct Stats {
    std::uint64_t turns = 0;   // turns taken (finished or running)
    unsigned waiting = 0;      // callers blocked in enter() now
    bool held = false;         // a turn is running now
    double wait_ms = 0;        // total time callers spent waiting
    double held_ms = 0;        // total time of finished turns
  };
  Stats stats() const;
  int ordinal() const { return ordinal_; }

 private:
  void leave(std::chrono::steady_clock::time_point since);

  const int ordinal_;
  mutable std::mutex m_;
  std::condition_variable cv_;
  std::uint64_t next_ticket_ = 0, serving_ = 0;  // FIFO tickets
  bool held_ = false;
  Stats stats_;
};

}  // namespace zk::gpu
