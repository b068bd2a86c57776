#pragma once

// Points of a short Weierstrass curve y^2 = x^3 + b (a = 0 on every zkpipe curve) in three
// coordinate systems, generic over a group config C (see bls12_381.hpp, bn254.hpp):
//   Affine<C>    (x, y) plus an infinity flag: storage, serialization, MSM bases.
//   PackedAffine<C> (x, y) with the identity as (0, 0), unaligned: a mapped .zkey's MSM bases.
//   Jacobian<C>  (X, Y, Z) with x = X/Z^2, y = Y/Z^3; Z = 0 is infinity: general arithmetic.
//   Xyzz<C>      (X, Y, ZZ, ZZZ) with x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2; ZZ = 0 is infinity: the
//                cheapest mixed addition (MSM buckets).
// Formulas are the ones named in the Explicit-Formulas Database (hyperelliptic.org/EFD, g1p,
// "short Weierstrass, a = 0"): dbl-2009-l, add-2007-bl, madd-2007-bl (Jacobian); dbl-2008-s-1,
// madd-2008-s, add-2008-s (XYZZ). Edge cases (equal points, inverses, infinity) are handled
// explicitly around them.

#include <concepts>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "base/rng.hpp"
#include "field/bigint.hpp"
#include "field/mont_field.hpp"

namespace zk::curve {

template <class C>
concept CurveConfig = requires {
  typename C::Field;
  typename C::Scalar;
  C::kB;
  C::kGeneratorX;
  C::kGeneratorY;
  C::kName;
};

template <CurveConfig C>
struct Jacobian;

template <CurveConfig C>
struct Affine {
  using Field = typename C::Field;
  Field x, y;
  bool infinity = true;

  static constexpr Affine identity() { return {}; }
  static constexpr Affine generator() { return {C::kGeneratorX, C::kGeneratorY, false}; }
  static constexpr Affine from_xy(const Field& x, const Field& y) { return {x, y, false}; }

  constexpr bool is_identity() const { return infinity; }
  constexpr Affine neg() const { return infinity ? *this : Affine{x, -y, false}; }
  /// y^2 = x^3 + b (infinity counts as on the curve).
  constexpr bool is_on_curve() const { return infinity || y.square() == x.square() * x + C::kB; }
  friend constexpr bool operator==(const Affine& a, const Affine& b) {
    if (a.infinity || b.infinity) return a.infinity == b.infinity;
    return a.x == b.x && a.y == b.y;
  }
  Jacobian<C> to_jacobian() const { return Jacobian<C>::from_affine(*this); }
};

/// An affine point as circom's .zkey stores it: x then y, each the field's in-memory Montgomery
/// words, and the identity as x = y = 0 (never on a zkpipe curve: b != 0). No flag and no alignment
/// (alignof 1), so the points of a mapped file are used where they lie, whatever their offset in it
/// (the MSM's bases, msm/pippenger.hpp). The coordinates are read by copy: a reader that did not make
/// the bytes checks them first (below the modulus, on the curve: groth16/snarkjs.cpp).
template <CurveConfig C>
struct PackedAffine {
  using Field = typename C::Field;
  unsigned char bytes[2 * sizeof(Field)];

  static PackedAffine from_affine(const Affine<C>& p) {
    PackedAffine out{};
    if (!p.infinity) {
      std::memcpy(out.bytes, &p.x, sizeof(Field));
      std::memcpy(out.bytes + sizeof(Field), &p.y, sizeof(Field));
    }
    return out;
  }
  Field x() const {
    Field f;
    std::memcpy(&f, bytes, sizeof(Field));
    return f;
  }
  Field y() const {
    Field f;
    std::memcpy(&f, bytes + sizeof(Field), sizeof(Field));
    return f;
  }
  bool is_identity() const {
    std::uint64_t acc = 0;
    for (std::size_t i = 0; i < sizeof(bytes); i += 8) {
      std::uint64_t w;
      std::memcpy(&w, bytes + i, 8);
      acc |= w;
    }
    return acc == 0;
  }
  Affine<C> to_affine() const { return is_identity() ? Affine<C>::identity() : Affine<C>::from_xy(x(), y()); }
};

template <CurveConfig C>
struct Jacobian {
  using Field = typename C::Field;
  Field x, y, z;  // z = 0: infinity

