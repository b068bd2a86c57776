#pragma once

// Prime-field arithmetic for CUDA kernels (and, compiled as plain C++, for the host-side tests of
// the device code), from the same generated params as the CPU fields (field/params/*.hpp). An
// element is N little-endian 64-bit limbs in Montgomery form: byte for byte a MontField<P>, so
// arrays of field elements, affine points and scalars are copied to the device unchanged.
//
// The arithmetic works on the 2N 32-bit halves of those limbs (free on the device: a 64-bit value
// is a pair of 32-bit registers) with the PTX carry-chain steps of carry_chain.hpp, because the
// GPU's integer multiplier is 32 bits wide: a 64 x 64-bit product through 128-bit emulation costs
// several times the issue slots of the 32-bit multiply-adds it is made of. Results are fully
// reduced (< p), so they equal the CPU's bit for bit. Every zkpipe modulus has p < 2^(64N - 1),
// which the bounds below use (static_assert).
//
// The Montgomery product (R = 2^(64N)) interleaves the rows a b_i and m_i p, 32 bits at a time
// (CIOS), with the accumulator held as two numbers T = E + 2^32 O: products a_j b_i with j even
// add into E at limbs (j, j + 1), those with j odd into O at limbs (j - 1, j), so each row is two
// unbroken carry chains of multiply-adds (lo and hi of neighbouring products never meet in one
// chain): the even/odd layout of Emmart, Luitjens, Weems and Woolley, "Optimizing Modular
// Multiplication for NVIDIA's Maxwell GPUs" (ARITH 23, 2016). Dividing by 2^32 after a row
// shifts both numbers down one limb (register renaming once unrolled); O's lowest limb, which
// then sits at E's position 0, is added into E with its carry taken by the next row's first step
// on O.

#include <array>
#include <cstddef>
#include <cstdint>

#include "field/cuda/carry_chain.hpp"
#include "gpu/hd.hpp"

namespace zk::gpu {

template <std::size_t N>
struct LimbArray {
  std::uint64_t v[N];
};
template <std::size_t N>
constexpr LimbArray<N> limb_array(const std::array<std::uint64_t, N>& a) {
  LimbArray<N> r{};
  for (std::size_t i = 0; i < N; ++i) r.v[i] = a[i];
  return r;
}
/// The 2N 32-bit halves of N 64-bit limbs, least significant first.
template <std::size_t N>
struct HalfLimbArray {
  std::uint32_t w[2 * N];
};
template <std::size_t N>
constexpr HalfLimbArray<N> half_limb_array(const std::array<std::uint64_t, N>& a) {
  HalfLimbArray<N> r{};
  for (std::size_t i = 0; i < N; ++i) {
    r.w[2 * i] = static_cast<std::uint32_t>(a[i]);
    r.w[2 * i + 1] = static_cast<std::uint32_t>(a[i] >> 32);
  }
  return r;
}
/// What the product's reduction rows read: p's 32-bit limbs and -p^-1 mod 2^32.
template <std::size_t N>
struct ReductionConstants {
  std::uint32_t p[2 * N];
  std::uint32_t inv;
};
template <class P>
constexpr ReductionConstants<P::kLimbs> reduction_constants() {
  ReductionConstants<P::kLimbs> r{};
  const auto h = half_limb_array(P::kModulus);
  for (std::size_t k = 0; k < 2 * P::kLimbs; ++k) r.p[k] = h.w[k];
  r.inv = static_cast<std::uint32_t>(P::kInv);  // -p^-1 mod 2^64, so also mod 2^32
  return r;
}

#if defined(__CUDACC__)
/// The modulus's 32-bit limbs in constant memory for the product's reduction rows: as an operand
/// ptxas cannot see, so it does not special-case limbs such as 1 or 2^32 - 1 (BLS12-381's Fr),
/// which would break its fusion of each (lo, hi) pair into one wide multiply-add. One copy per
/// translation unit (static): each .cu file is its own device module.
template <class P>
static __constant__ ReductionConstants<P::kLimbs> kDevReduction = reduction_constants<P>();
#endif

template <class P>
struct DevField {
  static constexpr std::size_t N = P::kLimbs;
  static constexpr std::size_t M = 2 * N;  // 32-bit limbs
  using u32 = std::uint32_t;
  using u64 = std::uint64_t;
  static_assert(P::kModulus[N - 1] >> 63 == 0, "the product's bounds need p < 2^(64N - 1)");
  u64 v[N];

