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

}  // namespace

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
    if (n_inv == nullptr) scale_kernel<FP><<<blocks(n), kThreads, 0, stream.get()>>>(a.get(), n, pow2.get());
  }
  permute_kernel<FP><<<blocks(n), kThreads, 0, stream.get()>>>(a.get(), n, log_n);
  for (unsigned log_m = 0; log_m < log_n; ++log_m) {
    butterfly_kernel<FP><<<blocks(n / 2), kThreads, 0, stream.get()>>>(a.get(), tw.get(), n / 2, log_m, log_n);
  }
  if (n_inv != nullptr) {
    fixup_kernel<FP><<<blocks(n / 2 + 1), kThreads, 0, stream.get()>>>(a.get(), n, F::from_raw(n_inv));
    if (shift_pow2 != nullptr) scale_kernel<FP><<<blocks(n), kThreads, 0, stream.get()>>>(a.get(), n, pow2.get());
  }
  ZK_CUDA_TRY(cudaGetLastError());
  ZK_CUDA_TRY(cudaMemcpyAsync(data, a.get(), n * sizeof(F), cudaMemcpyDeviceToHost, stream.get()));
  return stream.sync();
}

template Status transform<field::params::Bls12_381Fr>(std::uint64_t*, unsigned, const std::uint64_t*,
                                                      const std::uint64_t*, const std::uint64_t*);
template Status transform<field::params::Bn254Fr>(std::uint64_t*, unsigned, const std::uint64_t*,
                                                  const std::uint64_t*, const std::uint64_t*);

}  // namespace zk::ntt::gpu::raw
