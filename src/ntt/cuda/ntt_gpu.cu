// The GPU NTT (ntt/gpu_ntt.hpp): one copy in, a bit-reversal kernel, log n butterfly kernels (one
// thread per butterfly), the inverse's fix-up and the coset scaling, one copy out.

#include <vector>

#include "field/params/bls12_381.hpp"
#include "field/params/bn254.hpp"
#include "gpu/gpu.hpp"
#include "gpu/runtime.cuh"
#include "ntt/cuda/ntt_body.hpp"
#include "ntt/cuda/ntt_raw.hpp"

namespace zk::ntt::gpu::raw {
namespace {

using zk::gpu::DevField;
namespace body = zk::gpu::ntt_body;

constexpr unsigned kThreads = 256;
unsigned blocks(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

template <class FP>
__global__ void permute_kernel(DevField<FP>* a, std::size_t n, unsigned log_n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) body::permute(a, static_cast<std::uint32_t>(i), log_n);
}
template <class FP>
__global__ void butterfly_kernel(DevField<FP>* a, const DevField<FP>* tw, std::size_t half, unsigned log_m,
                                 unsigned log_n) {
  const std::size_t t = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (t < half) body::butterfly(a, tw, t, log_m, log_n);
}
template <class FP>
__global__ void fixup_kernel(DevField<FP>* a, std::size_t n, DevField<FP> n_inv) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i <= n / 2) body::inverse_fixup(a, i, n, n_inv);
}
template <class FP>
__global__ void scale_kernel(DevField<FP>* a, std::size_t n, const DevField<FP>* pow2) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) body::scale_by_power(a, i, pow2);
}

template <class FP>
__global__ void quotient_kernel(DevField<FP>* a, const DevField<FP>* b, const DevField<FP>* c, std::size_t n,
                                DevField<FP> z_inv) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) a[i] = (a[i] * b[i] - c[i]) * z_inv;
}

/// The in-place transform on device data already resident (see transform()).
template <class FP>
void run_transform(cudaStream_t st, DevField<FP>* a, const DevField<FP>* tw, unsigned log_n, const DevField<FP>* n_inv,
                   const DevField<FP>* pow2) {
  const std::size_t n = std::size_t{1} << log_n;
  if (pow2 != nullptr && n_inv == nullptr) scale_kernel<FP><<<blocks(n), kThreads, 0, st>>>(a, n, pow2);
  permute_kernel<FP><<<blocks(n), kThreads, 0, st>>>(a, n, log_n);
  for (unsigned log_m = 0; log_m < log_n; ++log_m) {
    butterfly_kernel<FP><<<blocks(n / 2), kThreads, 0, st>>>(a, tw, n / 2, log_m, log_n);
  }
  if (n_inv != nullptr) {
    fixup_kernel<FP><<<blocks(n / 2 + 1), kThreads, 0, st>>>(a, n, *n_inv);
    if (pow2 != nullptr) scale_kernel<FP><<<blocks(n), kThreads, 0, st>>>(a, n, pow2);
  }
}

}  // namespace

