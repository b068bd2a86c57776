#pragma once

// Eight Montgomery products at once with AVX-512 IFMA (VPMADD52LUQ / VPMADD52HUQ: the low and high
// 52 bits of a 52 x 52-bit product added to a 64-bit lane), for the 4-limb fields (BN254's Fq and Fr,
// BLS12-381's Fr). Ice Lake / Sapphire Rapids and later Xeons and AMD Zen 4 and later have it; the
// callers check cpu::kHasAvx512Ifma at run time (the default build targets any x86-64, so these
// functions carry their own target attribute).
//
// Layout: a Lanes value holds eight field elements "transposed", limb i of lane k in l[i] lane k, in
// five 52-bit limbs (260 bits). load / store convert between that and eight consecutive elements in
// memory (4 x 64-bit limbs each, the MontField layout): a 4 x 8 transpose and a shift of the limb
// boundaries.
//
// The product (mont_mul) is Montgomery's with R' = 2^260, five digits of 52 bits (operand scanning:
// each digit adds a_j b_i and m p_j to 64-bit accumulators, which hold up to 5 x 4 additions below
// 2^52 each, well within 64 bits). Our elements are Montgomery forms with R = 2^256, so an operand is
// multiplied by 2^4 first (shl4, exact: it is below 2^256): (16 a) b / 2^260 = a b / 2^256, the same
// residue as MontField's product. Bound: for a below 2^256 and b below p, the result
// (16 a b + m p) / 2^260 is below p + p = 2p, the contract of MontField::mul_lazy.
//
// Additions and subtractions work limb-wise on signed 64-bit lanes and propagate carries with
// arithmetic shifts (normalize); reduce_below_2p subtracts 2p when the value is at least 2p, the
// correction of MontField::add_lazy / sub_lazy. Every value here stays below 2^260.
//
// The results can differ from the scalar lazy ones by p (both below 2p), never as elements: the
// tests compare canonical values (tests/ntt/ntt_test.cpp, tests/field/ifma_test.cpp).

#include <cstddef>
#include <cstdint>

#include "base/cpu.hpp"
#include "field/mont_field.hpp"

#if defined(__x86_64__) && !defined(__CUDACC__)
#define ZK_HAVE_IFMA 1
#include <immintrin.h>
#endif

