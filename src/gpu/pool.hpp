#pragma once

// Every GPU of the host, for the prover workers: one gate (the dual-worker interlock, gate.hpp) and
// one cache of resident bases (resident.hpp) per device, and a lease that picks the device for a
// partition's device turn. Partitions spread across the devices: a lease goes to the device with
// the fewest workers on it or waiting for it (the first listed on ties), so a job's partitions
// run on several GPUs at once when several workers prove them. While a lease lives its device is
// the calling thread's current CUDA device, so the kernels, allocations and copies of the turn go
// there. The pool belongs to whoever owns the prover workers (the daemon's registry, a bench run).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "gpu/gate.hpp"
#include "gpu/gpu.hpp"
#include "gpu/resident.hpp"

namespace zk::gpu {

/// What a lease is proving, for status pages and cuzk's GetStatus (current_job_id, current_proof_kind).
struct WorkLabel {
  std::string job_id;
  std::string kind;
  std::uint32_t partition = 0;
};

/// Bytes of key bases each device of `ordinals` keeps resident: `wanted` (engine.gpu_resident), or
/// without it half the smallest listed device's memory (PoRep-32G's G1 queries, 38 GiB, fit the
/// half of an 80 GB H100 or an H200; the rest is for the MSM's and NTT's buffers, which size their
/// passes from what is free). INVALID_ARGUMENT, naming the device, when `wanted` is more than a
/// listed device's memory (the message names no setting: callers say which).
Result<std::size_t> resident_capacity(const std::vector<DeviceInfo>& devices, const std::vector<int>& ordinals,
                                      std::optional<std::uint64_t> wanted);

/// The ordinals an `engine.gpus` setting names: "all" (or empty) is every device of `count`, else
/// a comma-separated list of distinct ordinals below `count`. INVALID_ARGUMENT names the problem.
Result<std::vector<int>> parse_device_list(const std::string& text, int count);

class DevicePool {
 public:
  struct Options {
    std::vector<int> ordinals = {0};
    /// Bytes of key bases each device keeps resident (0: none kept).
    std::size_t resident_bytes = 0;
    /// Per ordinal: how resident copies are made (default: gpu::device_alloc + copy on the current device).
    std::function<ResidentCache::Upload(int ordinal)> upload = {};
    /// How a lease makes its device current (default: select_device). Tests emulate devices here.
    std::function<Status(int ordinal)> select = {};
    /// The bytes a device's memory pool holds (default: device_pool_bytes), for status().
    std::function<std::size_t(int ordinal)> pool_bytes = {};
  };
  explicit DevicePool(Options o);
  /// The devices of `ordinals` on this machine, each keeping `resident_bytes` of key bases (without
  /// it: resident_capacity's default); resident_capacity's error otherwise.
  static Result<std::shared_ptr<DevicePool>> for_devices(const std::vector<int>& ordinals,
                                                         std::optional<std::uint64_t> resident_bytes = std::nullopt);
  DevicePool(const DevicePool&) = delete;
  DevicePool& operator=(const DevicePool&) = delete;

  class Lease;
  /// Blocks until a device's turn is this caller's: the device with the fewest leases held or
  /// waiting when asked. Its device is then current on this thread (`status()` says if that failed:
  /// the turn is held all the same and released with the lease).
  [[nodiscard]] Lease acquire(WorkLabel label = {});

  std::size_t size() const { return slots_.size(); }

  /// The device turn the calling thread holds in this pool: its resident bases (null when the
  /// thread holds none), and whether its device was made current (INTERNAL when the
  /// thread holds no lease: device calls belong inside one).
  ResidentCache* resident_here() const;
  Status device_here() const;

  struct DeviceStatus {
    int ordinal = 0;
    DeviceGate::Stats gate;
    ResidentCache::Stats resident;
    std::optional<WorkLabel> current;  // the partition in its turn now
    std::size_t pool_bytes = 0;        // device memory its pool keeps for the kernels (gpu::device_alloc)
  };
  std::vector<DeviceStatus> status() const;

 private:
  struct Slot {
    Slot(int o, std::size_t resident_bytes, ResidentCache::Upload upload)
        : ordinal(o), gate(o), resident(resident_bytes, std::move(upload)) {}
    const int ordinal;
    DeviceGate gate;
    ResidentCache resident;
    unsigned claims = 0;                 // leases held or waiting (the pool's mutex)
    std::optional<WorkLabel> current;    // the pool's mutex
  };

  std::function<Status(int)> select_;
  std::function<std::size_t(int)> pool_bytes_;
  std::vector<std::unique_ptr<Slot>> slots_;
  mutable std::mutex m_;

 public:
  /// One device's turn (moves; released when destroyed).
  class Lease {
   public:
    Lease(Lease&& o) noexcept
        : pool_(o.pool_), slot_(o.slot_), turn_(std::move(o.turn_)), status_(std::move(o.status_)) {
      o.pool_ = nullptr;
    }
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    ~Lease() { release(); }
    void release();
    int ordinal() const { return slot_->ordinal; }
    ResidentCache& resident() const { return slot_->resident; }
    /// Whether the device was made current (the turn's device calls fail with this if not).
    const Status& status() const { return status_; }

   private:
    friend class DevicePool;
    Lease(DevicePool* p, Slot* s, DeviceGate::Turn t, Status st)
        : pool_(p), slot_(s), turn_(std::move(t)), status_(std::move(st)) {}
    DevicePool* pool_;
    Slot* slot_;
    DeviceGate::Turn turn_;
    Status status_;
  };
};

}  // namespace zk::gpu
