// Built without CUDA: the GPU MSM entry point exists and says so.
#include "field/cuda/dev_fq2.hpp"
#include "field/params/bls12_381.hpp"
#include "field/params/bn254.hpp"
#include "gpu/gpu.hpp"
#include "msm/cuda/msm_raw.hpp"

namespace zk::msm::gpu::raw {

template <class FqP, class FrP>
Status msm_points(const void*, const std::uint64_t*, std::size_t, const Plan&, void*, Stats*, const void*, void*) {
  return zk::gpu::require_device();
}
template <class FrP>
Status expand_compact(const CompactScalars&, std::size_t, void**) {
  return zk::gpu::require_device();
}
template <class FqP>
Status unpack_bases(const void*, std::size_t, void**) {
  return zk::gpu::require_device();
}
template <class FqP, class FrP>
Status msm_points_compact(const void*, const CompactScalars&, std::size_t, const Plan&, void*, Stats*, const void*) {
  return zk::gpu::require_device();
}

ZK_MSM_GPU_INSTANCES

}  // namespace zk::msm::gpu::raw
