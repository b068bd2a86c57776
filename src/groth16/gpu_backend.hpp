#pragma once

// prove_start's work on the GPU (prover.hpp's Backend): the quotient H with ntt::gpu::compute_h
// and the G1 MSMs with msm::gpu::msm_g1; density-filtered MSMs gather their scalars into a dense
// vector first (the kernels take dense bases, identity entries allowed). B_G2 stays on the CPU in
// prove_finish, as in the reference daemon. Without a device every call is UNAVAILABLE, which
// callers (engine workloads) answer by running the CpuBackend.

#include <span>
#include <vector>

#include "groth16/prover.hpp"
#include "msm/gpu_msm.hpp"
#include "ntt/gpu_ntt.hpp"

namespace zk::groth16 {

struct GpuBackend {
  static constexpr const char* kName = "gpu";
  template <class F>
  static Status compute_h(const ntt::Domain<F>& d, std::span<F> a, std::span<F> b, std::span<F> c) {
    return ntt::gpu::compute_h(d, a, std::span<const F>(b), std::span<const F>(c));
  }
  template <class C>
  static Result<curve::Jacobian<C>> msm(std::span<const curve::Affine<C>> bases,
                                        std::span<const typename C::Scalar> scalars) {
    return msm::gpu::msm_g1<C>(bases, scalars);
  }
  template <class C>
  static Result<curve::Jacobian<C>> msm_filtered(std::span<const curve::Affine<C>> bases,
                                                 std::span<const typename C::Scalar> scalars,
                                                 const msm::DensityBitmap& density) {
    if (density.size() != scalars.size() || density.popcount() != bases.size()) {
      return Status::invalid_argument("gpu msm: density does not match the bases and scalars");
    }
    std::vector<typename C::Scalar> dense;
    dense.reserve(bases.size());
    for (std::size_t i = 0; i < scalars.size(); ++i) {
      if (density.test(i)) dense.push_back(scalars[i]);
    }
    return msm::gpu::msm_g1<C>(bases, dense);
  }
};

}  // namespace zk::groth16
