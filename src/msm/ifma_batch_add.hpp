#pragma once

// The batch-affine bucket additions of msm/buckets.hpp eight at a time with AVX-512 IFMA, for
// curves over a 4-limb field with 4p < 2^256 (BN254's G1: add_batch) and over its Fq2 (BN254's G2:
// add_batch_fq2, below, with canonical values throughout). Each lane runs the same lazy formulas as
// AffineBuckets::flush_lazy on one pending addition of the batch:
//   forward:  prefix_k = prod_{j<k} dx_j, dx = x_P - x_B + p            (lane k % 8 of group k / 8)
//   one inversion of the eight lanes' products (scalar, Montgomery's trick over the lanes)
//   backward: 1/dx, lambda = (y_P' - y_B) / dx, x3 = lambda^2 - x_B - x_P, y3 = lambda (x_B - x3) - y_B
// The points and buckets are gathered from their addresses (x at +0, y at +32 bytes: Affine<C> and
// PackedAffine<C> alike), their coordinates canonical Montgomery words; the buckets are scattered
// back canonical (enqueue compares x for equality). A batch never holds a bucket twice, so the
// scatters never collide; the lanes past the batch's end multiply by one and store nothing.
// Bounds (field/ifma.hpp's mont_mul: a b / 2^260 + p for a = 16 x): every operand below 2p, so
// 64 p^2 / 2^260 < p (p < 2^254) keeps every product below 2p, as MontField::mul_lazy_both's.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "field/ifma.hpp"

namespace zk::msm::ifma_batch {

#ifdef ZK_HAVE_IFMA

#define ZK_IFMA_BATCH_FN [[gnu::always_inline, gnu::target("avx512f,avx512ifma")]] inline

namespace v = field::ifma;

/// Eight 256-bit values at addr[k] + offset bytes.
ZK_IFMA_BATCH_FN v::Lanes gather4(__m512i addr, long long offset) {
  __m512i x[4];
  for (int i = 0; i < 4; ++i) {
    // The masked form with a zero pass-through (the plain one's is "uninitialised" to GCC 12).
    x[i] = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), 0xff,
                                       _mm512_add_epi64(addr, _mm512_set1_epi64(offset + 8 * i)), nullptr, 1);
  }
  return v::from64(x);
}

/// Stores the lanes in `active` (canonical, normalised) at addr[k] + offset bytes.
ZK_IFMA_BATCH_FN void scatter4(__m512i addr, long long offset, const v::Lanes& x, __mmask8 active) {
  __m512i w[4];
  v::to64(x, w);
  for (int i = 0; i < 4; ++i) {
    _mm512_mask_i64scatter_epi64(nullptr, active, _mm512_add_epi64(addr, _mm512_set1_epi64(offset + 8 * i)), w[i], 1);
  }
}

/// x - y + p for normalised x, y with y < x + p: normalised, below x + p.
ZK_IFMA_BATCH_FN v::Lanes sub_plus_p(const v::Lanes& x, const v::Lanes& y, const v::Modulus& md) {
  v::Lanes d;
  for (int i = 0; i < 5; ++i) d.l[i] = _mm512_add_epi64(_mm512_sub_epi64(x.l[i], y.l[i]), md.p[i]);
  v::normalize(d);
  return d;
}

/// x made canonical from below 4p.
ZK_IFMA_BATCH_FN v::Lanes canonical_from_4p(const v::Lanes& x, const v::Modulus& md) {
  return v::reduce_below_p(v::reduce_below_2p(x, md), md);
}

ZK_IFMA_BATCH_FN v::Lanes blend(__mmask8 take_y, const v::Lanes& x, const v::Lanes& y) {
  v::Lanes r;
  for (int i = 0; i < 5; ++i) r.l[i] = _mm512_mask_blend_epi64(take_y, x.l[i], y.l[i]);
  return r;
}

/// The addresses of group g's points and buckets (lanes past m repeat lane 0's), which lanes hold
/// an addition and which add the negated point.
struct Group {
  __m512i point, bucket;
  __mmask8 active, negate;
};

