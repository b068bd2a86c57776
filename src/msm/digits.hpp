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

/// Writes the W signed digits of k to out[0], out[stride], out[2 stride], ...
template <std::size_t N>
inline void signed_digits(const field::Limbs<N>& k, unsigned c, unsigned windows, std::int32_t* out,
                          std::size_t stride) {
  const std::int32_t half = std::int32_t{1} << (c - 1);
  std::int32_t carry = 0;
  for (unsigned w = 0; w < windows; ++w) {
    std::int32_t d = static_cast<std::int32_t>(window_bits(k, w * c, c)) + carry;
    carry = d > half ? 1 : 0;
    d -= carry << c;
    out[w * stride] = d;
  }
}

/// Relative costs used to pick the window: one bucket accumulation (per point and window) and one
/// step of the running-sum reduction (per bucket and window: a mixed plus a full addition). Measured
/// on G1 (docs/msm.md); the choice is not sensitive to them within a factor of two.
struct WindowCosts {
  double per_point = 1.0;
  double per_bucket = 3.5;
};

/// The c in [1, max_c] minimising W(c) (n per_point + 2^(c-1) per_bucket). The cap keeps a window's
/// buckets within L2/L3 (2^15 affine G1 buckets = 3.3 MiB): beyond it random bucket accesses go to
/// DRAM, which the operation count above does not see.
inline unsigned choose_window(std::size_t n, unsigned scalar_bits, WindowCosts costs = {}, unsigned max_c = 16) {
  unsigned best = 1;
  double best_cost = INFINITY;
  for (unsigned c = 1; c <= max_c; ++c) {
    const double cost = window_count(scalar_bits, c) *
                        (static_cast<double>(n) * costs.per_point + std::ldexp(costs.per_bucket, static_cast<int>(c) - 1));
    if (cost < best_cost) best_cost = cost, best = c;
  }
  return best;
}

}  // namespace zk::msm
