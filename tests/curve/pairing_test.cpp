// Pairing properties on both curves: bilinearity, non-degeneracy, multi-Miller products, and the
// fast final exponentiation against the textbook exponent (p^12 - 1)/r.

#include <gtest/gtest.h>

#include "curve/pairing.hpp"
#include "test_util.hpp"

namespace zk::curve {
namespace {

template <class Ns>
struct Curve;
struct Bls {};
struct Bn {};

template <>
struct Curve<Bls> {
  using Fr = bls12_381::Fr;
  using G1 = bls12_381::G1;
  using G2 = bls12_381::G2;
  using G1Affine = bls12_381::G1Affine;
  using G2Affine = bls12_381::G2Affine;
  using G2Prepared = bls12_381::G2Prepared;
  using Fq12 = bls12_381::Fq12;
  static Fq12 pairing(const G1Affine& p, const G2Affine& q) { return bls12_381::pairing(p, q); }
  static G2Prepared prepare(const G2Affine& q) { return bls12_381::prepare(q); }
  static Fq12 miller(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs) {
    return bls12_381::multi_miller_loop(ps, qs);
  }
  static Fq12 fe(const Fq12& f) { return bls12_381::final_exponentiation(f); }
  static Fq12 fe_textbook(const Fq12& f) { return bls12_381::final_exponentiation_textbook(f); }
  static bool product_is_one(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs) {
    return bls12_381::pairing_product_is_one(ps, qs);
  }
  /// The multiple of (p^4 - p^2 + 1)/r that the fast hard part computes: 3.
  static constexpr field::Limbs<3> kMultiple = {3, 0, 0};
};

template <>
struct Curve<Bn> {
  using Fr = bn254::Fr;
  using G1 = bn254::G1;
  using G2 = bn254::G2;
  using G1Affine = bn254::G1Affine;
  using G2Affine = bn254::G2Affine;
  using G2Prepared = bn254::G2Prepared;
  using Fq12 = bn254::Fq12;
  static Fq12 pairing(const G1Affine& p, const G2Affine& q) { return bn254::pairing(p, q); }
  static G2Prepared prepare(const G2Affine& q) { return bn254::prepare(q); }
  static Fq12 miller(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs) {
    return bn254::multi_miller_loop(ps, qs);
  }
  static Fq12 fe(const Fq12& f) { return bn254::final_exponentiation(f); }
  static Fq12 fe_textbook(const Fq12& f) { return bn254::final_exponentiation_textbook(f); }
  static bool product_is_one(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs) {
    return bn254::pairing_product_is_one(ps, qs);
  }
  /// 2u(6u^2 + 3u + 1) for u = 4965661367192848881 (computed in tools/noble/gen_vectors.mjs too).
  static constexpr field::Limbs<3> kMultiple = {0x2e5d4e223ddedaf4, 0x1ea96b02d9d9e38d, 0x3bec47df15e307c8};
};

template <class K>
class PairingTest : public ::testing::Test {};
using Curves = ::testing::Types<Bls, Bn>;
TYPED_TEST_SUITE(PairingTest, Curves);

TYPED_TEST(PairingTest, IsBilinear) {
  using C = Curve<TypeParam>;
  Rng rng = test::rng(41);
  const auto g1 = C::G1::generator();
  const auto g2 = C::G2::generator();
  const auto a = C::Fr::random(rng), b = C::Fr::random(rng);
  const auto e = C::pairing(g1.to_affine(), g2.to_affine());
  const auto eab = C::pairing((g1 * a).to_affine(), (g2 * b).to_affine());
  EXPECT_EQ(eab, e.pow((a * b).to_canonical()));
  EXPECT_EQ(C::pairing((g1 * (a * b)).to_affine(), g2.to_affine()), eab);
  EXPECT_EQ(C::pairing(g1.to_affine(), (g2 * (a * b)).to_affine()), eab);
  // e(P1 + P2, Q) = e(P1, Q) e(P2, Q).
  const auto p1 = C::G1::random(rng), p2 = C::G1::random(rng);
  const auto q = C::G2::random(rng).to_affine();
  EXPECT_EQ(C::pairing((p1 + p2).to_affine(), q), C::pairing(p1.to_affine(), q) * C::pairing(p2.to_affine(), q));
}

TYPED_TEST(PairingTest, IsNonDegenerateWithOrderR) {
  using C = Curve<TypeParam>;
  const auto e = C::pairing(C::G1::generator().to_affine(), C::G2::generator().to_affine());
  EXPECT_FALSE(e.is_one());
  EXPECT_TRUE(e.pow(C::Fr::Params::kModulus).is_one());
  EXPECT_TRUE(C::pairing(C::G1Affine::identity(), C::G2::generator().to_affine()).is_one());
  EXPECT_TRUE(C::pairing(C::G1::generator().to_affine(), C::G2Affine::identity()).is_one());
}

TYPED_TEST(PairingTest, MultiMillerLoopMatchesProductOfPairings) {
  using C = Curve<TypeParam>;
  Rng rng = test::rng(42);
  std::vector<typename C::G1Affine> ps;
  std::vector<typename C::G2Prepared> prepared;
  typename C::Fq12 product = C::Fq12::one();
  for (int i = 0; i < 3; ++i) {
    ps.push_back(C::G1::random(rng).to_affine());
    const auto q = C::G2::random(rng).to_affine();
    prepared.push_back(C::prepare(q));
    product = product * C::pairing(ps.back(), q);
  }
  std::vector<const typename C::G2Prepared*> qs;
  for (const auto& p : prepared) qs.push_back(&p);
  EXPECT_EQ(C::fe(C::miller(ps, qs)), product);
  // e(P, Q) e(-P, Q) = 1, checked with one final exponentiation.
  std::vector<typename C::G1Affine> pair = {ps[0], ps[0].neg()};
  std::vector<const typename C::G2Prepared*> qq = {qs[0], qs[0]};
  EXPECT_TRUE(C::product_is_one(pair, qq));
  pair[1] = ps[1];
  EXPECT_FALSE(C::product_is_one(pair, qq));
}

TYPED_TEST(PairingTest, FastFinalExponentiationIsAFixedPowerOfTheTextbookOne) {
  using C = Curve<TypeParam>;
  Rng rng = test::rng(43);
  const auto f = C::Fq12::random(rng);
  EXPECT_EQ(C::fe(f), C::fe_textbook(f).pow(C::kMultiple));
}

}  // namespace
}  // namespace zk::curve
