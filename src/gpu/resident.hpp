#pragma once

// Bases kept on the device across proofs. A proving key's G1 queries are the bulk of what
// prove_start uploads (38 GiB for PoRep-32G: most of a proof's bus time); a GPU with room for them
// keeps one copy per (host range, owning key) and MSMs read it instead of uploading. Entries are
// made and dropped least recently used first, within a byte capacity — but a key never drops its
// own entries for another of its ranges (a key larger than the capacity keeps the ranges that fit
// and uploads the others with each MSM, rather than missing at every lookup); an entry whose key has been
// freed (its owner expired) is never returned and is dropped on the next lookup, so a new key
// allocated at the same address cannot see a stale copy. Callers use it inside a device turn
// (gpu/gate.hpp); a copy handed out stays valid while its holder keeps it, even if evicted meanwhile.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>

#include "base/status.hpp"

namespace zk::gpu {

/// Device memory holding a copy of a host range (freed with the last reference).
using DeviceCopy = std::shared_ptr<const void>;

/// device_alloc + one synchronous copy; UNAVAILABLE without CUDA or a device, RESOURCE_EXHAUSTED when
/// the device is full.
Result<DeviceCopy> upload_copy(const void* host, std::size_t bytes);
/// Takes ownership of memory from gpu::device_alloc (freed with the last reference).
DeviceCopy adopt_device_memory(void* device_pointer);

class ResidentCache {
 public:
  using Upload = std::function<Result<DeviceCopy>(const void* host, std::size_t bytes)>;
  explicit ResidentCache(std::size_t capacity_bytes, Upload upload = upload_copy)
      : capacity_(capacity_bytes), upload_(std::move(upload)) {}

  /// How a range's device form is made when it is not a byte copy (a .zkey's packed bases,
  /// unpacked on the device): its size on the device and the function making it from the range.
  struct Conversion {
    std::size_t device_bytes = 0;
    Upload make;
  };
  /// The device copy of [host, host + bytes) belonging to `owner` (or its `conversion`), made now if
  /// needed (evicting other keys' least recently used entries to stay within the capacity, counted
  /// in device bytes). RESOURCE_EXHAUSTED when it is larger than the capacity or does not fit beside
  /// the owner's other entries; the upload's error otherwise (callers then upload as usual). A range is looked up by address, size and owner: one range is
  /// always asked for in one form.
  Result<DeviceCopy> get(const void* host, std::size_t bytes, const std::weak_ptr<const void>& owner,
                         const Conversion* conversion = nullptr);

  struct Stats {
    std::uint64_t hits = 0, misses = 0, evictions = 0;
    std::size_t bytes = 0, entries = 0, capacity = 0;  // bytes: of device memory held
  };
  Stats stats() const;
  /// Drops every entry (copies still held elsewhere live on until released).
  void clear();

 private:
  struct Entry {
    const void* host;
    std::size_t bytes;         // of the host range
    std::size_t device_bytes;  // of the copy
    std::weak_ptr<const void> owner;
    DeviceCopy copy;
  };
  void drop_expired_locked();

  const std::size_t capacity_;
  Upload upload_;
  mutable std::mutex m_;
  std::list<Entry> lru_;  // front: most recently used
  Stats stats_;
};

}  // namespace zk::gpu
