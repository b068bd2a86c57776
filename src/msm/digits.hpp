#pragma once

// Signed-window recoding of scalars for Pippenger, and the window-size choice.
//
// A scalar k < 2^bits is written k = sum_w d_w 2^(c w) with digits d_w in [-2^(c-1) + 1, 2^(c-1)]
// (take c bits plus the carry; above 2^(c-1), subtract 2^c and carry one). A negative digit adds
// the negated base (free on these curves), so a window needs 2^(c-1) buckets instead of 2^c - 1.
// One extra bit absorbs the final carry: W = ceil((bits + 1) / c) windows.

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

/// Costs that pick the window and the accumulator, in units of one batch-affine G1 addition
/// (about 150 ns here); measured with bench_msm (docs/msm.md). G2 keeps the same ratios.
struct WindowCosts {
  double affine_add = 1.0;  // per point and window, batch-affine bucket
  double inversion = 83.0;  // one field inversion, shared by a batch
  double xyzz_add = 1.9;    // per point and window, XYZZ bucket (mixed addition)
  double per_bucket = 4.7;  // running-sum reduction, per bucket and window
};

/// Additions per batch inversion for 2^(c-1) buckets: half the buckets (larger batches collide
/// more, smaller ones pay more inversion per point), within [32, 1024].
inline std::size_t default_batch(unsigned c) {
  const std::size_t buckets = std::size_t{1} << (c - 1);
  return buckets / 2 < 32 ? 32 : (buckets / 2 > 1024 ? 1024 : buckets / 2);
}

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

/// The window c in [1, max_c] and accumulator minimising the sum over windows of
/// n per_point + buckets per_bucket, where the top window has only 2^(top - 1) buckets (its own batch
/// size; below 64 buckets a batch conflicts so often that its points cost XYZZ additions).
/// The cap keeps a window's buckets within L2/L3 (2^15 affine G1 buckets = 3.3 MiB): beyond it random
/// bucket accesses go to DRAM, which the operation count does not see.
inline WindowChoice choose_window(std::size_t n, unsigned scalar_bits, WindowCosts costs = {}, unsigned max_c = 16) {
  WindowChoice best{1, false, INFINITY};
  const double points = static_cast<double>(n);
  for (unsigned c = 1; c <= max_c; ++c) {
    const unsigned top = top_window_bits(scalar_bits, c);
    const double buckets = std::ldexp(1.0, static_cast<int>(c) - 1);
    const double top_buckets = std::ldexp(1.0, static_cast<int>(top) - 1);
    const double affine_point = costs.affine_add + costs.inversion / static_cast<double>(default_batch(c));
    const double affine_top = top_buckets >= 64
                                  ? costs.affine_add + costs.inversion / static_cast<double>(default_batch(top))
                                  : costs.xyzz_add;
    for (bool affine : {false, true}) {
      const double per_point = affine ? affine_point : costs.xyzz_add;
      const double per_point_top = affine ? affine_top : costs.xyzz_add;
      const double cost = (window_count(scalar_bits, c) - 1) * (points * per_point + buckets * costs.per_bucket) +
                          points * per_point_top + top_buckets * costs.per_bucket;
      if (cost < best.cost) best = {c, affine, cost};
    }
  }
  return best;
}

}  // namespace zk::msm
