// The GPU MSM (msm/gpu_msm.hpp; the steps are msm_body.hpp's). Per pass over a slice of the
// points (its bases and scalars uploaded while the previous pass's kernels run, unless they are on
// the device already): scalars to canonical form, the (key, point) pairs of non-zero signed digits
// (count, CUB scan, fill; the units' go to the front unsorted), a CUB radix sort of the others over
// the key's bits, bucket bounds, sub-run sums, group sums level after level until one partial per
// bucket, one thread per window chunk adding into the partials that go back to the host. Passes
// are as large as free device memory allows (or Plan::points_per_pass).

#include <algorithm>
#include <future>
#include <utility>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "curve/cuda/dev_point.hpp"
#include "field/cuda/dev_fq2.hpp"
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
using zk::gpu::DeviceBuffer;
namespace body = zk::gpu::msm_body;

constexpr unsigned kThreads = 256;
unsigned blocks(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }
// The point kernels (sub-runs, groups, windows, folds) need 160-255 registers a thread on
// BLS12-381: a block of 256 threads then leaves room for one block (8 warps) per multiprocessor,
// blocks of 128 for three (12 warps) at the sub-run kernel's 164 registers. Measured on an H200
// (2^22 points): the sub-run kernel 100 -> 68 ms; capping it at 128 registers for 16 warps
// (__launch_bounds__(128, 4)) was slower again (the whole MSM 102 -> 118 ms).
constexpr unsigned kPointThreads = 128;
unsigned point_blocks(std::size_t n) { return static_cast<unsigned>((n + kPointThreads - 1) / kPointThreads); }

template <class FrP>
__global__ void canonical_kernel(DevField<FrP>* k, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) k[i] = k[i].to_canonical();
}

template <class FrP>
__global__ void expand_compact_kernel(const body::CompactGroup* groups, const DevField<FrP>* others, std::size_t rows,
                                      const std::uint64_t* words, const std::uint32_t* before, std::size_t count,
                                      DevField<FrP>* out) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < count) body::expand_compact_row(groups, others, rows, words, before, i, out);
}

template <class FqP>
__global__ void unpack_kernel(const std::uint64_t* packed, std::size_t n, DevAffine<FqP>* out) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = body::unpack_base<FqP>(packed + i * 2 * FqP::kLimbs);
}

template <class FqP, class FrP>
__global__ void pair_count_kernel(const DevAffine<FqP>* bases, const DevField<FrP>* k, std::size_t n, unsigned windows,
                                  unsigned c, std::uint32_t* counts, std::uint32_t* units) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) body::pair_and_unit_count<FrP::kLimbs>(k[i].v, bases[i].infinity, windows, c, counts + i, units + i);
}

/// Point i's pairs to sort from pair_at[i], or, for a unit, its place unit_at[i] at the front of
/// the sorted pairs.
template <class FqP, class FrP>
__global__ void pairs_kernel(const DevAffine<FqP>* bases, const DevField<FrP>* k, std::size_t n, unsigned windows,
                             unsigned c, const std::uint32_t* pair_at, const std::uint32_t* unit_at,
                             std::uint32_t* keys, std::uint32_t* points, std::uint32_t* sorted_keys,
                             std::uint32_t* sorted_points) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  if (body::is_unit<FrP::kLimbs>(k[i].v, bases[i].infinity)) {
    body::emit_unit(static_cast<std::uint32_t>(i), unit_at[i], sorted_keys, sorted_points);
  } else {
    body::emit_pairs<FrP::kLimbs>(k[i].v, bases[i].infinity, windows, c, static_cast<std::uint32_t>(i), pair_at[i], keys,
                                  points);
  }
}

__global__ void bounds_kernel(const std::uint32_t* keys, std::size_t m, std::uint32_t* start, std::uint32_t* end) {
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (p >= m) return;
  const std::uint32_t k = keys[p];
  if (p == 0 || keys[p - 1] != k) start[k] = static_cast<std::uint32_t>(p);
  if (p + 1 == m || keys[p + 1] != k) end[k] = static_cast<std::uint32_t>(p + 1);
}

