#include "engine/budget.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace zk::engine {

Reservation& Reservation::operator=(Reservation&& o) noexcept {
  if (this != &o) {
    release_all();
    budget_ = o.budget_, bytes_ = o.bytes_;
    o.budget_ = nullptr, o.bytes_ = 0;
  }
  return *this;
}

void Reservation::release(std::uint64_t n) {
  n = std::min(n, bytes_);
  if (n == 0 || budget_ == nullptr) return;
  bytes_ -= n;
  budget_->give_back(n);
}

void Reservation::absorb(Reservation&& o) {
  if (o.bytes_ == 0) return;
  if (budget_ == nullptr) budget_ = o.budget_;
  bytes_ += o.bytes_;  // the bytes stay counted in the budget; only their owner changes
  o.budget_ = nullptr, o.bytes_ = 0;
}

void MemoryBudget::overdraw(Reservation& r, std::uint64_t n) {
  if (n == 0) return;
  std::lock_guard lock(m_);
  if (r.budget_ == nullptr) r.budget_ = this;
  used_ += n;
  high_water_ = std::max(high_water_, used_);
  r.bytes_ += n;
}

Result<Reservation> MemoryBudget::reserve(std::uint64_t bytes, const std::function<bool()>& abandon,
                                          const std::string& what) {
  if (bytes > total_) {
    return Status(StatusCode::kResourceExhausted, what + " needs " + format_bytes(bytes) + " but the whole memory budget is " +
                                               format_bytes(total_) + "; raise the budget or use a smaller shape");
  }
  std::unique_lock lock(m_);
  bool gave_up = false;
  cv_.wait(lock, [&] {
    if (used_ <= total_ && total_ - used_ >= bytes) return true;
    if (abandon && abandon()) return gave_up = true;
    return false;
  });
  if (gave_up)
    return Status(StatusCode::kUnavailable, what + ": gave up waiting for memory (cancelled or shutting down)");
  used_ += bytes;
  high_water_ = std::max(high_water_, used_);
  return Reservation(this, bytes);
}

Result<Reservation> MemoryBudget::try_reserve(std::uint64_t bytes, const std::string& what) {
  std::lock_guard lock(m_);
  if (used_ > total_ || total_ - used_ < bytes) {
    return Status(StatusCode::kUnavailable, what + " needs " + format_bytes(bytes) + ", " +
                                                format_bytes(used_ > total_ ? 0 : total_ - used_) +
                                                " of the budget is free");
  }
  used_ += bytes;
  high_water_ = std::max(high_water_, used_);
  return Reservation(this, bytes);
}

void MemoryBudget::wake_all() {
  { std::lock_guard lock(m_); }
  cv_.notify_all();
}

void MemoryBudget::give_back(std::uint64_t n) {
  {
    std::lock_guard lock(m_);
    used_ -= n;
  }
  cv_.notify_all();
}

std::uint64_t MemoryBudget::used() const {
  std::lock_guard lock(m_);
  return used_;
}

std::uint64_t MemoryBudget::high_water() const {
  std::lock_guard lock(m_);
  return high_water_;
}

std::uint64_t available_memory_bytes() {
  auto read_u64 = [](const char* path) -> std::uint64_t {
    std::ifstream in(path);
    std::string s;
    if (!(in >> s) || s == "max") return 0;
    try {
      return std::stoull(s);
    } catch (...) {
      return 0;
    }
  };
  std::uint64_t mem_total = 0;
  {
    std::ifstream in("/proc/meminfo");
    std::string key, unit;
    std::uint64_t kb = 0;
    while (in >> key >> kb >> unit) {
      if (key == "MemTotal:") {
        mem_total = kb * 1024;
        break;
      }
    }
  }
  std::uint64_t limit = read_u64("/sys/fs/cgroup/memory.max");
  if (limit == 0) limit = read_u64("/sys/fs/cgroup/memory/memory.limit_in_bytes");
  if (limit != 0 && (mem_total == 0 || limit < mem_total)) return limit;
  return mem_total;
}

std::string format_bytes(std::uint64_t n) {
  char buf[64];
  if (n >= (std::uint64_t{1} << 30)) {
    std::snprintf(buf, sizeof(buf), "%.2f GiB", static_cast<double>(n) / (1 << 30));
  } else if (n >= (std::uint64_t{1} << 20)) {
    std::snprintf(buf, sizeof(buf), "%.1f MiB", static_cast<double>(n) / (1 << 20));
  } else {
    std::snprintf(buf, sizeof(buf), "%llu B", static_cast<unsigned long long>(n));
  }
  return buf;
}

}  // namespace zk::engine