  ZK_HD static DevField zero() {
    DevField r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = 0;
    return r;
  }
  ZK_HD static DevField one() {
    constexpr LimbArray<N> r1 = limb_array(P::kR);
    DevField r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = r1.v[i];
    return r;
  }
  /// The element whose Montgomery limbs are `raw` (no conversion).
  ZK_HD static DevField from_raw(const u64* raw) {
    DevField r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = raw[i];
    return r;
  }
  ZK_HD bool is_zero() const {
    u64 acc = 0;
    for (std::size_t i = 0; i < N; ++i) acc |= v[i];
    return acc == 0;
  }
  ZK_HD bool operator==(const DevField& o) const {
    u64 acc = 0;
    for (std::size_t i = 0; i < N; ++i) acc |= v[i] ^ o.v[i];
    return acc == 0;
  }

  ZK_HD friend DevField operator+(const DevField& a, const DevField& b) {
    u32 x[M], y[M], s[M];
    split(a, x);
    split(b, y);
    CarryChain cc;
    // a + b < 2p < 2^(32M): no carry out of the top limb.
    s[0] = cc.add_cc(x[0], y[0]);
ZK_UNROLL
    for (std::size_t k = 1; k < M; ++k) s[k] = cc.addc_cc(x[k], y[k]);
    return reduce_once(s, cc);
  }
  ZK_HD friend DevField operator-(const DevField& a, const DevField& b) {
    constexpr HalfLimbArray<N> p = half_limb_array(P::kModulus);
    u32 x[M], y[M], d[M];
    split(a, x);
    split(b, y);
    CarryChain cc;
    d[0] = cc.sub_cc(x[0], y[0]);
ZK_UNROLL
    for (std::size_t k = 1; k < M; ++k) d[k] = cc.subc_cc(x[k], y[k]);
    // Add p back when the subtraction borrowed (a mask, no branch).
    const u32 mask = cc.subc(0, 0);
    d[0] = cc.add_cc(d[0], p.w[0] & mask);
ZK_UNROLL
    for (std::size_t k = 1; k < M; ++k) d[k] = cc.addc_cc(d[k], p.w[k] & mask);
    return join(d);
  }
  ZK_HD DevField operator-() const { return zero() - *this; }
  ZK_HD DevField dbl() const { return *this + *this; }

  /// Montgomery product a b R^-1 mod p (see the header comment for the layout).
  ZK_HD friend DevField operator*(const DevField& x, const DevField& y) {
    u32 a[M], b[M];
    split(x, a);
    split(y, b);
    // T's limbs by absolute position (2^(32k) for t[.][k]), in two numbers: t[0] takes products
    // whose (lo, hi) land at (even, odd) positions, t[1] those at (odd, even). So a register pair
    // holds the same two limbs in every row and a product is one 32 x 32 + 64-bit multiply-add
    // (IMAD.WIDE), with no moves to realign pairs. Rows retire positions from the bottom instead
    // of shifting, which unrolling turns into register names.
    u32 t[2][2 * M + 2];
ZK_UNROLL
    for (std::size_t k = 0; k < 2 * M + 2; ++k) t[0][k] = t[1][k] = 0;
    CarryChain cc;
ZK_UNROLL
    for (std::size_t i = 0; i < M; ++i) {
      // Row i: products a_j b_i with j even start at position i (in xs), j odd at i + 1 (in ys).
      u32* xs = t[i & 1];
      u32* ys = t[(i & 1) ^ 1];
      mad_chain(xs + i, a, b[i], cc);
      // Position i's limb of ys joins xs's; its carry goes into ys's chain at position i + 1.
      if (i == 0) {
        mad_chain(ys + 1, a + 1, b[0], cc);
      } else {
        xs[i] = cc.add_cc(xs[i], ys[i]);
        madc_chain(ys + i + 1, a + 1, b[i], cc);
      }
      // T += m p with m = -T p^-1 mod 2^32 clears position i.
      const ReductionConstants<N>& rc = reduction();
      const u32 m = mul_lo(xs[i], rc.inv);
      mad_chain(xs + i, rc.p, m, cc);
      mad_chain(ys + i + 1, rc.p + 1, m, cc);
    }
    // T / 2^(32M) = t[0] + t[1] from position M on, < 2p < 2^(32M): the top limbs and carry are 0.
    u32 r[M];
    r[0] = cc.add_cc(t[0][M], t[1][M]);
ZK_UNROLL
    for (std::size_t k = 1; k < M; ++k) r[k] = cc.addc_cc(t[0][M + k], t[1][M + k]);
    return reduce_once(r, cc);
  }
  ZK_HD DevField square() const { return *this * *this; }