__global__ void subrun_count_kernel(const std::uint32_t* start, const std::uint32_t* end, std::size_t buckets,
                                    std::uint32_t* counts) {
  const std::size_t b = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (b < buckets) counts[b] = body::subrun_count(start[b], end[b]);
}

template <class FqP>
__global__ void subrun_kernel(const DevAffine<FqP>* bases, const std::uint32_t* points, const std::uint32_t* start,
                              const std::uint32_t* end, const std::uint32_t* offsets, std::size_t buckets,
                              std::uint32_t total, DevXyzz<FqP>* partials) {
  const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (j < total) {
    partials[j] = body::subrun_sum(bases, points, start, end, offsets, buckets, static_cast<std::uint32_t>(j));
  }
}

__global__ void group_count_kernel(const std::uint32_t* counts, std::size_t buckets, std::uint32_t* next) {
  const std::size_t b = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (b < buckets) next[b] = body::group_count(counts[b]);
}

template <class FqP>
__global__ void group_kernel(const DevXyzz<FqP>* partials, const std::uint32_t* offsets, const std::uint32_t* counts,
                             const std::uint32_t* next_offsets, std::size_t buckets, std::uint32_t total,
                             DevXyzz<FqP>* next) {
  const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (j < total) next[j] = body::group_sum(partials, offsets, counts, next_offsets, buckets, static_cast<std::uint32_t>(j));
}

template <class FqP>
__global__ void bucket_kernel(const DevXyzz<FqP>* partials, const std::uint32_t* offsets, const std::uint32_t* counts,
                              std::size_t buckets, DevXyzz<FqP>* out) {
  const std::size_t b = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (b < buckets) out[b] = body::bucket_result(partials, offsets, counts, b);
}

/// Sub-chunk t of windows x chunks x kSplit: its buckets' share of sum_b b B_b.
template <class FqP>
__global__ void window_kernel(const DevXyzz<FqP>* buckets, unsigned windows, unsigned c, unsigned subchunks,
                              DevXyzz<FqP>* out) {
  const std::size_t t = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (t >= static_cast<std::size_t>(windows) * subchunks) return;
  const unsigned w = static_cast<unsigned>(t / subchunks), k = static_cast<unsigned>(t % subchunks);
  const body::ChunkRange r = body::chunk_range(c, k, subchunks);
  out[t] = body::window_chunk(buckets + static_cast<std::size_t>(w) * body::window_buckets(c), r.lo, r.hi);
}

/// partials[t] += the sum of sub-chunks [t kSplit, (t + 1) kSplit).
template <class FqP>
__global__ void fold_kernel(const DevXyzz<FqP>* sub, std::size_t count, DevXyzz<FqP>* partials) {
  const std::size_t t = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (t < count) partials[t] = partials[t] + body::fold_split(sub + t * body::kSplit);
}

/// Exclusive scan of `counts` into `offsets` (both `count` long); returns the total.
Result<std::uint64_t> scan(cudaStream_t st, const std::uint32_t* counts, std::uint32_t* offsets, std::size_t count) {
  std::size_t bytes = 0;
  ZK_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, bytes, counts, offsets, static_cast<int>(count), st));
  DeviceBuffer<unsigned char> temp;
  if (Status s = temp.allocate(bytes, st); !s.ok()) return s;
  ZK_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.get(), bytes, counts, offsets, static_cast<int>(count), st));
  std::uint32_t last[2] = {0, 0};
  ZK_CUDA_TRY(cudaMemcpyAsync(&last[0], offsets + count - 1, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, st));
  ZK_CUDA_TRY(cudaMemcpyAsync(&last[1], counts + count - 1, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, st));
  ZK_CUDA_TRY(cudaStreamSynchronize(st));
  return std::uint64_t{last[0]} + last[1];
}

