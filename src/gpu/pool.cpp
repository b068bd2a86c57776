#include "gpu/pool.hpp"

#include <algorithm>
#include <sstream>

#include "gpu/gpu.hpp"

namespace zk::gpu {

namespace {
/// The lease this thread holds (one at a time: a partition's device calls run in one turn).
struct HeldHere {
  const DevicePool* pool = nullptr;
  ResidentCache* resident = nullptr;
  Status status;
};
thread_local HeldHere held_here;
}  // namespace

Result<std::vector<int>> parse_device_list(const std::string& text, int count) {
  std::vector<int> out;
  if (text.empty() || text == "all") {
    for (int i = 0; i < count; ++i) out.push_back(i);
    return out;
  }
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    const bool digits = !item.empty() && item.size() <= 4 &&
                        std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) {
      return Status::invalid_argument("gpus: '" + item + "' is not a device ordinal (a list such as 0,1 or 'all')");
    }
    const int o = std::stoi(item);
    if (o >= count) {
      return Status::invalid_argument("gpus: device " + item + " does not exist (this machine has " +
                                      std::to_string(count) + " GPU" + (count == 1 ? "" : "s") + ")");
    }
    if (std::find(out.begin(), out.end(), o) != out.end()) {
      return Status::invalid_argument("gpus: device " + item + " is listed twice");
    }
    out.push_back(o);
  }
  if (out.empty()) return Status::invalid_argument("gpus: no device listed");
  return out;
}

DevicePool::DevicePool(Options o)
    : select_(o.select ? std::move(o.select) : select_device),
      pool_bytes_(o.pool_bytes ? std::move(o.pool_bytes) : device_pool_bytes) {
  if (o.ordinals.empty()) o.ordinals = {0};
  for (int ordinal : o.ordinals) {
    slots_.push_back(std::make_unique<Slot>(ordinal, o.resident_bytes,
                                            o.upload ? o.upload(ordinal) : ResidentCache::Upload(upload_copy)));
  }
}

Result<std::size_t> resident_capacity(const std::vector<DeviceInfo>& devices, const std::vector<int>& ordinals,
                                      std::optional<std::uint64_t> wanted) {
  const DeviceInfo* smallest = nullptr;
  for (const auto& d : devices) {
    if (std::find(ordinals.begin(), ordinals.end(), d.ordinal) == ordinals.end()) continue;
    if (smallest == nullptr || d.total_bytes < smallest->total_bytes) smallest = &d;
  }
  if (!wanted) return smallest != nullptr ? smallest->total_bytes / 2 : 0;
  if (smallest != nullptr && *wanted > smallest->total_bytes) {
    const auto gib = [](std::uint64_t b) {
      std::ostringstream o;
      o.precision(1);
      o << std::fixed << static_cast<double>(b) / (1ull << 30) << " GiB";
      return o.str();
    };
    return Status::invalid_argument(gib(*wanted) + " is more than device " +
                                    std::to_string(smallest->ordinal) + "'s memory (" + gib(smallest->total_bytes) +
                                    "), and the kernels need room besides the resident bases");
  }
  return static_cast<std::size_t>(*wanted);
}

Result<std::shared_ptr<DevicePool>> DevicePool::for_devices(const std::vector<int>& ordinals,
                                                            std::optional<std::uint64_t> resident_bytes) {
  auto capacity = resident_capacity(devices(), ordinals, resident_bytes);
  if (!capacity.ok()) return capacity.status();
  Options o;
  o.ordinals = ordinals;
  o.resident_bytes = *capacity;
  return std::make_shared<DevicePool>(std::move(o));
}

DevicePool::Lease DevicePool::acquire(WorkLabel label) {
  Slot* chosen = nullptr;
  {
    std::lock_guard lock(m_);
    for (const auto& s : slots_) {
      if (chosen == nullptr || s->claims < chosen->claims) chosen = s.get();
    }
    ++chosen->claims;
  }
  DeviceGate::Turn turn = chosen->gate.enter();
  Status selected = select_(chosen->ordinal);
  {
    std::lock_guard lock(m_);
    chosen->current = std::move(label);
  }
  held_here = {this, &chosen->resident, selected};
  return Lease(this, chosen, std::move(turn), std::move(selected));
}

void DevicePool::Lease::release() {
  if (pool_ == nullptr) return;
  {
    std::lock_guard lock(pool_->m_);
    slot_->current.reset();  // before the turn goes: the next holder's label follows
    --slot_->claims;
  }
  if (held_here.resident == &slot_->resident) held_here = {};
  turn_.release();
  pool_ = nullptr;
}

ResidentCache* DevicePool::resident_here() const { return held_here.pool == this ? held_here.resident : nullptr; }

Status DevicePool::device_here() const {
  if (held_here.pool != this) return Status::internal("a device call outside a device turn");
  return held_here.status;
}

std::vector<DevicePool::DeviceStatus> DevicePool::status() const {
  std::vector<DeviceStatus> out;
  {
    std::lock_guard lock(m_);
    for (const auto& s : slots_) out.push_back({s->ordinal, s->gate.stats(), s->resident.stats(), s->current});
  }
  for (auto& d : out) d.pool_bytes = pool_bytes_(d.ordinal);  // asks the driver: outside the lock
  return out;
}

}  // namespace zk::gpu
