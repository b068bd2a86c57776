#pragma once

// The GLV endomorphism (Gallant, Lambert, Vanstone, "Faster point multiplication on elliptic curves
// with efficient endomorphisms", CRYPTO 2001) of G1 and G2 for BLS12-381 and BN254.
//
// Both curves and their twists are y^2 = x^3 + b with j = 0 over a field containing Fq, q = 1 mod 3,
// so phi(x, y) = (beta x, y), beta a primitive cube root of unity in Fq, is an endomorphism; on the
// order-r groups G1 and G2 it acts as multiplication by lambda, a cube root of unity in Fr (the two
// groups may get different ones). On G2 this is the 2-dimensional split; the 4-dimensional one with
// psi (BLS12: psi = [x], 64-bit pieces) is not done. A scalar k < r is split as
// k = k1 + k2 lambda (mod r) with |k1|, |k2| < 2^kBits (about sqrt(r)), so
// [k]P = [k1]P + [k2]phi(P): two half-length multiplications, and phi costs one Fq product.
//
// Splitting: Babai rounding in a short basis v1 = (a1, b1), v2 = (a2, b2) of the lattice
// {(a, b): a + b lambda = 0 mod r} (GLV section 4); c_i = round(k g_i / 2^256) with precomputed g_i,
// k1 = k - c1 a1 - c2 a2, k2 = -c1 b1 - c2 b2. The constants and the bound kBits are derived and
// checked in tools/gen_constants.py (glv()); tests/curve/glv_test.cpp checks them again here
// (beta^3 = 1, lambda^2 + lambda + 1 = 0, phi(P) = [lambda]P) and the split on edge and random k.
//
// For BLS12-381 (with the beta of the subgroup test, phi = [-x^2]) the basis found is
// v1 = (1, -(x^2 - 1)), v2 = (x^2, 1): since r = x^4 - x^2 + 1, the split amounts to dividing k by
// x^2 (|k2| ~ k / x^2, k1 the remainder). The general rounding costs a few dozen 64-bit products
// per scalar, negligible beside the MSM's point additions, so one code path serves both curves.

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "curve/bls12_381.hpp"
#include "curve/bn254.hpp"
#include "curve/point.hpp"
#include "curve/scalar_mul.hpp"
#include "field/bigint.hpp"

