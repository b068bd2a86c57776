// Extension-field tests, instantiated for Fq2, Fq6 and Fq12 of both curves: axioms, inverses,
// Frobenius against exponentiation by p, sparse products against dense ones, cyclotomic squaring.

#include <gtest/gtest.h>

#include "field/fields.hpp"
#include "field/fp12.hpp"
#include "test_util.hpp"

namespace zk::field {
namespace {

using BlsFq2 = Fp2<Bls12_381Fq>;
using BlsFq6 = Fp6<Bls12_381Fq, params::Bls12_381Tower>;
using BlsFq12 = Fp12<Bls12_381Fq, params::Bls12_381Tower>;
using BnFq2 = Fp2<Bn254Fq>;
using BnFq6 = Fp6<Bn254Fq, params::Bn254Tower>;
using BnFq12 = Fp12<Bn254Fq, params::Bn254Tower>;

template <class E>
class ExtensionFieldTest : public ::testing::Test {};
using ExtensionFields = ::testing::Types<BlsFq2, BlsFq6, BlsFq12, BnFq2, BnFq6, BnFq12>;
TYPED_TEST_SUITE(ExtensionFieldTest, ExtensionFields);

TYPED_TEST(ExtensionFieldTest, RingAxiomsHold) {
  using E = TypeParam;
  Rng rng = test::rng(11);
  for (int i = 0; i < 30; ++i) {
    const E a = E::random(rng), b = E::random(rng), c = E::random(rng);
    EXPECT_EQ(a + b, b + a);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a * E::one(), a);
    EXPECT_EQ(a - a, E::zero());
    EXPECT_EQ(a.square(), a * a);
  }
}

TYPED_TEST(ExtensionFieldTest, InverseIsMultiplicativeInverse) {
  using E = TypeParam;
  Rng rng = test::rng(12);
  for (int i = 0; i < 10; ++i) {
    const E a = E::random(rng);
    EXPECT_EQ(a * a.inverse(), E::one());
  }
}

TYPED_TEST(ExtensionFieldTest, FrobeniusIsExponentiationByP) {
  using E = TypeParam;
  Rng rng = test::rng(13);
  const E a = E::random(rng);
  constexpr auto p = [] {
    if constexpr (requires { E::Base::Params::kModulus; }) {
      return E::Base::Params::kModulus;
    } else {
      return E::Fq2::Base::Params::kModulus;
    }
  }();
  const E ap = a.pow(p);
  EXPECT_EQ(a.frobenius(1), ap);
  E iter = a;
  for (unsigned k = 1; k < 12; ++k) {
    iter = iter.frobenius(1);
    EXPECT_EQ(a.frobenius(k), iter) << "k = " << k;
  }
}

template <class E12>
void check_sparse_products() {
  using Fq2 = typename E12::Fq2;
  using Fq6 = typename E12::Fq6;
  Rng rng = test::rng(14);
  const E12 f = E12::random(rng);
  const Fq2 d0 = Fq2::random(rng), d1 = Fq2::random(rng), d4 = Fq2::random(rng);
  // 014: d0 + d1 v + d4 v w.
  const E12 s014{Fq6{d0, d1, Fq2::zero()}, Fq6{Fq2::zero(), d4, Fq2::zero()}};
  EXPECT_EQ(f.mul_by_014(d0, d1, d4), f * s014);
  // 034: d0 + d3 w + d4 v w.
  const E12 s034{Fq6{d0, Fq2::zero(), Fq2::zero()}, Fq6{d1, d4, Fq2::zero()}};
  EXPECT_EQ(f.mul_by_034(d0, d1, d4), f * s034);
  // Fq6 sparse helpers.
  const Fq6 g = Fq6::random(rng);
  EXPECT_EQ(g.mul_by_01(d0, d1), (g * Fq6{d0, d1, Fq2::zero()}));
  EXPECT_EQ(g.mul_by_1(d1), (g * Fq6{Fq2::zero(), d1, Fq2::zero()}));
  EXPECT_EQ(g.mul_by_v(), (g * Fq6{Fq2::zero(), Fq2::one(), Fq2::zero()}));
}

TEST(Fq12, SparseLineProductsMatchDenseProducts) {
  check_sparse_products<BlsFq12>();
  check_sparse_products<BnFq12>();
}

template <class E12>
void check_cyclotomic_square() {
  Rng rng = test::rng(15);
  for (int i = 0; i < 5; ++i) {
    const E12 f = E12::random(rng);
    // f^((p^6 - 1)(p^2 + 1)) lies in the cyclotomic subgroup.
    E12 c = f.conjugate() * f.inverse();
    c = c.frobenius(2) * c;
    EXPECT_EQ(c.cyclotomic_square(), c.square());
    EXPECT_EQ(c * c.conjugate(), E12::one());  // conjugation inverts on the subgroup
    EXPECT_EQ(c.cyclotomic_pow(Limbs<1>{12345}), c.pow(Limbs<1>{12345}));
    // Karabina's compressed squarings: the round trip, runs of squarings against Granger-Scott's, and
    // exponents whose runs of zeros take the compressed path (BLS12-381's |x|, long and trailing runs).
    const auto back = E12::decompress(c.compress());
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, c);
    auto z = c.compress();
    E12 gs = c;
    for (int k = 0; k < 20; ++k) z = E12::compressed_square(z), gs = gs.cyclotomic_square();
    EXPECT_EQ(E12::decompress(z), gs);
    for (const Limbs<2>& e : {Limbs<2>{0xd201000000010000ull, 0}, Limbs<2>{1, 1}, Limbs<2>{0, 1ull << 40},
                              Limbs<2>{rng.next(), rng.next()}, Limbs<2>{0x101, 0}, Limbs<2>{1, 0}, Limbs<2>{0, 0}}) {
      EXPECT_EQ(c.cyclotomic_pow(e), c.cyclotomic_pow_uncompressed(e)) << std::hex << e[1] << ' ' << e[0];
    }
  }
  // The identity compresses to c = 0: no decompression, and the powers fall back to plain squarings.
  EXPECT_FALSE(E12::decompress(E12::one().compress()).has_value());
  EXPECT_EQ(E12::one().cyclotomic_pow(Limbs<1>{1ull << 50}), E12::one());
}

