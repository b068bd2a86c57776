#pragma once

// prove_start's work on a device (prover.hpp's Backend): the quotient H and the G1 MSMs run
// through `Ops` (CudaOps: ntt::gpu::compute_h and msm::gpu::msm_g1), each call inside one turn of
// the device's gate (gpu/gate.hpp, the dual-worker interlock). What needs no device stays outside
// the turn and overlaps the other prover workers' kernels: the padding of a, b, c (prove_start),
// and the gathering of density-filtered scalars into dense vectors (the kernels take dense bases,
// identity entries allowed). B_G2 stays on the CPU in prove_finish, as in the reference daemon.
// Without a device every call is UNAVAILABLE; the engine resolves the device before choosing this
// backend.

#include <memory>
#include <span>
#include <vector>

#include "gpu/gate.hpp"
#include "gpu/resident.hpp"
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
  Result<curve::Jacobian<C>> msm(std::span<const curve::Affine<C>> bases, std::span<const typename C::Scalar> scalars,
                                 const void* device_bases) const {
    return msm::gpu::msm_g1<C>(bases, scalars, {.device_bases = device_bases});
  }
};

/// A device backend over `Ops` (tests substitute CPU-emulated ops to check the interlock). With a
/// ResidentCache and the key's owner, MSM bases stay on the device across proofs (uploaded on the
/// first use, inside the turn; without room they upload as usual).
template <class Ops>
class DeviceBackend {
 public:
  static constexpr const char* kName = "gpu";
  static constexpr bool kHostTwiddles = Ops::kHostTwiddles;
  explicit DeviceBackend(gpu::DeviceGate& gate, Ops ops = {}) : gate_(&gate), ops_(std::move(ops)) {}
  DeviceBackend(gpu::DeviceGate& gate, gpu::ResidentCache* cache, std::weak_ptr<const void> key_owner, Ops ops = {})
      : gate_(&gate), cache_(cache), owner_(std::move(key_owner)), ops_(std::move(ops)) {}

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
    return msm_in_turn<C>(bases, scalars);
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
    return msm_in_turn<C>(bases, std::span<const typename C::Scalar>(dense));
  }
  gpu::DeviceGate& gate() const { return *gate_; }

 private:
  template <class C>
  Result<curve::Jacobian<C>> msm_in_turn(std::span<const curve::Affine<C>> bases,
                                         std::span<const typename C::Scalar> scalars) const {
    gpu::DeviceCopy resident;  // held until the MSM is done, even if the cache evicts it meanwhile
    if (cache_ != nullptr && !bases.empty() && !owner_.expired()) {
      if (auto r = cache_->get(bases.data(), bases.size_bytes(), owner_); r.ok()) resident = std::move(*r);
    }
    return ops_.template msm<C>(bases, scalars, resident.get());
  }

  gpu::DeviceGate* gate_;
  gpu::ResidentCache* cache_ = nullptr;
  std::weak_ptr<const void> owner_;
  Ops ops_;
};

using GpuBackend = DeviceBackend<CudaOps>;

}  // namespace zk::groth16