template <class Pending>
ZK_IFMA_BATCH_FN Group group_of(const Pending* batch, std::size_t m, std::size_t g, const unsigned char* buckets,
                                std::size_t stride) {
  alignas(64) std::uint64_t pa[8], ba[8];
  unsigned active = 0, negate = 0;
  for (unsigned k = 0; k < 8; ++k) {
    const std::size_t e = g * 8 + (g * 8 + k < m ? k : 0);
    pa[k] = reinterpret_cast<std::uintptr_t>(batch[e].point);
    ba[k] = reinterpret_cast<std::uintptr_t>(buckets + std::size_t{batch[e].bucket} * stride);
    if (g * 8 + k < m) {
      active |= 1u << k;
      if (batch[e].negate) negate |= 1u << k;
    }
  }
  return {_mm512_load_si512(pa), _mm512_load_si512(ba), static_cast<__mmask8>(active), static_cast<__mmask8>(negate)};
}

/// bucket_k += (negate_k ? -P_k : P_k) for the m pending additions of `batch` (Pending: bucket,
/// negate, point as in AffineBuckets), the buckets `stride` bytes apart from `buckets`. Every
/// x_P_k != x_B_k, and no bucket appears twice. scratch: reused between calls.
template <class F, class Pending>
[[gnu::target("avx512f,avx512ifma")]] void add_batch(const Pending* batch, std::size_t m, unsigned char* buckets,
                                                     std::size_t stride, std::vector<long long>& scratch) {
  static_assert(F::kLimbs == 4 && F::kQuarterModulus, "a 4-limb field with 4p < 2^256");
  constexpr long long kY = sizeof(F);  // y follows x
  const v::Modulus md = v::modulus<F>();
  const std::size_t groups = (m + 7) / 8;
  if (scratch.size() < groups * 40) scratch.resize(groups * 40);
  const v::Lanes one = v::broadcast(F::one());
  v::Lanes acc = one;
  for (std::size_t g = 0; g < groups; ++g) {
    const Group grp = group_of(batch, m, g, buckets, stride);
    const v::Lanes dx = blend(grp.active, one, sub_plus_p(gather4(grp.point, 0), gather4(grp.bucket, 0), md));
    for (int i = 0; i < 5; ++i) _mm512_storeu_si512(scratch.data() + 40 * g + 8 * i, acc.l[i]);
    acc = v::mont_mul(v::shl4(acc), dx, md);
  }
  // The eight lanes' products (below 2p, non-zero mod p) inverted by Montgomery's trick.
  alignas(64) std::uint64_t w[4][8];
  {
    __m512i t[4];
    v::to64(acc, t);
    for (int i = 0; i < 4; ++i) _mm512_store_si512(w[i], t[i]);
  }
  F lane[8], before[8];
  F run = F::one();
  for (int k = 0; k < 8; ++k) {
    lane[k] = F::from_lazy(typename F::Repr{w[0][k], w[1][k], w[2][k], w[3][k]});
    before[k] = run;
    run = run * lane[k];
  }
  F inv = run.inverse();
  for (int k = 8; k-- > 0;) {
    const auto r = (inv * before[k]).mont();
    for (int i = 0; i < 4; ++i) w[i][k] = r[static_cast<std::size_t>(i)];
    inv = inv * lane[k];
  }
  v::Lanes inv_l;
  {
    __m512i t[4];
    for (int i = 0; i < 4; ++i) t[i] = _mm512_load_si512(w[i]);
    inv_l = v::from64(t);
  }
  for (std::size_t g = groups; g-- > 0;) {
    const Group grp = group_of(batch, m, g, buckets, stride);
    v::Lanes prefix;
    for (int i = 0; i < 5; ++i) prefix.l[i] = _mm512_loadu_si512(scratch.data() + 40 * g + 8 * i);
    const v::Lanes px = gather4(grp.point, 0), bx = gather4(grp.bucket, 0);
    const v::Lanes dx = blend(grp.active, one, sub_plus_p(px, bx, md));
    const v::Lanes dx_inv = v::mont_mul(v::shl4(inv_l), prefix, md);
    inv_l = v::mont_mul(v::shl4(inv_l), dx, md);
    const v::Lanes py = gather4(grp.point, kY), by = gather4(grp.bucket, kY);
    v::Lanes neg_py;
    for (int i = 0; i < 5; ++i) neg_py.l[i] = _mm512_sub_epi64(md.p[i], py.l[i]);
    v::normalize(neg_py);
    const v::Lanes lambda = v::mont_mul(v::shl4(sub_plus_p(blend(grp.negate, py, neg_py), by, md)), dx_inv, md);
    const v::Lanes l2 = v::mont_mul(v::shl4(lambda), lambda, md);
    v::Lanes x3;  // lambda^2 - x_B - x_P + 2p: below 4p
    for (int i = 0; i < 5; ++i) {
      x3.l[i] = _mm512_add_epi64(_mm512_sub_epi64(_mm512_sub_epi64(l2.l[i], bx.l[i]), px.l[i]), md.two_p[i]);
    }
    v::normalize(x3);
    x3 = canonical_from_4p(x3, md);
    const v::Lanes y3 = canonical_from_4p(sub_plus_p(v::mont_mul(v::shl4(lambda), sub_plus_p(bx, x3, md), md), by, md), md);
    scatter4(grp.bucket, 0, x3, grp.active);
    scatter4(grp.bucket, kY, y3, grp.active);
  }
}