namespace zk::field::ifma {

#ifdef ZK_HAVE_IFMA

#define ZK_IFMA_FN [[gnu::always_inline, gnu::target("avx512f,avx512ifma")]] inline

struct Lanes {
  __m512i l[5];
};

/// The constants of one field in 52-bit limbs, broadcast to all lanes.
struct Modulus {
  __m512i p[5], two_p[5], inv;  // inv = -p^-1 mod 2^52
};

inline constexpr std::uint64_t kMask52 = (std::uint64_t{1} << 52) - 1;

/// The 52-bit limbs of a 256-bit value.
constexpr void split52(const Limbs<4>& x, std::uint64_t out[5]) {
  out[0] = x[0] & kMask52;
  out[1] = ((x[0] >> 52) | (x[1] << 12)) & kMask52;
  out[2] = ((x[1] >> 40) | (x[2] << 24)) & kMask52;
  out[3] = ((x[2] >> 28) | (x[3] << 36)) & kMask52;
  out[4] = x[3] >> 16;
}

template <class F>
ZK_IFMA_FN Modulus modulus() {
  static_assert(F::kLimbs == 4, "the IFMA kernels are for 4-limb fields");
  constexpr Limbs<4> p = F::Params::kModulus;
  Limbs<4> two_p{};
  add_limbs(two_p, p, p);  // below 2^256: 4-limb moduli here are below 2^255
  std::uint64_t pl[5], tl[5];
  split52(p, pl);
  split52(two_p, tl);
  // -p^-1 mod 2^52 is the low 52 bits of -p^-1 mod 2^64 (F::Params::kInv).
  Modulus m{};
  for (int i = 0; i < 5; ++i) {
    m.p[i] = _mm512_set1_epi64(static_cast<long long>(pl[i]));
    m.two_p[i] = _mm512_set1_epi64(static_cast<long long>(tl[i]));
  }
  m.inv = _mm512_set1_epi64(static_cast<long long>(F::Params::kInv & kMask52));
  return m;
}

ZK_IFMA_FN __m512i mask52() { return _mm512_set1_epi64(static_cast<long long>(kMask52)); }

// Shifts through their zero-masked forms: GCC 12 reports the plain intrinsics' "undefined"
// pass-through operand as maybe-uninitialised once inlined (-Werror).
ZK_IFMA_FN __m512i shl(__m512i x, unsigned n) { return _mm512_maskz_slli_epi64(0xff, x, n); }
ZK_IFMA_FN __m512i shr(__m512i x, unsigned n) { return _mm512_maskz_srli_epi64(0xff, x, n); }
ZK_IFMA_FN __m512i sar(__m512i x, unsigned n) { return _mm512_maskz_srai_epi64(0xff, x, n); }

/// 4 x 64-bit limbs -> 5 x 52-bit limbs, and back (values below 2^256).
ZK_IFMA_FN Lanes from64(const __m512i x[4]) {
  const __m512i m = mask52();
  Lanes r;
  r.l[0] = _mm512_and_si512(x[0], m);
  r.l[1] = _mm512_and_si512(_mm512_or_si512(shr(x[0], 52), shl(x[1], 12)), m);
  r.l[2] = _mm512_and_si512(_mm512_or_si512(shr(x[1], 40), shl(x[2], 24)), m);
  r.l[3] = _mm512_and_si512(_mm512_or_si512(shr(x[2], 28), shl(x[3], 36)), m);
  r.l[4] = shr(x[3], 16);
  return r;
}

ZK_IFMA_FN void to64(const Lanes& x, __m512i out[4]) {
  out[0] = _mm512_or_si512(x.l[0], shl(x.l[1], 52));
  out[1] = _mm512_or_si512(shr(x.l[1], 12), shl(x.l[2], 40));
  out[2] = _mm512_or_si512(shr(x.l[2], 24), shl(x.l[3], 28));
  out[3] = _mm512_or_si512(shr(x.l[3], 36), shl(x.l[4], 16));
}

/// Eight elements in four runs of two: p[o[j]], p[o[j] + 1] in lanes 2j, 2j + 1; and back.
template <class F>
ZK_IFMA_FN Lanes load_pairs(const F* p, const std::size_t o[4]) {
  const auto* q = reinterpret_cast<const std::uint64_t*>(p);
  const __m512i z0 = _mm512_loadu_si512(q + 4 * o[0]), z1 = _mm512_loadu_si512(q + 4 * o[1]);
  const __m512i z2 = _mm512_loadu_si512(q + 4 * o[2]), z3 = _mm512_loadu_si512(q + 4 * o[3]);
  const __m512i even = _mm512_set_epi64(13, 9, 5, 1, 12, 8, 4, 0);
  const __m512i odd = _mm512_set_epi64(15, 11, 7, 3, 14, 10, 6, 2);
  const __m512i a = _mm512_permutex2var_epi64(z0, even, z1), b = _mm512_permutex2var_epi64(z0, odd, z1);
  const __m512i c = _mm512_permutex2var_epi64(z2, even, z3), d = _mm512_permutex2var_epi64(z2, odd, z3);
  const __m512i lo = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), hi = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
  // A 4 x 8 transpose: a, b hold limbs 0-1 and 2-3 of the first four elements, c, d of the others.
  const __m512i x[4] = {_mm512_permutex2var_epi64(a, lo, c), _mm512_permutex2var_epi64(a, hi, c),
                        _mm512_permutex2var_epi64(b, lo, d), _mm512_permutex2var_epi64(b, hi, d)};
  return from64(x);
}
template <class F>
ZK_IFMA_FN void store_pairs(const Lanes& v, F* p, const std::size_t o[4]) {
  __m512i x[4];
  to64(v, x);
  const __m512i lo = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), hi = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
  const __m512i a = _mm512_permutex2var_epi64(x[0], lo, x[1]), c = _mm512_permutex2var_epi64(x[0], hi, x[1]);
  const __m512i b = _mm512_permutex2var_epi64(x[2], lo, x[3]), d = _mm512_permutex2var_epi64(x[2], hi, x[3]);
  const __m512i first = _mm512_set_epi64(13, 9, 5, 1, 12, 8, 4, 0);
  const __m512i second = _mm512_set_epi64(15, 11, 7, 3, 14, 10, 6, 2);
  auto* q = reinterpret_cast<std::uint64_t*>(p);
  _mm512_storeu_si512(q + 4 * o[0], _mm512_permutex2var_epi64(a, first, b));
  _mm512_storeu_si512(q + 4 * o[1], _mm512_permutex2var_epi64(a, second, b));
  _mm512_storeu_si512(q + 4 * o[2], _mm512_permutex2var_epi64(c, first, d));
  _mm512_storeu_si512(q + 4 * o[3], _mm512_permutex2var_epi64(c, second, d));
}

/// Eight consecutive elements (Montgomery representations below 2^256), and back.
template <class F>
ZK_IFMA_FN Lanes load(const F* p) {
  const std::size_t o[4] = {0, 2, 4, 6};
  return load_pairs(p, o);
}
template <class F>
ZK_IFMA_FN void store(const Lanes& v, F* p) {
  const std::size_t o[4] = {0, 2, 4, 6};
  store_pairs(v, p, o);
}

