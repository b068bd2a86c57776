#pragma once

// Per-thread bodies of the GPU MSM (Pippenger with bucket sorting), written once for the kernels
// and for their CPU tests. One pass over a slice of the points:
//   1. pairs: every point i emits (key, i) for each window w whose signed digit d is not 0 (digits
//      in [-2^(c-1), 2^(c-1)], so 2^(c-1) buckets a window), key = (w << (c - 1)) | (|d| - 1) and
//      the sign in i's top bit; a zero scalar or an identity base emits nothing and a scalar of 1
//      one pair (a Groth16 witness is mostly 0s and 1s). Counts per point, an exclusive scan, a fill;
//   2. the pairs are sorted by key (CUB radix sort over the key's bits on the device, std::sort in
//      the tests) — except the units' (scalar 1: key 0), which go first in point order unsorted;
//   3. every bucket's run of points is cut into sub-runs of at most kSubRun points, one thread per
//      sub-run sums it; then the partial sums of each bucket are added in groups of kGroup, level
//      after level, until every bucket has one (a witness of bits puts millions of points into
//      bucket 1 of window 0: no thread ever adds more than kSubRun points or kGroup partials);
//   4. each window's sum_b b B_b is split into chunks x kSplit sub-chunks, one thread each:
//      sub-chunk [lo, hi) gives sum_{b in it} (b - lo + 1) B_b + (lo - 1) sum_{b in it} B_b; each
//      chunk's kSplit sub-chunk sums are folded into its partial, added over passes;
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

/// Signed digits: window w's digit d_w is its c bits plus the carry from below, minus 2^c (and a
/// carry of 1 up) when that is above 2^(c-1), so d_w is in [-2^(c-1), 2^(c-1)] and a window needs
/// 2^(c-1) buckets, bucket |d| - 1; the point goes in negated when d < 0. The top window takes no
/// carry out (Plan::windows leaves it at most c - 1 bits of the scalar, so its digit stays at most
/// 2^(c-1)). Calls f(w, d) for every window whose digit is not 0.
template <std::size_t N, class F>
ZK_HD void signed_digits(const std::uint64_t* canonical_scalar, unsigned windows, unsigned c, F&& f) {
  const std::int32_t half = std::int32_t{1} << (c - 1), full = std::int32_t{1} << c;
  std::int32_t carry = 0;
  for (unsigned w = 0; w < windows; ++w) {
    std::int32_t d = static_cast<std::int32_t>(window_digit<N>(canonical_scalar, w * c, c)) + carry;
    carry = 0;
    if (d > half && w + 1 < windows) {
      d -= full;
      carry = 1;
    }
    if (d != 0) f(w, d);
  }
}

/// The key of a pair: (w << (c - 1)) | (|d| - 1), the bucket's index among all windows' buckets;
/// the point's entry carries the sign in its top bit (points per pass < 2^31).
ZK_HD std::uint32_t bucket_key(unsigned w, std::int32_t d, unsigned c) {
  const std::uint32_t magnitude = static_cast<std::uint32_t>(d < 0 ? -d : d);
  return (w << (c - 1)) | (magnitude - 1);
}
constexpr std::uint32_t kNegated = 0x80000000u;
ZK_HD std::uint32_t point_entry(std::uint32_t point, std::int32_t d) { return d < 0 ? point | kNegated : point; }

/// Buckets per window (digits 1 .. 2^(c-1)).
ZK_HD std::uint32_t window_buckets(unsigned c) { return std::uint32_t{1} << (c - 1); }

/// Bits a key can use: c - 1 for the bucket and enough for the window (the sort looks at no others).
ZK_HD unsigned key_bits(unsigned windows, unsigned c) {
  unsigned b = 0;
  while ((1u << b) < windows) ++b;
  return c - 1 + b;
}

/// How many pairs point i emits (windows with a non-zero digit; none for an identity base).
template <std::size_t N>
ZK_HD std::uint32_t pair_count(const std::uint64_t* canonical_scalar, bool base_is_identity, unsigned windows,
                               unsigned c) {
  std::uint32_t count = 0;
  if (!base_is_identity) signed_digits<N>(canonical_scalar, windows, c, [&](unsigned, std::int32_t) { ++count; });
  return count;
}

