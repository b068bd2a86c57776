// Field axioms and conversions, written once and instantiated for the four prime fields; the MULX
// path against the portable path; roots of unity with the generator as a parameter.

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "base/cpu.hpp"
#include "field/fields.hpp"
#include "field/roots.hpp"
#include "test_util.hpp"

namespace zk::field {
namespace {

template <class F>
class PrimeFieldTest : public ::testing::Test {};

using PrimeFields = ::testing::Types<Bls12_381Fq, Bls12_381Fr, Bn254Fq, Bn254Fr>;
TYPED_TEST_SUITE(PrimeFieldTest, PrimeFields);

constexpr int kIters = 200;

/// p - 1, p - 2, 1, 2, 0 and random values: the edge values carries break first.
template <class F>
std::vector<F> sample(Rng& rng, int n) {
  std::vector<F> out = {F::zero(), F::one(), F::from_u64(2), -F::one(), -F::from_u64(2)};
  for (int i = 0; i < n; ++i) out.push_back(F::random(rng));
  return out;
}

TYPED_TEST(PrimeFieldTest, AdditionAndMultiplicationAreCommutativeAndAssociative) {
  using F = TypeParam;
  Rng rng = test::rng(1);
  auto xs = sample<F>(rng, kIters);
  for (std::size_t i = 0; i + 2 < xs.size(); ++i) {
    const F &a = xs[i], &b = xs[i + 1], &c = xs[i + 2];
    EXPECT_EQ(a + b, b + a);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a + b) + c, a + (b + c));
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
  }
}

TYPED_TEST(PrimeFieldTest, IdentitiesNegationAndSubtractionAgree) {
  using F = TypeParam;
  Rng rng = test::rng(2);
  for (const F& a : sample<F>(rng, kIters)) {
    EXPECT_EQ(a + F::zero(), a);
    EXPECT_EQ(a * F::one(), a);
    EXPECT_EQ(a * F::zero(), F::zero());
    EXPECT_EQ(a + (-a), F::zero());
    EXPECT_EQ(a - a, F::zero());
    EXPECT_EQ(a.dbl(), a + a);
    EXPECT_EQ(a.square(), a * a);
    EXPECT_EQ(a.halve().dbl(), a);
    EXPECT_EQ(-(-a), a);
  }
}

TYPED_TEST(PrimeFieldTest, SmallIntegersBehaveLikeIntegers) {
  using F = TypeParam;
  EXPECT_EQ(F::from_u64(3) * F::from_u64(5), F::from_u64(15));
  EXPECT_EQ(F::from_u64(3) - F::from_u64(5) + F::from_u64(2), F::zero());
  EXPECT_TRUE(F::one().is_one());
  EXPECT_TRUE(F::zero().is_zero());
  EXPECT_FALSE(F::one().is_zero());
  // (p - 1) + 1 wraps to zero: the modulus is what the params say.
  typename F::Repr pm1 = F::Params::kModulus;
  pm1[0] -= 1;
  EXPECT_EQ(F::from_canonical(pm1).value() + F::one(), F::zero());
}

TYPED_TEST(PrimeFieldTest, InverseAndBatchInverse) {
  using F = TypeParam;
  Rng rng = test::rng(3);
  auto xs = sample<F>(rng, 50);
  for (const F& a : xs) {
    if (a.is_zero()) {
      EXPECT_TRUE(a.inverse().is_zero());
      continue;
    }
    EXPECT_EQ(a * a.inverse(), F::one());
  }
  std::vector<F> batch = xs;
  F::batch_inverse(batch);
  for (std::size_t i = 0; i < xs.size(); ++i) EXPECT_EQ(batch[i], xs[i].inverse());
}

TYPED_TEST(PrimeFieldTest, PowMatchesRepeatedMultiplication) {
  using F = TypeParam;
  Rng rng = test::rng(4);
  const F a = F::random(rng);
  F acc = F::one();
  for (std::uint64_t e = 0; e < 40; ++e) {
    EXPECT_EQ(a.pow(e), acc);
    acc *= a;
  }
  // Fermat: a^(p-1) = 1.
  typename F::Repr pm1 = F::Params::kModulus;
  pm1[0] -= 1;
  EXPECT_TRUE(a.pow(pm1).is_one());
}