template <class FP>
Status compute_h(std::uint64_t* a_host, const std::uint64_t* b_host, const std::uint64_t* c_host, unsigned log_n,
                 const std::uint64_t* twiddles, const std::uint64_t* n_inv, const std::uint64_t* g_pow2,
                 const std::uint64_t* g_inv_pow2, const std::uint64_t* z_inv) {
  if (Status s = zk::gpu::require_device(); !s.ok()) return s;
  using F = DevField<FP>;
  if (log_n == 0) return Status::invalid_argument("gpu compute_h: the domain needs at least 2 points");
  const std::size_t n = std::size_t{1} << log_n;
  zk::gpu::Stream stream;
  if (Status s = stream.create(); !s.ok()) return s;
  auto st = stream.get();
  zk::gpu::DeviceBuffer<F> a, b, c, tw, gp, gip;
  for (Status s : {a.allocate(n), b.allocate(n), c.allocate(n), tw.allocate(n / 2 + 1), gp.allocate(log_n),
                   gip.allocate(log_n)}) {
    if (!s.ok()) return s;
  }
  ZK_CUDA_TRY(cudaMemcpyAsync(a.get(), a_host, n * sizeof(F), cudaMemcpyHostToDevice, st));
  ZK_CUDA_TRY(cudaMemcpyAsync(b.get(), b_host, n * sizeof(F), cudaMemcpyHostToDevice, st));
  ZK_CUDA_TRY(cudaMemcpyAsync(c.get(), c_host, n * sizeof(F), cudaMemcpyHostToDevice, st));
  ZK_CUDA_TRY(cudaMemcpyAsync(tw.get(), twiddles, (n / 2 + 1) * sizeof(F), cudaMemcpyHostToDevice, st));
  ZK_CUDA_TRY(cudaMemcpyAsync(gp.get(), g_pow2, log_n * sizeof(F), cudaMemcpyHostToDevice, st));
  ZK_CUDA_TRY(cudaMemcpyAsync(gip.get(), g_inv_pow2, log_n * sizeof(F), cudaMemcpyHostToDevice, st));
  const F ninv = F::from_raw(n_inv);
  for (F* x : {a.get(), b.get(), c.get()}) {
    run_transform<FP>(st, x, tw.get(), log_n, &ninv, nullptr);  // interpolate
    run_transform<FP>(st, x, tw.get(), log_n, nullptr, gp.get());  // evaluate on g<omega>
  }
  quotient_kernel<FP><<<blocks(n), kThreads, 0, st>>>(a.get(), b.get(), c.get(), n, F::from_raw(z_inv));
  run_transform<FP>(st, a.get(), tw.get(), log_n, &ninv, gip.get());  // interpolate from the coset
  ZK_CUDA_TRY(cudaGetLastError());
  ZK_CUDA_TRY(cudaMemcpyAsync(a_host, a.get(), n * sizeof(F), cudaMemcpyDeviceToHost, st));
  return stream.sync();
}

template <class FP>
Status transform(std::uint64_t* data, unsigned log_n, const std::uint64_t* twiddles, const std::uint64_t* n_inv,
                 const std::uint64_t* shift_pow2) {
  if (Status s = zk::gpu::require_device(); !s.ok()) return s;
  using F = DevField<FP>;
  const std::size_t n = std::size_t{1} << log_n;
  if (log_n == 0) return {};
  zk::gpu::Stream stream;
  if (Status s = stream.create(); !s.ok()) return s;
  zk::gpu::DeviceBuffer<F> a, tw, pow2;
  if (Status s = a.allocate(n); !s.ok()) return s;
  if (Status s = tw.allocate(n / 2 + 1); !s.ok()) return s;
  ZK_CUDA_TRY(cudaMemcpyAsync(a.get(), data, n * sizeof(F), cudaMemcpyHostToDevice, stream.get()));
  ZK_CUDA_TRY(cudaMemcpyAsync(tw.get(), twiddles, (n / 2 + 1) * sizeof(F), cudaMemcpyHostToDevice, stream.get()));
  if (shift_pow2 != nullptr) {
    if (Status s = pow2.allocate(log_n); !s.ok()) return s;
    ZK_CUDA_TRY(cudaMemcpyAsync(pow2.get(), shift_pow2, log_n * sizeof(F), cudaMemcpyHostToDevice, stream.get()));
  }
  const F ninv = n_inv != nullptr ? F::from_raw(n_inv) : F::zero();
  run_transform<FP>(stream.get(), a.get(), tw.get(), log_n, n_inv != nullptr ? &ninv : nullptr,
                    shift_pow2 != nullptr ? pow2.get() : nullptr);
  ZK_CUDA_TRY(cudaGetLastError());
  ZK_CUDA_TRY(cudaMemcpyAsync(data, a.get(), n * sizeof(F), cudaMemcpyDeviceToHost, stream.get()));
  return stream.sync();
}

template Status compute_h<field::params::Bls12_381Fr>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*,
                                                      unsigned, const std::uint64_t*, const std::uint64_t*,
                                                      const std::uint64_t*, const std::uint64_t*, const std::uint64_t*);
template Status compute_h<field::params::Bn254Fr>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*, unsigned,
                                                  const std::uint64_t*, const std::uint64_t*, const std::uint64_t*,
                                                  const std::uint64_t*, const std::uint64_t*);
template Status transform<field::params::Bls12_381Fr>(std::uint64_t*, unsigned, const std::uint64_t*,
                                                      const std::uint64_t*, const std::uint64_t*);
template Status transform<field::params::Bn254Fr>(std::uint64_t*, unsigned, const std::uint64_t*,
                                                  const std::uint64_t*, const std::uint64_t*);

}  // namespace zk::ntt::gpu::raw