// ---- Over Fq2 = Fq[u]/(u^2 + 1) (BN254's G2): each coordinate two lanes sets, every value canonical
// (the Karatsuba sums would leave mont_mul's 2p bound otherwise); 3 products per Fq2 product.

struct Lanes2 {
  v::Lanes c0, c1;
};

ZK_IFMA_BATCH_FN Lanes2 gather2(__m512i addr, long long offset, long long half) {
  return {gather4(addr, offset), gather4(addr, offset + half)};
}
ZK_IFMA_BATCH_FN void scatter2(__m512i addr, long long offset, long long half, const Lanes2& x, __mmask8 active) {
  scatter4(addr, offset, x.c0, active);
  scatter4(addr, offset + half, x.c1, active);
}
ZK_IFMA_BATCH_FN Lanes2 sub2(const Lanes2& x, const Lanes2& y, const v::Modulus& md) {
  return {v::sub_mod(x.c0, y.c0, md), v::sub_mod(x.c1, y.c1, md)};
}
ZK_IFMA_BATCH_FN Lanes2 mul2(const Lanes2& a, const Lanes2& b, const v::Modulus& md) {
  const v::Lanes t0 = v::mul(a.c0, b.c0, md), t1 = v::mul(a.c1, b.c1, md);
  const v::Lanes t2 = v::mul(v::add_mod(a.c0, a.c1, md), v::add_mod(b.c0, b.c1, md), md);
  return {v::sub_mod(t0, t1, md), v::sub_mod(v::sub_mod(t2, t0, md), t1, md)};
}
ZK_IFMA_BATCH_FN Lanes2 sqr2(const Lanes2& a, const v::Modulus& md) {
  const v::Lanes t = v::mul(a.c0, a.c1, md);
  return {v::mul(v::add_mod(a.c0, a.c1, md), v::sub_mod(a.c0, a.c1, md), md), v::add_mod(t, t, md)};
}
ZK_IFMA_BATCH_FN Lanes2 blend2(__mmask8 take_y, const Lanes2& x, const Lanes2& y) {
  return {blend(take_y, x.c0, y.c0), blend(take_y, x.c1, y.c1)};
}
ZK_IFMA_BATCH_FN void store2(long long* out, const Lanes2& x) {
  for (int i = 0; i < 5; ++i) _mm512_storeu_si512(out + 8 * i, x.c0.l[i]);
  for (int i = 0; i < 5; ++i) _mm512_storeu_si512(out + 40 + 8 * i, x.c1.l[i]);
}
ZK_IFMA_BATCH_FN Lanes2 load2(const long long* in) {
  Lanes2 x;
  for (int i = 0; i < 5; ++i) x.c0.l[i] = _mm512_loadu_si512(in + 8 * i);
  for (int i = 0; i < 5; ++i) x.c1.l[i] = _mm512_loadu_si512(in + 40 + 8 * i);
  return x;
}
/// The eight lanes of x as 64-bit limbs: out[limb][lane].
ZK_IFMA_BATCH_FN void lanes_to_words(const v::Lanes& x, std::uint64_t out[4][8]) {
  __m512i t[4];
  v::to64(x, t);
  for (int i = 0; i < 4; ++i) _mm512_storeu_si512(out[i], t[i]);
}
ZK_IFMA_BATCH_FN v::Lanes words_to_lanes(const std::uint64_t in[4][8]) {
  __m512i t[4];
  for (int i = 0; i < 4; ++i) t[i] = _mm512_loadu_si512(in[i]);
  return v::from64(t);
}