TEST(Fq12, CyclotomicSquaringMatchesSquaringOnTheSubgroup) {
  check_cyclotomic_square<BlsFq12>();
  check_cyclotomic_square<BnFq12>();
}

template <class Fq2>
void check_fq2_sqrt() {
  Rng rng = test::rng(16);
  int non_squares = 0;
  for (int i = 0; i < 40; ++i) {
    const Fq2 a = Fq2::random(rng);
    const auto r = a.square().sqrt();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->square(), a.square());
    const auto ra = a.sqrt();
    if (ra) {
      EXPECT_EQ(ra->square(), a);
    } else {
      ++non_squares;
    }
  }
  EXPECT_GT(non_squares, 5);
  // Pure-real and pure-imaginary inputs take the special branch.
  const Fq2 real{Fq2::Base::from_u64(5), Fq2::Base::zero()};
  EXPECT_EQ(real.sqrt()->square(), real);
  const Fq2 imag{Fq2::Base::zero(), Fq2::Base::from_u64(7)};
  if (auto r = imag.sqrt()) {
    EXPECT_EQ(r->square(), imag);
  }
  EXPECT_EQ(Fq2::zero().sqrt()->square(), Fq2::zero());
}

/// The extremes (coefficients p - 1, the largest sums and products; zero; one) and n random elements.
template <class Fq2>
std::vector<Fq2> fq2_samples(std::uint64_t seed, int n) {
  using F = typename Fq2::Base;
  Rng rng = test::rng(seed);
  typename F::Repr pm1 = F::Params::kModulus;
  pm1[0] -= 1;
  const F top = F::from_mont(pm1);
  std::vector<Fq2> xs{{top, top}, {top, F::zero()}, {F::zero(), top}, Fq2::one(), Fq2::zero(), {top, F::one()}};
  for (int i = 0; i < n; ++i) xs.push_back(Fq2::random(rng));
  return xs;
}

template <class Fq2>
void check_lazy_fq2_product() {
  const auto xs = fq2_samples<Fq2>(16, 500);
  for (const Fq2& a : xs) {
    for (std::size_t k = 0; k < 6; ++k) {
      const Fq2& b = xs[(k * 97 + 13) % xs.size()];
      ASSERT_EQ(a * b, a.mul_eager(b));
      ASSERT_EQ(a * xs[k], a.mul_eager(xs[k]));
    }
  }
}