TYPED_TEST(PrimeFieldTest, SqrtOfSquaresAndLegendreSymbol) {
  using F = TypeParam;
  Rng rng = test::rng(5);
  int non_squares = 0;
  for (const F& a : sample<F>(rng, 100)) {
    const F sq = a.square();
    auto r = sq.sqrt();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->square(), sq);
    EXPECT_EQ(sq.legendre(), a.is_zero() ? 0 : 1);
    const auto ra = a.sqrt();
    EXPECT_EQ(ra.has_value(), a.legendre() >= 0);
    if (ra) {
      EXPECT_EQ(ra->square(), a);
    }
    if (!ra) ++non_squares;
  }
  EXPECT_GT(non_squares, 20);  // about half of random elements are non-squares
  EXPECT_FALSE(F::from_u64(F::Params::kSmallestNonResidue).sqrt().has_value());
}

TYPED_TEST(PrimeFieldTest, BytesRoundTripInBothEndiannesses) {
  using F = TypeParam;
  Rng rng = test::rng(6);
  for (const F& a : sample<F>(rng, 50)) {
    for (Endian e : {Endian::kLittle, Endian::kBig}) {
      const auto bytes = a.to_bytes(e);
      ASSERT_EQ(bytes.size(), F::kBytes);
      auto back = F::from_bytes(bytes, e);
      ASSERT_TRUE(back.ok()) << back.status().to_string();
      EXPECT_EQ(*back, a);
    }
    EXPECT_EQ(F::from_canonical(a.to_canonical()).value(), a);
    EXPECT_EQ(F::from_hex(a.to_hex()).value(), a);
  }
  const auto one_le = F::one().to_bytes(Endian::kLittle);
  EXPECT_EQ(one_le[0], 1);
  const auto one_be = F::one().to_bytes(Endian::kBig);
  EXPECT_EQ(one_be[F::kBytes - 1], 1);
}

TYPED_TEST(PrimeFieldTest, RejectsNonCanonicalAndMisSizedEncodings) {
  using F = TypeParam;
  // p itself, little-endian.
  std::vector<std::uint8_t> p_le(F::kBytes);
  for (std::size_t i = 0; i < F::kBytes; ++i)
    p_le[i] = static_cast<std::uint8_t>(F::Params::kModulus[i / 8] >> (8 * (i % 8)));
  auto r = F::from_bytes(p_le, Endian::kLittle);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kOutOfRange);
  EXPECT_NE(r.status().message().find("not canonical"), std::string::npos);
  // All 0xff.
  std::vector<std::uint8_t> ff(F::kBytes, 0xff);
  EXPECT_FALSE(F::from_bytes(ff, Endian::kBig).ok());
  // Wrong length.
  std::vector<std::uint8_t> short_bytes(F::kBytes - 1, 0);
  auto s = F::from_bytes(short_bytes, Endian::kLittle);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(F::from_hex("0xzz").ok());
}

TYPED_TEST(PrimeFieldTest, RandomSamplingIsSeededAndDeterministic) {
  using F = TypeParam;
  Rng a(42), b(42), c(43);
  const F x = F::random(a);
  EXPECT_EQ(x, F::random(b));
  EXPECT_NE(x, F::random(c));
}

// The paths the reports name are the ones that run; an override names itself (this suite also runs
// as portable_path_field_suite, with ZKPIPE_NO_ASM=1).
TEST(CpuPaths, NameTheArithmeticThatRuns) {
  const std::string p = cpu::kernel_paths();
  const std::string running = cpu::has_avx512_ifma() ? "avx512-ifma mulx-adx" : cpu::has_mulx_adx() ? "mulx-adx" : "portable";
  EXPECT_EQ(p.rfind(running, 0), 0u) << p;
  const char* no_asm = std::getenv("ZKPIPE_NO_ASM");
  if (no_asm != nullptr && std::string(no_asm) == "1") {
    EXPECT_EQ(p.rfind("portable", 0), 0u) << p;
    EXPECT_TRUE(p == "portable" || p.find(" off: ZKPIPE_NO_ASM=1)") != std::string::npos) << p;
  }
  EXPECT_EQ(p.find("off:") == std::string::npos, p.find('(') == std::string::npos) << p;
}

TYPED_TEST(PrimeFieldTest, MulxPathMatchesPortablePath) {
  using F = TypeParam;
  if (!cpu::has_mulx_adx())
    GTEST_SKIP() << "this CPU has no BMI2/ADX (or ZKPIPE_NO_ASM is set): only the portable path runs";
  Rng rng = test::rng(7);
  auto xs = sample<F>(rng, 2000);
  // Largest representable limbs below p: stress the final conditional subtraction.
  typename F::Repr pm1 = F::Params::kModulus;
  pm1[0] -= 1;
  xs.push_back(F::from_mont(pm1));
  for (std::size_t i = 0; i + 1 < xs.size(); ++i) {
    const auto& a = xs[i].mont();
    const auto& b = xs[i + 1].mont();
    ASSERT_EQ(F::mul_raw(a, b), F::mul_raw_portable(a, b)) << "at " << i;
    ASSERT_EQ(F::mul_raw(a, a), F::mul_raw_portable(a, a)) << "at " << i;
  }
}