/// Whether point i is a unit: scalar 1 (canonical) on a base that is not the identity. Its one
/// pair (window 0, digit 1) has key 0, the smallest, so the units need no sort: they are written,
/// in point order, at the front of the sorted pairs (emit_unit), and only the other points' pairs
/// are sorted, after them. A Groth16 witness is mostly bits: about half of L's, A's and B_G1's pairs.
template <std::size_t N>
ZK_HD bool is_unit(const std::uint64_t* canonical_scalar, bool base_is_identity) {
  if (base_is_identity || canonical_scalar[0] != 1) return false;
  for (std::size_t i = 1; i < N; ++i) {
    if (canonical_scalar[i] != 0) return false;
  }
  return true;
}

/// Pairs to sort for point i (0 for a unit) and whether it is a unit (1 or 0: the units' scan).
template <std::size_t N>
ZK_HD void pair_and_unit_count(const std::uint64_t* canonical_scalar, bool base_is_identity, unsigned windows,
                               unsigned c, std::uint32_t* pairs, std::uint32_t* units) {
  const bool unit = is_unit<N>(canonical_scalar, base_is_identity);
  *units = unit ? 1 : 0;
  *pairs = unit ? 0 : pair_count<N>(canonical_scalar, base_is_identity, windows, c);
}

/// A unit's place among the sorted pairs: position `at` of the units' scan (key 0, the point as is).
ZK_HD void emit_unit(std::uint32_t point, std::uint32_t at, std::uint32_t* sorted_keys, std::uint32_t* sorted_points) {
  sorted_keys[at] = 0;
  sorted_points[at] = point;
}

/// Point i's pairs, written from position `at` (the exclusive scan of the counts).
template <std::size_t N>
ZK_HD void emit_pairs(const std::uint64_t* canonical_scalar, bool base_is_identity, unsigned windows, unsigned c,
                      std::uint32_t point, std::uint32_t at, std::uint32_t* keys, std::uint32_t* points) {
  if (base_is_identity) return;
  signed_digits<N>(canonical_scalar, windows, c, [&](unsigned w, std::int32_t d) {
    keys[at] = bucket_key(w, d, c);
    points[at] = point_entry(point, d);
    ++at;
  });
}

/// A witness column as msm::CompactColumn keeps it, 64 rows a group: which rows are 1, which hold
/// another value, and how many other values come before the group (its layout, checked there).
struct CompactGroup {
  std::uint64_t ones, others;
  std::uint32_t rank;
};

/// Where row i's scalar goes among the rows a density bitmap selects (`before[w]`: the set bits of
/// words before word w), or kNoSlot when the bitmap leaves it out; without a bitmap (null), i.
constexpr std::uint64_t kNoSlot = ~std::uint64_t{0};
ZK_HD std::uint64_t density_slot(const std::uint64_t* words, const std::uint32_t* before, std::size_t i) {
  if (words == nullptr) return i;
  const std::uint64_t word = words[i / 64], bit = std::uint64_t{1} << (i % 64);
  if ((word & bit) == 0) return kNoSlot;
  std::uint64_t below = word & (bit - 1);
  unsigned count = 0;
  for (; below != 0; below &= below - 1) ++count;  // popcount (the device compiles it to POPC)
  return before[i / 64] + count;
}

/// Row i's scalar (Montgomery form) from the compact column: 0, 1 or its other value. Rows at or
/// past `rows` are 0 (the column padded to the MSM's size).
template <class FP>
ZK_HD DevField<FP> compact_value(const CompactGroup* groups, const DevField<FP>* others, std::size_t rows,
                                 std::size_t i) {
  if (i >= rows) return DevField<FP>::zero();
  const CompactGroup& g = groups[i / 64];
  const std::uint64_t bit = std::uint64_t{1} << (i % 64);
  if ((g.others & bit) != 0) {
    std::uint64_t below = g.others & (bit - 1);
    std::uint64_t at = g.rank;
    for (; below != 0; below &= below - 1) ++at;
    return others[at];
  }
  return (g.ones & bit) != 0 ? DevField<FP>::one() : DevField<FP>::zero();
}

/// One thread's part of forming an MSM's dense scalars on the device from a compact column (and a
/// density bitmap): row i's value goes to its slot, if any.
template <class FP>
ZK_HD void expand_compact_row(const CompactGroup* groups, const DevField<FP>* others, std::size_t rows,
                              const std::uint64_t* words, const std::uint32_t* before, std::size_t i,
                              DevField<FP>* out) {
  const std::uint64_t slot = density_slot(words, before, i);
  if (slot != kNoSlot) out[slot] = compact_value(groups, others, rows, i);
}

