#pragma once

// Per-thread bodies of the GPU NTT, written once for the kernels and for their CPU tests.
// Radix-2 decimation in time: the bit-reversal permutation, then the log n butterfly stages in
// passes of up to kMaxTileLog stages. A pass over stages [s0, s0 + k) cuts the array into tiles of
// 2^k elements whose indices differ only in bits s0 .. s0 + k - 1 (no butterfly of those stages
// leaves its tile); a thread block loads one tile into shared memory, runs the k stages there and
// writes it back, so 2^26 elements take 3 passes over device memory instead of 26.
// Twiddles and coset powers come from two small tables (x = xh 2^L + xl: w^x = hi[xh] lo[xl])
// instead of an n/2-entry table read from memory in every stage; a pass's tile makes its own
// twiddles from them once (tile_twiddle) and its butterflies read them from shared memory.

#include <cstddef>
#include <cstdint>

#include "field/cuda/dev_field.hpp"
#include "gpu/hd.hpp"

namespace zk::gpu::ntt_body {

/// Stages per pass at most: a tile of 2^10 elements of 32 bytes is 32 KiB of shared memory.
constexpr unsigned kMaxTileLog = 10;

ZK_HD std::uint32_t bit_reverse(std::uint32_t x, unsigned log_n) {
#ifdef __CUDA_ARCH__
  return log_n == 0 ? 0u : __brev(x) >> (32 - log_n);
#else
  std::uint32_t r = 0;
  for (unsigned i = 0; i < log_n; ++i) r |= ((x >> i) & 1u) << (log_n - 1 - i);
  return r;
#endif
}

/// Powers p(x) = factor g^x for x < 2^log_count, as hi[x >> lo_bits] lo[x & (2^lo_bits - 1)]
/// with lo[j] = g^j and hi[j] = factor g^(j 2^lo_bits).
template <class FP>
struct PowerTable {
  const DevField<FP>* hi;
  const DevField<FP>* lo;
  unsigned lo_bits;
};
ZK_HD unsigned power_table_lo_bits(unsigned log_count) { return (log_count + 1) / 2; }

template <class FP>
ZK_HD DevField<FP> table_power(const PowerTable<FP>& t, std::size_t x) {
  return t.hi[x >> t.lo_bits] * t.lo[x & ((std::size_t{1} << t.lo_bits) - 1)];
}
/// The same for a table without a factor (hi[0] = lo[0] = 1): skips the product when one side is 1.
template <class FP>
ZK_HD DevField<FP> unit_table_power(const PowerTable<FP>& t, std::size_t x) {
  const std::size_t xh = x >> t.lo_bits, xl = x & ((std::size_t{1} << t.lo_bits) - 1);
  if (xh == 0) return t.lo[xl];
  if (xl == 0) return t.hi[xh];
  return t.hi[xh] * t.lo[xl];
}

/// Element i of the permutation: swaps a[i] and a[rev(i)] once (the smaller index does it); with
/// `scale`, both are first multiplied by scale(index) (the coset's g^i before a forward transform).
template <class FP>
ZK_HD void permute(DevField<FP>* a, std::uint32_t i, unsigned log_n, const PowerTable<FP>* scale) {
  const std::uint32_t r = bit_reverse(i, log_n);
  if (i > r) return;
  DevField<FP> x = a[i], y = a[r];
  if (scale != nullptr) {
    x = x * table_power(*scale, i);
    y = y * table_power(*scale, r);
  }
  a[i] = y;
  a[r] = x;
}

/// Element i of the permutation with the scaling after it: a[rev(i)] f(i) moves to i (and a[i]
/// f(rev(i)) to rev(i)), f = scale(destination). The quotient's way back from the coset ends here.
template <class FP>
ZK_HD void permute_scaled_after(DevField<FP>* a, std::uint32_t i, unsigned log_n, const PowerTable<FP>& scale) {
  const std::uint32_t r = bit_reverse(i, log_n);
  if (i > r) return;
  const DevField<FP> x = a[i], y = a[r];
  a[i] = y * table_power(scale, i);
  if (r != i) a[r] = x * table_power(scale, r);
}

/// Passes over log_n stages: as few as kMaxTileLog allows, sizes balanced (26 -> 9, 9, 8).
ZK_HD unsigned pass_count(unsigned log_n, unsigned max_tile_log) { return (log_n + max_tile_log - 1) / max_tile_log; }
/// First stage and stage count of pass p.
ZK_HD void pass_range(unsigned log_n, unsigned max_tile_log, unsigned p, unsigned* first, unsigned* count) {
  const unsigned passes = pass_count(log_n, max_tile_log);
  const unsigned base = log_n / passes, extra = log_n % passes;
  *first = p * base + (p < extra ? p : extra);
  *count = base + (p < extra ? 1 : 0);
}

/// Global index of element e of tile `tile` in a pass over stages [s0, s0 + k).
ZK_HD std::size_t tile_element(std::size_t tile, std::size_t e, unsigned s0, unsigned k) {
  const std::size_t low = tile & ((std::size_t{1} << s0) - 1), high = tile >> s0;
  return (high << (s0 + k)) | (e << s0) | low;
}

/// The twiddle exponent of stage j (global stage s0 + j) for the butterflies at position jj of
/// their group, in a tile whose index bits below s0 are `low`: the element's position within its
/// stage-(s0 + j) group, times n / 2^(s0 + j + 1).
ZK_HD std::size_t stage_exponent(std::uint32_t jj, unsigned j, std::size_t low, unsigned s0, unsigned log_n) {
  return ((static_cast<std::size_t>(jj) << s0) | low) << (log_n - 1 - s0 - j);
}

/// A tile's twiddles are made once, before its stages (kept in shared memory beside the tile):
/// entry 2^j + jj (1 <= index < 2^k) is stage j's twiddle for position jj, so a pass costs 2^k - 1
/// table products per tile (one per element) instead of one per butterfly (k/2 per element).
/// Entry `index` of tile `low`'s table; `tw`: omega^x for x < n/2, unit table.
template <class FP>
ZK_HD DevField<FP> tile_twiddle(std::uint32_t index, std::size_t low, unsigned s0, unsigned log_n,
                                const PowerTable<FP>& tw) {
  unsigned j = 0;
  while ((index >> (j + 1)) != 0) ++j;
  return unit_table_power(tw, stage_exponent(index - (1u << j), j, low, s0, log_n));
}

/// Butterfly t of local stage j pairs elements e0 and e0 + 2^j, with the twiddle at w[tw].
struct ButterflyIndex {
  std::uint32_t e0, e1, tw;
};
ZK_HD ButterflyIndex butterfly_index(std::uint32_t t, unsigned j) {
  const std::uint32_t m = 1u << j, jj = t & (m - 1);
  const std::uint32_t e0 = ((t >> j) << (j + 1)) | jj;
  return {e0, e0 + m, m + jj};
}

/// Butterfly t (t < 2^(k-1)) of local stage j on a tile in shared memory `x`, with the tile's
/// twiddles `w` (tile_twiddle).
template <class FP>
ZK_HD void tile_butterfly(DevField<FP>* x, const DevField<FP>* w, std::uint32_t t, unsigned j) {
  const auto [e0, e1, k] = butterfly_index(t, j);
  const DevField<FP> u = x[e0];
  const DevField<FP> v = x[e1] * w[k];
  x[e0] = u + v;
  x[e1] = u - v;
}

/// The same butterfly by decimation in frequency (natural order in, bit-reversed out; its stages
/// run from the top down): (u, v) -> (u + v, (u - v) w) with stage j's twiddle for position jj,
/// the same as the decimation in time's.
template <class FP>
ZK_HD void tile_butterfly_dif(DevField<FP>* x, const DevField<FP>* w, std::uint32_t t, unsigned j) {
  const auto [e0, e1, k] = butterfly_index(t, j);
  const DevField<FP> u = x[e0], v = x[e1];
  x[e0] = u + v;
  x[e1] = (u - v) * w[k];
}

/// The inverse transform from the forward one: a[i] <-> a[n - i] for 0 < i < n/2, each times
/// f(i) = 1/n, or with `scale` f(i) = scale(i) (whose table carries 1/n: the coset's g^-i / n).
/// Element i of [0, n/2].
template <class FP>
ZK_HD void inverse_fixup(DevField<FP>* a, std::size_t i, std::size_t n, const DevField<FP>& n_inv,
                         const PowerTable<FP>* scale) {
  auto f = [&](std::size_t k) { return scale != nullptr ? table_power(*scale, k) : n_inv; };
  if (i == 0 || i == n / 2) {
    a[i] = a[i] * f(i);
    return;
  }
  const DevField<FP> x = a[i], y = a[n - i];
  a[i] = y * f(i);
  a[n - i] = x * f(n - i);
}

}  // namespace zk::gpu::ntt_body
