#pragma once

// Per-thread bodies of the GPU MSM (Pippenger with bucket sorting), written once for the kernels
// and for their CPU tests:
//   1. keys: for every point i and window w, the bucket key (w << c) | digit_w(k_i) and the point
//      index (digit 0, and identity bases, get a key that sorts last and is never summed);
//   2. the pairs are sorted by key (CUB radix sort on the device, std::sort in the tests);
//   3. every bucket's run of points is cut into sub-runs of at most kSubRun points (a Groth16
//      witness of bits puts most points into one bucket: one thread per bucket would serialise
//      them); one thread per sub-run sums it, then one thread per bucket adds its sub-run sums;
//   4. each window's sum_b b B_b is split into chunks: chunk [lo, hi) gives
//      sum_{b in chunk} (b - lo + 1) B_b + (lo - 1) sum_{b in chunk} B_b;
//   5. the host adds the chunks and combines windows with c doublings each.

#include <cstddef>
#include <cstdint>

#include "curve/cuda/dev_point.hpp"
#include "gpu/hd.hpp"

namespace zk::gpu::msm_body {

/// Bits [bit, bit + c) of a canonical scalar of N limbs (c <= 32).
template <std::size_t N>
ZK_HD std::uint32_t window_digit(const std::uint64_t* k, unsigned bit, unsigned c) {
  const unsigned limb = bit / 64, shift = bit % 64;
  if (limb >= N) return 0;
  std::uint64_t v = k[limb] >> shift;
  if (shift + c > 64 && limb + 1 < N) v |= k[limb + 1] << (64 - shift);
  return static_cast<std::uint32_t>(v & ((std::uint64_t{1} << c) - 1));
}

/// The key of (point i, window w): (w << c) | digit, or `kNone` when the digit is 0 or the base is
/// the identity.
constexpr std::uint32_t kNone = 0xffffffffu;
template <std::size_t N>
ZK_HD std::uint32_t bucket_key(const std::uint64_t* canonical_scalar, bool base_is_identity, unsigned w, unsigned c) {
  if (base_is_identity) return kNone;
  const std::uint32_t d = window_digit<N>(canonical_scalar, w * c, c);
  return d == 0 ? kNone : (w << c) | d;
}

/// Points per sub-run.
constexpr std::uint32_t kSubRun = 512;

ZK_HD std::uint32_t subrun_count(std::uint32_t begin, std::uint32_t end) { return (end - begin + kSubRun - 1) / kSubRun; }

/// The bucket owning sub-run j: the b with offsets[b] <= j < offsets[b] + counts[b] (offsets is
/// the exclusive prefix sum of the counts, non-decreasing; found by binary search).
ZK_HD std::uint32_t subrun_bucket(const std::uint32_t* offsets, std::size_t buckets, std::uint32_t j) {
  std::size_t lo = 0, hi = buckets;  // first index with offsets[i] > j, in [lo, hi]
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (offsets[mid] > j) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return static_cast<std::uint32_t>(lo - 1);
}

/// Bucket sum over sorted positions [begin, end).
template <class FP>
ZK_HD DevXyzz<FP> bucket_sum(const DevAffine<FP>* bases, const std::uint32_t* sorted_points, std::uint32_t begin,
                             std::uint32_t end) {
  DevXyzz<FP> acc = DevXyzz<FP>::identity();
  for (std::uint32_t p = begin; p < end; ++p) acc = acc.add_mixed(bases[sorted_points[p]]);
  return acc;
}

/// Sub-run j's sum: its bucket's points [start + k kSubRun, min(end, start + (k + 1) kSubRun)).
template <class FP>
ZK_HD DevXyzz<FP> subrun_sum(const DevAffine<FP>* bases, const std::uint32_t* sorted_points,
                             const std::uint32_t* start, const std::uint32_t* end, const std::uint32_t* offsets,
                             std::size_t buckets, std::uint32_t j) {
  const std::uint32_t b = subrun_bucket(offsets, buckets, j);
  const std::uint32_t lo = start[b] + (j - offsets[b]) * kSubRun;
  const std::uint32_t hi = end[b] < lo + kSubRun ? end[b] : lo + kSubRun;
  return bucket_sum(bases, sorted_points, lo, hi);
}

/// Bucket b from its sub-run sums.
template <class FP>
ZK_HD DevXyzz<FP> bucket_from_subruns(const DevXyzz<FP>* subsums, std::uint32_t offset, std::uint32_t count) {
  DevXyzz<FP> acc = DevXyzz<FP>::identity();
  for (std::uint32_t i = 0; i < count; ++i) acc = acc + subsums[offset + i];
  return acc;
}

/// Chunk [lo, hi) of one window's buckets (bucket b at buckets[b], b >= 1).
template <class FP>
ZK_HD DevXyzz<FP> window_chunk(const DevXyzz<FP>* buckets, std::uint32_t lo, std::uint32_t hi) {
  DevXyzz<FP> running = DevXyzz<FP>::identity(), acc = DevXyzz<FP>::identity();
  for (std::uint32_t b = hi; b-- > lo;) {
    running = running + buckets[b];
    acc = acc + running;
  }
  return lo > 1 ? acc + running.mul_small(lo - 1) : acc;
}

}  // namespace zk::gpu::msm_body