/// A base in a .zkey's packed layout (curve::PackedAffine: x then y, Montgomery words, the
/// identity all zero) in the kernels' layout: what PackedAffine::to_affine gives on the host.
template <class FP>
ZK_HD DevAffine<FP> unpack_base(const std::uint64_t* words) {
  constexpr std::size_t N = DevField<FP>::N;
  std::uint64_t any = 0;
  for (std::size_t i = 0; i < 2 * N; ++i) any |= words[i];
  DevAffine<FP> a;
  a.x = DevField<FP>::from_raw(words);
  a.y = DevField<FP>::from_raw(words + N);
  a.infinity = any == 0;
  return a;
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

/// Bucket sum over sorted positions [begin, end) (entries with kNegated add the negated base).
template <class FP>
ZK_HD DevXyzz<FP> bucket_sum(const DevAffine<FP>* bases, const std::uint32_t* sorted_points, std::uint32_t begin,
                             std::uint32_t end) {
  DevXyzz<FP> acc = DevXyzz<FP>::identity();
  for (std::uint32_t p = begin; p < end; ++p) {
    const std::uint32_t e = sorted_points[p];
    DevAffine<FP> base = bases[e & ~kNegated];
    if ((e & kNegated) != 0) base.y = -base.y;
    acc = acc.add_mixed(base);
  }
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

/// Partial sums added per thread at each level above the sub-runs.
constexpr std::uint32_t kGroup = 32;

ZK_HD std::uint32_t group_count(std::uint32_t count) { return (count + kGroup - 1) / kGroup; }

/// Entry j of the next level: group k of bucket b's partials at this level, where b owns j in
/// `next_offsets` and k = j - next_offsets[b] (bucket b has counts[b] partials from offsets[b]).
template <class FP>
ZK_HD DevXyzz<FP> group_sum(const DevXyzz<FP>* partials, const std::uint32_t* offsets, const std::uint32_t* counts,
                            const std::uint32_t* next_offsets, std::size_t buckets, std::uint32_t j) {
  const std::uint32_t b = subrun_bucket(next_offsets, buckets, j);
  const std::uint32_t lo = offsets[b] + (j - next_offsets[b]) * kGroup;
  const std::uint32_t end = offsets[b] + counts[b];
  const std::uint32_t hi = end < lo + kGroup ? end : lo + kGroup;
  DevXyzz<FP> acc = DevXyzz<FP>::identity();
  for (std::uint32_t i = lo; i < hi; ++i) acc = acc + partials[i];
  return acc;
}

/// Bucket b once every bucket has at most one partial left.
template <class FP>
ZK_HD DevXyzz<FP> bucket_result(const DevXyzz<FP>* partials, const std::uint32_t* offsets, const std::uint32_t* counts,
                                std::size_t b) {
  return counts[b] == 0 ? DevXyzz<FP>::identity() : partials[offsets[b]];
}

/// Digit range [lo, hi) of chunk k of `chunks` over one window's digits 1 .. 2^(c-1).
struct ChunkRange {
  std::uint32_t lo, hi;
};
ZK_HD ChunkRange chunk_range(unsigned c, std::uint32_t k, std::uint32_t chunks) {
  const std::uint64_t count = window_buckets(c);
  return {1 + static_cast<std::uint32_t>(count * k / chunks), 1 + static_cast<std::uint32_t>(count * (k + 1) / chunks)};
}

/// Each of a window's chunks (the partials the host adds) is reduced on the device as kSplit
/// sub-chunks, one thread each, then folded: windows x chunks threads alone (1 024 for a 2^20 MSM)
/// left all but a few multiprocessors idle, each thread adding 2 x 1 024 points in sequence (measured
/// on an H200: ~100 ms per MSM at c = 16, more than the bucket sums of a 2^22 MSM).
constexpr std::uint32_t kSplit = 32;

/// Partial t of the next pass's total: the sum of its kSplit sub-chunk sums `sub`.
template <class FP>
ZK_HD DevXyzz<FP> fold_split(const DevXyzz<FP>* sub) {
  DevXyzz<FP> acc = sub[0];
  for (std::uint32_t j = 1; j < kSplit; ++j) acc = acc + sub[j];
  return acc;
}

/// sum_{d in [lo, hi)} d B_d over one window's buckets (digit d's at buckets[d - 1], d >= 1).
template <class FP>
ZK_HD DevXyzz<FP> window_chunk(const DevXyzz<FP>* buckets, std::uint32_t lo, std::uint32_t hi) {
  DevXyzz<FP> running = DevXyzz<FP>::identity(), acc = DevXyzz<FP>::identity();
  for (std::uint32_t b = hi; b-- > lo;) {
    running = running + buckets[b - 1];
    acc = acc + running;
  }
  return lo > 1 ? acc + running.mul_small(lo - 1) : acc;
}

}  // namespace zk::gpu::msm_body
