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
}  // namespace zk::ntt::gpu::raw
