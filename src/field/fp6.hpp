#pragma once

// Fq6 = Fq2[v]/(v^3 - xi) with xi = c + u (1 + u for BLS12-381, 9 + u for BN254).

#include <array>

#include "field/fp2.hpp"

namespace zk::field {

template <class F, class T>
struct Fp6 {
  using Fq2 = Fp2<F>;
  static constexpr std::uint64_t kXiC0 = T::kXi[0][0];  // xi = kXiC0 + u
  static_assert(T::kXi[1][0] == 1, "the tower expects xi = c + u");

  Fq2 c0, c1, c2;  // c0 + c1 v + c2 v^2

  static constexpr Fp6 zero() { return {}; }
  static constexpr Fp6 one() { return {Fq2::one(), Fq2::zero(), Fq2::zero()}; }
  static Fp6 random(Rng& rng) {
    Fq2 a = Fq2::random(rng);
    Fq2 b = Fq2::random(rng);
    return {a, b, Fq2::random(rng)};
  }
  static constexpr Fq2 mul_by_xi(const Fq2& x) { return x.template mul_by_small_plus_u<kXiC0>(); }
  static constexpr typename Fq2::Wide xi_wide(const typename Fq2::Wide& x) {
    return Fq2::template mul_wide_by_small_plus_u<kXiC0>(x);
  }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  friend constexpr bool operator==(const Fp6& a, const Fp6& b) = default;