/// One pass over n points whose bases and scalars are in device memory (the scalars are consumed:
/// made canonical in place), adding into `partials`. Its buffers are ordered on `st` (allocated and
/// given back there), so the next pass's upload on another stream goes on meanwhile.
template <class FqP, class FrP>
Status run_pass(cudaStream_t st, const DevAffine<FqP>* bases, DevField<FrP>* scalars, std::size_t n, const Plan& plan,
                DevXyzz<FqP>* partials, Stats& stats) {
  const unsigned c = plan.window_bits, W = plan.windows;
  const std::size_t buckets = static_cast<std::size_t>(W) * body::window_buckets(c);
  DeviceBuffer<std::uint32_t> pair_counts, pair_at, unit_flags, unit_at;
  for (Status s : {pair_counts.allocate(n, st), pair_at.allocate(n, st), unit_flags.allocate(n, st),
                   unit_at.allocate(n, st)}) {
    if (!s.ok()) return s;
  }
  canonical_kernel<FrP><<<blocks(n), kThreads, 0, st>>>(scalars, n);
  pair_count_kernel<FqP, FrP><<<blocks(n), kThreads, 0, st>>>(bases, scalars, n, W, c, pair_counts.get(),
                                                              unit_flags.get());
  auto sorted_pairs = scan(st, pair_counts.get(), pair_at.get(), n);
  if (!sorted_pairs.ok()) return sorted_pairs.status();
  auto units = scan(st, unit_flags.get(), unit_at.get(), n);
  if (!units.ok()) return units.status();
  const std::uint64_t m = *units + *sorted_pairs;
  stats.pairs += m;
  stats.units += *units;
  if (m == 0) return {};  // all zero scalars / identity bases: this pass adds nothing
  if (m > 0x7fffffffu) return Status::invalid_argument("gpu msm: too many (point, window) pairs for one sort");
  // The units' pairs go straight to the front of the sorted arrays; the others are sorted after them.
  DeviceBuffer<std::uint32_t> keys, keys_sorted, points, points_sorted;
  for (Status s : {keys.allocate(*sorted_pairs, st), keys_sorted.allocate(m, st), points.allocate(*sorted_pairs, st),
                   points_sorted.allocate(m, st)}) {
    if (!s.ok()) return s;
  }
  pairs_kernel<FqP, FrP><<<blocks(n), kThreads, 0, st>>>(bases, scalars, n, W, c, pair_at.get(), unit_at.get(),
                                                         keys.get(), points.get(), keys_sorted.get(),
                                                         points_sorted.get());
  pair_counts.reset();
  pair_at.reset();
  unit_flags.reset();
  unit_at.reset();
  if (*sorted_pairs != 0) {
    const int pairs = static_cast<int>(*sorted_pairs);
    const int end_bit = static_cast<int>(body::key_bits(W, c));
    std::size_t bytes = 0;
    ZK_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys.get(), keys_sorted.get() + *units, points.get(),
                                                 points_sorted.get() + *units, pairs, 0, end_bit, st));
    DeviceBuffer<unsigned char> temp;
    if (Status s = temp.allocate(bytes, st); !s.ok()) return s;
    ZK_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp.get(), bytes, keys.get(), keys_sorted.get() + *units,
                                                 points.get(), points_sorted.get() + *units, pairs, 0, end_bit, st));
  }
  keys.reset();
  points.reset();
  DeviceBuffer<std::uint32_t> start, end, counts, offsets, next_counts, next_offsets;
  for (Status s : {start.allocate(buckets, st), end.allocate(buckets, st), counts.allocate(buckets, st),
                   offsets.allocate(buckets, st), next_counts.allocate(buckets, st),
                   next_offsets.allocate(buckets, st)}) {
    if (!s.ok()) return s;
  }
  ZK_CUDA_TRY(cudaMemsetAsync(start.get(), 0, buckets * sizeof(std::uint32_t), st));
  ZK_CUDA_TRY(cudaMemsetAsync(end.get(), 0, buckets * sizeof(std::uint32_t), st));
  bounds_kernel<<<blocks(m), kThreads, 0, st>>>(keys_sorted.get(), m, start.get(), end.get());
  subrun_count_kernel<<<blocks(buckets), kThreads, 0, st>>>(start.get(), end.get(), buckets, counts.get());
  auto first_total = scan(st, counts.get(), offsets.get(), buckets);
  if (!first_total.ok()) return first_total.status();
  std::uint64_t total = *first_total;
  DeviceBuffer<DevXyzz<FqP>> level, next;
  if (Status s = level.allocate(std::max<std::uint64_t>(total, 1), st); !s.ok()) return s;
  subrun_kernel<FqP><<<point_blocks(total), kPointThreads, 0, st>>>(bases, points_sorted.get(), start.get(), end.get(),
                                                          offsets.get(), buckets, static_cast<std::uint32_t>(total),
                                                          level.get());
  keys_sorted.reset();
  points_sorted.reset();
  // Group sums until every bucket has at most one partial (then the group count stops shrinking).
  unsigned levels = 0;
  for (;;) {
    group_count_kernel<<<blocks(buckets), kThreads, 0, st>>>(counts.get(), buckets, next_counts.get());
    auto next_total = scan(st, next_counts.get(), next_offsets.get(), buckets);
    if (!next_total.ok()) return next_total.status();
    if (*next_total == total) break;
    if (Status s = next.allocate(std::max<std::uint64_t>(*next_total, 1), st); !s.ok()) return s;
    group_kernel<FqP><<<point_blocks(*next_total), kPointThreads, 0, st>>>(level.get(), offsets.get(), counts.get(),
                                                                next_offsets.get(), buckets,
                                                                static_cast<std::uint32_t>(*next_total), next.get());
    std::swap(level, next);
    std::swap(counts, next_counts);
    std::swap(offsets, next_offsets);
    total = *next_total;
    ++levels;
  }
  stats.levels = std::max(stats.levels, levels);
  DeviceBuffer<DevXyzz<FqP>> sums, sub;
  const std::size_t np = static_cast<std::size_t>(W) * plan.chunks;
  for (Status s : {sums.allocate(buckets, st), sub.allocate(np * body::kSplit, st)}) {
    if (!s.ok()) return s;
  }
  bucket_kernel<FqP><<<blocks(buckets), kThreads, 0, st>>>(level.get(), offsets.get(), counts.get(), buckets, sums.get());
  window_kernel<FqP><<<point_blocks(np * body::kSplit), kPointThreads, 0, st>>>(sums.get(), W, c, plan.chunks * body::kSplit,
                                                                     sub.get());
  fold_kernel<FqP><<<point_blocks(np), kPointThreads, 0, st>>>(sub.get(), np, partials);
  ZK_CUDA_TRY(cudaGetLastError());
  return zk::gpu::cuda_status(cudaStreamSynchronize(st), "cudaStreamSynchronize", __FILE__, __LINE__);
}

