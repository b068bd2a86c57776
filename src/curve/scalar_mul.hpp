#pragma once

// Variable-base scalar multiplication: width-5 wNAF over Jacobian coordinates. Not constant time:
// zkpipe multiplies public values or values whose timing does not matter on a proving server
// (setup keys are development keys; see docs/architecture.md).

#include <array>
#include <cstdint>

#include "curve/point.hpp"
#include "field/bigint.hpp"

namespace zk::curve {

/// Signed digits of k in width-w NAF, least significant first; returns the digit count.
template <std::size_t N>
std::size_t wnaf_digits(const field::Limbs<N>& k, unsigned w, std::array<std::int8_t, 64 * N + 1>& digits) {
  field::Limbs<N + 1> e{};
  for (std::size_t i = 0; i < N; ++i) e[i] = k[i];
  const std::uint64_t window = std::uint64_t{1} << w;
  std::size_t n = 0;
  while (!field::is_zero_limbs(e)) {
    std::int64_t d = 0;
    if (e[0] & 1) {
      d = static_cast<std::int64_t>(e[0] & (window - 1));
      if (d >= static_cast<std::int64_t>(window / 2)) d -= static_cast<std::int64_t>(window);
      field::Limbs<N + 1> dl{};
      if (d > 0) {
        dl[0] = static_cast<std::uint64_t>(d);
        field::sub_limbs(e, e, dl);
      } else {
        dl[0] = static_cast<std::uint64_t>(-d);
        field::add_limbs(e, e, dl);
      }
    }
    digits[n++] = static_cast<std::int8_t>(d);
    field::shr1(e);
  }
  return n;
}

/// [k]P for a non-negative integer k of any width.
template <CurveConfig C, std::size_t N>
Jacobian<C> scalar_mul(const Jacobian<C>& p, const field::Limbs<N>& k) {
  constexpr unsigned kWindow = 5;
  std::array<std::int8_t, 64 * N + 1> digits{};
  const std::size_t n = wnaf_digits(k, kWindow, digits);
  if (n == 0 || p.is_identity()) return Jacobian<C>::identity();
  // Odd multiples P, 3P, ..., 15P.
  std::array<Jacobian<C>, 1u << (kWindow - 2)> table;
  table[0] = p;
  const Jacobian<C> p2 = p.dbl();
  for (std::size_t i = 1; i < table.size(); ++i) table[i] = table[i - 1] + p2;
  Jacobian<C> acc = Jacobian<C>::identity();
  for (std::size_t i = n; i-- > 0;) {
    acc = acc.dbl();
    const int d = digits[i];
    if (d > 0) acc = acc + table[static_cast<std::size_t>(d / 2)];
    if (d < 0) acc = acc + table[static_cast<std::size_t>(-d / 2)].neg();
  }
  return acc;
}

/// [k]P for a scalar field element k.
template <CurveConfig C>
Jacobian<C> operator*(const Jacobian<C>& p, const typename C::Scalar& k) {
  return scalar_mul(p, k.to_canonical());
}

/// [k]P for a small k, by double-and-add over the bits of k (cheap when k is sparse, like |x|).
template <CurveConfig C>
Jacobian<C> mul_u64(const Jacobian<C>& p, std::uint64_t k) {
  Jacobian<C> acc = Jacobian<C>::identity();
  for (int i = 63; i >= 0; --i) {
    acc = acc.dbl();
    if ((k >> i) & 1) acc = acc + p;
  }
  return acc;
}

template <CurveConfig C>
Jacobian<C> Jacobian<C>::random(Rng& rng) {
  return generator() * C::Scalar::random(rng);
}

}  // namespace zk::curve
