// Built without CUDA: the GPU NTT entry points exist and say so.
#include "field/params/bls12_381.hpp"
#include "field/params/bn254.hpp"
#include "gpu/gpu.hpp"
#include "ntt/cuda/ntt_raw.hpp"

namespace zk::ntt::gpu::raw {

template <class FP>
Status transform(std::uint64_t*, unsigned, const Powers&, const std::uint64_t*, const Powers*, Timing*) {
  return zk::gpu::require_device();
}
template <class FP>
Status compute_h(std::uint64_t*, const std::uint64_t*, const std::uint64_t*, unsigned, const Powers&, const Powers&,
                 const Powers&, const Powers*, const std::uint64_t*, void**, void*, void*) {
  return zk::gpu::require_device();
}

ZK_NTT_GPU_INSTANTIATE(field::params::Bls12_381Fr)
ZK_NTT_GPU_INSTANTIATE(field::params::Bn254Fr)
#undef ZK_NTT_GPU_INSTANTIATE

}  // namespace zk::ntt::gpu::raw
