#pragma once

// Fq2 = Fq[u]/(u^2 + 1): the quadratic extension of both curves (p = 3 mod 4 makes -1 a non-residue).

#include <array>
#include <optional>

#include "field/mont_field.hpp"
#include "field/params/limbs.hpp"
#include "field/pow.hpp"

namespace zk::field {

template <class F>
struct Fp2 {
  using Base = F;
  static_assert(F::Params::kModulus[F::kLimbs - 1] >> 62 == 0,
                "the lazy product needs p < 2^(64N - 2): a product of two unreduced sums below p*R");
  F c0, c1;  // c0 + c1*u

  /// Whether the products go through field/asm/fp2_mulx.S (4- and 6-limb base fields: an Fp2 is
  /// 2N consecutive words, a Wide 4N).
  static constexpr bool kAsm = F::kLimbs == 4 || F::kLimbs == 6;

  static constexpr Fp2 zero() { return {}; }
  static constexpr Fp2 one() { return {F::one(), F::zero()}; }
  static constexpr Fp2 from_canonical_unchecked(const params::Fp2Limbs<F::kLimbs>& x) {
    return {F::from_canonical_unchecked(x[0]), F::from_canonical_unchecked(x[1])};
  }
  static Fp2 random(Rng& rng) {
    F a = F::random(rng);
    return {a, F::random(rng)};
  }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend constexpr bool operator==(const Fp2& a, const Fp2& b) = default;

