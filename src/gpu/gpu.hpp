#pragma once

// The GPU layer's host face (plain C++; callers never #ifdef): whether this build has CUDA, which
// devices the machine has, and one check every GPU entry point starts with. Built without CUDA
// (ZK_ENABLE_CUDA=OFF, or no nvcc), the same functions exist and say so.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "base/status.hpp"

namespace zk::gpu {

/// True when this build compiled the CUDA kernels.
bool built_with_cuda();

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  std::size_t total_bytes = 0, free_bytes = 0;
  int sm_major = 0, sm_minor = 0, multiprocessors = 0;
};

/// The CUDA devices (empty without CUDA, a driver or a device).
std::vector<DeviceInfo> devices();

/// OK when a kernel can run now; UNAVAILABLE "built without CUDA" or "no CUDA device (...)".
Status require_device();

/// Makes `ordinal` the calling thread's current device (cudaSetDevice): kernels, allocations and
/// copies the thread issues go there. UNAVAILABLE without CUDA or with a bad ordinal.
Status select_device(int ordinal);

/// Copies `bytes` from host memory to device memory, ordered on `stream` (a cudaStream_t; null:
/// the default stream), returning once the host range may be reused. Pageable ranges of 64 MiB or
/// more go through two page-locked staging buffers that several threads fill while the device
/// copies the other one: the driver's own copy from pageable memory stages on one thread (measured
/// on an H200 host: ~9 GB/s). Page-locked ranges (HostPin, cudaHostAlloc) and small ones are copied
/// directly; `allow_staging = false` forces that (benchmarks compare the two).
Status copy_to_device(void* device, const void* host, std::size_t bytes, void* stream = nullptr,
                      bool allow_staging = true);

/// Waits for all of the device's work (cudaDeviceSynchronize).
Status synchronize();

/// Device memory for the kernels' buffers, from the current device's memory pool (CUDA's
/// stream-ordered allocator, docs/gpu.md "Device memory"): what is freed stays in the pool, so the
/// next partition's buffers are cut from memory the device already holds instead of being mapped
/// and unmapped by the driver inside every device turn. Valid on every stream when it returns (as
/// cudaMalloc's). A request the pool and the driver cannot meet is retried once after the pool's
/// idle memory is given back. RESOURCE_EXHAUSTED when the device is full, UNAVAILABLE without one;
/// zero bytes give null. Devices without memory pools get cudaMalloc.
Result<void*> device_alloc(std::size_t bytes);
/// Gives memory from device_alloc back to its device's pool (or the driver) once the device's work
/// has finished: it waits for the device, as cudaFree does. Null is ignored.
void device_free(void* device_pointer);
/// Stream-ordered forms (`stream`: a cudaStream_t): the memory may be used by work ordered after
/// the allocation on `stream` (or once it is synchronised), and device_free_on gives it back when
/// `stream` reaches that point, without waiting for the device — for buffers that only `stream`'s
/// work uses, so one stream's frees do not wait for another stream's copies. Devices without
/// memory pools get cudaMalloc / cudaFree (which waits).
Result<void*> device_alloc_on(std::size_t bytes, void* stream);
void device_free_on(void* device_pointer, void* stream);
/// What a buffer can still get on the current device: its free memory plus what the pool holds
/// idle (the sizing of the MSM's passes). UNAVAILABLE without a device.
Result<std::size_t> device_available_bytes();
/// Bytes device `ordinal`'s pool holds (in use and idle: the kernels' working memory it keeps
/// between turns); 0 without a pool or a device.
std::size_t device_pool_bytes(int ordinal);

/// An existing host range page-locked for the device (cudaHostRegister) until destroyed, so
/// copies from it run at the bus's full speed and asynchronously, as from cudaHostAlloc memory
/// (the reference daemon keeps its SRS in pinned memory for this). The range must outlive the pin.
class HostPin {
 public:
  /// UNAVAILABLE without CUDA or a device; INTERNAL with the driver's reason otherwise.
  static Result<std::unique_ptr<HostPin>> pin(const void* data, std::size_t bytes);
  ~HostPin();
  HostPin(const HostPin&) = delete;
  HostPin& operator=(const HostPin&) = delete;
  std::size_t bytes() const { return bytes_; }

 private:
  HostPin(void* p, std::size_t bytes) : p_(p), bytes_(bytes) {}
  void* p_;
  std::size_t bytes_;
};

}  // namespace zk::gpu