template <class Fq6>
void check_lazy_fq6_products() {
  using Fq2 = typename Fq6::Fq2;
  using F = typename Fq2::Base;
  Rng rng = test::rng(17);
  typename F::Repr pm1 = F::Params::kModulus;
  pm1[0] -= 1;
  const Fq2 top{F::from_mont(pm1), F::from_mont(pm1)};
  std::vector<Fq6> xs{{top, top, top}, {top, Fq2::zero(), top}, Fq6::one(), Fq6::zero(), {Fq2::zero(), top, Fq2::one()}};
  for (int i = 0; i < 200; ++i) xs.push_back(Fq6::random(rng));
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const Fq6& a = xs[i];
    const Fq6& b = xs[(i * 31 + 7) % xs.size()];
    ASSERT_EQ(a * b, a.mul_eager(b)) << i;
    ASSERT_EQ(a.square(), a.mul_eager(a)) << i;
    ASSERT_EQ(a.mul_by_01(b.c0, b.c1), a.mul_eager(Fq6{b.c0, b.c1, Fq2::zero()})) << i;
  }
}

template <class Fq12>
void check_lazy_fq12_products() {
  Rng rng = test::rng(18);
  for (int i = 0; i < 50; ++i) {
    const Fq12 a = Fq12::random(rng), b = Fq12::random(rng);
    ASSERT_EQ(a * b, a.mul_eager(b)) << i;
    ASSERT_EQ(a.square(), a.mul_eager(a)) << i;
  }
}

TEST(Fq12, LazyProductsEqualTheEagerOnes) {
  check_lazy_fq12_products<BlsFq12>();
  check_lazy_fq12_products<BnFq12>();
}

TEST(Fq6, LazyProductsEqualTheEagerOnes) {
  check_lazy_fq6_products<BlsFq6>();
  check_lazy_fq6_products<BnFq6>();
}

TEST(Fq2, LazyProductEqualsTheEagerOne) {
  check_lazy_fq2_product<BlsFq2>();
  check_lazy_fq2_product<BnFq2>();
}

// The Fq2 products of 4- and 6-limb fields run in field/asm/fp2_mulx.S where the CPU has MULX/ADX;
// the asm keeps the generic code's representations, so the two agree word for word, wide values
// included, on fq2_samples' extremes and random elements. Under
// ZKPIPE_NO_ASM=1 (portable_path_field_suite) both sides take the generic path.
template <class Fq2>
void check_fq2_kernels_equal_generic() {
  const auto xs = fq2_samples<Fq2>(19, 1000);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const Fq2& a = xs[i];
    for (const Fq2& b : {xs[(i * 31 + 7) % xs.size()], xs[i % 6]}) {
      const auto w = Fq2::mul_wide(a, b);
      const auto g = Fq2::mul_wide_generic(a, b);
      ASSERT_EQ(w.c0, g.c0) << i;
      ASSERT_EQ(w.c1, g.c1) << i;
      ASSERT_EQ(a * b, g.reduce()) << i;
      ASSERT_EQ(a * b, a.mul_eager(b)) << i;
    }
    const auto s = Fq2::square_wide(a);
    const auto sg = Fq2::square_wide_generic(a);
    ASSERT_EQ(s.c0, sg.c0) << i;
    ASSERT_EQ(s.c1, sg.c1) << i;
    ASSERT_EQ(a.square(), a.square_generic()) << i;
    ASSERT_EQ(a.square(), a.mul_eager(a)) << i;
    ASSERT_EQ(s.reduce(), a.mul_eager(a)) << i;
  }
}

TEST(Fq2, AsmKernelsEqualTheGenericOnes) {
  check_fq2_kernels_equal_generic<BlsFq2>();
  check_fq2_kernels_equal_generic<BnFq2>();
}

TEST(Fq2, SqrtOfSquaresRoundTrips) {
  check_fq2_sqrt<BlsFq2>();
  check_fq2_sqrt<BnFq2>();
}

TEST(Fq2, MultiplicationByXiMatchesGenericProduct) {
  Rng rng = test::rng(17);
  const BlsFq2 a = BlsFq2::random(rng);
  EXPECT_EQ(BlsFq6::mul_by_xi(a), (a * BlsFq2{Bls12_381Fq::one(), Bls12_381Fq::one()}));
  const BnFq2 b = BnFq2::random(rng);
  EXPECT_EQ(BnFq6::mul_by_xi(b), (b * BnFq2{Bn254Fq::from_u64(9), Bn254Fq::one()}));
}

}  // namespace
}  // namespace zk::field