/// Eight elements p[w[k] / 4] (w: 64-bit word offsets), a gather per limb.
template <class F>
ZK_IFMA_FN Lanes gather_words(const F* p, const long long w[8]) {
  const auto* base = reinterpret_cast<const long long*>(p);
  const __m512i idx = _mm512_loadu_si512(w);
  __m512i x[4];
  for (int i = 0; i < 4; ++i) x[i] = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), 0xff, idx, base + i, 8);
  return from64(x);
}

/// Eight elements p[i0 + k * stride], k = 0..7 (stride may be negative): a gather per limb.
template <class F>
ZK_IFMA_FN Lanes gather(const F* p, std::ptrdiff_t i0, std::ptrdiff_t stride) {
  long long w[8];
  for (int k = 0; k < 8; ++k) w[k] = static_cast<long long>(i0 + k * stride) * 4;
  return gather_words(p, w);
}

/// Carries of limb-wise sums and differences (signed lanes) moved up; the top limb keeps the sign.
ZK_IFMA_FN void normalize(Lanes& x) {
  const __m512i m = mask52();
  for (int i = 0; i < 4; ++i) {
    x.l[i + 1] = _mm512_add_epi64(x.l[i + 1], sar(x.l[i], 52));
    x.l[i] = _mm512_and_si512(x.l[i], m);
  }
}

/// x minus 2p where that is non-negative; x (normalised or a limb-wise sum) is below 4p.
ZK_IFMA_FN Lanes reduce_below_2p(Lanes x, const Modulus& md) {
  Lanes t;
  for (int i = 0; i < 5; ++i) t.l[i] = _mm512_sub_epi64(x.l[i], md.two_p[i]);
  normalize(t);
  normalize(x);
  const __mmask8 negative = _mm512_cmplt_epi64_mask(t.l[4], _mm512_setzero_si512());
  for (int i = 0; i < 5; ++i) t.l[i] = _mm512_mask_blend_epi64(negative, t.l[i], x.l[i]);
  return t;
}

/// x minus p where that is non-negative, for a normalised x below 2p: canonical.
ZK_IFMA_FN Lanes reduce_below_p(const Lanes& x, const Modulus& md) {
  Lanes t;
  for (int i = 0; i < 5; ++i) t.l[i] = _mm512_sub_epi64(x.l[i], md.p[i]);
  normalize(t);
  const __mmask8 negative = _mm512_cmplt_epi64_mask(t.l[4], _mm512_setzero_si512());
  for (int i = 0; i < 5; ++i) t.l[i] = _mm512_mask_blend_epi64(negative, t.l[i], x.l[i]);
  return t;
}

/// x - y mod p for canonical x, y: canonical.
ZK_IFMA_FN Lanes sub_mod(const Lanes& x, const Lanes& y, const Modulus& md) {
  Lanes d;
  for (int i = 0; i < 5; ++i) d.l[i] = _mm512_add_epi64(_mm512_sub_epi64(x.l[i], y.l[i]), md.p[i]);
  normalize(d);
  return reduce_below_p(d, md);
}

/// x + y mod p for canonical x, y: canonical.
ZK_IFMA_FN Lanes add_mod(const Lanes& x, const Lanes& y, const Modulus& md) {
  Lanes s;
  for (int i = 0; i < 5; ++i) s.l[i] = _mm512_add_epi64(x.l[i], y.l[i]);
  normalize(s);
  return reduce_below_p(s, md);
}

/// The lanes where x and y (normalised) are equal.
ZK_IFMA_FN __mmask8 equal(const Lanes& x, const Lanes& y) {
  __mmask8 eq = 0xff;
  for (int i = 0; i < 5; ++i) eq &= _mm512_cmpeq_epi64_mask(x.l[i], y.l[i]);
  return eq;
}

/// One element in all eight lanes.
template <class F>
ZK_IFMA_FN Lanes broadcast(const F& x) {
  std::uint64_t l[5];
  split52(x.mont(), l);
  Lanes r;
  for (int i = 0; i < 5; ++i) r.l[i] = _mm512_set1_epi64(static_cast<long long>(l[i]));
  return r;
}

/// MontField::add_lazy: x + y (both below 2p), below 2p.
ZK_IFMA_FN Lanes add_lazy(const Lanes& x, const Lanes& y, const Modulus& md) {
  Lanes s;
  for (int i = 0; i < 5; ++i) s.l[i] = _mm512_add_epi64(x.l[i], y.l[i]);
  return reduce_below_2p(s, md);
}