/// Where a pass's bases and scalars are uploaded when they are not on the device already: two
/// such slots when the MSM takes several passes, so pass p + 1's upload (on its own stream, from
/// its own host thread: a staged copy keeps its thread busy) runs while pass p's kernels do.
template <class FqP, class FrP>
struct UploadSlot {
  DeviceBuffer<DevAffine<FqP>> bases;
  DeviceBuffer<DevField<FrP>> scalars;
  zk::gpu::Event ready;  // recorded on the copy stream after the slot's copies
};

template <class FqP>
__global__ void identity_kernel(DevXyzz<FqP>* p, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) p[i] = DevXyzz<FqP>::identity();
}

}  // namespace

template <class FqP, class FrP>
Status msm_points(const void* bases_host, const std::uint64_t* scalars_host, std::size_t n, const Plan& plan,
              void* partials_host, Stats* stats, const void* device_bases, void* device_scalars) {
  if (Status s = zk::gpu::require_device(); !s.ok()) return s;
  // Signed digits need windows covering one bit more than the scalar (msm_body::signed_digits).
  if (plan.window_bits < 2 || plan.window_bits > 24 || plan.windows * plan.window_bits < FrP::kModulusBits + 1 ||
      plan.chunks == 0) {
    return Status::invalid_argument("gpu msm: a plan of " + std::to_string(plan.windows) + " windows of " +
                                    std::to_string(plan.window_bits) + " bits does not fit these scalars");
  }
  Stats local;
  Stats& out = stats != nullptr ? *stats : local;
  out = {};
  const std::size_t np = static_cast<std::size_t>(plan.windows) * plan.chunks;
  std::size_t per_pass = plan.points_per_pass;
  if (per_pass == 0) {
    // Free device memory and what the device's pool holds idle (gpu::device_alloc).
    auto available = zk::gpu::device_available_bytes();
    if (!available.ok()) return available.status();
    const std::size_t free_b = *available;
    // Resident bases and scalars already on the device are not allocated again by a pass (their
    // bytes are outside the free memory already): counting them made a 2^27 MSM on an 80 GB card
    // take more passes than it needs, each repeating the bucket reduction.
    const std::size_t base_b = device_bases != nullptr ? 0 : sizeof(DevAffine<FqP>);
    const std::size_t scalar_b = device_scalars != nullptr ? 0 : sizeof(DevField<FrP>);
    per_pass = fitting_points(plan, n, free_b, base_b, scalar_b, sizeof(DevXyzz<FqP>));
    // Several passes that upload: two slots for the uploads (the next pass's overlaps this one's kernels).
    if (per_pass != 0 && per_pass < n && base_b + scalar_b != 0) {
      per_pass = fitting_points(plan, n, free_b, 2 * base_b, 2 * scalar_b, sizeof(DevXyzz<FqP>));
    }
    if (per_pass == 0) {
      return Status::resource_exhausted("gpu msm: " + std::to_string(free_b >> 20) +
                                        " MiB of free device memory is not enough for one pass");
    }
  }
  per_pass = std::min<std::size_t>(per_pass, body::kNegated - 1);  // a pair's point index keeps its top bit for the sign
  zk::gpu::Stream stream;
  if (Status s = stream.create(); !s.ok()) return s;
  auto st = stream.get();
  DeviceBuffer<DevXyzz<FqP>> partials;
  if (Status s = partials.allocate(np); !s.ok()) return s;
  identity_kernel<FqP><<<blocks(np), kThreads, 0, st>>>(partials.get(), np);
  const auto* bases = static_cast<const DevAffine<FqP>*>(bases_host);
  const auto* scalars = reinterpret_cast<const DevField<FrP>*>(scalars_host);
  const auto* resident = static_cast<const DevAffine<FqP>*>(device_bases);
  auto* scalars_on_device = static_cast<DevField<FrP>*>(device_scalars);
  const bool upload_bases = resident == nullptr, upload_scalars = scalars_on_device == nullptr;
  const bool uploads = upload_bases || upload_scalars;
  const std::size_t passes = (n + per_pass - 1) / per_pass;
  // Slots for what must be uploaded (one for a single pass, two to overlap passes), and the
  // copy stream; declared before `pending`, whose destructor waits for an upload in flight.
  UploadSlot<FqP, FrP> slots[2];
  zk::gpu::Stream copies;
  if (uploads) {
    if (Status s = copies.create(); !s.ok()) return s;
    for (std::size_t k = 0; k < std::min<std::size_t>(passes, 2); ++k) {
      for (Status s : {upload_bases ? slots[k].bases.allocate(per_pass) : Status{},
                       upload_scalars ? slots[k].scalars.allocate(per_pass) : Status{}, slots[k].ready.create()}) {
        if (!s.ok()) return s;
      }
    }
  }
  int ordinal = 0;
  ZK_CUDA_TRY(cudaGetDevice(&ordinal));
  const auto upload = [&, ordinal](std::size_t pass) -> Status {
    if (!uploads) return {};
    ZK_CUDA_TRY(cudaSetDevice(ordinal));  // this may run on another host thread
    UploadSlot<FqP, FrP>& slot = slots[pass % 2];
    const std::size_t p0 = pass * per_pass, len = std::min(per_pass, n - p0);
    for (Status s : {upload_bases ? zk::gpu::copy_to_device(slot.bases.get(), bases + p0, len * sizeof(DevAffine<FqP>),
                                                            copies.get())
                                  : Status{},
                     upload_scalars ? zk::gpu::copy_to_device(slot.scalars.get(), scalars + p0,
                                                              len * sizeof(DevField<FrP>), copies.get())
                                    : Status{}}) {
      if (!s.ok()) return s;
    }
    ZK_CUDA_TRY(cudaEventRecord(slot.ready.get(), copies.get()));
    return {};
  };
  std::future<Status> pending;
  if (Status s = upload(0); !s.ok()) return s;
  for (std::size_t pass = 0; pass < passes; ++pass) {
    if (pending.valid()) {
      if (Status s = pending.get(); !s.ok()) return s;
    }
    UploadSlot<FqP, FrP>& slot = slots[pass % 2];
    if (uploads) ZK_CUDA_TRY(cudaStreamWaitEvent(st, slot.ready.get(), 0));
    // The other slot was last read by pass - 1, finished (run_pass synchronises its stream).
    if (pass + 1 < passes && uploads) {
      pending = std::async(std::launch::async, upload, pass + 1);
    }
    const std::size_t p0 = pass * per_pass, len = std::min(per_pass, n - p0);
    if (Status s = run_pass<FqP, FrP>(st, upload_bases ? slot.bases.get() : resident + p0,
                                       upload_scalars ? slot.scalars.get() : scalars_on_device + p0, len, plan,
                                       partials.get(), out);
        !s.ok()) {
      return s;
    }
    ++out.passes;
  }
  ZK_CUDA_TRY(cudaMemcpyAsync(partials_host, partials.get(), np * sizeof(DevXyzz<FqP>), cudaMemcpyDeviceToHost, st));
  return stream.sync();
}