  static constexpr Jacobian identity() { return {Field::one(), Field::one(), Field::zero()}; }
  static constexpr Jacobian generator() { return from_affine(Affine<C>::generator()); }
  static constexpr Jacobian from_affine(const Affine<C>& a) {
    return a.infinity ? identity() : Jacobian{a.x, a.y, Field::one()};
  }

  constexpr bool is_identity() const { return z.is_zero(); }
  constexpr Jacobian neg() const { return {x, -y, z}; }

  /// Y^2 = X^3 + b Z^6.
  constexpr bool is_on_curve() const {
    if (is_identity()) return true;
    const Field z2 = z.square();
    const Field z6 = z2.square() * z2;
    return y.square() == x.square() * x + C::kB * z6;
  }

  friend constexpr bool operator==(const Jacobian& a, const Jacobian& b) {
    if (a.is_identity() || b.is_identity()) return a.is_identity() && b.is_identity();
    const Field az2 = a.z.square();
    const Field bz2 = b.z.square();
    if (!(a.x * bz2 == b.x * az2)) return false;
    return a.y * bz2 * b.z == b.y * az2 * a.z;
  }

  /// dbl-2009-l: 2M + 5S.
  constexpr Jacobian dbl() const {
    if (is_identity()) return *this;
    const Field a = x.square();
    const Field b = y.square();
    const Field c = b.square();
    const Field d = ((x + b).square() - a - c).dbl();
    const Field e = a.dbl() + a;
    const Field f = e.square();
    const Field x3 = f - d.dbl();
    const Field c8 = c.dbl().dbl().dbl();
    return {x3, e * (d - x3) - c8, (y * z).dbl()};
  }

  /// add-2007-bl: 11M + 5S.
  friend constexpr Jacobian operator+(const Jacobian& p, const Jacobian& q) {
    if (p.is_identity()) return q;
    if (q.is_identity()) return p;
    const Field z1z1 = p.z.square();
    const Field z2z2 = q.z.square();
    const Field u1 = p.x * z2z2;
    const Field u2 = q.x * z1z1;
    const Field s1 = p.y * q.z * z2z2;
    const Field s2 = q.y * p.z * z1z1;
    const Field h = u2 - u1;
    const Field r = (s2 - s1).dbl();
    if (h.is_zero()) return r.is_zero() ? p.dbl() : identity();
    const Field i = h.dbl().square();
    const Field j = h * i;
    const Field v = u1 * i;
    const Field x3 = r.square() - j - v.dbl();
    return {x3, r * (v - x3) - (s1 * j).dbl(), ((p.z + q.z).square() - z1z1 - z2z2) * h};
  }

  /// madd-2007-bl (q affine): 7M + 4S.
  constexpr Jacobian add_mixed(const Affine<C>& q) const {
    if (q.infinity) return *this;
    if (is_identity()) return from_affine(q);
    const Field z1z1 = z.square();
    const Field u2 = q.x * z1z1;
    const Field s2 = q.y * z * z1z1;
    const Field h = u2 - x;
    const Field r = (s2 - y).dbl();
    if (h.is_zero()) return r.is_zero() ? dbl() : identity();
    const Field hh = h.square();
    const Field i = hh.dbl().dbl();
    const Field j = h * i;
    const Field v = x * i;
    const Field x3 = r.square() - j - v.dbl();
    return {x3, r * (v - x3) - (y * j).dbl(), (z + h).square() - z1z1 - hh};
  }

  friend constexpr Jacobian operator-(const Jacobian& p, const Jacobian& q) { return p + q.neg(); }
  Jacobian& operator+=(const Jacobian& q) { return *this = *this + q; }

  /// One inversion; use batch_to_affine for many points.
  constexpr Affine<C> to_affine() const {
    if (is_identity()) return Affine<C>::identity();
    const Field zi = z.inverse();
    const Field zi2 = zi.square();
    return Affine<C>::from_xy(x * zi2, y * zi2 * zi);
  }

