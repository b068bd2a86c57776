#pragma once

// The memory budget: bytes, not counts (product.md section 4). A partition reserves its whole
// working set before synthesis starts; the reservation travels with the partition and is given
// back in stages. Waiting is a condition variable with a predicate, so a release can never be
// missed; a request larger than the whole budget fails at once.

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "base/status.hpp"

namespace zk::engine {

class MemoryBudget;

/// Bytes held from a budget; released in parts or, for the rest, on destruction. Move-only.
class Reservation {
 public:
  Reservation() = default;
  Reservation(Reservation&& o) noexcept : budget_(o.budget_), bytes_(o.bytes_) { o.budget_ = nullptr, o.bytes_ = 0; }
  Reservation& operator=(Reservation&& o) noexcept;
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
  ~Reservation() { release_all(); }

  std::uint64_t bytes() const { return bytes_; }
  /// Gives back min(n, held) bytes now.
  void release(std::uint64_t n);
  void release_all() { release(bytes_); }
  /// Takes over another reservation's bytes (of the same budget, or an empty one).
  void absorb(Reservation&& o);

 private:
  friend class MemoryBudget;
  Reservation(MemoryBudget* b, std::uint64_t n) : budget_(b), bytes_(n) {}
  MemoryBudget* budget_ = nullptr;
  std::uint64_t bytes_ = 0;
};

class MemoryBudget {
 public:
  explicit MemoryBudget(std::uint64_t total_bytes) : total_(total_bytes) {}

  /// Blocks until `bytes` fit, or fails: at once when bytes > total, or when `abandon()` turns true
  /// (it is re-checked whenever the budget changes and after wake_all()).
  Result<Reservation> reserve(std::uint64_t bytes, const std::function<bool()>& abandon, const std::string& what);
  /// Never blocks.
  Result<Reservation> try_reserve(std::uint64_t bytes, const std::string& what);
  /// Adds n bytes to a reservation of this budget at once, even past the total: for bytes that are
  /// already allocated and must be counted (a partition whose a/b outgrew its estimate). New
  /// reservations wait until the budget is back under its total.
  void overdraw(Reservation& r, std::uint64_t n);
  /// Wakes every waiter so it re-checks its abandon predicate (cancel, shutdown).
  void wake_all();

  std::uint64_t total() const { return total_; }
  std::uint64_t used() const;
  std::uint64_t high_water() const;

 private:
  friend class Reservation;
  void give_back(std::uint64_t n);

  const std::uint64_t total_;
  mutable std::mutex m_;
  std::condition_variable cv_;
  std::uint64_t used_ = 0, high_water_ = 0;
};

/// Memory available to this process: the cgroup limit (v2 memory.max or v1 limit_in_bytes) when
/// set, else MemTotal from /proc/meminfo; 0 when neither can be read.
std::uint64_t available_memory_bytes();

std::string format_bytes(std::uint64_t n);

}  // namespace zk::engine
