#pragma once

// The GPU NTT's raw entry point (no host field types), shared by ntt/gpu_ntt.hpp and the kernels.

#include <cstdint>

#include "base/status.hpp"

namespace zk::ntt::gpu::raw {
/// In place on `data` (n = 2^log_n field elements, Montgomery limbs; twiddles = omega^k for k in
/// [0, n/2]): forward, or inverse when `n_inv` is given. With `shift_pow2` (shift^(2^k), k <
/// log_n): data[i] *= shift^i before a forward transform, after an inverse one.
template <class FP>
Status transform(std::uint64_t* data, unsigned log_n, const std::uint64_t* twiddles, const std::uint64_t* n_inv,
                 const std::uint64_t* shift_pow2);

/// bellman's quotient on the device (ntt/quotient.hpp compute_h): a, b, c (n values each) are
/// interpolated, evaluated on the coset g<omega>, a b - c is divided by Z there and interpolated
/// back; the n coefficients land in `a` (b and c are left unchanged on the host). `g_pow2` and
/// `g_inv_pow2` hold g^(2^k) and g^-(2^k) for k < log_n; `z_inv` = 1 / (g^n - 1).
template <class FP>
Status compute_h(std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, unsigned log_n,
                 const std::uint64_t* twiddles, const std::uint64_t* n_inv, const std::uint64_t* g_pow2,
                 const std::uint64_t* g_inv_pow2, const std::uint64_t* z_inv);

}  // namespace zk::ntt::gpu::raw
