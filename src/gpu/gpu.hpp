#pragma once

// The GPU layer's host face (plain C++; callers never #ifdef): whether this build has CUDA, which
// devices the machine has, and one check every GPU entry point starts with. Built without CUDA
// (ZK_ENABLE_CUDA=OFF, or no nvcc), the same functions exist and say so.

#include <cstddef>
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

}  // namespace zk::gpu