template <class FrP>
Status expand_compact(const CompactScalars& k, std::size_t n, void** out) {
  if (Status s = zk::gpu::require_device(); !s.ok()) return s;
  if (k.chunks.size() != k.chunk_values.size()) return Status::invalid_argument("gpu msm: compact chunks miscounted");
  zk::gpu::Stream stream;
  if (Status s = stream.create(); !s.ok()) return s;
  auto st = stream.get();
  // The compact column (and bitmap) up, the dense values formed there.
  const std::size_t group_count = (k.rows + 63) / 64, words = k.density != nullptr ? group_count : 0;
  std::size_t other_values = 0;
  for (std::size_t v : k.chunk_values) other_values += v;
  DeviceBuffer<body::CompactGroup> groups;
  DeviceBuffer<DevField<FrP>> others, dense;
  DeviceBuffer<std::uint64_t> density;
  DeviceBuffer<std::uint32_t> before;
  for (Status s : {groups.allocate(group_count), others.allocate(other_values), density.allocate(words),
                   before.allocate(words), dense.allocate(n)}) {
    if (!s.ok()) return s;
  }
  if (Status s = zk::gpu::copy_to_device(groups.get(), k.groups, group_count * sizeof(body::CompactGroup), st); !s.ok()) {
    return s;
  }
  std::size_t at = 0;
  for (std::size_t c = 0; c < k.chunks.size(); at += k.chunk_values[c], ++c) {
    if (Status s = zk::gpu::copy_to_device(others.get() + at, k.chunks[c], k.chunk_values[c] * sizeof(DevField<FrP>), st);
        !s.ok()) {
      return s;
    }
  }
  if (words != 0) {
    if (k.before.size() != words) return Status::invalid_argument("gpu msm: density prefix of the wrong length");
    for (Status s : {zk::gpu::copy_to_device(density.get(), k.density, words * sizeof(std::uint64_t), st),
                     zk::gpu::copy_to_device(before.get(), k.before.data(), words * sizeof(std::uint32_t), st)}) {
      if (!s.ok()) return s;
    }
  } else if (k.rows > n) {
    return Status::invalid_argument("gpu msm: a compact column longer than its destination");
  }
  // Without a bitmap every one of the n slots is written (rows past the column are 0); with one,
  // the selected rows fill the n slots exactly (the caller checked the count).
  const std::size_t count = words != 0 ? k.rows : n;
  expand_compact_kernel<FrP><<<blocks(count), kThreads, 0, st>>>(groups.get(), others.get(), k.rows,
                                                                 words != 0 ? density.get() : nullptr, before.get(),
                                                                 count, dense.get());
  ZK_CUDA_TRY(cudaGetLastError());
  if (Status s = stream.sync(); !s.ok()) return s;
  *out = dense.release();
  return {};
}