/// x - y + 2p (both below 2p), normalised: below 4p.
ZK_IFMA_FN Lanes sub_plus_2p(const Lanes& x, const Lanes& y, const Modulus& md) {
  Lanes d;
  for (int i = 0; i < 5; ++i) d.l[i] = _mm512_add_epi64(_mm512_sub_epi64(x.l[i], y.l[i]), md.two_p[i]);
  normalize(d);
  return d;
}

/// MontField::sub_lazy: x - y (both below 2p) plus 2p on a borrow, below 2p.
ZK_IFMA_FN Lanes sub_lazy(const Lanes& x, const Lanes& y, const Modulus& md) {
  Lanes d;
  for (int i = 0; i < 5; ++i) d.l[i] = _mm512_add_epi64(_mm512_sub_epi64(x.l[i], y.l[i]), md.two_p[i]);
  return reduce_below_2p(d, md);
}

/// 16 x for a normalised x below 2^256.
ZK_IFMA_FN Lanes shl4(const Lanes& x) {
  const __m512i m = mask52();
  Lanes r;
  r.l[0] = _mm512_and_si512(shl(x.l[0], 4), m);
  for (int i = 1; i < 5; ++i) {
    r.l[i] = _mm512_and_si512(_mm512_or_si512(shl(x.l[i], 4), shr(x.l[i - 1], 48)), m);
  }
  return r;
}

/// a b / 2^260 mod p, below 2p, for normalised a below 2^260 and b below p (module comment): with
/// a = shl4(x), MontField's product x b / 2^256.
ZK_IFMA_FN Lanes mont_mul(const Lanes& a, const Lanes& b, const Modulus& md) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i z[6] = {zero, zero, zero, zero, zero, zero};
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) {
      z[j] = _mm512_madd52lo_epu64(z[j], a.l[j], b.l[i]);
      z[j + 1] = _mm512_madd52hi_epu64(z[j + 1], a.l[j], b.l[i]);
    }
    const __m512i m = _mm512_madd52lo_epu64(zero, z[0], md.inv);
    for (int j = 0; j < 5; ++j) {
      z[j] = _mm512_madd52lo_epu64(z[j], m, md.p[j]);
      z[j + 1] = _mm512_madd52hi_epu64(z[j + 1], m, md.p[j]);
    }
    // z[0] is now 0 mod 2^52: its carry joins z[1], and the accumulator moves down a digit.
    z[1] = _mm512_add_epi64(z[1], shr(z[0], 52));
    for (int j = 0; j < 5; ++j) z[j] = z[j + 1];
    z[5] = zero;
  }
  Lanes r;
  for (int j = 0; j < 5; ++j) r.l[j] = z[j];
  normalize(r);
  return r;
}

/// The canonical product x y of canonical x, y (MontField's operator*): mont_mul is below y + p.
ZK_IFMA_FN Lanes mul(const Lanes& x, const Lanes& y, const Modulus& md) {
  return reduce_below_p(mont_mul(shl4(x), y, md), md);
}

/// out[i] = a[i] b[i] for i < n - n % 8 (the caller does the rest); out may alias a or b.
template <class F>
[[gnu::target("avx512f,avx512ifma")]] void mul_arrays(const F* a, const F* b, F* out, std::size_t n) {
  const Modulus md = modulus<F>();
  for (std::size_t i = 0; i + 8 <= n; i += 8) store(mul(load(a + i), load(b + i), md), out + i);
}

/// a[i] = a[i] b[i] - c[i] for i < n - n % 8 (the caller does the rest).
template <class F>
[[gnu::target("avx512f,avx512ifma")]] void mul_sub_arrays(F* a, const F* b, const F* c, std::size_t n) {
  const Modulus md = modulus<F>();
  for (std::size_t i = 0; i + 8 <= n; i += 8) store(sub_mod(mul(load(a + i), load(b + i), md), load(c + i), md), a + i);
}

/// x[i] = x[i] (s[i] t) for i < n - n % 8 (the caller does the rest).
template <class F>
[[gnu::target("avx512f,avx512ifma")]] void mul_scaled_arrays(F* x, const F* s, const F& t, std::size_t n) {
  const Modulus md = modulus<F>();
  const Lanes tv = broadcast(t);
  for (std::size_t i = 0; i + 8 <= n; i += 8) store(mul(load(x + i), mul(load(s + i), tv, md), md), x + i);
}

#undef ZK_IFMA_FN

#endif  // ZK_HAVE_IFMA

/// Whether the IFMA kernels can run here (compiled in, and the CPU has them).
inline bool available() {
#ifdef ZK_HAVE_IFMA
  return cpu::kHasAvx512Ifma;
#else
  return false;
#endif
}

}  // namespace zk::field::ifma