  /// The canonical value's limbs (out of Montgomery form: a product with the raw integer 1).
  ZK_HD DevField to_canonical() const {
    DevField one_raw = zero();
    one_raw.v[0] = 1;
    return *this * one_raw;
  }

  ZK_HD DevField pow(u64 e) const {
    DevField acc = one(), base = *this;
    while (e != 0) {
      if (e & 1) acc = acc * base;
      base = base.square();
      e >>= 1;
    }
    return acc;
  }

 private:
  ZK_HD static const ReductionConstants<N>& reduction() {
#if defined(__CUDA_ARCH__)
    return kDevReduction<P>;
#else
    static constexpr ReductionConstants<N> rc = reduction_constants<P>();
    return rc;
#endif
  }
  ZK_HD static void split(const DevField& a, u32* w) {
ZK_UNROLL
    for (std::size_t i = 0; i < N; ++i) {
      w[2 * i] = static_cast<u32>(a.v[i]);
      w[2 * i + 1] = static_cast<u32>(a.v[i] >> 32);
    }
  }
  ZK_HD static DevField join(const u32* w) {
    DevField r;
ZK_UNROLL
    for (std::size_t i = 0; i < N; ++i) r.v[i] = u64{w[2 * i]} | (u64{w[2 * i + 1]} << 32);
    return r;
  }

  /// acc[0 .. M] += sum over even j of a_j b 2^(32j) (lo at j, hi at j + 1; a carry chain of its
  /// own), the carry out added into acc[M]. With a = the odd limbs' base + 1 the same call adds
  /// the odd products.
  ZK_HD static void mad_chain(u32* acc, const u32* a, u32 b, CarryChain& cc) {
    acc[0] = cc.mad_lo_cc(a[0], b, acc[0]);
    acc[1] = cc.madc_hi_cc(a[0], b, acc[1]);
    madc_rest(acc, a, b, cc);
  }
  /// The same, taking the carry already in the chain at acc[0].
  ZK_HD static void madc_chain(u32* acc, const u32* a, u32 b, CarryChain& cc) {
    acc[0] = cc.madc_lo_cc(a[0], b, acc[0]);
    acc[1] = cc.madc_hi_cc(a[0], b, acc[1]);
    madc_rest(acc, a, b, cc);
  }
  ZK_HD static void madc_rest(u32* acc, const u32* a, u32 b, CarryChain& cc) {
ZK_UNROLL
    for (std::size_t j = 2; j < M; j += 2) {
      acc[j] = cc.madc_lo_cc(a[j], b, acc[j]);
      acc[j + 1] = cc.madc_hi_cc(a[j], b, acc[j + 1]);
    }
    acc[M] = cc.addc(acc[M], 0);
  }

  /// s - p if s >= p, else s (s < 2p).
  ZK_HD static DevField reduce_once(const u32* s, CarryChain& cc) {
    constexpr HalfLimbArray<N> p = half_limb_array(P::kModulus);
    u32 d[M];
    d[0] = cc.sub_cc(s[0], p.w[0]);
ZK_UNROLL
    for (std::size_t k = 1; k < M; ++k) d[k] = cc.subc_cc(s[k], p.w[k]);
    const u32 borrow = cc.subc(0, 0);  // all ones when s < p
    u32 r[M];
ZK_UNROLL
    for (std::size_t k = 0; k < M; ++k) r[k] = borrow != 0 ? s[k] : d[k];
    return join(r);
  }
};

}  // namespace zk::gpu
