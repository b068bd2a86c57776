#pragma once

// Montgomery multiplication kernels: a portable CIOS and an x86-64 MULX/ADCX/ADOX path.
//
// Both compute a*b*R^-1 mod p for p < 2^(64N - 1) with the "no-carry" CIOS of Koc, Acar and Kaliski
// ("Analyzing and comparing Montgomery multiplication algorithms", 1996) as refined by the gnark
// team (https://hackmd.io/@gnark/modular_multiplication): when the top limb of p is below
// 2^63 - 1 the running sum never needs an extra carry word. All four moduli of zkpipe qualify
// (checked by a static_assert in MontField).

#include <cstddef>
#include <cstdint>

#include "field/bigint.hpp"

namespace zk::field {

/// t < 2p -> t mod p, without a branch.
template <std::size_t N>
constexpr Limbs<N> reduce_once_branchless(const Limbs<N>& t, const Limbs<N>& p) {
  Limbs<N> d{};
  const std::uint64_t borrow = sub_limbs(d, t, p);
  return select_limbs(0 - borrow, t, d);
}

/// Portable no-carry CIOS. constexpr, so field constants can be converted at compile time.
/// kReduce = false skips the final subtraction (lazy transforms, ntt.hpp): the result is then below
/// a*b/R + p, below 2p for a < p and b < 2p (or b < 4p when p < R/4). The bound holds at every step
/// because a, the operand read whole, is below p: after step i the running sum is below a + p.
template <std::size_t N, bool kReduce = true>
constexpr Limbs<N> mont_mul_portable(const Limbs<N>& a, const Limbs<N>& b, const Limbs<N>& p, std::uint64_t inv) {
  Limbs<N> t{};
#pragma GCC unroll 16
  for (std::size_t i = 0; i < N; ++i) {
    u128 acc = static_cast<u128>(a[0]) * b[i] + t[0];
    t[0] = static_cast<std::uint64_t>(acc);
    std::uint64_t carry_a = static_cast<std::uint64_t>(acc >> 64);
    const std::uint64_t m = t[0] * inv;
    u128 red = static_cast<u128>(m) * p[0] + t[0];
    std::uint64_t carry_c = static_cast<std::uint64_t>(red >> 64);
#pragma GCC unroll 16
    for (std::size_t j = 1; j < N; ++j) {
      acc = static_cast<u128>(a[j]) * b[i] + t[j] + carry_a;
      carry_a = static_cast<std::uint64_t>(acc >> 64);
      red = static_cast<u128>(m) * p[j] + static_cast<std::uint64_t>(acc) + carry_c;
      carry_c = static_cast<std::uint64_t>(red >> 64);
      t[j - 1] = static_cast<std::uint64_t>(red);
    }
    t[N - 1] = carry_c + carry_a;
  }
  if constexpr (!kReduce) return t;
  return reduce_once_branchless(t, p);
}

/// The full 2N-limb product a*b (lazy reduction: sums and differences of such products are reduced
/// once, by mont_redc_portable). Schoolbook, constexpr.
template <std::size_t N>
constexpr Limbs<2 * N> mul_wide_portable(const Limbs<N>& a, const Limbs<N>& b) {
  Limbs<2 * N> t{};
#pragma GCC unroll 16
  for (std::size_t i = 0; i < N; ++i) {
    std::uint64_t carry = 0;
#pragma GCC unroll 16
    for (std::size_t j = 0; j < N; ++j) {
      const u128 acc = static_cast<u128>(a[j]) * b[i] + t[i + j] + carry;
      t[i + j] = static_cast<std::uint64_t>(acc);
      carry = static_cast<std::uint64_t>(acc >> 64);
    }
    t[i + N] = carry;
  }
  return t;
}

/// Montgomery reduction t*R^-1 mod p of a 2N-limb t < p*R (R = 2^64N), fully reduced below p:
/// N word steps on the low half give u = (t_lo + m p)/R <= p, then u + t_hi < 2p (t_hi < p) is
/// reduced once. Needs p < 2^(64N - 1), as the no-carry product does.
template <std::size_t N>
constexpr Limbs<N> mont_redc_portable(const Limbs<2 * N>& t, const Limbs<N>& p, std::uint64_t inv) {
  Limbs<N> u{};
#pragma GCC unroll 16
  for (std::size_t i = 0; i < N; ++i) u[i] = t[i];
#pragma GCC unroll 16
  for (std::size_t i = 0; i < N; ++i) {
    const std::uint64_t m = u[0] * inv;
    u128 acc = static_cast<u128>(m) * p[0] + u[0];
    std::uint64_t carry = static_cast<std::uint64_t>(acc >> 64);
#pragma GCC unroll 16
    for (std::size_t j = 1; j < N; ++j) {
      acc = static_cast<u128>(m) * p[j] + u[j] + carry;
      u[j - 1] = static_cast<std::uint64_t>(acc);
      carry = static_cast<std::uint64_t>(acc >> 64);
    }
    u[N - 1] = carry;
  }
  Limbs<N> hi{};
#pragma GCC unroll 16
  for (std::size_t i = 0; i < N; ++i) hi[i] = t[N + i];
  add_limbs(u, u, hi);
  return reduce_once_branchless(u, p);
}

#if defined(__x86_64__) && !defined(ZK_NO_ASM)
#define ZK_HAVE_MULX_ASM 1

// The MULX path keeps two carry chains in flight (ADCX uses CF, ADOX uses OF), so the high and low
// halves of each product are accumulated without serialising on one flag. One asm statement per
// outer iteration: a multiply step t += a*b[i] (t grows to N+1 words, the top word in A), then a
// reduction step t = (t + m*p) / 2^64 with m = t[0]*inv. The register names rotate in the
// reduction step so the division by 2^64 costs no moves.
#define ZK_MX_FIRST_STEP(off, tj, tj1) \
  "mulxq " off "(%[a]), %%rax, %[" tj1 \
  "]\n\t"                              \
  "adcxq %%rax, %[" tj "]\n\t"
#define ZK_MX_FIRST_LAST(off, tj) \
  "mulxq " off                    \
  "(%[a]), %%rax, %[A]\n\t"       \
  "adcxq %%rax, %[" tj            \
  "]\n\t"                         \
  "movl $0, %%eax\n\t"            \
  "adcxq %%rax, %[A]\n\t"
#define ZK_MX_STEP(off, tj, tj1) \
  "mulxq " off                   \
  "(%[a]), %%rax, %[hi]\n\t"     \
  "adoxq %%rax, %[" tj           \
  "]\n\t"                        \
  "adcxq %[hi], %[" tj1 "]\n\t"
#define ZK_MX_LAST(off, tj) \
  "mulxq " off              \
  "(%[a]), %%rax, %[A]\n\t" \
  "adoxq %%rax, %[" tj      \
  "]\n\t"                   \
  "movl $0, %%eax\n\t"      \
  "adcxq %%rax, %[A]\n\t"   \
  "adoxq %%rax, %[A]\n\t"
#define ZK_MX_RED_BEGIN             \
  "movq %[t0], %%rdx\n\t"           \
  "imulq %[inv], %%rdx\n\t"         \
  "xorl %%eax, %%eax\n\t"           \
  "mulxq 0(%[p]), %%rax, %[hi]\n\t" \
  "adcxq %[t0], %%rax\n\t"          \
  "movq %[hi], %[t0]\n\t"
#define ZK_MX_RED_STEP(off, tprev, tj) \
  "adcxq %[" tj "], %[" tprev          \
  "]\n\t"                              \
  "mulxq " off "(%[p]), %%rax, %[" tj  \
  "]\n\t"                              \
  "adoxq %%rax, %[" tprev "]\n\t"
#define ZK_MX_RED_END(tlast) \
  "movl $0, %%eax\n\t"       \
  "adcxq %%rax, %[" tlast    \
  "]\n\t"                    \
  "adoxq %[A], %[" tlast "]\n\t"

/// MULX/ADX Montgomery multiplication, 4 limbs. Requires BMI2 and ADX (see cpu::has_mulx_adx).
/// kReduce as in mont_mul_portable (a is the operand read whole).
template <bool kReduce = true>
[[gnu::always_inline]] inline Limbs<4> mont_mul_mulx4(const Limbs<4>& a, const Limbs<4>& b, const Limbs<4>& p,
                                                      std::uint64_t inv) {
  std::uint64_t t0, t1, t2, t3, A, hi;
  std::uint64_t bi = b[0];
  const std::uint64_t* ap = a.data();
  const std::uint64_t* pp = p.data();
  __asm__(
      "xorl %%eax, %%eax\n\t"
      "mulxq 0(%[a]), %[t0], %[t1]\n\t" ZK_MX_FIRST_STEP("8", "t1", "t2") ZK_MX_FIRST_STEP("16", "t2", "t3")
          ZK_MX_FIRST_LAST("24", "t3") ZK_MX_RED_BEGIN ZK_MX_RED_STEP("8", "t0", "t1") ZK_MX_RED_STEP("16", "t1", "t2")
              ZK_MX_RED_STEP("24", "t2", "t3") ZK_MX_RED_END("t3")
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [A] "=&r"(A), [hi] "=&r"(hi), "+d"(bi)
      : [a] "r"(ap), [p] "r"(pp), [inv] "rm"(inv), "m"(a), "m"(p)
      : "rax", "cc");
  for (int i = 1; i < 4; ++i) {
    bi = b[i];
    __asm__("xorl %%eax, %%eax\n\t" ZK_MX_STEP("0", "t0", "t1") ZK_MX_STEP("8", "t1", "t2") ZK_MX_STEP("16", "t2", "t3")
                ZK_MX_LAST("24", "t3") ZK_MX_RED_BEGIN ZK_MX_RED_STEP("8", "t0", "t1") ZK_MX_RED_STEP("16", "t1", "t2")
                    ZK_MX_RED_STEP("24", "t2", "t3") ZK_MX_RED_END("t3")
            : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [A] "=&r"(A), [hi] "=&r"(hi), "+d"(bi)
            : [a] "r"(ap), [p] "r"(pp), [inv] "rm"(inv), "m"(a), "m"(p)
            : "rax", "cc");
  }
  if constexpr (!kReduce) return Limbs<4>{t0, t1, t2, t3};
  return reduce_once_branchless(Limbs<4>{t0, t1, t2, t3}, p);
}

/// MULX/ADX Montgomery multiplication, 6 limbs; kReduce as in mont_mul_portable.
template <bool kReduce = true>
inline Limbs<6> mont_mul_mulx6(const Limbs<6>& a, const Limbs<6>& b, const Limbs<6>& p, std::uint64_t inv) {
  std::uint64_t t0, t1, t2, t3, t4, t5, A, hi;
  std::uint64_t bi = b[0];
  const std::uint64_t* ap = a.data();
  const std::uint64_t* pp = p.data();
  __asm__(
      "xorl %%eax, %%eax\n\t"
      "mulxq 0(%[a]), %[t0], %[t1]\n\t" ZK_MX_FIRST_STEP("8", "t1", "t2") ZK_MX_FIRST_STEP("16", "t2", "t3")
          ZK_MX_FIRST_STEP("24", "t3", "t4") ZK_MX_FIRST_STEP("32", "t4", "t5") ZK_MX_FIRST_LAST("40", "t5")
              ZK_MX_RED_BEGIN ZK_MX_RED_STEP("8", "t0", "t1") ZK_MX_RED_STEP("16", "t1", "t2")
                  ZK_MX_RED_STEP("24", "t2", "t3") ZK_MX_RED_STEP("32", "t3", "t4") ZK_MX_RED_STEP("40", "t4", "t5")
                      ZK_MX_RED_END("t5")
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5), [A] "=&r"(A),
        [hi] "=&r"(hi), "+d"(bi)
      : [a] "r"(ap), [p] "r"(pp), [inv] "m"(inv), "m"(a), "m"(p)
      : "rax", "cc");
  for (int i = 1; i < 6; ++i) {
    bi = b[i];
    __asm__("xorl %%eax, %%eax\n\t" ZK_MX_STEP("0", "t0", "t1") ZK_MX_STEP("8", "t1", "t2") ZK_MX_STEP("16", "t2", "t3")
                ZK_MX_STEP("24", "t3", "t4") ZK_MX_STEP("32", "t4", "t5") ZK_MX_LAST("40", "t5")
                    ZK_MX_RED_BEGIN ZK_MX_RED_STEP("8", "t0", "t1") ZK_MX_RED_STEP("16", "t1", "t2")
                        ZK_MX_RED_STEP("24", "t2", "t3") ZK_MX_RED_STEP("32", "t3", "t4")
                            ZK_MX_RED_STEP("40", "t4", "t5") ZK_MX_RED_END("t5")
            : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5), [A] "=&r"(A),
              [hi] "=&r"(hi), "+d"(bi)
            : [a] "r"(ap), [p] "r"(pp), [inv] "m"(inv), "m"(a), "m"(p)
            : "rax", "cc");
  }
  if constexpr (!kReduce) return Limbs<6>{t0, t1, t2, t3, t4, t5};
  return reduce_once_branchless(Limbs<6>{t0, t1, t2, t3, t4, t5}, p);
}

