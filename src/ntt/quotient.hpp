#pragma once

// The Groth16 quotient polynomial H = (A B - C) / Z from the constraint evaluations a, b, c, in the
// two conventions zkpipe must reproduce bit for bit (docs/formats.md, "Prover"):
//
//  - bellman / bellperson (compute_h): interpolate a, b, c over <omega>; evaluate on the coset
//    g<omega>; a b - c; divide by Z(g x) = g^n - 1 (constant on the coset); interpolate back from the
//    coset. The result is h_0 .. h_{n-2} in the monomial basis (h_{n-1} is zero for a satisfying
//    witness and is dropped), for the bellman H query tau^i Z(tau) / delta.
//
//  - snarkjs / rapidsnark (compute_h_odd_coset): interpolate over <omega>, evaluate at the odd 2n-th
//    roots omega_2n^(2j+1) (coefficient i times omega_2n^i, then a forward transform), and return
//    a b - c there, undivided (Z = -2 on those points, absorbed by the zkey's H bases).
//
// Both work in place on the three vectors (working memory: the inputs themselves plus the domain's
// twiddles) and leave the result in `a`; `b` and `c` are scratch afterwards and can be released.
// The provers do not keep c: on a satisfied R1CS every row has <C_i, z> = <A_i, z> <B_i, z>, so c is
// formed as a o b (hadamard_product) just before the quotient (docs/synthesis.md).
//
// Transform orders: each interpolation is a DIF inverse (natural -> bit-reversed coefficients),
// each evaluation a DIT forward (bit-reversed coefficients -> natural values), so the coset scaling
// runs on bit-reversed coefficients and no permutation is needed up to the pointwise product. The
// bellman result needs one: three order-flipping transforms take natural evaluations to
// bit-reversed coefficients, and the H query wants them in natural order. That single permutation
// pass is the only one in the flow (docs/ntt.md).

#include <span>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include "base/status.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt.hpp"

namespace zk::ntt {

namespace detail {

// Natural evaluations on <omega> -> natural evaluations on shift * <omega>.
template <class F>
void evaluate_on_coset(const Domain<F>& domain, std::span<F> x, const F& shift, const PassPlan& plan) {
  dif<F, true>(domain, x, plan);                                        // n * coefficients, bit-reversed
  scale_by_powers(x, shift, domain.size_inv(), /*bit_reversed=*/true);  // coefficient i * shift^i
  dit<F, false>(domain, x, plan);                                       // values at shift omega^k, natural
}

template <class F>
Status check_sizes(const Domain<F>& domain, std::span<F> a, std::span<F> b, std::span<F> c) {
  if (a.size() != domain.size() || b.size() != domain.size() || c.size() != domain.size()) {
    return Status::invalid_argument("quotient: a, b, c must each hold exactly the domain size " +
                                    std::to_string(domain.size()) + " (zero-padded); got " + std::to_string(a.size()) +
                                    ", " + std::to_string(b.size()) + ", " + std::to_string(c.size()));
  }
  return {};
}

}  // namespace detail

namespace detail {
/// For every i < n, in parallel: `vec(i, len)` on the multiple of 8 it takes at the start of each
/// range when the IFMA kernels run here, `scalar(i)` on the rest.
template <class F, class Vec, class Scalar>
void elementwise(std::size_t n, Vec&& vec, Scalar&& scalar) {
  [[maybe_unused]] const bool ifma = use_ifma<F>();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 12), [&](const tbb::blocked_range<std::size_t>& r) {
    std::size_t i = r.begin();
    if (ifma) {
      vec(i, r.size());
      i += r.size() - r.size() % 8;
    }
    for (; i != r.end(); ++i) scalar(i);
  });
}
}  // namespace detail

/// c[i] = a[i] b[i] for every i (the three spans have one size; checked by the callers).
template <class F>
void hadamard_product(std::span<const F> a, std::span<const F> b, std::span<F> c) {
  detail::elementwise<F>(
      c.size(),
      [&]([[maybe_unused]] std::size_t i, [[maybe_unused]] std::size_t len) {
#ifdef ZK_HAVE_IFMA
        field::ifma::mul_arrays(a.data() + i, b.data() + i, c.data() + i, len);
#endif
      },
      [&](std::size_t i) { c[i] = a[i] * b[i]; });
}

namespace detail {
/// a[i] = a[i] b[i] - c[i] for every i.
template <class F>
void mul_sub(std::span<F> a, std::span<const F> b, std::span<const F> c) {
  elementwise<F>(
      a.size(),
      [&]([[maybe_unused]] std::size_t i, [[maybe_unused]] std::size_t len) {
#ifdef ZK_HAVE_IFMA
        field::ifma::mul_sub_arrays(a.data() + i, b.data() + i, c.data() + i, len);
#endif
      },
      [&](std::size_t i) { a[i] = a[i] * b[i] - c[i]; });
}
}  // namespace detail

/// bellman's H: on return a[0 .. n-2] are the coefficients h_0 .. h_{n-2} (natural order) and a[n-1]
/// is the dropped top coefficient (zero when a b - c vanishes on the domain). Inputs: the
/// evaluations of the constraints at omega^0 .. omega^(n-1), zero-padded to n.
template <class F>
Status compute_h(const Domain<F>& domain, std::span<F> a, std::span<F> b, std::span<F> c, const PassPlan& plan = {}) {
  if (Status s = detail::check_sizes(domain, a, b, c); !s.ok()) return s;
  const F& g = domain.coset_generator();
  tbb::parallel_invoke([&] { detail::evaluate_on_coset(domain, a, g, plan); },
                       [&] { detail::evaluate_on_coset(domain, b, g, plan); },
                       [&] { detail::evaluate_on_coset(domain, c, g, plan); });
  detail::mul_sub<F>(a, b, c);
  // Interpolate from the coset: coefficient i = (1 / n) g^-i (1 / Z) * (DIF inverse output).
  detail::dif<F, true>(domain, a, plan);
  scale_by_powers(a, domain.coset_generator_inv(), domain.size_inv() * domain.vanishing_on_coset_inv(),
                  /*bit_reversed=*/true);
  bit_reverse(a);
  return {};
}

/// snarkjs's H: on return a[j] = A(x_j) B(x_j) - C(x_j) at x_j = omega_2n^(2j+1), j = 0 .. n-1, where
/// A, B, C interpolate the inputs over <omega>. Fails when 2n exceeds the field's two-adicity (snarkjs
/// then switches to a different shift; zkpipe does not support that edge).
template <class F>
Status compute_h_odd_coset(const Domain<F>& domain, std::span<F> a, std::span<F> b, std::span<F> c,
                           const PassPlan& plan = {}) {
  if (Status s = detail::check_sizes(domain, a, b, c); !s.ok()) return s;
  auto omega_2n = field::root_of_unity<F>(domain.config().root_generator, domain.log_size() + 1);
  if (!omega_2n.ok()) return omega_2n.status();
  tbb::parallel_invoke([&] { detail::evaluate_on_coset(domain, a, *omega_2n, plan); },
                       [&] { detail::evaluate_on_coset(domain, b, *omega_2n, plan); },
                       [&] { detail::evaluate_on_coset(domain, c, *omega_2n, plan); });
  detail::mul_sub<F>(a, b, c);
  return {};
}

}  // namespace zk::ntt
