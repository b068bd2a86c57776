#pragma once

// Variable-time modular inversion by Bernstein and Yang's divsteps ("Fast constant-time gcd
// computation and modular inversion", TCHES 2019 / eprint 2019/266, sections 10-12), in the
// variable-time batched form that P. Wuille documents for libsecp256k1
// (doc/safegcd_implementation.md, sections 3-7): 62 divsteps at a time are decided on the low 64
// bits of f and g alone and collected into a transition matrix, which is then applied to the full
// f, g and to the coefficients d, e. Within a batch, a run of even g is skipped with one count of
// trailing zeros, and a run of steps without a swap (at most eta + 1 of them) is collapsed into one
// addition of a multiple of f chosen to clear the low bits of g.
//
// The running time depends on the input: zkpipe only inverts public values (bucket sums, pairing
// values, setup constants). The Fermat inversion MontField::inverse_fermat() stays as the reference.
//
// Numbers are signed, in limbs of 62 bits: every limb but the top one lies in [0, 2^62), the top one
// is a signed 64-bit word. That leaves the 2-bit headroom the signed 128-bit accumulations of the
// matrix products need.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "field/bigint.hpp"

namespace zk::field::safegcd {

__extension__ typedef __int128 i128;  // __extension__: silences -Wpedantic

inline constexpr int kBatch = 62;                                       // divsteps per matrix
inline constexpr std::uint64_t kMask62 = (std::uint64_t{1} << 62) - 1;  // one limb

/// Limbs of 62 bits for a modulus of `bits` bits: the values d, e drift to a few multiples of p in
/// absolute value (see update_de), f and g stay below p; 6 bits of headroom cover both and the sign.
constexpr std::size_t limbs62(unsigned bits) { return (bits + 6 + 61) / 62; }

template <std::size_t L>
using Signed62 = std::array<std::int64_t, L>;

/// The matrix of a batch of kBatch divsteps: 2^62 (f', g') = (u f + v g, q f + r g).
/// |u| + |v| <= 2^62 and |q| + |r| <= 2^62 (each divstep matrix, scaled by 2, has row sums <= 2).
struct Transition {
  std::int64_t u, v, q, r;
};

/// From N little-endian 64-bit limbs (a value below 2^(62L - 1)) to L limbs of 62 bits.
template <std::size_t L, std::size_t N>
constexpr Signed62<L> to_signed62(const Limbs<N>& a) {
  Signed62<L> r{};
  for (std::size_t i = 0; i < L; ++i) {
    const std::size_t bit = 62 * i, w = bit / 64, s = bit % 64;
    std::uint64_t v = w < N ? a[w] >> s : 0;
    if (s > 2 && w + 1 < N) v |= a[w + 1] << (64 - s);
    r[i] = static_cast<std::int64_t>(v & kMask62);
  }
  return r;
}

/// Back to N 64-bit limbs; a must be normalised (every limb in [0, 2^62)) and below 2^(64N).
template <std::size_t N, std::size_t L>
constexpr Limbs<N> from_signed62(const Signed62<L>& a) {
  Limbs<N> r{};
  for (std::size_t i = 0; i < L; ++i) {
    const std::size_t bit = 62 * i, w = bit / 64, s = bit % 64;
    const auto v = static_cast<std::uint64_t>(a[i]);
    if (w < N) r[w] |= v << s;
    if (s > 2 && w + 1 < N) r[w + 1] |= v >> (64 - s);
  }
  return r;
}

/// kBatch divsteps on the low 64 bits of f (odd) and g, with eta = -delta; returns the new eta.
/// Each divstep, in the formulation of section 2 of the write-up:
///   if eta < 0 and g odd:  eta, f, g = -eta - 1, g, (g - f) / 2    (a swap)
///   elif g odd:            eta, f, g = eta - 1, f, (g + f) / 2
///   else:                  eta, f, g = eta - 1, f, g / 2
/// The matrix rows follow f and g: halving g doubles the row of f (u, v) relative to g's.
constexpr std::int64_t divsteps_var(std::int64_t eta, std::uint64_t f, std::uint64_t g, Transition& t) {
  // Unsigned arithmetic: the entries wrap modulo 2^64 like the two's complement values they are.
  std::uint64_t u = 1, v = 0, q = 0, r = 1;
  int left = kBatch;
  for (;;) {
    // Even g: each zero bit is a step that only halves g. The sentinel bit stops at `left` steps.
    const int zeros = std::countr_zero(g | (~std::uint64_t{0} << left));
    g >>= zeros;
    u <<= zeros;
    v <<= zeros;
    eta -= zeros;
    left -= zeros;
    if (left == 0) break;
    // g is odd now (f always is).
    if (eta < 0) {
      // The swap step: (f, g) <- (g, -f), its halving is counted by the next trailing-zero count.
      eta = -eta;
      const std::uint64_t f0 = f, u0 = u, v0 = v;
      f = g;
      g = 0 - f0;
      u = q;
      v = r;
      q = 0 - u0;
      r = 0 - v0;
    }
    // The next eta + 1 steps cannot swap: each adds f to g when g is odd, then halves g. Together
    // they add w f with w = -g / f mod 2^m, m <= eta + 1 steps (and m <= 6: the inverse of f mod
    // 2^6 is f (2 - f^2), one Newton step from f^-1 = f mod 8).
    std::int64_t m = eta + 1 < left ? eta + 1 : left;
    if (m > 6) m = 6;
    const std::uint64_t w = (g * f * (f * f - 2)) & ((std::uint64_t{1} << m) - 1);  // -g / f mod 2^m
    g += f * w;
    q += u * w;
    r += v * w;
  }
  t = {static_cast<std::int64_t>(u), static_cast<std::int64_t>(v), static_cast<std::int64_t>(q),
       static_cast<std::int64_t>(r)};
  return eta;
}

/// (f, g) <- (u f + v g, q f + r g) / 2^62 on the low `len` limbs (exact: the batch cleared the low
/// 62 bits of both sums).
template <std::size_t L>
constexpr void update_fg(Signed62<L>& f, Signed62<L>& g, const Transition& t, std::size_t len) {
  i128 cf = static_cast<i128>(t.u) * f[0] + static_cast<i128>(t.v) * g[0];
  i128 cg = static_cast<i128>(t.q) * f[0] + static_cast<i128>(t.r) * g[0];
  cf >>= 62;
  cg >>= 62;
  for (std::size_t i = 1; i < len; ++i) {
    cf += static_cast<i128>(t.u) * f[i] + static_cast<i128>(t.v) * g[i];
    cg += static_cast<i128>(t.q) * f[i] + static_cast<i128>(t.r) * g[i];
    f[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(cf) & kMask62);
    g[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(cg) & kMask62);
    cf >>= 62;
    cg >>= 62;
  }
  f[len - 1] = static_cast<std::int64_t>(cf);
  g[len - 1] = static_cast<std::int64_t>(cg);
}

/// (d, e) <- (u d + v e + md p, q d + r e + me p) / 2^62, i.e. the same matrix modulo p: md, me in
/// [-2^61, 2^61) make the sums divisible by 2^62 (md = -(u d + v e) p^-1 mod 2^62, and
/// kNegInv = -p^-1 mod 2^64 is the Montgomery constant). With |u| + |v| <= 2^62 and |md| <= 2^61,
/// |d'| <= max(|d|, |e|) + p/2: over the at most ~20 batches of a 381-bit inversion d and e stay
/// within 11 p, which limbs62() leaves room for; they are reduced once, at the end.
template <std::size_t L>
constexpr void update_de(Signed62<L>& d, Signed62<L>& e, const Transition& t, const Signed62<L>& p,
                         std::uint64_t neg_inv) {
  i128 cd = static_cast<i128>(t.u) * d[0] + static_cast<i128>(t.v) * e[0];
  i128 ce = static_cast<i128>(t.q) * d[0] + static_cast<i128>(t.r) * e[0];
  // Sign-extend the low 62 bits of the multiplier: centred in [-2^61, 2^61).
  const auto md = static_cast<std::int64_t>((static_cast<std::uint64_t>(cd) * neg_inv) << 2) >> 2;
  const auto me = static_cast<std::int64_t>((static_cast<std::uint64_t>(ce) * neg_inv) << 2) >> 2;
  cd += static_cast<i128>(md) * p[0];
  ce += static_cast<i128>(me) * p[0];
  cd >>= 62;
  ce >>= 62;
  for (std::size_t i = 1; i < L; ++i) {
    cd += static_cast<i128>(t.u) * d[i] + static_cast<i128>(t.v) * e[i] + static_cast<i128>(md) * p[i];
    ce += static_cast<i128>(t.q) * d[i] + static_cast<i128>(t.r) * e[i] + static_cast<i128>(me) * p[i];
    d[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(cd) & kMask62);
    e[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(ce) & kMask62);
    cd >>= 62;
    ce >>= 62;
  }
  d[L - 1] = static_cast<std::int64_t>(cd);
  e[L - 1] = static_cast<std::int64_t>(ce);
}

/// a += sign * p (sign = +1 or -1), carrying through the 62-bit limbs.
template <std::size_t L>
constexpr void add_multiple(Signed62<L>& a, const Signed62<L>& p, std::int64_t sign) {
  std::int64_t c = 0;
  for (std::size_t i = 0; i + 1 < L; ++i) {
    c += a[i] + sign * p[i];
    a[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(c) & kMask62);
    c >>= 62;
  }
  a[L - 1] += c + sign * p[L - 1];
}

/// -1, 0, 1 as a <, ==, > b, for normalised limbs below a signed top limb.
template <std::size_t L>
constexpr int compare(const Signed62<L>& a, const Signed62<L>& b) {
  for (std::size_t i = L; i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

/// x^-1 R^2 mod p for 0 < x < p (x = 0 is the caller's case). `P` provides kModulus, kR2 (R^2 mod
/// p), kInv (-p^-1 mod 2^64), kLimbs and kModulusBits, as a generated field params struct does.
///
/// The gcd runs on f = p, g = x with coefficients d = 0, e = R^2 mod p, keeping the invariants
/// f = d x R^-2 and g = e x R^-2 (mod p). It ends with g = 0 and f = +-1 = gcd(p, x), so
/// d = +-R^2 / x. For x the Montgomery form a R of a, that is a^-1 R: the Montgomery form of the
/// inverse, with no product to convert (starting from e = 1 would leave (aR)^-1 = a^-1 R^-1 and
/// need a product by R^3).
template <class P>
constexpr Limbs<P::kLimbs> inverse_var(const Limbs<P::kLimbs>& x) {
  constexpr std::size_t L = limbs62(P::kModulusBits);
  constexpr Signed62<L> p = to_signed62<L>(P::kModulus);
  Signed62<L> f = p;
  Signed62<L> g = to_signed62<L>(x);
  Signed62<L> d{};
  Signed62<L> e = to_signed62<L>(P::kR2);
  std::size_t len = L;    // limbs of f and g still in use: they shrink as the gcd proceeds
  std::int64_t eta = -1;  // delta = 1, the start of the paper (the delta = 1/2 variant is not faster here)
  for (;;) {
    Transition t{};
    eta = divsteps_var(eta, static_cast<std::uint64_t>(f[0]), static_cast<std::uint64_t>(g[0]), t);
    update_de(d, e, t, p, P::kInv);
    update_fg(f, g, t, len);
    // g == 0 ends it; g[0] is almost never zero before.
    if (g[0] == 0) {
      std::int64_t any = 0;
      for (std::size_t i = 1; i < len; ++i) any |= g[i];
      if (any == 0) break;
    }
    // Drop the top limb once both f and g fit (with their signs) in one limb fewer: the top limbs
    // are 0 or -1, and the next limb down absorbs them as its sign.
    if (len > 1) {
      const std::int64_t fn = f[len - 1], gn = g[len - 1];
      if (((fn ^ (fn >> 63)) | (gn ^ (gn >> 63))) == 0) {
        f[len - 2] =
            static_cast<std::int64_t>(static_cast<std::uint64_t>(f[len - 2]) | (static_cast<std::uint64_t>(fn) << 62));
        g[len - 2] =
            static_cast<std::int64_t>(static_cast<std::uint64_t>(g[len - 2]) | (static_cast<std::uint64_t>(gn) << 62));
        --len;
      }
    }
  }
  // f = +-1 (its top limb in use carries the sign): d = +-R^2 / x; reduce d into [0, p).
  if (f[len - 1] < 0) {
    for (auto& l : d) l = -l;  // limb-wise negation keeps the value's negation; renormalised below
    add_multiple(d, Signed62<L>{}, 1);
  }
  while (d[L - 1] < 0) add_multiple(d, p, 1);
  while (compare(d, p) >= 0) add_multiple(d, p, -1);
  return from_signed62<P::kLimbs>(d);
}

}  // namespace zk::field::safegcd