/// MULX/ADX 2N-limb product (the rows of mont_mul_mulx without the reduction steps): each row adds
/// a*b[i] to an N+1-word window, whose low word is then final.
template <std::size_t N>
[[gnu::always_inline]] inline Limbs<2 * N> mul_wide_mulx(const Limbs<N>& a, const Limbs<N>& b) {
  static_assert(N == 4 || N == 6);
  Limbs<2 * N> out;
  std::uint64_t t0, t1, t2, t3, t4 = 0, t5 = 0, A, hi;
  std::uint64_t bi = b[0];
  const std::uint64_t* ap = a.data();
  if constexpr (N == 4) {
    __asm__("xorl %%eax, %%eax\n\t"
            "mulxq 0(%[a]), %[t0], %[t1]\n\t" ZK_MX_FIRST_STEP("8", "t1", "t2") ZK_MX_FIRST_STEP("16", "t2", "t3")
                ZK_MX_FIRST_LAST("24", "t3")
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [A] "=&r"(A), "+d"(bi)
            : [a] "r"(ap), "m"(a)
            : "rax", "cc");
  } else {
    __asm__("xorl %%eax, %%eax\n\t"
            "mulxq 0(%[a]), %[t0], %[t1]\n\t" ZK_MX_FIRST_STEP("8", "t1", "t2") ZK_MX_FIRST_STEP("16", "t2", "t3")
                ZK_MX_FIRST_STEP("24", "t3", "t4") ZK_MX_FIRST_STEP("32", "t4", "t5") ZK_MX_FIRST_LAST("40", "t5")
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
              [A] "=&r"(A), "+d"(bi)
            : [a] "r"(ap), "m"(a)
            : "rax", "cc");
  }
  const auto shift = [&](std::size_t i) {
    out[i] = t0;
    t0 = t1, t1 = t2, t2 = t3;
    if constexpr (N == 4) {
      t3 = A;
    } else {
      t3 = t4, t4 = t5, t5 = A;
    }
  };
  shift(0);
#pragma GCC unroll 8
  for (std::size_t i = 1; i < N; ++i) {
    bi = b[i];
    if constexpr (N == 4) {
      __asm__("xorl %%eax, %%eax\n\t" ZK_MX_STEP("0", "t0", "t1") ZK_MX_STEP("8", "t1", "t2") ZK_MX_STEP("16", "t2", "t3")
                  ZK_MX_LAST("24", "t3")
              : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [A] "=&r"(A), [hi] "=&r"(hi), "+d"(bi)
              : [a] "r"(ap), "m"(a)
              : "rax", "cc");
    } else {
      __asm__("xorl %%eax, %%eax\n\t" ZK_MX_STEP("0", "t0", "t1") ZK_MX_STEP("8", "t1", "t2") ZK_MX_STEP("16", "t2", "t3")
                  ZK_MX_STEP("24", "t3", "t4") ZK_MX_STEP("32", "t4", "t5") ZK_MX_LAST("40", "t5")
              : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5), [A] "=&r"(A),
                [hi] "=&r"(hi), "+d"(bi)
              : [a] "r"(ap), "m"(a)
              : "rax", "cc");
    }
    shift(i);
  }
  out[N] = t0, out[N + 1] = t1, out[N + 2] = t2, out[N + 3] = t3;
  if constexpr (N == 6) out[10] = t4, out[11] = t5;
  return out;
}

