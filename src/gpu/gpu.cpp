#include "gpu/gpu.hpp"

#if ZK_WITH_CUDA
#include <cuda_runtime_api.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#endif

namespace zk::gpu {

#if ZK_WITH_CUDA

bool built_with_cuda() { return true; }

std::vector<DeviceInfo> devices() {
  std::vector<DeviceInfo> out;
  int count = 0, current = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || cudaGetDevice(&current) != cudaSuccess) {
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
  cudaSetDevice(current);  // asking each device for its free memory made it current
  return out;
}

Status select_device(int ordinal) {
  if (Status s = require_device(); !s.ok()) return s;
  if (cudaError_t e = cudaSetDevice(ordinal); e != cudaSuccess) {
    cudaGetLastError();
    return Status::unavailable("CUDA device " + std::to_string(ordinal) + ": " + cudaGetErrorString(e));
  }
  return {};
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
  // Portable: page-locked for every device's context, as the pool's leases may use any of them.
  const cudaError_t e = cudaHostRegister(p, bytes, cudaHostRegisterPortable);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return Status::internal("cudaHostRegister of " + std::to_string(bytes) + " bytes: " + cudaGetErrorString(e));
  }
  return std::unique_ptr<HostPin>(new HostPin(p, bytes));
}

HostPin::~HostPin() {
  if (p_ != nullptr) cudaHostUnregister(p_);
}

namespace {

Status cuda_error(cudaError_t e, const char* what) {
  cudaGetLastError();
  return Status::internal(std::string(what) + ": " + cudaGetErrorString(e));
}

/// Two page-locked staging buffers and their "the device has read it" events, made on first use
/// and kept for the process (cudaHostAlloc of 64 MiB costs milliseconds); one copy at a time per
/// device (events belong to the device that made them, so each device has its own pair).
struct Staging {
  static constexpr int kMaxDevices = 64;
  static constexpr std::size_t kBytes = std::size_t{32} << 20;
  std::mutex m;
  void* buffer[2] = {nullptr, nullptr};
  cudaEvent_t read[2] = {nullptr, nullptr};
  Status ready() {
    for (int i = 0; i < 2; ++i) {
      if (buffer[i] == nullptr) {
        if (cudaError_t e = cudaHostAlloc(&buffer[i], kBytes, cudaHostAllocPortable); e != cudaSuccess) {
          buffer[i] = nullptr;
          return cuda_error(e, "cudaHostAlloc of a staging buffer");
        }
      }
      if (read[i] == nullptr) {
        if (cudaError_t e = cudaEventCreateWithFlags(&read[i], cudaEventDisableTiming); e != cudaSuccess) {
          read[i] = nullptr;
          return cuda_error(e, "cudaEventCreate");
        }
      }
    }
    return {};
  }
};

bool page_locked(const void* host) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, host) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

}  // namespace

Status synchronize() {
  if (Status s = require_device(); !s.ok()) return s;
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) return cuda_error(e, "cudaDeviceSynchronize");
  return {};
}

Status copy_to_device(void* device, const void* host, std::size_t bytes, void* stream, bool allow_staging) {
  if (Status s = require_device(); !s.ok()) return s;
  auto st = static_cast<cudaStream_t>(stream);
  if (bytes == 0) return {};
  if (!allow_staging || bytes < 2 * Staging::kBytes || page_locked(host)) {
    if (cudaError_t e = cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, st); e != cudaSuccess) {
      return cuda_error(e, "cudaMemcpyAsync to the device");
    }
    return {};
  }
  int ordinal = 0;
  if (cudaError_t e = cudaGetDevice(&ordinal); e != cudaSuccess) return cuda_error(e, "cudaGetDevice");
  if (ordinal < 0 || ordinal >= Staging::kMaxDevices) {
    return Status::unavailable("copy to device " + std::to_string(ordinal) + ": staging serves devices 0-" +
                               std::to_string(Staging::kMaxDevices - 1));
  }
  // Never destroyed before the process's CUDA contexts: leaked on purpose.
  static auto* const stagings = new Staging[Staging::kMaxDevices];
  Staging& staging = stagings[ordinal];
  std::lock_guard lock(staging.m);
  if (Status s = staging.ready(); !s.ok()) return s;
  const auto* src = static_cast<const unsigned char*>(host);
  auto* dst = static_cast<unsigned char*>(device);
  int i = 0;
  for (std::size_t off = 0; off < bytes; off += Staging::kBytes, i ^= 1) {
    const std::size_t len = std::min(Staging::kBytes, bytes - off);
    if (cudaError_t e = cudaEventSynchronize(staging.read[i]); e != cudaSuccess) {
      return cuda_error(e, "cudaEventSynchronize");
    }
    // Filled in 1 MiB pieces by the thread pool: one thread's memcpy is what limits the driver's copy.
    auto* buf = static_cast<unsigned char*>(staging.buffer[i]);
    constexpr std::size_t kPiece = std::size_t{1} << 20;
    tbb::parallel_for(std::size_t{0}, (len + kPiece - 1) / kPiece, [&](std::size_t k) {
      const std::size_t o = k * kPiece;
      std::memcpy(buf + o, src + off + o, std::min(kPiece, len - o));
    });
    if (cudaError_t e = cudaMemcpyAsync(dst + off, buf, len, cudaMemcpyHostToDevice, st); e != cudaSuccess) {
      return cuda_error(e, "cudaMemcpyAsync from a staging buffer");
    }
    if (cudaError_t e = cudaEventRecord(staging.read[i], st); e != cudaSuccess) return cuda_error(e, "cudaEventRecord");
  }
  // Both buffers free again before the lock goes (the next copy may use another stream).
  for (cudaEvent_t e : staging.read) {
    if (cudaError_t r = cudaEventSynchronize(e); r != cudaSuccess) return cuda_error(r, "cudaEventSynchronize");
  }
  return {};
}

#else

bool built_with_cuda() { return false; }
std::vector<DeviceInfo> devices() { return {}; }
Status require_device() { return Status::unavailable("zkpipe was built without CUDA (ZK_ENABLE_CUDA=OFF or no nvcc)"); }
Result<std::unique_ptr<HostPin>> HostPin::pin(const void*, std::size_t) { return require_device(); }
HostPin::~HostPin() = default;
Status copy_to_device(void*, const void*, std::size_t, void*, bool) { return require_device(); }
Status select_device(int) { return require_device(); }
Status synchronize() { return require_device(); }

#endif

}  // namespace zk::gpu
