#pragma once

// Fq12 = Fq6[w]/(w^2 - v): the pairing target field.

#include <array>

#include "field/fp6.hpp"

namespace zk::field {

template <class F, class T>
struct Fp12 {
  using Fq2 = Fp2<F>;
  using Fq6 = Fp6<F, T>;

  Fq6 c0, c1;  // c0 + c1 w

  static constexpr Fp12 zero() { return {}; }
  static constexpr Fp12 one() { return {Fq6::one(), Fq6::zero()}; }
  static Fp12 random(Rng& rng) {
    Fq6 a = Fq6::random(rng);
    return {a, Fq6::random(rng)};
  }

  constexpr bool is_one() const { return c0 == Fq6::one() && c1.is_zero(); }
  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  friend constexpr bool operator==(const Fp12& a, const Fp12& b) = default;

  friend constexpr Fp12 operator+(const Fp12& a, const Fp12& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend constexpr Fp12 operator-(const Fp12& a, const Fp12& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  /// Karatsuba: 3 Fq6 multiplications.
  friend constexpr Fp12 operator*(const Fp12& a, const Fp12& b) {
    const Fq6 t0 = a.c0 * b.c0;
    const Fq6 t1 = a.c1 * b.c1;
    return {t0 + t1.mul_by_v(), (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }
  Fp12& operator*=(const Fp12& b) { return *this = *this * b; }

  /// Complex squaring: 2 Fq6 multiplications.
  constexpr Fp12 square() const {
    const Fq6 ab = c0 * c1;
    return {(c0 + c1) * (c0 + c1.mul_by_v()) - ab - ab.mul_by_v(), ab.dbl()};
  }

  /// x^(p^6): for elements of the cyclotomic subgroup this is the inverse.
  constexpr Fp12 conjugate() const { return {c0, -c1}; }
  constexpr Fp12 inverse() const {
    const Fq6 d = (c0.square() - c1.square().mul_by_v()).inverse();
    return {c0 * d, -(c1 * d)};
  }

  /// x^(p^k).
  constexpr Fp12 frobenius(unsigned k) const {
    const Fq6 a = c0.frobenius(k);
    const Fq6 b = c1.frobenius(k);
    const Fq2& g = kFrobC1[k % 12];
    return {a, {b.c0 * g, b.c1 * g, b.c2 * g}};
  }

  /// x * (d0 + d1 v + d4 v w): the sparse line of an M-type twist (BLS12-381).
  constexpr Fp12 mul_by_014(const Fq2& d0, const Fq2& d1, const Fq2& d4) const {
    const Fq6 aa = c0.mul_by_01(d0, d1);
    const Fq6 bb = c1.mul_by_1(d4);
    return {bb.mul_by_v() + aa, (c0 + c1).mul_by_01(d0, d1 + d4) - aa - bb};
  }
  /// x * (d0 + d3 w + d4 v w): the sparse line of a D-type twist (BN254).
  constexpr Fp12 mul_by_034(const Fq2& d0, const Fq2& d3, const Fq2& d4) const {
    const Fq6 a = c0.mul_by_fq2(d0);
    const Fq6 b = c1.mul_by_01(d3, d4);
    return {b.mul_by_v() + a, (c0 + c1).mul_by_01(d0 + d3, d4) - a - b};
  }

  /// Squaring in the cyclotomic subgroup (elements with x^(p^4 - p^2 + 1) ... i.e. after the easy
  /// part of the final exponentiation). Granger and Scott, "Faster Squaring in the Cyclotomic
  /// Subgroup of Sixth Degree Extensions" (PKC 2010), section 3.2: view Fq12 as Fq4[y]/(y^3 - ...)
  /// and square three Fq4 elements (z0 + z1 y), (z2 + z3 y), (z4 + z5 y). Only valid on that subgroup.
  constexpr Fp12 cyclotomic_square() const {
    // The Fq4 pairs in the Fq12 = Fq6[w] coordinates: (c0.c0, c1.c1), (c1.c0, c0.c2), (c0.c1, c1.c2).
    const auto fq4_square = [](const Fq2& a, const Fq2& b, Fq2& s0, Fq2& s1) {
      const Fq2 ab = a * b;
      s0 = (a + b) * (Fq6::mul_by_xi(b) + a) - ab - Fq6::mul_by_xi(ab);  // a^2 + xi b^2
      s1 = ab.dbl();                                                     // 2ab
    };
    Fq2 t0, t1, t2, t3, t4, t5;
    fq4_square(c0.c0, c1.c1, t0, t1);
    fq4_square(c1.c0, c0.c2, t2, t3);
    fq4_square(c0.c1, c1.c2, t4, t5);
    const auto three_minus_two = [](const Fq2& t, const Fq2& z) { return (t - z).dbl() + t; };  // 3t - 2z
    const auto three_plus_two = [](const Fq2& t, const Fq2& z) { return (t + z).dbl() + t; };   // 3t + 2z
    Fp12 r;
    r.c0.c0 = three_minus_two(t0, c0.c0);
    r.c1.c1 = three_plus_two(t1, c1.c1);
    r.c1.c0 = three_plus_two(Fq6::mul_by_xi(t5), c1.c0);
    r.c0.c2 = three_minus_two(t4, c0.c2);
    r.c0.c1 = three_minus_two(t2, c0.c1);
    r.c1.c2 = three_plus_two(t3, c1.c2);
    return r;
  }

  template <std::size_t M>
  constexpr Fp12 pow(const Limbs<M>& e) const {
    return pow_square_multiply(*this, e, [](const Fp12& y) { return y.square(); });
  }
  /// x^e for x in the cyclotomic subgroup (uses cyclotomic squarings).
  template <std::size_t M>
  constexpr Fp12 cyclotomic_pow(const Limbs<M>& e) const {
    return pow_square_multiply(*this, e, [](const Fp12& y) { return y.cyclotomic_square(); });
  }

 private:
  static constexpr std::array<Fq2, 12> make() {
    std::array<Fq2, 12> out{};
    for (std::size_t i = 0; i < 12; ++i) out[i] = Fq2::from_canonical_unchecked(T::kFrobeniusFq12C1[i]);
    return out;
  }
  static constexpr std::array<Fq2, 12> kFrobC1 = make();
};

}  // namespace zk::field