/// add_batch over Fq2 (F2 = field::Fp2 over a 4-limb field): the same pending additions and layout,
/// x at +0 and y at +sizeof(F2) bytes, each c0 then c1.
template <class F2, class Pending>
[[gnu::target("avx512f,avx512ifma")]] void add_batch_fq2(const Pending* batch, std::size_t m, unsigned char* buckets,
                                                         std::size_t stride, std::vector<long long>& scratch) {
  using F = typename F2::Base;
  static_assert(F::kLimbs == 4 && sizeof(F2) == 2 * sizeof(F));
  constexpr long long kHalf = sizeof(F), kY = sizeof(F2);
  const v::Modulus md = v::modulus<F>();
  const std::size_t groups = (m + 7) / 8;
  if (scratch.size() < groups * 80) scratch.resize(groups * 80);
  const Lanes2 one{v::broadcast(F::one()), v::broadcast(F::zero())};
  Lanes2 acc = one;
  for (std::size_t g = 0; g < groups; ++g) {
    const Group grp = group_of(batch, m, g, buckets, stride);
    const Lanes2 dx = blend2(grp.active, one, sub2(gather2(grp.point, 0, kHalf), gather2(grp.bucket, 0, kHalf), md));
    store2(scratch.data() + 80 * g, acc);
    acc = mul2(acc, dx, md);
  }
  // The eight lanes' products (canonical, non-zero) inverted by Montgomery's trick.
  alignas(64) std::uint64_t w0[4][8], w1[4][8];
  lanes_to_words(acc.c0, w0);
  lanes_to_words(acc.c1, w1);
  F2 lane[8], before[8];
  F2 run = F2::one();
  for (int k = 0; k < 8; ++k) {
    lane[k] = F2{F::from_mont(typename F::Repr{w0[0][k], w0[1][k], w0[2][k], w0[3][k]}),
                 F::from_mont(typename F::Repr{w1[0][k], w1[1][k], w1[2][k], w1[3][k]})};
    before[k] = run;
    run = run * lane[k];
  }
  F2 inv = run.inverse();
  for (int k = 8; k-- > 0;) {
    const F2 r = inv * before[k];
    for (int i = 0; i < 4; ++i) {
      w0[i][k] = r.c0.mont()[static_cast<std::size_t>(i)];
      w1[i][k] = r.c1.mont()[static_cast<std::size_t>(i)];
    }
    inv = inv * lane[k];
  }
  Lanes2 inv_l{words_to_lanes(w0), words_to_lanes(w1)};
  const Lanes2 zero{v::broadcast(F::zero()), v::broadcast(F::zero())};
  for (std::size_t g = groups; g-- > 0;) {
    const Group grp = group_of(batch, m, g, buckets, stride);
    const Lanes2 prefix = load2(scratch.data() + 80 * g);
    const Lanes2 px = gather2(grp.point, 0, kHalf), bx = gather2(grp.bucket, 0, kHalf);
    const Lanes2 dx = blend2(grp.active, one, sub2(px, bx, md));
    const Lanes2 dx_inv = mul2(inv_l, prefix, md);
    inv_l = mul2(inv_l, dx, md);
    const Lanes2 py = gather2(grp.point, kY, kHalf), by = gather2(grp.bucket, kY, kHalf);
    const Lanes2 signed_py = blend2(grp.negate, py, sub2(zero, py, md));
    const Lanes2 lambda = mul2(sub2(signed_py, by, md), dx_inv, md);
    const Lanes2 x3 = sub2(sub2(sqr2(lambda, md), bx, md), px, md);
    const Lanes2 y3 = sub2(mul2(lambda, sub2(bx, x3, md), md), by, md);
    scatter2(grp.bucket, 0, kHalf, x3, grp.active);
    scatter2(grp.bucket, kY, kHalf, y3, grp.active);
  }
}

#undef ZK_IFMA_BATCH_FN

#endif  // ZK_HAVE_IFMA

}  // namespace zk::msm::ifma_batch
