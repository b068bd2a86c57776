#pragma once

// Per-thread bodies of the GPU NTT (radix-2, decimation in time: bit-reversal permutation, then
// log n butterfly stages), written once for the kernels and for their CPU tests.

#include <cstddef>
#include <cstdint>

#include "field/cuda/dev_field.hpp"
#include "gpu/hd.hpp"

namespace zk::gpu::ntt_body {

ZK_HD std::uint32_t bit_reverse(std::uint32_t x, unsigned log_n) {
  std::uint32_t r = 0;
  for (unsigned i = 0; i < log_n; ++i) r |= ((x >> i) & 1u) << (log_n - 1 - i);
  return r;
}

/// Element i of the permutation: swaps a[i] and a[rev(i)] once (the smaller index does it).
template <class FP>
ZK_HD void permute(DevField<FP>* a, std::uint32_t i, unsigned log_n) {
  const std::uint32_t r = bit_reverse(i, log_n);
  if (i < r) {
    const DevField<FP> t = a[i];
    a[i] = a[r];
    a[r] = t;
  }
}

/// Butterfly t (of n/2) of the stage whose half-size is m = 2^log_m: twiddles[k] = omega^k for
/// k in [0, n/2].
template <class FP>
ZK_HD void butterfly(DevField<FP>* a, const DevField<FP>* twiddles, std::size_t t, unsigned log_m, unsigned log_n) {
  const std::size_t m = std::size_t{1} << log_m;
  const std::size_t j = t & (m - 1);
  const std::size_t i0 = ((t >> log_m) << (log_m + 1)) + j;
  const std::size_t i1 = i0 + m;
  const DevField<FP> w = twiddles[j << (log_n - 1 - log_m)];
  const DevField<FP> u = a[i0];
  const DevField<FP> v = a[i1] * w;
  a[i0] = u + v;
  a[i1] = u - v;
}

/// The inverse transform from the forward one: a[i] <-> a[n - i] for 0 < i < n/2, everything
/// times 1/n. Element i of [0, n/2].
template <class FP>
ZK_HD void inverse_fixup(DevField<FP>* a, std::size_t i, std::size_t n, const DevField<FP>& n_inv) {
  if (i == 0 || i == n / 2) {
    a[i] = a[i] * n_inv;
    return;
  }
  const DevField<FP> x = a[i], y = a[n - i];
  a[i] = y * n_inv;
  a[n - i] = x * n_inv;
}

/// a[i] *= g^i, from the powers g^(2^k) (k < 64).
template <class FP>
ZK_HD void scale_by_power(DevField<FP>* a, std::size_t i, const DevField<FP>* g_pow2) {
  DevField<FP> f = DevField<FP>::one();
  for (unsigned k = 0; (std::size_t{1} << k) <= i && k < 64; ++k) {
    if ((i >> k) & 1) f = f * g_pow2[k];
  }
  a[i] = a[i] * f;
}

}  // namespace zk::gpu::ntt_body
