#pragma once

// Signed-window recoding of scalars for Pippenger, and the window-size choice.
//
// A scalar k < 2^bits is written k = sum_w d_w 2^(c w) with digits d_w in [-2^(c-1) + 1, 2^(c-1)]
// (take c bits plus the carry; above 2^(c-1), subtract 2^c and carry one). A negative digit adds
// the negated base (free on these curves), so a window needs 2^(c-1) buckets instead of 2^c - 1.
// One extra bit absorbs the final carry: W = ceil((bits + 1) / c) windows.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "field/bigint.hpp"

namespace zk::msm {

inline unsigned window_count(unsigned scalar_bits, unsigned c) { return (scalar_bits + 1 + c - 1) / c; }

/// Bits [offset, offset + c) of k (c <= 32), zero beyond the top limb.
template <std::size_t N>
inline std::uint32_t window_bits(const field::Limbs<N>& k, unsigned offset, unsigned c) {
  const unsigned limb = offset / 64, shift = offset % 64;
  if (limb >= N) return 0;
  std::uint64_t v = k[limb] >> shift;
  if (shift + c > 64 && limb + 1 < N) v |= k[limb + 1] << (64 - shift);
  return static_cast<std::uint32_t>(v & ((std::uint64_t{1} << c) - 1));
}

/// Writes the W signed digits of k (of -k when `negate`) to out[0], out[stride], out[2 stride], ...
template <std::size_t N>
inline void signed_digits(const field::Limbs<N>& k, unsigned c, unsigned windows, std::int32_t* out, std::size_t stride,
                          bool negate = false) {
  const std::int32_t half = std::int32_t{1} << (c - 1);
  std::int32_t carry = 0;
  for (unsigned w = 0; w < windows; ++w) {
    std::int32_t d = static_cast<std::int32_t>(window_bits(k, w * c, c)) + carry;
    carry = d > half ? 1 : 0;
    d -= carry << c;
    out[w * stride] = negate ? -d : d;
  }
}

/// What the window choice knows about a group: operation costs in units of one batch-affine G1
/// addition into a filled bucket whose array fits in L2 (about 310 ns on the 2-vCPU Xeon of
/// docs/benchmarks.md), measured on the bucket classes themselves with `bench_msm --costs=GROUP`
/// (docs/msm.md "Choosing c"), and the bucket sizes that decide where the buckets live.
/// window_costs<C>() in pippenger.hpp holds the values of each group; the defaults are BLS12-381 G1.
/// Batch-affine buckets (AffineBuckets::reduce) are reduced in segments from this many buckets on;
/// below, serially (the segments would be too few to share an inversion).
inline constexpr std::size_t kSegmentedReduceMin = 512;

struct WindowCosts {
  double affine_add = 1.0;    // per point and window, batch-affine bucket (2M + 1S + 3M of the batch inversion)
  double inversion = 8.6;     // one divsteps Fq inversion (2.7 us), shared by a batch
  double conflict = 0.05;     // a point that meets a bucket already in the batch: queued, re-enqueued later
  double xyzz_add = 1.5;      // per point and window, XYZZ bucket (mixed addition, 8M + 2S)
  double per_bucket = 3.5;    // serial running-sum reduction, per bucket and window (two XYZZ additions)
  double affine_per_bucket = 2.1;  // segmented reduction of batch-affine buckets (two batched affine additions)
  double cache_slope = 0.03;  // extra per-addition cost for each doubling of a window's buckets beyond l2_free_bytes
  double l2_free_bytes = 512.0 * 1024;  // bucket bytes below which additions cost no more (a quarter of a 2 MiB L2)
  // The cap on c: one window's affine buckets, as far as cache_slope was measured (6.5-6.8 MiB: G1
  // c = 17 +10-14 %, G2 c = 16 +6-8 %); beyond, L3 is shared with the other cores and untested.
  double max_bucket_bytes = 8.0 * 1024 * 1024;
  double affine_bytes = 104;  // sizeof(Affine): 2 x 48 B + flag, padded (BLS12-381 G1)
  double xyzz_bytes = 192;    // sizeof(Xyzz): 4 x 48 B
};

/// Additions per batch inversion for `buckets` buckets that the digits reach: half of them, within
/// [32, 1024]. The inversion is cheap (8.6 additions), so a batch of 256-1024 already makes its share
/// < 0.035; a batch of half the buckets queues about 40 % of the points (conflicts), which costs little
/// as long as the queue has room (measured: buckets / 2 within 2 % of the best batch at c = 9...16, one
/// noisy outlier aside; but batch = buckets spills 80 % of the points to XYZZ and costs 40 % more;
/// docs/msm.md).
inline std::size_t batch_for_buckets(std::size_t buckets) {
  return buckets / 2 < 32 ? 32 : (buckets / 2 > 1024 ? 1024 : buckets / 2);
}

/// The batch of a full window of width c (2^(c-1) buckets, all reached).
inline std::size_t default_batch(unsigned c) { return batch_for_buckets(std::size_t{1} << (c - 1)); }

/// A batch may fill at most this share of the buckets its points can reach: at 1/2 (default_batch)
/// the bounded queue absorbs the conflicts, at 1 it overflows for 80 % of the points (simulated), so
/// beyond 3/4 the model prices the window's points as XYZZ additions.
inline constexpr double kMaxBatchFill = 0.75;

struct WindowChoice {
  unsigned c;
  bool batch_affine;
  double cost;  // in the units of WindowCosts
};

/// Width of the top window: the (scalar_bits + 1)-bit recoding leaves it the remaining 1..c bits, so
/// its digits lie in [0, 2^(top - 1)] and it needs only 2^(top - 1) buckets.
inline unsigned top_window_bits(unsigned scalar_bits, unsigned c) {
  return scalar_bits + 1 - c * (window_count(scalar_bits, c) - 1);
}

/// Points that meet a busy bucket, per point added, when a batch of `batch` distinct buckets is filled
/// from `buckets` uniformly chosen ones: drawing until rho = batch / buckets of them are distinct takes
/// buckets ln(1 / (1 - rho)) draws (coupon collector), so -ln(1 - rho) / rho - 1 of them conflict per
/// addition. Matches a simulation of AffineBuckets' queue within 10 % up to rho = 1/4; at rho = 1/2 the
/// carried-over queue doubles it (0.5 instead of 0.39), which only adds 0.005 here.
inline double conflicts_per_add(double batch, double buckets) {
  const double rho = batch / buckets;
  if (rho >= kMaxBatchFill) return 1.0;  // the queue overflows; one_window_cost charges XYZZ instead
  return rho < 1e-9 ? 0.0 : -std::log1p(-rho) / rho - 1.0;
}

/// Cost of one window whose `points` points with non-zero digits land uniformly on `reach` of its
/// `buckets` buckets.
/// - The first point into an empty bucket is a copy, not an addition: reach (1 - e^(-points/reach))
///   of the points are free (at 2^19 points and c = 16, 6 % of them).
/// - Batch-affine per addition: affine_add, the batch's share of one inversion, and the conflicts.
///   A batch of more than kMaxBatchFill x reach distinct buckets fills too slowly: the queue overflows
///   and the points go to the XYZZ overflow buckets (simulated: 80 % of them when batch = reach), so
///   such windows (top windows: few buckets, or few reached) cost XYZZ additions.
/// - Buckets beyond l2_free_bytes cost cache_slope more per addition for each doubling.
/// - The reduction visits every bucket: per_bucket each, or affine_per_bucket for batch-affine buckets
///   reduced segmented (kSegmentedReduceMin buckets or more, and no XYZZ overflow in use).
inline double one_window_cost(double points, double buckets, double reach, bool batch_affine, std::size_t batch,
                              const WindowCosts& costs) {
  const double b = static_cast<double>(batch);
  const bool affine = batch_affine && b < kMaxBatchFill * reach;
  const double per_bucket =
      affine && buckets >= static_cast<double>(kSegmentedReduceMin) ? costs.affine_per_bucket : costs.per_bucket;
  if (points <= 0) return buckets * per_bucket;
  const double fills = reach * -std::expm1(-points / reach);
  const double bytes = buckets * (affine ? costs.affine_bytes : costs.xyzz_bytes);
  const double cache = 1.0 + costs.cache_slope * std::max(0.0, std::log2(bytes / costs.l2_free_bytes));
  const double per_add =
      affine ? costs.affine_add * cache + costs.inversion / b + costs.conflict * conflicts_per_add(b, reach)
             : costs.xyzz_add * cache;
  return (points - fills) * per_add + buckets * per_bucket;
}

/// The top window of scalars uniform in [0, 2^scalar_log2) (scalar_log2 <= scalar_bits; the GLV
/// halves stay well below their proven bound kBits, see glv_scalar_log2 in pippenger.hpp). Its digit is
/// floor(k / T) plus the carry, T = 2^(c (W - 1)): zero exactly when k < T / 2, so a fraction
/// 1 - T / 2^(scalar_log2 + 1) of the points reach it (1 - 2^-top when scalar_log2 = scalar_bits), and
/// it reaches about 2^scalar_log2 / T + 1/2 of its 2^(top - 1) buckets. run() sizes the top window's
/// batch from those reached buckets.
struct TopWindow {
  double point_share;   // of the n points, those with a non-zero top digit
  std::size_t reached;  // buckets the top digits reach, in [1, 2^(top - 1)]
};
inline TopWindow top_window(unsigned scalar_bits, double scalar_log2, unsigned c) {
  if (scalar_log2 <= 0 || scalar_log2 > scalar_bits) scalar_log2 = scalar_bits;
  const unsigned windows = window_count(scalar_bits, c), top = top_window_bits(scalar_bits, c);
  const double scale = std::exp2(scalar_log2 - static_cast<double>(c * (windows - 1)));  // 2^scalar_log2 / T
  const double top_buckets = std::ldexp(1.0, static_cast<int>(top) - 1);
  return {std::clamp(1.0 - 0.5 / scale, 0.0, 1.0),
          static_cast<std::size_t>(std::clamp(std::ceil(scale + 0.5), 1.0, top_buckets))};
}

/// The model's cost of one MSM of n points with window c and the given accumulator, for scalars
/// uniform in [0, 2^scalar_log2) (0: 2^scalar_bits): W - 1 full windows plus the top one (top_window).
inline double window_cost(std::size_t n, unsigned scalar_bits, unsigned c, bool batch_affine,
                          const WindowCosts& costs = {}, double scalar_log2 = 0) {
  const double points = static_cast<double>(n);
  const unsigned windows = window_count(scalar_bits, c), top = top_window_bits(scalar_bits, c);
  const double buckets = std::ldexp(1.0, static_cast<int>(c) - 1);
  const double top_buckets = std::ldexp(1.0, static_cast<int>(top) - 1);
  const TopWindow tw = top_window(scalar_bits, scalar_log2, c);
  return (windows - 1) * one_window_cost(points, buckets, buckets, batch_affine, default_batch(c), costs) +
         one_window_cost(points * tw.point_share, top_buckets, static_cast<double>(tw.reached), batch_affine,
                         std::min(default_batch(c), batch_for_buckets(tw.reached)), costs);
}

/// The largest c whose 2^(c-1) affine buckets fit in costs.max_bucket_bytes (BLS12-381: 17 for G1,
/// whose 2^16 x 104 B = 6.5 MiB, and 16 for G2, whose buckets are twice the size).
inline unsigned max_window(const WindowCosts& costs) {
  unsigned c = 1;
  while (c < 24 && std::ldexp(costs.affine_bytes, static_cast<int>(c)) <= costs.max_bucket_bytes) ++c;
  return c;
}

/// A wider window must be this much cheaper than the best narrower one to be chosen: each bit of c
/// doubles the bucket memory, and the model is not that precise (G2 2^16 at c = 13 and 16: 0.4 % apart
/// in the model, equal measured, 8x the scratch).
inline constexpr double kWiderWindowGain = 0.01;

/// The window c in [1, max_window(costs)] and the accumulator minimising window_cost (with the
/// kWiderWindowGain preference for narrower windows). Beyond the cap random bucket accesses leave L2
/// and the nearby L3 for good, which cache_slope only extrapolates.
inline WindowChoice choose_window(std::size_t n, unsigned scalar_bits, const WindowCosts& costs = {},
                                  double scalar_log2 = 0) {
  WindowChoice best{1, false, INFINITY};
  for (unsigned c = 1, max_c = max_window(costs); c <= max_c; ++c) {
    for (bool affine : {false, true}) {
      const double cost = window_cost(n, scalar_bits, c, affine, costs, scalar_log2);
      if (cost < best.cost * (c > best.c ? 1.0 - kWiderWindowGain : 1.0)) best = {c, affine, cost};
    }
  }
  return best;
}

}  // namespace zk::msm