  friend constexpr Fp6 operator+(const Fp6& a, const Fp6& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
  friend constexpr Fp6 operator-(const Fp6& a, const Fp6& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
  constexpr Fp6 operator-() const { return {-c0, -c1, -c2}; }
  constexpr Fp6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }

  /// An Fq6 value before its reductions (lazy reduction, Fq2::Wide per coefficient).
  struct Wide {
    typename Fq2::Wide c0, c1, c2;
    friend constexpr Wide operator+(const Wide& a, const Wide& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
    friend constexpr Wide operator-(const Wide& a, const Wide& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
    constexpr Wide mul_by_v() const { return {xi_wide(c2), c0, c1}; }
    constexpr Fp6 reduce() const { return {c0.reduce(), c1.reduce(), c2.reduce()}; }
  };

  /// Karatsuba over three coefficients: 6 Fq2 multiplications (Devegili, O hEigeartaigh, Scott,
  /// Dahab, "Multiplication and Squaring on Pairing-Friendly Fields", 2006, section 4), combined
  /// before their reductions (lazy reduction: 6 reductions instead of 12).
  static constexpr Wide mul_wide(const Fp6& a, const Fp6& b) {
    using W = typename Fq2::Wide;
    const W t0 = Fq2::mul_wide(a.c0, b.c0);
    const W t1 = Fq2::mul_wide(a.c1, b.c1);
    const W t2 = Fq2::mul_wide(a.c2, b.c2);
    const W x0 = Fq2::mul_wide(a.c1 + a.c2, b.c1 + b.c2) - t1 - t2;
    const W x1 = Fq2::mul_wide(a.c0 + a.c1, b.c0 + b.c1) - t0 - t1;
    const W x2 = Fq2::mul_wide(a.c0 + a.c2, b.c0 + b.c2) - t0 - t2;
    return {xi_wide(x0) + t0, x1 + xi_wide(t2), x2 + t1};
  }
  friend constexpr Fp6 operator*(const Fp6& a, const Fp6& b) { return mul_wide(a, b).reduce(); }
  /// The textbook product with reduced Fq2 products (the reference the lazy one is tested against).
  constexpr Fp6 mul_eager(const Fp6& b) const {
    const Fq2 t0 = c0 * b.c0;
    const Fq2 t1 = c1 * b.c1;
    const Fq2 t2 = c2 * b.c2;
    return {mul_by_xi((c1 + c2) * (b.c1 + b.c2) - t1 - t2) + t0, (c0 + c1) * (b.c0 + b.c1) - t0 - t1 + mul_by_xi(t2),
            (c0 + c2) * (b.c0 + b.c2) - t0 - t2 + t1};
  }
  Fp6& operator*=(const Fp6& b) { return *this = *this * b; }
  Fp6& operator+=(const Fp6& b) { return *this = *this + b; }
  Fp6& operator-=(const Fp6& b) { return *this = *this - b; }

  /// CH-SQR2 of Chung and Hasan ("Asymmetric squaring formulae", 2007), combined before the
  /// reductions.
  constexpr Fp6 square() const {
    using W = typename Fq2::Wide;
    const W s0 = Fq2::square_wide(c0);
    const W s1 = Fq2::mul_wide(c0.dbl(), c1);
    const W s2 = Fq2::square_wide(c0 - c1 + c2);
    const W s3 = Fq2::mul_wide(c1.dbl(), c2);
    const W s4 = Fq2::square_wide(c2);
    return {(xi_wide(s3) + s0).reduce(), (xi_wide(s4) + s1).reduce(), (s1 + s2 + s3 - s0 - s4).reduce()};
  }

  /// x * v.
  constexpr Fp6 mul_by_v() const { return {mul_by_xi(c2), c0, c1}; }
  constexpr Wide mul_wide_by_fq2(const Fq2& s) const {
    return {Fq2::mul_wide(c0, s), Fq2::mul_wide(c1, s), Fq2::mul_wide(c2, s)};
  }
  /// x * (b0 + b1 v): 5 Fq2 multiplications, combined before the reductions.
  constexpr Wide mul_wide_by_01(const Fq2& b0, const Fq2& b1) const {
    using W = typename Fq2::Wide;
    const W aa = Fq2::mul_wide(c0, b0);
    const W bb = Fq2::mul_wide(c1, b1);
    return {xi_wide(Fq2::mul_wide(c1 + c2, b1) - bb) + aa, Fq2::mul_wide(b0 + b1, c0 + c1) - aa - bb,
            Fq2::mul_wide(c0 + c2, b0) - aa + bb};
  }
  constexpr Fp6 mul_by_01(const Fq2& b0, const Fq2& b1) const { return mul_wide_by_01(b0, b1).reduce(); }
  /// x * (b1 v): 3 Fq2 multiplications.
  constexpr Wide mul_wide_by_1(const Fq2& b1) const {
    return {xi_wide(Fq2::mul_wide(c2, b1)), Fq2::mul_wide(c0, b1), Fq2::mul_wide(c1, b1)};
  }
  constexpr Fp6 mul_by_1(const Fq2& b1) const { return mul_wide_by_1(b1).reduce(); }

  constexpr Fp6 inverse() const {
    const Fq2 t0 = c0.square() - mul_by_xi(c1 * c2);
    const Fq2 t1 = mul_by_xi(c2.square()) - c0 * c1;
    const Fq2 t2 = c1.square() - c0 * c2;
    const Fq2 d = (c0 * t0 + mul_by_xi(c2 * t1 + c1 * t2)).inverse();
    return {t0 * d, t1 * d, t2 * d};
  }

  template <std::size_t M>
  constexpr Fp6 pow(const Limbs<M>& e) const {
    return pow_square_multiply(*this, e, [](const Fp6& y) { return y.square(); });
  }

  /// x^(p^k).
  constexpr Fp6 frobenius(unsigned k) const {
    return {c0.frobenius(k), c1.frobenius(k) * kFrobC1[k % 6], c2.frobenius(k) * kFrobC2[k % 6]};
  }

 private:
  static constexpr std::array<Fq2, 6> make(const std::array<params::Fp2Limbs<F::kLimbs>, 6>& src) {
    std::array<Fq2, 6> out{};
    for (std::size_t i = 0; i < 6; ++i) out[i] = Fq2::from_canonical_unchecked(src[i]);
    return out;
  }
  static constexpr std::array<Fq2, 6> kFrobC1 = make(T::kFrobeniusFq6C1);
  static constexpr std::array<Fq2, 6> kFrobC2 = make(T::kFrobeniusFq6C2);
};

}  // namespace zk::field
