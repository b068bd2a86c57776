#include "gpu/gpu.hpp"

#if ZK_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace zk::gpu {

#if ZK_WITH_CUDA

bool built_with_cuda() { return true; }

std::vector<DeviceInfo> devices() {
  std::vector<DeviceInfo> out;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device / no driver" error
    return out;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    DeviceInfo d;
    d.ordinal = i;
    d.name = p.name;
    d.total_bytes = p.totalGlobalMem;
    d.sm_major = p.major, d.sm_minor = p.minor, d.multiprocessors = p.multiProcessorCount;
    std::size_t free_b = 0, total_b = 0;
    if (cudaSetDevice(i) == cudaSuccess && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) d.free_bytes = free_b;
    out.push_back(d);
  }
  return out;
}

Status require_device() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return Status::unavailable(std::string("no CUDA device (") + cudaGetErrorString(e) + ")");
  }
  if (count == 0) return Status::unavailable("no CUDA device on this machine");
  return {};
}

Result<std::unique_ptr<HostPin>> HostPin::pin(const void* data, std::size_t bytes) {
  if (Status s = require_device(); !s.ok()) return s;
  if (data == nullptr || bytes == 0) return std::unique_ptr<HostPin>(new HostPin(nullptr, 0));
  void* p = const_cast<void*>(data);  // registration does not write to the range
  const cudaError_t e = cudaHostRegister(p, bytes, cudaHostRegisterDefault);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return Status::internal("cudaHostRegister of " + std::to_string(bytes) + " bytes: " + cudaGetErrorString(e));
  }
  return std::unique_ptr<HostPin>(new HostPin(p, bytes));
}

HostPin::~HostPin() {
  if (p_ != nullptr) cudaHostUnregister(p_);
}

#else

bool built_with_cuda() { return false; }
std::vector<DeviceInfo> devices() { return {}; }
Status require_device() { return Status::unavailable("zkpipe was built without CUDA (ZK_ENABLE_CUDA=OFF or no nvcc)"); }
Result<std::unique_ptr<HostPin>> HostPin::pin(const void*, std::size_t) { return require_device(); }
HostPin::~HostPin() = default;

#endif

}  // namespace zk::gpu
