#include "gpu/gpu.hpp"

#if ZK_WITH_CUDA
#include <cuda_runtime_api.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
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

namespace {

/// A device's memory pool, configured on first use: its release threshold at the maximum, so memory
/// freed into it stays there for the next buffers (the default threshold, 0, hands it back to the
/// driver at every synchronisation).
struct Pool {
  static constexpr int kMaxDevices = 64;
  std::once_flag once;
  cudaMemPool_t pool = nullptr;  // null: the device has no memory pools (cudaMalloc then)
};

Pool* pool_of(int ordinal) {
  static auto* const pools = new Pool[Pool::kMaxDevices];  // leaked on purpose, as the staging buffers
  if (ordinal < 0 || ordinal >= Pool::kMaxDevices) return nullptr;
  Pool& p = pools[ordinal];
  std::call_once(p.once, [&] {
    int supported = 0;
    cudaMemPool_t pool = nullptr;
    std::uint64_t keep = UINT64_MAX;
    if (cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, ordinal) == cudaSuccess && supported != 0 &&
        cudaDeviceGetDefaultMemPool(&pool, ordinal) == cudaSuccess &&
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) == cudaSuccess) {
      p.pool = pool;
    }
    cudaGetLastError();
  });
  return &p;
}

Result<Pool*> current_pool() {
  int ordinal = 0;
  if (cudaError_t e = cudaGetDevice(&ordinal); e != cudaSuccess) return cuda_error(e, "cudaGetDevice");
  Pool* p = pool_of(ordinal);
  if (p == nullptr) {
    return Status::unavailable("device " + std::to_string(ordinal) + ": memory pools serve devices 0-" +
                               std::to_string(Pool::kMaxDevices - 1));
  }
  return p;
}

std::uint64_t pool_attribute(cudaMemPool_t pool, cudaMemPoolAttr a) {
  std::uint64_t v = 0;
  if (pool == nullptr || cudaMemPoolGetAttribute(pool, a, &v) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return v;
}

}  // namespace

namespace {

/// device_alloc's and device_alloc_on's allocation: ordered on `st`, synchronised when `complete`.
Result<void*> pool_alloc(std::size_t bytes, cudaStream_t st, bool complete) {
  if (Status s = require_device(); !s.ok()) return s;
  if (bytes == 0) return static_cast<void*>(nullptr);
  auto pool = current_pool();
  if (!pool.ok()) return pool.status();
  const auto exhausted = [&](cudaError_t e) {
    cudaGetLastError();
    return Status::resource_exhausted("device memory for " + std::to_string(bytes) +
                                      " bytes: " + cudaGetErrorString(e));
  };
  if ((*pool)->pool == nullptr) {
    void* p = nullptr;
    if (cudaError_t e = cudaMalloc(&p, bytes); e != cudaSuccess) return exhausted(e);
    return p;
  }
  for (int attempt = 0;; ++attempt) {
    void* p = nullptr;
    cudaError_t e = cudaMallocAsync(&p, bytes, st);
    if (e == cudaSuccess) {
      if (complete) {
        if (cudaError_t w = cudaStreamSynchronize(st); w != cudaSuccess) {
          return cuda_error(w, "cudaStreamSynchronize after cudaMallocAsync");
        }
      }
      return p;
    }
    if (e != cudaErrorMemoryAllocation || attempt == 1) return exhausted(e);
    // The driver could not grow the pool: give back what the pool holds idle, then once more.
    cudaGetLastError();
    cudaDeviceSynchronize();
    cudaMemPoolTrimTo((*pool)->pool, 0);
    cudaGetLastError();
  }
}

}  // namespace

Result<void*> device_alloc(std::size_t bytes) {
  // Complete before it returns, so any stream may use it (callers treat it as cudaMalloc's).
  return pool_alloc(bytes, cudaStreamPerThread, true);
}

Result<void*> device_alloc_on(std::size_t bytes, void* stream) {
  return pool_alloc(bytes, static_cast<cudaStream_t>(stream), false);
}

void device_free(void* device_pointer) {
  if (device_pointer == nullptr) return;
  cudaPointerAttributes a{};
  int current = 0;
  if (cudaPointerGetAttributes(&a, device_pointer) != cudaSuccess || cudaGetDevice(&current) != cudaSuccess) {
    cudaGetLastError();
    cudaFree(device_pointer);  // not ours to reason about: the driver frees or refuses it
    cudaGetLastError();
    return;
  }
  // The owner may free it on another thread, whose current device is another one.
  const bool other = a.device != current && cudaSetDevice(a.device) == cudaSuccess;
  Pool* pool = pool_of(a.device);
  if (pool != nullptr && pool->pool != nullptr) {
    // cudaFree waits for the device; so does this, then the memory goes back to the pool.
    cudaDeviceSynchronize();
    cudaFreeAsync(device_pointer, cudaStreamPerThread);
  } else {
    cudaFree(device_pointer);
  }
  cudaGetLastError();
  if (other) cudaSetDevice(current);
}

void device_free_on(void* device_pointer, void* stream) {
  if (device_pointer == nullptr) return;
  int ordinal = 0;
  const bool known = cudaGetDevice(&ordinal) == cudaSuccess;
  cudaGetLastError();
  Pool* pool = known ? pool_of(ordinal) : nullptr;
  if (pool != nullptr && pool->pool != nullptr) {
    cudaFreeAsync(device_pointer, static_cast<cudaStream_t>(stream));
  } else {
    cudaFree(device_pointer);
  }
  cudaGetLastError();
}

Result<std::size_t> device_available_bytes() {
  if (Status s = require_device(); !s.ok()) return s;
  std::size_t free_b = 0, total_b = 0;
  if (cudaError_t e = cudaMemGetInfo(&free_b, &total_b); e != cudaSuccess) return cuda_error(e, "cudaMemGetInfo");
  auto pool = current_pool();
  if (!pool.ok() || (*pool)->pool == nullptr) return free_b;
  const std::uint64_t reserved = pool_attribute((*pool)->pool, cudaMemPoolAttrReservedMemCurrent);
  const std::uint64_t used = pool_attribute((*pool)->pool, cudaMemPoolAttrUsedMemCurrent);
  return free_b + static_cast<std::size_t>(reserved > used ? reserved - used : 0);
}

std::size_t device_pool_bytes(int ordinal) {
  if (!require_device().ok()) return 0;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || ordinal < 0 || ordinal >= count) {
    cudaGetLastError();
    return 0;
  }
  Pool* pool = pool_of(ordinal);
  if (pool == nullptr || pool->pool == nullptr) return 0;
  return static_cast<std::size_t>(pool_attribute(pool->pool, cudaMemPoolAttrReservedMemCurrent));
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
Result<void*> device_alloc(std::size_t) { return require_device(); }
void device_free(void*) {}
Result<void*> device_alloc_on(std::size_t, void*) { return require_device(); }
void device_free_on(void*, void*) {}
Result<std::size_t> device_available_bytes() { return require_device(); }
std::size_t device_pool_bytes(int) { return 0; }

#endif

}  // namespace zk::gpu
