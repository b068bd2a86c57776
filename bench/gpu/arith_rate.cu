#include "arith_rate.hpp"

#include <cuda_runtime.h>

#include <vector>

#include "field/cuda/dev_field.hpp"
#include "field/params/bls12_381.hpp"
#include "gpu/runtime.cuh"

namespace zk::bench_gpu {
namespace {

constexpr int kChains = 8;  // independent accumulators per thread: enough to hide IMAD's latency

__global__ void imad_kernel(std::uint32_t* out, std::uint32_t iterations) {
  std::uint32_t x[kChains];
  const std::uint32_t m = blockIdx.x | 1, c = threadIdx.x;
#pragma unroll
  for (int k = 0; k < kChains; ++k) x[k] = threadIdx.x + k;
  for (std::uint32_t i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < kChains; ++k) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x[k]) : "r"(m), "r"(c));
  }
  std::uint32_t s = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s ^= x[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <class P>
__global__ void product_kernel(gpu::DevField<P>* io, std::uint32_t iterations) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  // Two chains per thread (the product's own carry chains are serial).
  gpu::DevField<P> x = io[2 * i], y = io[2 * i + 1];
  const gpu::DevField<P> m = x + y;
  for (std::uint32_t k = 0; k < iterations; ++k) {
    x = x * m;
    y = y * m;
  }
  io[2 * i] = x;
  io[2 * i + 1] = y;
}

struct Device {
  int multiprocessors = 0;
  double clock_hz = 0;
};
Result<Device> device() {
  int d = 0, sms = 0, khz = 0;
  ZK_CUDA_TRY(cudaGetDevice(&d));
  ZK_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
  ZK_CUDA_TRY(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, d));
  return Device{sms, khz * 1e3};
}

/// Milliseconds of `launch()` between two events (after one untimed launch).
template <class Launch>
Result<double> time_kernel(Launch&& launch) {
  gpu::Event start, stop;
  if (Status s = start.create(); !s.ok()) return s;
  if (Status s = stop.create(); !s.ok()) return s;
  launch();
  ZK_CUDA_TRY(cudaGetLastError());
  ZK_CUDA_TRY(cudaDeviceSynchronize());
  ZK_CUDA_TRY(cudaEventRecord(start.get()));
  launch();
  ZK_CUDA_TRY(cudaEventRecord(stop.get()));
  ZK_CUDA_TRY(cudaEventSynchronize(stop.get()));
  ZK_CUDA_TRY(cudaGetLastError());
  float ms = 0;
  ZK_CUDA_TRY(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return static_cast<double>(ms);
}

Rate rate(double ops, double ms, const Device& d) {
  const double per_s = ops / (ms / 1e3);
  return {per_s, per_s / d.multiprocessors / d.clock_hz, ms};
}

}  // namespace

Result<Rate> imad_rate() {
  auto d = device();
  if (!d.ok()) return d.status();
  const unsigned blocks = 8 * static_cast<unsigned>(d->multiprocessors), threads = 512;
  constexpr std::uint32_t kIterations = 1 << 16;
  gpu::DeviceBuffer<std::uint32_t> out;
  if (Status s = out.allocate(std::size_t{blocks} * threads); !s.ok()) return s;
  auto ms = time_kernel([&] { imad_kernel<<<blocks, threads>>>(out.get(), kIterations); });
  if (!ms.ok()) return ms.status();
  return rate(static_cast<double>(blocks) * threads * kIterations * kChains, *ms, *d);
}

Result<Rate> field_product_rate(bool fq) {
  auto d = device();
  if (!d.ok()) return d.status();
  const unsigned blocks = 8 * static_cast<unsigned>(d->multiprocessors), threads = 128;
  constexpr std::uint32_t kIterations = 1 << 11;
  auto run = [&]<class P>() -> Result<Rate> {
    // Operands: the Montgomery form of 1 and 2 (any values below p do).
    std::vector<gpu::DevField<P>> host(2 * std::size_t{blocks} * threads, gpu::DevField<P>::one());
    for (std::size_t i = 1; i < host.size(); i += 2) host[i] = host[i] + host[i];
    gpu::DeviceBuffer<gpu::DevField<P>> io;
    if (Status s = io.allocate(host.size()); !s.ok()) return s;
    ZK_CUDA_TRY(cudaMemcpy(io.get(), host.data(), host.size() * sizeof(host[0]), cudaMemcpyHostToDevice));
    auto ms = time_kernel([&] { product_kernel<P><<<blocks, threads>>>(io.get(), kIterations); });
    if (!ms.ok()) return ms.status();
    return rate(2.0 * blocks * threads * kIterations, *ms, *d);
  };
  return fq ? run.template operator()<field::params::Bls12_381Fq>()
            : run.template operator()<field::params::Bls12_381Fr>();
}

}  // namespace zk::bench_gpu