/// MULX/ADX Montgomery reduction of an 8-limb t < p*R (mont_redc_portable's method): the reduction
/// steps of mont_mul_mulx4 on the low half, then the high half added and one conditional subtraction.
/// (6 limbs: zk_redc_384 of field/asm/fp2_mulx.S.)
[[gnu::always_inline]] inline Limbs<4> mont_redc_mulx4(const Limbs<8>& t, const Limbs<4>& p, std::uint64_t inv) {
  std::uint64_t t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3], hi;
  const std::uint64_t* pp = p.data();
  const std::uint64_t zero = 0;
#pragma GCC unroll 4
  for (std::size_t i = 0; i < 4; ++i) {
    __asm__(ZK_MX_RED_BEGIN ZK_MX_RED_STEP("8", "t0", "t1") ZK_MX_RED_STEP("16", "t1", "t2")
                ZK_MX_RED_STEP("24", "t2", "t3") ZK_MX_RED_END("t3")
            : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [hi] "=&r"(hi)
            : [p] "r"(pp), [inv] "rm"(inv), [A] "r"(zero), "m"(p)
            : "rax", "rdx", "cc");
  }
  Limbs<4> u{t0, t1, t2, t3};
  add_limbs(u, u, Limbs<4>{t[4], t[5], t[6], t[7]});
  return reduce_once_branchless(u, p);
}

