#pragma once

// Fq12 = Fq6[w]/(w^2 - v): the pairing target field.

#include <array>
#include <optional>

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
  /// Karatsuba: 3 Fq6 multiplications, combined before the reductions (12 instead of 18).
  friend constexpr Fp12 operator*(const Fp12& a, const Fp12& b) {
    using W = typename Fq6::Wide;
    const W t0 = Fq6::mul_wide(a.c0, b.c0);
    const W t1 = Fq6::mul_wide(a.c1, b.c1);
    return {(t0 + t1.mul_by_v()).reduce(), (Fq6::mul_wide(a.c0 + a.c1, b.c0 + b.c1) - t0 - t1).reduce()};
  }
  /// The same with reduced Fq6 products (the tests' reference).
  constexpr Fp12 mul_eager(const Fp12& b) const {
    const Fq6 t0 = c0 * b.c0;
    const Fq6 t1 = c1 * b.c1;
    return {t0 + t1.mul_by_v(), (c0 + c1) * (b.c0 + b.c1) - t0 - t1};
  }
  Fp12& operator*=(const Fp12& b) { return *this = *this * b; }

  /// Complex squaring: 2 Fq6 multiplications (reduced: combining them wide measured 7 % slower, the
  /// wide additions costing more than the 6 reductions saved).
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
    using W = typename Fq6::Wide;
    const W aa = c0.mul_wide_by_01(d0, d1);
    const W bb = c1.mul_wide_by_1(d4);
    return {(bb.mul_by_v() + aa).reduce(), ((c0 + c1).mul_wide_by_01(d0, d1 + d4) - aa - bb).reduce()};
  }
  /// x * (d0 + d3 w + d4 v w): the sparse line of a D-type twist (BN254).
  constexpr Fp12 mul_by_034(const Fq2& d0, const Fq2& d3, const Fq2& d4) const {
    using W = typename Fq6::Wide;
    const W a = c0.mul_wide_by_fq2(d0);
    const W b = c1.mul_wide_by_01(d3, d4);
    return {(b.mul_by_v() + a).reduce(), ((c0 + c1).mul_wide_by_01(d0 + d3, d4) - a - b).reduce()};
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

  /// Karabina's compressed form of a cyclotomic element ("Squaring in cyclotomic subgroups", Math.
  /// Comp. 82, 2013): the four coefficients the Granger-Scott squaring above updates among
  /// themselves, (c0.c1, c1.c2) and (c1.c0, c0.c2). The other two follow from these on the subgroup
  /// (decompress). Squaring them costs 6 Fq2 squarings instead of 9, which pays over runs of
  /// squarings (cyclotomic_pow) despite one Fq2 inversion per decompression.
  struct Compressed {
    Fq2 a, b;  // c0.c1, c1.c2
    Fq2 c, d;  // c1.c0, c0.c2
  };
  constexpr Compressed compress() const { return {c0.c1, c1.c2, c1.c0, c0.c2}; }
  /// The Granger-Scott formulas of cyclotomic_square restricted to the four coefficients:
  /// c1.c0' = 3 xi (2 a b) + 2 c1.c0, c0.c2' = 3 (a^2 + xi b^2) - 2 c0.c2, and the same for the pair
  /// (c, d) into c0.c1' and c1.c2'.
  static constexpr Compressed compressed_square(const Compressed& x) {
    using W = typename Fq2::Wide;
    const W a2 = Fq2::square_wide(x.a), b2 = Fq2::square_wide(x.b);
    const W c2 = Fq2::square_wide(x.c), d2 = Fq2::square_wide(x.d);
    const Fq2 ab2 = (Fq2::square_wide(x.a + x.b) - a2 - b2).reduce();  // 2ab
    const Fq2 cd2 = (Fq2::square_wide(x.c + x.d) - c2 - d2).reduce();  // 2cd
    const Fq2 ab = (a2 + Fq6::xi_wide(b2)).reduce();                   // a^2 + xi b^2
    const Fq2 cd = (c2 + Fq6::xi_wide(d2)).reduce();                   // c^2 + xi d^2
    const auto three_minus_two = [](const Fq2& t, const Fq2& z) { return (t - z).dbl() + t; };
    const auto three_plus_two = [](const Fq2& t, const Fq2& z) { return (t + z).dbl() + t; };
    return {three_minus_two(cd, x.a), three_plus_two(cd2, x.b), three_plus_two(Fq6::mul_by_xi(ab2), x.c),
            three_minus_two(ab, x.d)};
  }
  /// The whole element back, from the subgroup's relations (Karabina, Theorem 3.1):
  /// c1.c1 = (xi b^2 + 3 a^2 - 2 d) / (4 c) and c0.c0 = xi (2 c1.c1^2 + c b - 3 a d) + 1. nullopt when
  /// c = 0 (then the caller squares without compression).
  static std::optional<Fp12> decompress(const Compressed& x) {
    if (x.c.is_zero()) return std::nullopt;
    const Fq2 a2 = x.a.square();
    const Fq2 num = Fq6::mul_by_xi(x.b.square()) + (a2 - x.d).dbl() + a2;
    const Fq2 g = num * x.c.dbl().dbl().inverse();
    const Fq2 ad = x.a * x.d;
    const Fq2 e = Fq6::mul_by_xi(g.square().dbl() + x.c * x.b - ad.dbl() - ad) + Fq2::one();
    return Fp12{Fq6{e, x.a, x.d}, Fq6{x.c, g, x.b}};
  }

  template <std::size_t M>
  constexpr Fp12 pow(const Limbs<M>& e) const {
    return pow_square_multiply(*this, e, [](const Fp12& y) { return y.square(); });
  }
  /// Runs of at least this many squarings go through the compressed form in cyclotomic_pow (a
  /// decompression, one Fq2 inversion and a few products, costs about as much as 9 saved squarings).
  static constexpr std::size_t kCompressedRun = 12;
  /// x^e for x in the cyclotomic subgroup: cyclotomic squarings, compressed over long runs of zero
  /// bits (BLS12-381's |x| has runs of 9, 32 and 16).
  template <std::size_t M>
  Fp12 cyclotomic_pow(const Limbs<M>& e) const {
    const std::size_t bits = bit_length(e);
    if (bits == 0) return one();
    Fp12 r = *this;
    std::size_t i = bits - 1;  // bit i of e is done
    while (i > 0) {
      // The next set bit below i (or 0): squarings = i - next, then a product if that bit is set.
      std::size_t next = i - 1;
      while (next > 0 && !bit(e, next)) --next;
      const std::size_t run = i - next;
      std::optional<Fp12> squared;
      if (run >= kCompressedRun) {
        Compressed z = r.compress();
        for (std::size_t k = 0; k < run; ++k) z = compressed_square(z);
        squared = decompress(z);
      }
      if (!squared) {
        squared = r;
        for (std::size_t k = 0; k < run; ++k) *squared = squared->cyclotomic_square();
      }
      r = *squared;
      if (bit(e, next)) r = r * *this;
      i = next;
    }
    return r;
  }
  /// cyclotomic_pow by plain cyclotomic squarings (the reference for tests).
  template <std::size_t M>
  constexpr Fp12 cyclotomic_pow_uncompressed(const Limbs<M>& e) const {
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