template <class FqP>
Status unpack_bases(const void* packed, std::size_t n, void** out) {
  if (Status s = zk::gpu::require_device(); !s.ok()) return s;
  constexpr std::size_t kPacked = 2 * FqP::kLimbs;  // 64-bit words a packed base
  // A slice at a time through one device buffer (2^22 points: 256-384 MiB, large enough for the
  // staged copy's speed): the unpacked bases plus one slice, not twice the bases.
  const std::size_t slice = std::min<std::size_t>(n, std::size_t{1} << 22);
  zk::gpu::Stream stream;
  if (Status s = stream.create(); !s.ok()) return s;
  auto st = stream.get();
  DeviceBuffer<DevAffine<FqP>> bases;
  DeviceBuffer<std::uint64_t> staged;
  for (Status s : {bases.allocate(n), staged.allocate(slice * kPacked, st)}) {
    if (!s.ok()) return s;
  }
  const auto* host = static_cast<const unsigned char*>(packed);
  for (std::size_t p0 = 0; p0 < n; p0 += slice) {
    const std::size_t len = std::min(slice, n - p0);
    // Ordered on the stream after the previous slice's kernel, which read the buffer.
    if (Status s = zk::gpu::copy_to_device(staged.get(), host + p0 * kPacked * 8, len * kPacked * 8, st); !s.ok()) {
      return s;
    }
    unpack_kernel<FqP><<<blocks(len), kThreads, 0, st>>>(staged.get(), len, bases.get() + p0);
    ZK_CUDA_TRY(cudaGetLastError());
  }
  if (Status s = stream.sync(); !s.ok()) return s;
  *out = bases.release();
  return {};
}

template <class FqP, class FrP>
Status msm_points_compact(const void* bases, const CompactScalars& k, std::size_t n, const Plan& plan, void* partials,
                      Stats* stats, const void* device_bases) {
  void* scalars = nullptr;
  if (Status s = expand_compact<FrP>(k, n, &scalars); !s.ok()) return s;
  DeviceBuffer<DevField<FrP>> dense;  // what the MSM consumes, freed after it
  dense.adopt(static_cast<DevField<FrP>*>(scalars), n);
  return msm_points<FqP, FrP>(bases, reinterpret_cast<const std::uint64_t*>(dense.get()), n, plan, partials, stats,
                          device_bases, dense.get());
}

ZK_MSM_GPU_INSTANCES

}  // namespace zk::msm::gpu::raw