#if defined(__ELF__)
// The Fq2 routines of field/asm/fp2_mulx.S (contracts there); BMI2 and ADX.
#define ZK_HAVE_FP2_MULX_ASM 1
extern "C" {
void zk_fp2_mul_wide_384(std::uint64_t out[24], const std::uint64_t a[12], const std::uint64_t b[12],
                         const std::uint64_t p[6]);
void zk_fp2_mul_384(std::uint64_t out[12], const std::uint64_t a[12], const std::uint64_t b[12],
                    const std::uint64_t p[6], std::uint64_t n0);
void zk_fp2_sqr_wide_384(std::uint64_t out[24], const std::uint64_t a[12], const std::uint64_t p[6]);
void zk_redc_384(std::uint64_t out[6], const std::uint64_t t[12], const std::uint64_t p[6], std::uint64_t n0);
void zk_fp2_mul_wide_256(std::uint64_t out[16], const std::uint64_t a[8], const std::uint64_t b[8],
                         const std::uint64_t p[4]);
void zk_fp2_mul_256(std::uint64_t out[8], const std::uint64_t a[8], const std::uint64_t b[8], const std::uint64_t p[4],
                    std::uint64_t n0);
void zk_fp2_sqr_wide_256(std::uint64_t out[16], const std::uint64_t a[8], const std::uint64_t p[4]);
void zk_fp2_sqr_256(std::uint64_t out[8], const std::uint64_t a[8], const std::uint64_t p[4], std::uint64_t n0);
}

/// The Fq2 routines by the base field's limb count: an Fq2 as 2N consecutive words (c0, c1), a wide
/// one as 4N. The reduced square only for N = 4 (Fp2::square says why).
template <std::size_t N>
struct Fp2MulxAsm;
template <>
struct Fp2MulxAsm<6> {
  static constexpr auto mul_wide = &zk_fp2_mul_wide_384;
  static constexpr auto mul = &zk_fp2_mul_384;
  static constexpr auto sqr_wide = &zk_fp2_sqr_wide_384;
};
template <>
struct Fp2MulxAsm<4> {
  static constexpr auto mul_wide = &zk_fp2_mul_wide_256;
  static constexpr auto mul = &zk_fp2_mul_256;
  static constexpr auto sqr_wide = &zk_fp2_sqr_wide_256;
  static constexpr auto sqr = &zk_fp2_sqr_256;
};
#endif

#undef ZK_MX_FIRST_STEP
#undef ZK_MX_FIRST_LAST
#undef ZK_MX_STEP
#undef ZK_MX_LAST
#undef ZK_MX_RED_BEGIN
#undef ZK_MX_RED_STEP
#undef ZK_MX_RED_END
#endif

}  // namespace zk::field
