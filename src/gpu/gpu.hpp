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
