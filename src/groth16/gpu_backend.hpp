#pragma once

// prove_start's work on a device (prover.hpp's Backend): the quotient H and the G1 MSMs run
// through `Ops` (CudaOps: ntt::gpu::compute_h and msm::gpu::msm_g1), each call inside one turn of
// the device's gate (gpu/gate.hpp, the dual-worker interlock). What needs no device stays outside
// the turn and overlaps the other prover workers' kernels: the padding of a, b, c (prove_start),
// and the gathering of density-filtered scalars into dense vectors (the kernels take dense bases,
// identity entries allowed). B_G2 stays on the CPU in prove_finish, as in the reference daemon.
// Without a device every call is UNAVAILABLE; the engine resolves the device before choosing this
// backend.

#include <span>
#include <vector>

#include "gpu/gate.hpp"
#include "groth16/prover.hpp"
#include "msm/gpu_msm.hpp"
#include "ntt/gpu_ntt.hpp"

namespace zk::groth16 {

/// The device calls of the CUDA build.
struct CudaOps {
  static constexpr bool kHostTwiddles = false;  // the kernels build theirs from omega
  template <class F>
  Status compute_h(const ntt::Domain<F>& d, std::span<F> a, std::span<F> b, std::span<F> c) const {
    return ntt::gpu::compute_h(d, a, std::span<const F>(b), std::span<const F>(c));
  }
  template <class F>
  Status compute_h_odd_coset(const ntt::Domain<F>& d, std::span<F> a, std::span<F> b, std::span<F> c) const {
    return ntt::gpu::compute_h_odd_coset(d, a, std::span<const F>(b), std::span<const F>(c));
  }
  template <class C>
  Result<curve::Jacobian<C>> msm(std::span<const curve::Affine<C>> bases,
                                 std::span<const typename C::Scalar> scalars) const {
    return msm::gpu::msm_g1<C>(bases, scalars);
  }
};

/// A device backend over `Ops` (tests substitute CPU-emulated ops to check the interlock).
template <class Ops>
class DeviceBackend {
 public:
  static constexpr const char* kName = "gpu";
  static constexpr bool kHostTwiddles = Ops::kHostTwiddles;
  explicit DeviceBackend(gpu::DeviceGate& gate, Ops ops = {}) : gate_(&gate), ops_(std::move(ops)) {}

  template <class F>
  Status compute_h(const ntt::Domain<F>& d, std::span<F> a, std::span<F> b, std::span<F> c) const {
    auto turn = gate_->enter();
    return ops_.compute_h(d, a, b, c);
  }
  template <class F>
  Status compute_h_odd_coset(const ntt::Domain<F>& d, std::span<F> a, std::span<F> b, std::span<F> c) const {
    auto turn = gate_->enter();
    return ops_.compute_h_odd_coset(d, a, b, c);
  }
  template <class C>
  Result<curve::Jacobian<C>> msm(std::span<const curve::Affine<C>> bases,
                                 std::span<const typename C::Scalar> scalars) const {
    auto turn = gate_->enter();
    return ops_.template msm<C>(bases, scalars);
  }
  template <class C>
  Result<curve::Jacobian<C>> msm_filtered(std::span<const curve::Affine<C>> bases,
                                          std::span<const typename C::Scalar> scalars,
                                          const msm::DensityBitmap& density) const {
    if (density.size() != scalars.size() || density.popcount() != bases.size()) {
      return Status::invalid_argument("gpu msm: density does not match the bases and scalars");
    }
    std::vector<typename C::Scalar> dense;  // gathered outside the turn
    dense.reserve(bases.size());
    for (std::size_t i = 0; i < scalars.size(); ++i) {
      if (density.test(i)) dense.push_back(scalars[i]);
    }
    auto turn = gate_->enter();
    return ops_.template msm<C>(bases, std::span<const typename C::Scalar>(dense));
  }
  gpu::DeviceGate& gate() const { return *gate_; }

 private:
  gpu::DeviceGate* gate_;
  Ops ops_;
};

using GpuBackend = DeviceBackend<CudaOps>;

}  // namespace zk::groth16
