#include "gpu/gate.hpp"

namespace zk::gpu {

namespace {
double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

DeviceGate::Turn DeviceGate::enter() {
  const auto asked = std::chrono::steady_clock::now();
  std::unique_lock lock(m_);
  const std::uint64_t ticket = next_ticket_++;
  ++stats_.waiting;
  cv_.wait(lock, [&] { return serving_ == ticket && !held_; });
  --stats_.waiting;
  held_ = true;
  ++stats_.turns;
  stats_.wait_ms += ms_since(asked);
  return Turn(this, std::chrono::steady_clock::now());
}

void DeviceGate::leave(std::chrono::steady_clock::time_point since) {
  {
    std::lock_guard lock(m_);
    held_ = false;
    ++serving_;
    stats_.held_ms += ms_since(since);
  }
  cv_.notify_all();
}

void DeviceGate::Turn::release() {
  if (gate_ != nullptr) gate_->leave(since_);
  gate_ = nullptr;
}

DeviceGate::Stats DeviceGate::stats() const {
  std::lock_guard lock(m_);
  Stats s = stats_;
  s.held = held_;
  return s;
}

}  // namespace zk::gpu