  friend constexpr Fp2 operator+(const Fp2& a, const Fp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend constexpr Fp2 operator-(const Fp2& a, const Fp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  constexpr Fp2 operator-() const { return {-c0, -c1}; }
  /// An Fp2 value before its two reductions (lazy reduction): each coefficient a double-width
  /// residue mod p R, below p R. Sums and differences of products stay wide until reduce().
  struct Wide {
    typename F::Wide c0, c1;
    friend constexpr Wide operator+(const Wide& a, const Wide& b) { return {F::wide_add(a.c0, b.c0), F::wide_add(a.c1, b.c1)}; }
    friend constexpr Wide operator-(const Wide& a, const Wide& b) { return {F::wide_sub(a.c0, b.c0), F::wide_sub(a.c1, b.c1)}; }
    constexpr Fp2 reduce() const { return {F::redc(c0), F::redc(c1)}; }
  };
  /// Karatsuba with lazy reduction: three double-width products, c0 = a0 b0 - a1 b1 mod p R and
  /// c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 = a0 b1 + a1 b0 (< 2p^2, no borrow), the sums left
  /// unreduced (< 2p).
  ZK_INLINE static constexpr Wide mul_wide(const Fp2& a, const Fp2& b) {
#ifdef ZK_HAVE_FP2_MULX_ASM
    if constexpr (kAsm) {
      if (!std::is_constant_evaluated() && cpu::kHasMulxAdx) [[likely]] {
        static_assert(sizeof(Fp2) == 16 * F::kLimbs && sizeof(Wide) == 32 * F::kLimbs, "the asm's layout");
        Wide w;
        Fp2MulxAsm<F::kLimbs>::mul_wide(w.c0.data(), a.c0.mont().data(), b.c0.mont().data(),
                                        F::Params::kModulus.data());
        return w;
      }
    }
#endif
    return mul_wide_generic(a, b);
  }
  /// mul_wide from the base field's kernels (constexpr; the reference the asm is tested against).
  ZK_INLINE static constexpr Wide mul_wide_generic(const Fp2& a, const Fp2& b) {
    const auto t0 = F::mul_wide(a.c0.mont(), b.c0.mont());
    const auto t1 = F::mul_wide(a.c1.mont(), b.c1.mont());
    const auto t2 = F::mul_wide(F::add_unreduced(a.c0, a.c1), F::add_unreduced(b.c0, b.c1));
    return {F::wide_sub(t0, t1), F::wide_sub_nonnegative(F::wide_sub_nonnegative(t2, t0), t1)};
  }
  /// a^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u, wide: two products (below 2p^2 each).
  ZK_INLINE static constexpr Wide square_wide(const Fp2& a) {
#ifdef ZK_HAVE_FP2_MULX_ASM
    if constexpr (kAsm) {
      if (!std::is_constant_evaluated() && cpu::kHasMulxAdx) [[likely]] {
        static_assert(sizeof(Fp2) == 16 * F::kLimbs && sizeof(Wide) == 32 * F::kLimbs, "the asm's layout");
        Wide w;
        Fp2MulxAsm<F::kLimbs>::sqr_wide(w.c0.data(), a.c0.mont().data(), F::Params::kModulus.data());
        return w;
      }
    }
#endif
    return square_wide_generic(a);
  }
  /// square_wide from the base field's kernels (the reference the asm is tested against).
  ZK_INLINE static constexpr Wide square_wide_generic(const Fp2& a) {
    return {F::mul_wide(F::add_unreduced(a.c0, a.c1), (a.c0 - a.c1).mont()),
            F::mul_wide(F::add_unreduced(a.c0, a.c0), a.c1.mont())};
  }
  /// Two reductions instead of three Montgomery products.
  ZK_INLINE friend constexpr Fp2 operator*(const Fp2& a, const Fp2& b) {
#ifdef ZK_HAVE_FP2_MULX_ASM
    if constexpr (kAsm) {
      if (!std::is_constant_evaluated() && cpu::kHasMulxAdx) [[likely]] {
        static_assert(sizeof(Fp2) == 16 * F::kLimbs, "the asm's layout");
        std::array<typename F::Repr, 2> r;
        Fp2MulxAsm<F::kLimbs>::mul(r[0].data(), a.c0.mont().data(), b.c0.mont().data(), F::Params::kModulus.data(),
                                   F::Params::kInv);
        return {F::from_mont(r[0]), F::from_mont(r[1])};
      }
    }
#endif
    return mul_wide_generic(a, b).reduce();
  }
  /// w * (c + u) for a small c, wide: (c w0 - w1) + (c w1 + w0) u.
  template <std::uint64_t C>
  static constexpr Wide mul_wide_by_small_plus_u(const Wide& w) {
    const auto a = wide_small<C>(w.c0);
    const auto b = wide_small<C>(w.c1);
    return {F::wide_sub(a, w.c1), F::wide_add(b, w.c0)};
  }
  /// Karatsuba with three Montgomery products (the reference the lazy product is tested against).
  constexpr Fp2 mul_eager(const Fp2& b) const {
    const F t0 = c0 * b.c0;
    const F t1 = c1 * b.c1;
    return {t0 - t1, (c0 + c1) * (b.c0 + b.c1) - t0 - t1};
  }
  Fp2& operator+=(const Fp2& b) { return *this = *this + b; }
  Fp2& operator-=(const Fp2& b) { return *this = *this - b; }
  Fp2& operator*=(const Fp2& b) { return *this = *this * b; }

  constexpr Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  /// Complex squaring: (c0 + c1)(c0 - c1) + 2 c0 c1 u, 2 base multiplications. In assembly for
  /// 4-limb fields only: for 6 limbs the two fused Montgomery products of square_generic measured
  /// faster (54-61 ns against 63-70) than two wide products and two reductions.
  ZK_INLINE constexpr Fp2 square() const {
#ifdef ZK_HAVE_FP2_MULX_ASM
    if constexpr (F::kLimbs == 4) {
      if (!std::is_constant_evaluated() && cpu::kHasMulxAdx) [[likely]] {
        static_assert(sizeof(Fp2) == 16 * F::kLimbs, "the asm's layout");
        std::array<typename F::Repr, 2> r;
        Fp2MulxAsm<F::kLimbs>::sqr(r[0].data(), c0.mont().data(), F::Params::kModulus.data(), F::Params::kInv);
        return {F::from_mont(r[0]), F::from_mont(r[1])};
      }
    }
#endif
    return square_generic();
  }
  /// square() from the base field's products (the reference the asm is tested against).
  constexpr Fp2 square_generic() const {
    const F t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t.dbl()};
  }
  constexpr Fp2 mul_by_base(const F& s) const { return {c0 * s, c1 * s}; }
  constexpr Fp2 conjugate() const { return {c0, -c1}; }
  /// x^(p^k): conjugation for odd k.
  constexpr Fp2 frobenius(unsigned k) const { return (k & 1) ? conjugate() : *this; }
  /// c0^2 + c1^2, the norm to Fq.
  constexpr F norm() const { return c0.square() + c1.square(); }
  constexpr Fp2 inverse() const {
    const F n = norm().inverse();
    return {c0 * n, -(c1 * n)};
  }
  /// x * (c + u) for a small non-negative integer c: the multiplication by xi = c + u of the tower.
  template <std::uint64_t C>
  constexpr Fp2 mul_by_small_plus_u() const {
    const F a = mul_small<C>(c0);
    const F b = mul_small<C>(c1);
    return {a - c1, b + c0};
  }

  template <std::size_t M>
  constexpr Fp2 pow(const Limbs<M>& e) const {
    return pow_square_multiply(*this, e, [](const Fp2& y) { return y.square(); });
  }

  /// A square root, or nullopt. Uses the norm: if x = a + bu has root c + du then c^2 = (a + n)/2
  /// with n = sqrt(a^2 + b^2) (either sign), d = b / 2c.
  constexpr std::optional<Fp2> sqrt() const {
    if (c1.is_zero()) {
      if (auto r = c0.sqrt()) return Fp2{*r, F::zero()};
      // c0 is a non-square in Fq, so -c0 is a square (p = 3 mod 4): sqrt(c0) = sqrt(-c0) * u.
      if (auto r = (-c0).sqrt()) return Fp2{F::zero(), *r};
      return std::nullopt;
    }
    const auto n = norm().sqrt();
    if (!n) return std::nullopt;
    F half = (c0 + *n).halve();
    auto c = half.sqrt();
    if (!c) {
      half = (c0 - *n).halve();
      c = half.sqrt();
      if (!c) return std::nullopt;
    }
    const F d = c1 * c->dbl().inverse();
    const Fp2 r{*c, d};
    if (!(r.square() == *this)) return std::nullopt;
    return r;
  }

  /// ZCash rule for Fq2: c1 > (p-1)/2, or c1 == 0 and c0 > (p-1)/2.
  bool is_lexicographically_largest() const {
    return c1.is_lexicographically_largest() || (c1.is_zero() && c0.is_lexicographically_largest());
  }

 private:
  template <std::uint64_t C>
  static constexpr typename F::Wide wide_small(const typename F::Wide& x) {
    static_assert(C >= 1);
    if constexpr (C == 1) {
      return x;
    } else if constexpr (C % 2 == 0) {
      const auto h = wide_small<C / 2>(x);
      return F::wide_add(h, h);
    } else {
      return F::wide_add(wide_small<C - 1>(x), x);
    }
  }
  template <std::uint64_t C>
  static constexpr F mul_small(const F& x) {
    if constexpr (C == 0) {
      return F::zero();
    } else if constexpr (C == 1) {
      return x;
    } else if constexpr (C % 2 == 0) {
      return mul_small<C / 2>(x).dbl();
    } else {
      return mul_small<C - 1>(x) + x;
    }
  }
};

}  // namespace zk::field