  /// A random point of the prime-order subgroup: k * generator for a random scalar k.
  static Jacobian random(Rng& rng);
};

/// Converts many Jacobian points to affine with one field inversion (Montgomery's trick).
template <CurveConfig C>
std::vector<Affine<C>> batch_to_affine(std::span<const Jacobian<C>> points) {
  using Field = typename C::Field;
  std::vector<Affine<C>> out(points.size());
  std::vector<Field> prefix(points.size());
  Field acc = Field::one();
  for (std::size_t i = 0; i < points.size(); ++i) {
    prefix[i] = acc;
    if (!points[i].is_identity()) acc = acc * points[i].z;
  }
  Field inv = acc.inverse();
  for (std::size_t i = points.size(); i-- > 0;) {
    const Jacobian<C>& p = points[i];
    if (p.is_identity()) continue;  // out[i] is already the identity
    const Field zi = inv * prefix[i];
    inv = inv * p.z;
    const Field zi2 = zi.square();
    out[i] = Affine<C>::from_xy(p.x * zi2, p.y * zi2 * zi);
  }
  return out;
}

/// `count` distinct points P, P + G, P + 2G, ... from a random multiple P of the generator, in
/// affine form: bases for tests, benchmarks and benchmark keys, at one addition each instead of a
/// scalar multiplication.
template <CurveConfig C>
std::vector<Affine<C>> consecutive_points(std::size_t count, Rng& rng) {
  std::vector<Jacobian<C>> jac(count);
  Jacobian<C> p = Jacobian<C>::generator() * C::Scalar::random(rng);
  for (auto& x : jac) x = p, p = p + Jacobian<C>::generator();
  return batch_to_affine<C>(jac);
}

/// dst[i] <- dst[i] + src(i) for i < dst.size(), in affine coordinates with one field inversion for
/// the whole array (Montgomery's trick): an addition costs 2M + 1S plus 3M of the shared inversion,
/// a doubling 2M + 2S plus 3M. Identities, copies and cancellations need no inversion. src(i) must
/// not alias dst. `flags` and `prefix` are scratch, resized as needed. Where the field has lazy
/// products (field::kLazyProducts: both G1 base fields) every intermediate stays below 2p and only the
/// stored coordinates are made canonical, as in AffineBuckets::flush_lazy.
template <CurveConfig C, class Src>
void add_affine_pairwise(std::span<Affine<C>> dst, Src&& src, std::vector<std::uint8_t>& flags,
                         std::vector<typename C::Field>& prefix) {
  using Field = typename C::Field;
  static constexpr bool kLazy = field::kLazyProducts<Field>;
  enum : std::uint8_t { kDone, kAdd, kDouble };
  // Lazy values (below 2p) ride in Field objects between the two passes.
  const auto mul = [](const Field& x, const Field& y) {
    if constexpr (kLazy) {
      return Field::from_mont(Field::mul_lazy_both(x.mont(), y.mont()));
    } else {
      return x * y;
    }
  };
  const auto denominator = [](std::uint8_t flag, const Affine<C>& a, const Affine<C>& b) {
    if constexpr (kLazy) {
      return Field::from_mont(flag == kAdd ? Field::sub_plus_p(b.x, a.x) : Field::add_unreduced(a.y, a.y));
    } else {
      return flag == kAdd ? b.x - a.x : a.y.dbl();
    }
  };
  const std::size_t m = dst.size();
  flags.resize(m);
  prefix.resize(m);
  Field acc = Field::one();
  for (std::size_t i = 0; i < m; ++i) {
    Affine<C>& a = dst[i];
    const Affine<C>& b = src(i);
    flags[i] = kDone;
    if (b.infinity) continue;
    if (a.infinity) {
      a = b;
      continue;
    }
    if (a.x == b.x) {
      if (a.y != b.y || a.y.is_zero()) {  // b = -a (y = 0 would be a point of order 2: 2a = O)
        a = Affine<C>::identity();
        continue;
      }
      flags[i] = kDouble;
    } else {
      flags[i] = kAdd;
    }
    prefix[i] = acc;
    acc = mul(acc, denominator(flags[i], a, b));
  }
  if constexpr (kLazy) acc = Field::from_lazy(acc.mont());
  Field inv = acc.inverse();
  for (std::size_t i = m; i-- > 0;) {
    if (flags[i] == kDone) continue;
    Affine<C>& a = dst[i];
    const Affine<C>& b = src(i);
    const Field den_inv = mul(inv, prefix[i]);
    inv = mul(inv, denominator(flags[i], a, b));
    if constexpr (kLazy) {
      using Repr = typename Field::Repr;
      Repr numerator;
      if (flags[i] == kAdd) {
        numerator = Field::sub_plus_p(b.y, a.y);
      } else {
        const Repr xx = Field::mul_lazy_both(a.x.mont(), a.x.mont());
        numerator = Field::add_lazy(Field::add_lazy(xx, xx), xx);
      }
      const Repr lambda = Field::mul_lazy_both(numerator, den_inv.mont());
      const Field x3 =
          Field::from_lazy(Field::sub_lazy(Field::mul_lazy_both(lambda, lambda), Field::add_unreduced(a.x, b.x)));
      a.y = Field::from_lazy(Field::sub_lazy(Field::mul_lazy_both(lambda, Field::sub_plus_p(a.x, x3)), a.y.mont()));
      a.x = x3;
    } else {
      Field lambda;
      if (flags[i] == kAdd) {
        lambda = (b.y - a.y) * den_inv;
      } else {
        const Field xx = a.x.square();
        lambda = (xx.dbl() + xx) * den_inv;
      }
      const Field x3 = lambda.square() - a.x - b.x;
      a.y = lambda * (a.x - x3) - a.y;
      a.x = x3;
    }
  }
}

template <CurveConfig C>
struct Xyzz {
  using Field = typename C::Field;
  Field x, y, zz, zzz;  // zz = 0: infinity