namespace zk::curve {

/// Per-group GLV constants; specialised below for the groups that have them.
template <class C>
struct GlvParams;

// The constants of tools/gen_constants.py (glv()) for one group; signed ones in two's complement.
// beta is an element of Fq for both groups (on G2 it multiplies each Fq component of x).
#define ZK_GLV_PARAMS(Group, Fq, P, G)                                                                      \
  template <>                                                                                               \
  struct GlvParams<Group> {                                                                                 \
    static constexpr Fq kBeta = Fq::from_canonical_unchecked(P::kG1EndoBeta);    /* phi */                  \
    static constexpr field::Limbs<4> kLambda = P::k##G##GlvLambda;               /* phi = [lambda] */       \
    static constexpr field::Limbs<4> kA1 = P::k##G##GlvA1, kB1 = P::k##G##GlvB1; /* v1 */                   \
    static constexpr field::Limbs<4> kA2 = P::k##G##GlvA2, kB2 = P::k##G##GlvB2; /* v2 */                   \
    static constexpr field::Limbs<4> kG1 = P::k##G##GlvG1, kG2 = P::k##G##GlvG2; /* Babai */                \
    static constexpr unsigned kBits = P::k##G##GlvBits;                          /* |k1|, |k2| < 2^kBits */ \
  };
ZK_GLV_PARAMS(Bls12_381G1, field::Bls12_381Fq, params::Bls12_381Curve, G1)
ZK_GLV_PARAMS(Bls12_381G2, field::Bls12_381Fq, params::Bls12_381Curve, G2)
ZK_GLV_PARAMS(Bn254G1, field::Bn254Fq, params::Bn254Curve, G1)
ZK_GLV_PARAMS(Bn254G2, field::Bn254Fq, params::Bn254Curve, G2)
#undef ZK_GLV_PARAMS

template <class C>
concept HasGlv = CurveConfig<C> && requires {
  GlvParams<C>::kBits;
};

/// k = k1 + k2 lambda (mod r) as magnitudes and signs: k = (-1)^neg1 |k1| + (-1)^neg2 |k2| lambda.
struct GlvSplit {
  field::Limbs<2> k1, k2;  // magnitudes, < 2^kBits <= 2^128
  bool neg1, neg2;
};

namespace glv_detail {

using field::Limbs;
using field::u128;

/// a b mod 2^256.
constexpr Limbs<4> mul_lo(const Limbs<4>& a, const Limbs<4>& b) {
  Limbs<4> r{};
  for (std::size_t i = 0; i < 4; ++i) {
    std::uint64_t carry = 0;
    for (std::size_t j = 0; i + j < 4; ++j) {
      const u128 t = static_cast<u128>(a[i]) * b[j] + r[i + j] + carry;
      r[i + j] = static_cast<std::uint64_t>(t);
      carry = static_cast<std::uint64_t>(t >> 64);
    }
  }
  return r;
}

/// (a b + 2^255) >> 256 (the full 512-bit product, rounded to its upper half).
constexpr Limbs<4> mul_round_hi(const Limbs<4>& a, const Limbs<4>& b) {
  std::uint64_t r[8] = {};
  for (std::size_t i = 0; i < 4; ++i) {
    std::uint64_t carry = 0;
    for (std::size_t j = 0; j < 4; ++j) {
      const u128 t = static_cast<u128>(a[i]) * b[j] + r[i + j] + carry;
      r[i + j] = static_cast<std::uint64_t>(t);
      carry = static_cast<std::uint64_t>(t >> 64);
    }
    r[i + 4] = carry;
  }
  // + 2^255: add to limb 3's top bit and carry upwards.
  std::uint64_t carry = field::add_carry(r[3], std::uint64_t{1} << 63, 0, r[3]);
  for (std::size_t i = 4; i < 8; ++i) carry = field::add_carry(r[i], 0, carry, r[i]);
  return {r[4], r[5], r[6], r[7]};
}

/// |v| and its sign for a two's-complement v known to satisfy |v| < 2^128.
constexpr void to_signed(const Limbs<4>& v, Limbs<2>& mag, bool& neg) {
  neg = (v[3] >> 63) != 0;
  Limbs<4> m = v;
  if (neg) field::sub_limbs(m, Limbs<4>{}, v);
  mag = {m[0], m[1]};
}

}  // namespace glv_detail

/// The GLV split of a canonical scalar k < r.
template <HasGlv C>
constexpr GlvSplit glv_split(const field::Limbs<4>& k) {
  using G = GlvParams<C>;
  using glv_detail::mul_lo;
  const field::Limbs<4> c1 = glv_detail::mul_round_hi(k, G::kG1), c2 = glv_detail::mul_round_hi(k, G::kG2);
  field::Limbs<4> k1 = k, k2{};
  field::sub_limbs(k1, k1, mul_lo(c1, G::kA1));
  field::sub_limbs(k1, k1, mul_lo(c2, G::kA2));
  field::sub_limbs(k2, k2, mul_lo(c1, G::kB1));
  field::sub_limbs(k2, k2, mul_lo(c2, G::kB2));
  GlvSplit s{};
  glv_detail::to_signed(k1, s.k1, s.neg1);
  glv_detail::to_signed(k2, s.k2, s.neg2);
  return s;
}

namespace glv_detail {
/// beta x: one Fq product on G1, two on G2.
template <class F, class Fq>
constexpr F times_beta(const F& x, const Fq& beta) {
  if constexpr (std::is_same_v<F, Fq>) {
    return x * beta;
  } else {
    return x.mul_by_base(beta);
  }
}
}  // namespace glv_detail

/// phi(P) = (beta x, y) = [lambda] P.
template <HasGlv C>
constexpr Affine<C> glv_endomorphism(const Affine<C>& p) {
  return {glv_detail::times_beta(p.x, GlvParams<C>::kBeta), p.y, p.infinity};
}

template <HasGlv C>
Jacobian<C> glv_endomorphism(const Jacobian<C>& p) {
  return {glv_detail::times_beta(p.x, GlvParams<C>::kBeta), p.y, p.z};
}

/// [k]P as [k1]P + [k2]phi(P) (Straus over the two half-length scalars, width-5 NAF digits, the odd
/// multiples of phi(P) from those of P at one beta product each): about half the doublings of
/// scalar_mul. Not constant time (as scalar_mul).
template <HasGlv C>
Jacobian<C> glv_mul(const Jacobian<C>& p, const typename C::Scalar& k) {
  constexpr unsigned kWindow = 5;
  constexpr std::size_t kOdd = std::size_t{1} << (kWindow - 2);
  if (p.is_identity()) return p;
  const GlvSplit s = glv_split<C>(k.to_canonical());
  std::array<std::int8_t, 129> d1{}, d2{};
  const std::size_t n1 = wnaf_digits(s.k1, kWindow, d1), n2 = wnaf_digits(s.k2, kWindow, d2);
  // Odd multiples of +-P and +-phi(P), the signs of the split folded in.
  std::array<Jacobian<C>, kOdd> t1, t2;
  t1[0] = s.neg1 ? p.neg() : p;
  const Jacobian<C> twice = t1[0].dbl();
  for (std::size_t i = 1; i < kOdd; ++i) t1[i] = t1[i - 1] + twice;
  for (std::size_t i = 0; i < kOdd; ++i) {
    t2[i] = glv_endomorphism(t1[i]);
    if (s.neg1 != s.neg2) t2[i] = t2[i].neg();
  }
  Jacobian<C> acc = Jacobian<C>::identity();
  for (std::size_t b = std::max(n1, n2); b-- > 0;) {
    acc = acc.dbl();
    for (const auto& [d, t] : {std::pair{b < n1 ? d1[b] : 0, &t1}, std::pair{b < n2 ? d2[b] : 0, &t2}}) {
      if (d > 0) acc = acc + (*t)[static_cast<std::size_t>(d / 2)];
      if (d < 0) acc = acc + (*t)[static_cast<std::size_t>(-d / 2)].neg();
    }
  }
  return acc;
}

}  // namespace zk::curve
