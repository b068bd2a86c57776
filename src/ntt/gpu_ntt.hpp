#pragma once

// NTTs on the GPU (ntt/cuda/ntt_gpu.cu): the same transforms as ntt.hpp's forward / inverse (natural
// order in and out) and the cosets, for BLS12-381 Fr and BN254 Fr. Without CUDA, or without a
// device, every call returns UNAVAILABLE with the reason (gpu::require_device()).

#include <cstdint>
#include <span>
#include <vector>

#include "base/status.hpp"
#include "field/roots.hpp"
#include "gpu/resident.hpp"
#include "ntt/cuda/ntt_raw.hpp"
#include "ntt/domain.hpp"

namespace zk::ntt::gpu {

/// factor g^x for x < 2^log_count as the kernels' two-level table (ntt_body.hpp PowerTable):
/// lo[j] = g^j (j < 2^lo_bits), hi[j] = factor g^(j 2^lo_bits). About 2 sqrt(count) elements.
template <class F>
struct PowerTables {
  std::vector<F> hi, lo;
  unsigned log_count = 0, lo_bits = 0;
  static PowerTables make(const F& g, unsigned log_count, const F& factor = F::one()) {
    PowerTables t;
    t.log_count = log_count;
    t.lo_bits = (log_count + 1) / 2;  // ntt_body::power_table_lo_bits
    t.lo.resize(std::size_t{1} << t.lo_bits);
    F x = F::one();
    for (auto& e : t.lo) e = x, x = x * g;
    const F step = x;  // g^(2^lo_bits)
    t.hi.resize(std::size_t{1} << (log_count - t.lo_bits));
    F y = factor;
    for (auto& e : t.hi) e = y, y = y * step;
    return t;
  }
  raw::Powers raw() const {
    return {reinterpret_cast<const std::uint64_t*>(hi.data()), reinterpret_cast<const std::uint64_t*>(lo.data()),
            log_count, lo_bits};
  }
};

namespace detail {
/// omega^x for x < n/2.
template <class F>
PowerTables<F> twiddle_tables(const Domain<F>& d) {
  const unsigned log_half = d.log_size() == 0 ? 0 : d.log_size() - 1;
  return PowerTables<F>::make(d.omega(), log_half);
}
/// omega^-x for x < n/2 (the quotient's transforms by decimation in frequency).
template <class F>
PowerTables<F> inverse_twiddle_tables(const Domain<F>& d) {
  const unsigned log_half = d.log_size() == 0 ? 0 : d.log_size() - 1;
  return PowerTables<F>::make(d.omega_inv(), log_half);
}
template <class F>
Status run(const Domain<F>& d, std::span<F> a, bool inverse, const F* shift, raw::Timing* timing = nullptr) {
  if (a.size() != d.size()) {
    return Status::invalid_argument("gpu ntt: " + std::to_string(a.size()) + " elements for a domain of " +
                                    std::to_string(d.size()));
  }
  const F n_inv = d.size_inv();
  const auto tw = twiddle_tables(d);
  PowerTables<F> sh;
  if (shift != nullptr) sh = PowerTables<F>::make(*shift, d.log_size(), inverse ? n_inv : F::one());
  const raw::Powers sh_raw = sh.raw();
  return raw::transform<typename F::Params>(reinterpret_cast<std::uint64_t*>(a.data()), d.log_size(), tw.raw(),
                                            inverse ? reinterpret_cast<const std::uint64_t*>(&n_inv) : nullptr,
                                            shift != nullptr ? &sh_raw : nullptr, timing);
}
}  // namespace detail

/// `timing` (optional): upload, kernels and download, measured on the device.
template <class F>
Status forward(const Domain<F>& d, std::span<F> a, raw::Timing* timing = nullptr) {
  return detail::run<F>(d, a, false, nullptr, timing);
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

namespace detail {
/// Both quotients; `on_device` (optional) keeps the result there instead of writing `a`. An empty
/// `c`: c = a o b, formed on the device. `a_dev`, `b_dev` (optional): a and b already on the device
/// (raw::compute_h takes them over); `a` and `b` then only give the sizes.
template <class F>
Status quotient(const Domain<F>& d, std::span<F> a, std::span<const F> b, std::span<const F> c, bool odd_coset,
                void** on_device, void* a_dev = nullptr, void* b_dev = nullptr) {
  if (a.size() != d.size() || b.size() != d.size() || (!c.empty() && c.size() != d.size())) {
    if (a_dev != nullptr) zk::gpu::adopt_device_memory(a_dev);  // dropped: freed
    if (b_dev != nullptr) zk::gpu::adopt_device_memory(b_dev);
    return Status::invalid_argument("gpu quotient: a, b, c must each have the domain's size");
  }
  const F n_inv = d.size_inv(), one = F::one();
  const auto tw = twiddle_tables(d);
  const auto tw_inv = inverse_twiddle_tables(d);
  auto u = [](const auto* p) { return reinterpret_cast<const std::uint64_t*>(p); };
  auto* out = reinterpret_cast<std::uint64_t*>(a.data());
  const std::uint64_t* c_words = c.empty() ? nullptr : u(c.data());
  if (odd_coset) {
    auto omega_2n = field::root_of_unity<F>(d.config().root_generator, d.log_size() + 1);
    if (!omega_2n.ok()) return omega_2n.status();
    const auto shift = PowerTables<F>::make(*omega_2n, d.log_size(), n_inv);
    return raw::compute_h<typename F::Params>(out, u(b.data()), c_words, d.log_size(), tw.raw(), tw_inv.raw(),
                                              shift.raw(), nullptr, u(&one), on_device, a_dev, b_dev);
  }
  const auto g = PowerTables<F>::make(d.coset_generator(), d.log_size(), n_inv);
  const auto g_inv = PowerTables<F>::make(d.coset_generator_inv(), d.log_size(), n_inv);
  const F z_inv = d.vanishing_on_coset_inv();
  const raw::Powers g_inv_raw = g_inv.raw();
  return raw::compute_h<typename F::Params>(out, u(b.data()), c_words, d.log_size(), tw.raw(), tw_inv.raw(), g.raw(),
                                            &g_inv_raw, u(&z_inv), on_device, a_dev, b_dev);
}
}  // namespace detail

/// bellman's quotient (ntt::compute_h's result in `a`: h_0 .. h_{n-1} in natural order) on the
/// device; `b` and `c` are not modified.
template <class F>
Status compute_h(const Domain<F>& d, std::span<F> a, std::span<const F> b, std::span<const F> c) {
  return detail::quotient(d, a, b, c, false, nullptr);
}

/// snarkjs's quotient (ntt::compute_h_odd_coset's result in `a`: a b - c on the odd 2n-th roots
/// of unity, undivided) on the device; `b` and `c` are not modified.
template <class F>
Status compute_h_odd_coset(const Domain<F>& d, std::span<F> a, std::span<const F> b, std::span<const F> c) {
  return detail::quotient(d, a, b, c, true, nullptr);
}

/// Either quotient with its n values left in device memory (`a` is not written), for an MSM that
/// reads them there (msm::gpu::Options::device_scalars). c = a o b is formed on the device (the
/// provers' convention, ntt/quotient.hpp); only a and b are uploaded.
template <class F>
Result<zk::gpu::DeviceCopy> quotient_on_device(const Domain<F>& d, std::span<const F> a, std::span<const F> b,
                                               bool odd_coset) {
  const std::span<const F> c;
  void* out = nullptr;
  // `a` is only read when the result stays on the device.
  if (Status s = detail::quotient(d, std::span<F>(const_cast<F*>(a.data()), a.size()), b, c, odd_coset, &out);
      !s.ok()) {
    return s;
  }
  return zk::gpu::adopt_device_memory(out);
}

/// The same with a and b already in device memory (n elements each, from gpu::device_alloc: a compact
/// column expanded there, msm::gpu::expand_on_device), taken over here: nothing is uploaded.
template <class F>
Result<zk::gpu::DeviceCopy> quotient_on_device(const Domain<F>& d, void* a_on_device, void* b_on_device,
                                               bool odd_coset) {
  void* out = nullptr;
  // Spans over the device buffers give the sizes only; the host never reads through them.
  const std::span<F> a(static_cast<F*>(a_on_device), d.size());
  const std::span<const F> b(static_cast<const F*>(b_on_device), d.size()), c;
  if (Status s = detail::quotient(d, a, b, c, odd_coset, &out, a_on_device, b_on_device); !s.ok()) return s;
  return zk::gpu::adopt_device_memory(out);
}

}  // namespace zk::ntt::gpu