TYPED_TEST(PrimeFieldTest, WideProductsReducedOnceEqualMontgomeryProducts) {
  // Lazy reduction: redc(a*b) is the Montgomery product; differences of wide products reduce to the
  // differences of the products (wide_sub adds p R on a borrow); the MULX kernels equal the portable
  // ones. Unreduced sums (< 2p) as operands where p < R/4 (the base fields Fp2 is built on).
  using F = TypeParam;
  Rng rng = test::rng(8);
  auto xs = sample<F>(rng, 1000);
  typename F::Repr pm1 = F::Params::kModulus;
  pm1[0] -= 1;
  xs.push_back(F::from_mont(pm1));
  xs.push_back(F::from_mont(pm1));
  xs.push_back(F::zero());
  // The largest input redc takes, p R - 1 (its high half p - 1, its low half all ones).
  typename F::Wide top{};
  for (std::size_t k = 0; k < F::kLimbs; ++k) top[k] = ~std::uint64_t{0};
  for (std::size_t k = 0; k < F::kLimbs; ++k) top[F::kLimbs + k] = pm1[k];
  ASSERT_EQ(F::redc(top), F::redc_portable(top));
  for (std::size_t i = 0; i + 3 < xs.size(); ++i) {
    const F a = xs[i], b = xs[i + 1], c = xs[i + 2], d = xs[i + 3];
    const auto ab = F::mul_wide(a.mont(), b.mont()), cd = F::mul_wide(c.mont(), d.mont());
    ASSERT_EQ(ab, F::mul_wide_portable_raw(a.mont(), b.mont())) << "at " << i;
    ASSERT_EQ(F::redc(ab), a * b) << "at " << i;
    ASSERT_EQ(F::redc_portable(ab), a * b) << "at " << i;
    ASSERT_EQ(F::redc(F::wide_sub(ab, cd)), a * b - c * d) << "at " << i;
    ASSERT_EQ(F::redc(F::wide_sub(cd, ab)), c * d - a * b) << "at " << i;
    if constexpr (F::Params::kModulus[F::kLimbs - 1] >> 62 == 0) {
      const auto sum = F::mul_wide(F::add_unreduced(a, b), F::add_unreduced(c, d));
      ASSERT_EQ(sum, F::mul_wide_portable_raw(F::add_unreduced(a, b), F::add_unreduced(c, d))) << "at " << i;
      ASSERT_EQ(F::redc(sum), (a + b) * (c + d)) << "at " << i;
      ASSERT_EQ(F::redc_portable(sum), (a + b) * (c + d)) << "at " << i;
    }
  }
}