  static constexpr Xyzz identity() { return {Field::one(), Field::one(), Field::zero(), Field::zero()}; }
  static constexpr Xyzz from_affine(const Affine<C>& a) {
    return a.infinity ? identity() : Xyzz{a.x, a.y, Field::one(), Field::one()};
  }
  constexpr bool is_identity() const { return zz.is_zero(); }
  constexpr Xyzz neg() const { return {x, -y, zz, zzz}; }

  /// dbl-2008-s-1 (a = 0): 6M + 3S... (2M + 5S counted on the EFD with a = 0 savings).
  constexpr Xyzz dbl() const {
    if (is_identity()) return *this;
    const Field u = y.dbl();
    const Field v = u.square();
    const Field w = u * v;
    const Field s = x * v;
    const Field xx = x.square();
    const Field m = xx.dbl() + xx;
    const Field x3 = m.square() - s.dbl();
    return {x3, m * (s - x3) - w * y, v * zz, w * zzz};
  }

  /// mdbl-2008-s-1: doubling of an affine point into XYZZ.
  static constexpr Xyzz dbl_affine(const Affine<C>& a) {
    if (a.infinity) return identity();
    const Field u = a.y.dbl();
    const Field v = u.square();
    const Field w = u * v;
    const Field s = a.x * v;
    const Field xx = a.x.square();
    const Field m = xx.dbl() + xx;
    const Field x3 = m.square() - s.dbl();
    return {x3, m * (s - x3) - w * a.y, v, w};
  }

  /// madd-2008-s: 8M + 2S.
  constexpr Xyzz add_mixed(const Affine<C>& q) const {
    if (q.infinity) return *this;
    if (is_identity()) return from_affine(q);
    const Field u2 = q.x * zz;
    const Field s2 = q.y * zzz;
    const Field p = u2 - x;
    const Field r = s2 - y;
    if (p.is_zero()) return r.is_zero() ? dbl_affine(q) : identity();
    const Field pp = p.square();
    const Field ppp = p * pp;
    const Field qq = x * pp;
    const Field x3 = r.square() - ppp - qq.dbl();
    return {x3, r * (qq - x3) - y * ppp, zz * pp, zzz * ppp};
  }

  /// add-2008-s: 12M + 2S.
  friend constexpr Xyzz operator+(const Xyzz& a, const Xyzz& b) {
    if (a.is_identity()) return b;
    if (b.is_identity()) return a;
    const Field u1 = a.x * b.zz;
    const Field u2 = b.x * a.zz;
    const Field s1 = a.y * b.zzz;
    const Field s2 = b.y * a.zzz;
    const Field p = u2 - u1;
    const Field r = s2 - s1;
    if (p.is_zero()) return r.is_zero() ? a.dbl() : identity();
    const Field pp = p.square();
    const Field ppp = p * pp;
    const Field qq = u1 * pp;
    const Field x3 = r.square() - ppp - qq.dbl();
    return {x3, r * (qq - x3) - s1 * ppp, a.zz * b.zz * pp, a.zzz * b.zzz * ppp};
  }

  /// (X ZZ^2, Y ZZZ^2, ZZZ): scaling the Jacobian point (X/ZZ, Y/ZZZ, 1) by lambda = ZZZ/ZZ.
  constexpr Jacobian<C> to_jacobian() const {
    if (is_identity()) return Jacobian<C>::identity();
    return {x * zz.square(), y * zzz.square(), zzz};
  }
  constexpr Affine<C> to_affine() const { return to_jacobian().to_affine(); }
};

}  // namespace zk::curve
