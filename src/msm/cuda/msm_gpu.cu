// The GPU MSM (msm/gpu_msm.hpp): scalars to canonical form, (window, digit) bucket keys for every
// point, a CUB radix sort of the keys with the point indices, bucket bounds, each bucket's run cut
// into sub-runs of at most 512 points (a CUB scan places them), one thread per sub-run, one thread
// per bucket adding its sub-runs, one thread per window chunk reducing sum_b b B_b; the partial
// sums go back to the host.

#include <algorithm>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "curve/cuda/dev_point.hpp"
#include "field/params/bls12_381.hpp"
#include "field/params/bn254.hpp"
#include "gpu/gpu.hpp"
#include "gpu/runtime.cuh"
#include "msm/cuda/msm_body.hpp"
#include "msm/cuda/msm_raw.hpp"

namespace zk::msm::gpu::raw {
namespace {

using zk::gpu::DevAffine;
using zk::gpu::DevField;
using zk::gpu::DevXyzz;
namespace body = zk::gpu::msm_body;

constexpr unsigned kThreads = 256;
unsigned blocks(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

template <class FrP>
__global__ void canonical_kernel(DevField<FrP>* k, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) k[i] = k[i].to_canonical();
}

template <class FqP, class FrP>
__global__ void keys_kernel(const DevAffine<FqP>* bases, const DevField<FrP>* k, std::size_t n, unsigned windows,
                            unsigned c, std::uint32_t* keys, std::uint32_t* points) {
  const std::size_t idx = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (idx >= n * windows) return;
  const std::size_t i = idx % n;
  const unsigned w = static_cast<unsigned>(idx / n);
  keys[idx] = body::bucket_key<FrP::kLimbs>(k[i].v, bases[i].infinity, w, c);
  points[idx] = static_cast<std::uint32_t>(i);
}

__global__ void bounds_kernel(const std::uint32_t* keys, std::size_t m, std::uint32_t* start, std::uint32_t* end) {
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (p >= m) return;
  const std::uint32_t k = keys[p];
  if (k == body::kNone) return;
  if (p == 0 || keys[p - 1] != k) start[k] = static_cast<std::uint32_t>(p);
  if (p + 1 == m || keys[p + 1] != k) end[k] = static_cast<std::uint32_t>(p + 1);
}

__global__ void count_kernel(const std::uint32_t* start, const std::uint32_t* end, std::size_t buckets,
                             std::uint32_t mask, std::uint32_t* counts) {
  const std::size_t b = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (b < buckets) counts[b] = (b & mask) == 0 ? 0 : body::subrun_count(start[b], end[b]);
}

template <class FqP>
__global__ void subrun_kernel(const DevAffine<FqP>* bases, const std::uint32_t* points, const std::uint32_t* start,
                              const std::uint32_t* end, const std::uint32_t* offsets, std::size_t buckets,
                              std::uint32_t total, DevXyzz<FqP>* subsums) {
  const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (j < total) subsums[j] = body::subrun_sum(bases, points, start, end, offsets, buckets, static_cast<std::uint32_t>(j));
}

template <class FqP>
__global__ void bucket_kernel(const DevXyzz<FqP>* subsums, const std::uint32_t* offsets, const std::uint32_t* counts,
                              std::size_t buckets, DevXyzz<FqP>* out) {
  const std::size_t b = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (b < buckets) out[b] = body::bucket_from_subruns(subsums, offsets[b], counts[b]);
}

template <class FqP>
__global__ void window_kernel(const DevXyzz<FqP>* buckets, unsigned windows, unsigned c, unsigned chunks,
                              DevXyzz<FqP>* partials) {
  const std::size_t t = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (t >= static_cast<std::size_t>(windows) * chunks) return;
  const unsigned w = static_cast<unsigned>(t / chunks), k = static_cast<unsigned>(t % chunks);
  const std::uint32_t count = (1u << c) - 1;  // digits 1 .. 2^c - 1
  const std::uint32_t lo = 1 + static_cast<std::uint32_t>(static_cast<std::uint64_t>(count) * k / chunks);
  const std::uint32_t hi = 1 + static_cast<std::uint32_t>(static_cast<std::uint64_t>(count) * (k + 1) / chunks);
  partials[t] = body::window_chunk(buckets + (static_cast<std::size_t>(w) << c), lo, hi);
}

}  // namespace

template <class FqP, class FrP>
Status msm_g1(const void* bases_host, const std::uint64_t* scalars_host, std::size_t n, const Plan& plan,
              void* partials_host) {
  if (Status s = zk::gpu::require_device(); !s.ok()) return s;
  const unsigned c = plan.window_bits, W = plan.windows;
  const std::size_t m = n * W, buckets = static_cast<std::size_t>(W) << c;
  if (m > 0x7fffffffu) return Status::invalid_argument("gpu msm: too many (point, window) pairs for one sort");
  zk::gpu::Stream stream;
  if (Status s = stream.create(); !s.ok()) return s;
  zk::gpu::DeviceBuffer<DevAffine<FqP>> bases;
  zk::gpu::DeviceBuffer<DevField<FrP>> scalars;
  zk::gpu::DeviceBuffer<std::uint32_t> keys, keys_sorted, points, points_sorted, start, end;
  zk::gpu::DeviceBuffer<DevXyzz<FqP>> sums, partials;
  for (Status s : {bases.allocate(n), scalars.allocate(n), keys.allocate(m), keys_sorted.allocate(m),
                   points.allocate(m), points_sorted.allocate(m), start.allocate(buckets), end.allocate(buckets),
                   sums.allocate(buckets), partials.allocate(static_cast<std::size_t>(W) * plan.chunks)}) {
    if (!s.ok()) return s;
  }
  auto st = stream.get();
  ZK_CUDA_TRY(cudaMemcpyAsync(bases.get(), bases_host, n * sizeof(DevAffine<FqP>), cudaMemcpyHostToDevice, st));
  ZK_CUDA_TRY(cudaMemcpyAsync(scalars.get(), scalars_host, n * sizeof(DevField<FrP>), cudaMemcpyHostToDevice, st));
  ZK_CUDA_TRY(cudaMemsetAsync(start.get(), 0, buckets * sizeof(std::uint32_t), st));
  ZK_CUDA_TRY(cudaMemsetAsync(end.get(), 0, buckets * sizeof(std::uint32_t), st));
  canonical_kernel<FrP><<<blocks(n), kThreads, 0, st>>>(scalars.get(), n);
  keys_kernel<FqP, FrP><<<blocks(m), kThreads, 0, st>>>(bases.get(), scalars.get(), n, W, c, keys.get(), points.get());
  std::size_t temp_bytes = 0;
  ZK_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys.get(), keys_sorted.get(), points.get(),
                                               points_sorted.get(), static_cast<int>(m), 0, 32, st));
  zk::gpu::DeviceBuffer<unsigned char> temp;
  if (Status s = temp.allocate(temp_bytes); !s.ok()) return s;
  ZK_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, keys.get(), keys_sorted.get(), points.get(),
                                               points_sorted.get(), static_cast<int>(m), 0, 32, st));
  bounds_kernel<<<blocks(m), kThreads, 0, st>>>(keys_sorted.get(), m, start.get(), end.get());
  // Sub-runs: counts per bucket, their exclusive prefix sum, the total back on the host.
  zk::gpu::DeviceBuffer<std::uint32_t> counts, offsets;
  if (Status s = counts.allocate(buckets); !s.ok()) return s;
  if (Status s = offsets.allocate(buckets); !s.ok()) return s;
  count_kernel<<<blocks(buckets), kThreads, 0, st>>>(start.get(), end.get(), buckets, (1u << c) - 1, counts.get());
  std::size_t scan_bytes = 0;
  ZK_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, counts.get(), offsets.get(), static_cast<int>(buckets), st));
  zk::gpu::DeviceBuffer<unsigned char> scan_temp;
  if (Status s = scan_temp.allocate(scan_bytes); !s.ok()) return s;
  ZK_CUDA_TRY(cub::DeviceScan::ExclusiveSum(scan_temp.get(), scan_bytes, counts.get(), offsets.get(),
                                            static_cast<int>(buckets), st));
  std::uint32_t last[2] = {0, 0};
  ZK_CUDA_TRY(cudaMemcpyAsync(&last[0], offsets.get() + buckets - 1, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, st));
  ZK_CUDA_TRY(cudaMemcpyAsync(&last[1], counts.get() + buckets - 1, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, st));
  if (Status s = stream.sync(); !s.ok()) return s;
  const std::uint32_t total = last[0] + last[1];
  zk::gpu::DeviceBuffer<DevXyzz<FqP>> subsums;
  if (Status s = subsums.allocate(std::max<std::uint32_t>(total, 1)); !s.ok()) return s;
  if (total > 0) {
    subrun_kernel<FqP><<<blocks(total), kThreads, 0, st>>>(bases.get(), points_sorted.get(), start.get(), end.get(),
                                                          offsets.get(), buckets, total, subsums.get());
  }
  bucket_kernel<FqP><<<blocks(buckets), kThreads, 0, st>>>(subsums.get(), offsets.get(), counts.get(), buckets,
                                                          sums.get());
  window_kernel<FqP><<<blocks(static_cast<std::size_t>(W) * plan.chunks), kThreads, 0, st>>>(sums.get(), W, c,
                                                                                              plan.chunks, partials.get());
  ZK_CUDA_TRY(cudaGetLastError());
  ZK_CUDA_TRY(cudaMemcpyAsync(partials_host, partials.get(),
                              static_cast<std::size_t>(W) * plan.chunks * sizeof(DevXyzz<FqP>), cudaMemcpyDeviceToHost,
                              st));
  return stream.sync();
}

template Status msm_g1<field::params::Bls12_381Fq, field::params::Bls12_381Fr>(const void*, const std::uint64_t*,
                                                                               std::size_t, const Plan&, void*);
template Status msm_g1<field::params::Bn254Fq, field::params::Bn254Fr>(const void*, const std::uint64_t*, std::size_t,
                                                                       const Plan&, void*);

}  // namespace zk::msm::gpu::raw