TYPED_TEST(PrimeFieldTest, LazyArithmeticStaysBelowTwicePAndAgreesWithReducedArithmetic) {
  // The NTT's lazy butterflies (ntt.hpp): every value below 2p stands for itself mod p. Each element
  // is taken both as a (canonical) and as a + p (the largest lazy form); p - 1 gives 2p - 1, the top.
  using F = TypeParam;
  using Repr = typename F::Repr;
  Rng rng = test::rng(9);
  const auto xs = sample<F>(rng, 300);
  Repr two_p{}, four_p{};
  add_limbs(two_p, F::Params::kModulus, F::Params::kModulus);
  const bool four_p_fits = add_limbs(four_p, two_p, two_p) == 0;
  ASSERT_EQ(F::kQuarterModulus, four_p_fits);
  const auto below = [](const Repr& x, const Repr& bound) { return cmp_limbs(x, bound) < 0; };
  const auto lazy_forms = [](const F& a) {
    Repr plus_p{};
    add_limbs(plus_p, a.mont(), F::Params::kModulus);
    return std::array<Repr, 2>{a.mont(), plus_p};
  };
  for (std::size_t i = 0; i + 2 < xs.size(); ++i) {
    const F a = xs[i], b = xs[i + 1], w = xs[i + 2];
    const Repr shifted = F::sub_plus_p(a, b);  // canonical operands, no correction
    ASSERT_TRUE(below(shifted, two_p)) << "at " << i;
    ASSERT_EQ(F::from_lazy(shifted), a - b) << "at " << i;
    for (const Repr& x : lazy_forms(a)) {
      ASSERT_EQ(F::from_lazy(x), a);
      for (const Repr& y : lazy_forms(b)) {
        const Repr sum = F::add_lazy(x, y), diff = F::sub_lazy(x, y), prod = F::mul_lazy(w, x);
        ASSERT_TRUE(below(sum, two_p) && below(diff, two_p) && below(prod, two_p)) << "at " << i;
        ASSERT_EQ(F::from_lazy(sum), a + b) << "at " << i;
        ASSERT_EQ(F::from_lazy(diff), a - b) << "at " << i;
        ASSERT_EQ(F::from_lazy(prod), w * a) << "at " << i;
        ASSERT_EQ(prod, F::mul_lazy_portable(w, x)) << "at " << i;
        if constexpr (F::kQuarterModulus) {
          const Repr wide = F::sub_lazy_uncorrected(x, y);  // below 4p, multiplied as it is
          ASSERT_TRUE(below(wide, four_p)) << "at " << i;
          const Repr wide_prod = F::mul_lazy(w, wide);
          ASSERT_TRUE(below(wide_prod, two_p)) << "at " << i;
          ASSERT_EQ(F::from_lazy(wide_prod), w * (a - b)) << "at " << i;
          ASSERT_EQ(wide_prod, F::mul_lazy_portable(w, wide)) << "at " << i;
          const Repr both = F::mul_lazy_both(x, y);  // both operands lazy (the MSM's additions)
          ASSERT_TRUE(below(both, two_p)) << "at " << i;
          ASSERT_EQ(F::from_lazy(both), a * b) << "at " << i;
          ASSERT_EQ(both, F::mul_lazy_portable(F::from_mont(x), y)) << "at " << i;
        }
      }
    }
  }
}
TYPED_TEST(PrimeFieldTest, ConstantsConvertAtCompileTime) {
  using F = TypeParam;
  constexpr F two = F::from_u64(2);
  constexpr F four = two * two;
  static_assert(four == F::from_u64(4));
  EXPECT_EQ(four, F::from_u64(4));
}

// --- roots of unity ------------------------------------------------------------------------------

TEST(RootsOfUnity, Bls12_381FrMatchesBellmanAndSnarkjsConventions) {
  // formats.md section 1: omega_{2^32} = 7^t (bellman), 5^t (snarkjs).
  auto w7 = root_of_unity<Bls12_381Fr>(7, 32);
  ASSERT_TRUE(w7.ok()) << w7.status().to_string();
  EXPECT_EQ(w7->to_hex(), "0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
  auto w5 = root_of_unity<Bls12_381Fr>(5, 32);
  ASSERT_TRUE(w5.ok());
  EXPECT_EQ(w5->to_hex(), "0x212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f");
}

TEST(RootsOfUnity, Bn254FrMatchesSnarkjs) {
  auto w5 = root_of_unity<Bn254Fr>(5, 28);
  ASSERT_TRUE(w5.ok());
  EXPECT_EQ(w5->to_hex(), "0x2a3c09f0a58a7e8500e0a7eb8ef62abc402d111e41112ed49bd61b6e725b19f0");
}

TEST(RootsOfUnity, HaveExactOrderAndAreNestedBySquaring) {
  for (unsigned k : {1u, 2u, 5u, 10u, 20u, 32u}) {
    auto w = root_of_unity<Bls12_381Fr>(7, k);
    ASSERT_TRUE(w.ok());
    Bls12_381Fr x = *w;
    for (unsigned i = 0; i + 1 < k; ++i) x = x.square();
    EXPECT_EQ(x, -Bls12_381Fr::one()) << "omega^(2^(k-1)) must be -1 for k = " << k;
    if (k < 32) {
      EXPECT_EQ(root_of_unity<Bls12_381Fr>(7, k + 1)->square(), *w);
    }
  }
}

TEST(RootsOfUnity, RejectsBadGeneratorAndOversizedDomain) {
  auto too_big = root_of_unity<Bls12_381Fr>(7, 33);
  ASSERT_FALSE(too_big.ok());
  EXPECT_NE(too_big.status().message().find("two-adicity"), std::string::npos);
  auto square = root_of_unity<Bls12_381Fr>(4, 10);  // 4 is a square: 4^t has order < 2^32
  ASSERT_FALSE(square.ok());
  EXPECT_NE(square.status().message().find("non-residue"), std::string::npos);
}

}  // namespace
}  // namespace zk::field
