#pragma once

// The GPU NTT's raw entry points (no host field types), shared by ntt/gpu_ntt.hpp and the kernels.
// Field elements are Montgomery limbs. Powers are passed as two-level tables (ntt_body.hpp
// PowerTable): p(x) = hi[x >> lo_bits] lo[x & (2^lo_bits - 1)], lo of 2^lo_bits entries, hi of
// 2^(log_count - lo_bits).

#include <cstddef>
#include <cstdint>

#include "base/status.hpp"

namespace zk::ntt::gpu::raw {

struct Powers {
  const std::uint64_t* hi = nullptr;
  const std::uint64_t* lo = nullptr;
  unsigned log_count = 0;  // powers for x < 2^log_count
  unsigned lo_bits = 0;    // ntt_body::power_table_lo_bits(log_count)
};

/// Where a transform's time went (CUDA events on its stream), in milliseconds.
struct Timing {
  float upload_ms = 0, kernels_ms = 0, download_ms = 0;
};

/// In place on `data` (n = 2^log_n elements), natural order in and out. `twiddles`: omega^x for
/// x < n/2 (no factor). Forward: with `shift`, data[i] *= shift(i) first. Inverse (`n_inv` given):
/// the result times 1/n, or, with `shift`, times shift(i) (whose hi table carries the 1/n).
template <class FP>
Status transform(std::uint64_t* data, unsigned log_n, const Powers& twiddles, const std::uint64_t* n_inv,
                 const Powers* shift, Timing* timing = nullptr);

/// The quotient on the device (ntt/quotient.hpp): a, b, c (n values each) are interpolated and
/// evaluated on the coset g<omega> (`twiddles`: omega^x, `twiddles_inv`: omega^-x for x < n/2;
/// `g_n`: g^i / n), where (a b - c) z_inv is formed. bellman's compute_h: z_inv = 1 / (g^n - 1),
/// then interpolated back from the coset (`g_inv_n`: g^-i / n), the n coefficients in `a`. snarkjs's compute_h_odd_coset: g = the 2n-th root of unity, z_inv =
/// 1, `g_inv_n` null: `a` gets the values on the coset. b and c are unchanged on the host. `c` null:
/// c = a o b is formed on the device from the uploaded a and b (a satisfied R1CS's C evaluations;
/// the provers keep no c on the host).
/// `result_on_device` (optional): the result stays in device memory (n elements, from gpu::device_alloc,
/// now the caller's) and `a` is not written — for an MSM that reads it there.
/// `a_on_device`, `b_on_device` (optional, with `result_on_device` and a null `c`): a and b are
/// already in device memory (n elements each, from gpu::device_alloc), taken over and freed here whatever
/// happens; the host pointers `a` and `b` are then not read.
template <class FP>
Status compute_h(std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, unsigned log_n,
                 const Powers& twiddles, const Powers& twiddles_inv, const Powers& g_n, const Powers* g_inv_n,
                 const std::uint64_t* z_inv, void** result_on_device = nullptr, void* a_on_device = nullptr,
                 void* b_on_device = nullptr);

/// The explicit instantiations (ntt_gpu.cu, and the stub without CUDA) for one field's params.
#define ZK_NTT_GPU_INSTANTIATE(FP)                                                                                   \
  template Status compute_h<FP>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*, unsigned, const Powers&, \
                                const Powers&, const Powers&, const Powers*, const std::uint64_t*, void**, void*,    \
                                void*);                                                                              \
  template Status transform<FP>(std::uint64_t*, unsigned, const Powers&, const std::uint64_t*, const Powers*, Timing*);

}  // namespace zk::ntt::gpu::raw
