#include "gpu/resident.hpp"

#include "gpu/gpu.hpp"

#if ZK_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace zk::gpu {

Result<DeviceCopy> upload_copy(const void* host, std::size_t bytes) {
  if (Status s = require_device(); !s.ok()) return s;
#if ZK_WITH_CUDA
  auto p = device_alloc(bytes);
  if (!p.ok()) return Status(p.status().code(), "resident bytes: " + p.status().message());
  DeviceCopy copy(*p, [](const void* q) { device_free(const_cast<void*>(q)); });
  if (Status s = copy_to_device(*p, host, bytes); !s.ok()) return s;
  if (cudaError_t e = cudaStreamSynchronize(nullptr); e != cudaSuccess) {
    cudaGetLastError();
    return Status::internal(std::string("copy of resident bases: ") + cudaGetErrorString(e));
  }
  return copy;
#else
  (void)host;
  (void)bytes;
  return Status::unavailable("built without CUDA");
#endif
}

DeviceCopy adopt_device_memory(void* device_pointer) {
#if ZK_WITH_CUDA
  return DeviceCopy(device_pointer, [](const void* q) { device_free(const_cast<void*>(q)); });
#else
  return DeviceCopy(device_pointer, [](const void*) {});  // nothing can have allocated it
#endif
}

namespace {
bool same_owner(const std::weak_ptr<const void>& a, const std::weak_ptr<const void>& b) {
  return !a.owner_before(b) && !b.owner_before(a);
}
}  // namespace

void ResidentCache::drop_expired_locked() {
  for (auto it = lru_.begin(); it != lru_.end();) {
    if (it->owner.expired()) {
      stats_.bytes -= it->device_bytes;
      ++stats_.evictions;
      it = lru_.erase(it);
    } else {
      ++it;
    }
  }
}

Result<DeviceCopy> ResidentCache::get(const void* host, std::size_t bytes, const std::weak_ptr<const void>& owner,
                                      const Conversion* conversion) {
  std::lock_guard lock(m_);
  drop_expired_locked();
  if (owner.expired()) return Status::invalid_argument("resident bases: the owning key is gone");
  for (auto it = lru_.begin(); it != lru_.end(); ++it) {
    if (it->host == host && it->bytes == bytes && same_owner(it->owner, owner)) {
      lru_.splice(lru_.begin(), lru_, it);
      ++stats_.hits;
      return lru_.front().copy;
    }
  }
  ++stats_.misses;
  const std::size_t device_bytes = conversion != nullptr ? conversion->device_bytes : bytes;
  if (device_bytes > capacity_) {
    return Status::resource_exhausted("resident bases: " + std::to_string(device_bytes) +
                                      " bytes exceed the capacity of " + std::to_string(capacity_));
  }
  // Room from other keys' entries, least recently used first; never from this key's own: a key
  // larger than the capacity (PoRep-32G's 44 GiB of G1 and G2 queries beside an H100's default 39
  // GiB) would otherwise evict, at every lookup, the range its next MSM needs — every lookup a
  // miss. Its first ranges stay and the rest upload with each MSM.
  for (auto it = lru_.end(); it != lru_.begin() && stats_.bytes + device_bytes > capacity_;) {
    --it;
    if (same_owner(it->owner, owner)) continue;
    stats_.bytes -= it->device_bytes;
    ++stats_.evictions;
    it = lru_.erase(it);
  }
  if (stats_.bytes + device_bytes > capacity_) {
    return Status::resource_exhausted("resident bases: no room beside this key's other " +
                                      std::to_string(stats_.bytes) + " resident bytes (capacity " +
                                      std::to_string(capacity_) + ")");
  }
  auto copy = conversion != nullptr ? conversion->make(host, bytes) : upload_(host, bytes);
  if (!copy.ok()) return copy.status();
  lru_.push_front(Entry{host, bytes, device_bytes, owner, *copy});
  stats_.bytes += device_bytes;
  return *copy;
}

ResidentCache::Stats ResidentCache::stats() const {
  std::lock_guard lock(m_);
  Stats s = stats_;
  s.entries = lru_.size();
  s.capacity = capacity_;
  return s;
}

void ResidentCache::clear() {
  std::lock_guard lock(m_);
  stats_.evictions += lru_.size();
  stats_.bytes = 0;
  lru_.clear();
}

}  // namespace zk::gpu
