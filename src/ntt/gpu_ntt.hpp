#pragma once

// NTTs on the GPU (ntt/cuda/ntt_gpu.cu): the same transforms as ntt.hpp's forward / inverse (natural
// order in and out) and the cosets, for BLS12-381 Fr and BN254 Fr. Without CUDA, or without a
// device, every call returns UNAVAILABLE with the reason (gpu::require_device()).

#include <cstdint>
#include <span>
#include <vector>

#include "base/status.hpp"
#include "ntt/cuda/ntt_raw.hpp"
#include "ntt/domain.hpp"

namespace zk::ntt::gpu {


namespace detail {
template <class F>
std::vector<F> pow2_table(const F& g, unsigned log_n) {
  std::vector<F> t(std::max(1u, log_n));
  F x = g;
  for (auto& e : t) e = x, x = x.square();
  return t;
}
template <class F>
Status run(const Domain<F>& d, std::span<F> a, bool inverse, const F* shift) {
  if (a.size() != d.size()) {
    return Status::invalid_argument("gpu ntt: " + std::to_string(a.size()) + " elements for a domain of " +
                                    std::to_string(d.size()));
  }
  const F n_inv = F::from_u64(d.size()).inverse();
  std::vector<F> pow2;
  if (shift != nullptr) pow2 = pow2_table(*shift, d.log_size());
  return raw::transform<typename F::Params>(reinterpret_cast<std::uint64_t*>(a.data()), d.log_size(),
                                            reinterpret_cast<const std::uint64_t*>(d.twiddles().data()),
                                            inverse ? reinterpret_cast<const std::uint64_t*>(&n_inv) : nullptr,
                                            shift != nullptr ? reinterpret_cast<const std::uint64_t*>(pow2.data()) : nullptr);
}
}  // namespace detail

template <class F>
Status forward(const Domain<F>& d, std::span<F> a) {
  return detail::run<F>(d, a, false, nullptr);
}
template <class F>
Status inverse(const Domain<F>& d, std::span<F> a) {
  return detail::run<F>(d, a, true, nullptr);
}
/// Evaluations on the coset g<omega> of the polynomial with coefficients a.
template <class F>
Status coset_forward(const Domain<F>& d, std::span<F> a, const F& g) {
  return detail::run<F>(d, a, false, &g);
}
/// Coefficients from evaluations on g<omega>.
template <class F>
Status coset_inverse(const Domain<F>& d, std::span<F> a, const F& g) {
  const F g_inv = g.inverse();
  return detail::run<F>(d, a, true, &g_inv);
}

/// bellman's quotient (ntt::compute_h's result in `a`: h_0 .. h_{n-1} in natural order) on the
/// device; `b` and `c` are not modified.
template <class F>
Status compute_h(const Domain<F>& d, std::span<F> a, std::span<const F> b, std::span<const F> c) {
  if (a.size() != d.size() || b.size() != d.size() || c.size() != d.size())
    return Status::invalid_argument("gpu compute_h: a, b, c must each have the domain's size");
  const F n_inv = d.size_inv();
  const auto g = detail::pow2_table(d.coset_generator(), d.log_size());
  const auto g_inv = detail::pow2_table(d.coset_generator_inv(), d.log_size());
  const F z_inv = d.vanishing_on_coset_inv();
  auto u = [](const auto* p) { return reinterpret_cast<const std::uint64_t*>(p); };
  return raw::compute_h<typename F::Params>(reinterpret_cast<std::uint64_t*>(a.data()), u(b.data()), u(c.data()),
                                            d.log_size(), u(d.twiddles().data()), u(&n_inv), u(g.data()),
                                            u(g_inv.data()), u(&z_inv));
}

}  // namespace zk::ntt::gpu
