// The GLV constants and split (curve/glv.hpp), for G1 and G2 of both curves: the constants satisfy their
// defining equations, phi acts as [lambda] on G1, and every split recombines to its scalar within
// the bound, on edge scalars and random ones.

#include <gtest/gtest.h>

#include <vector>

#include "curve/glv.hpp"
#include "test_util.hpp"

namespace zk::curve {
namespace {

template <class C>
class GlvTest : public ::testing::Test {};
using GlvGroups = ::testing::Types<Bls12_381G1, Bls12_381G2, Bn254G1, Bn254G2>;
TYPED_TEST_SUITE(GlvTest, GlvGroups);

template <class C>
typename C::Scalar lambda() {
  return C::Scalar::from_canonical_unchecked(GlvParams<C>::kLambda);
}

/// (-1)^neg1 |k1| + (-1)^neg2 |k2| lambda in Fr.
template <class C>
typename C::Scalar recombine(const GlvSplit& s) {
  using Fr = typename C::Scalar;
  const Fr k1 = Fr::from_canonical_unchecked({s.k1[0], s.k1[1], 0, 0});
  const Fr k2 = Fr::from_canonical_unchecked({s.k2[0], s.k2[1], 0, 0});
  return (s.neg1 ? -k1 : k1) + (s.neg2 ? -k2 : k2) * lambda<C>();
}

/// The modulus r minus d, as limbs.
template <class C>
field::Limbs<4> r_minus(std::uint64_t d) {
  field::Limbs<4> v = C::Scalar::Params::kModulus;
  field::sub_limbs(v, v, field::Limbs<4>{d, 0, 0, 0});
  return v;
}

TYPED_TEST(GlvTest, BetaIsAPrimitiveCubeRootOfUnityInFq) {
  using Fq = std::remove_cv_t<decltype(GlvParams<TypeParam>::kBeta)>;
  const Fq beta = GlvParams<TypeParam>::kBeta;
  EXPECT_NE(beta, Fq::one());
  EXPECT_EQ(beta * beta * beta, Fq::one());
}

TYPED_TEST(GlvTest, LambdaIsACubeRootOfUnityInFr) {
  using Fr = typename TypeParam::Scalar;
  const Fr l = lambda<TypeParam>();
  EXPECT_EQ(l * l + l + Fr::one(), Fr::zero());
}

TYPED_TEST(GlvTest, PhiActsAsLambdaOnRandomPoints) {
  using G = Jacobian<TypeParam>;
  Rng rng = test::rng(2201);
  for (int i = 0; i < 8; ++i) {
    const G p = G::random(rng);
    const Affine<TypeParam> a = p.to_affine();
    const Affine<TypeParam> phi = glv_endomorphism(a);
    EXPECT_TRUE(phi.is_on_curve());
    EXPECT_EQ(phi.to_jacobian(), p * lambda<TypeParam>());
    EXPECT_EQ(glv_endomorphism(p), p * lambda<TypeParam>());
  }
  EXPECT_TRUE(glv_endomorphism(Affine<TypeParam>::identity()).infinity);
}

TYPED_TEST(GlvTest, LatticeBasisVectorsAreInTheKernel) {
  // a + b lambda = 0 mod r for v1 and v2 (the two's-complement limbs read as elements of Fr).
  using Fr = typename TypeParam::Scalar;
  using G = GlvParams<TypeParam>;
  const auto as_fr = [](const field::Limbs<4>& v) {
    const bool neg = (v[3] >> 63) != 0;
    field::Limbs<4> m = v;
    if (neg) field::sub_limbs(m, field::Limbs<4>{}, v);
    const Fr f = Fr::from_canonical_unchecked(m);
    return neg ? -f : f;
  };
  EXPECT_EQ(as_fr(G::kA1) + as_fr(G::kB1) * lambda<TypeParam>(), Fr::zero());
  EXPECT_EQ(as_fr(G::kA2) + as_fr(G::kB2) * lambda<TypeParam>(), Fr::zero());
}

TYPED_TEST(GlvTest, SplitRecombinesToTheScalarWithinTheBoundForEdgeAndRandomScalars) {
  using Fr = typename TypeParam::Scalar;
  constexpr unsigned kBits = GlvParams<TypeParam>::kBits;
  std::vector<field::Limbs<4>> ks = {
      {0, 0, 0, 0},
      {1, 0, 0, 0},
      {2, 0, 0, 0},
      r_minus<TypeParam>(1),
      r_minus<TypeParam>(2),
      GlvParams<TypeParam>::kLambda,
      {0, 0, 1, 0} /* 2^128 */,
      {~0ull, ~0ull, 0, 0} /* 2^128 - 1 */,
      {0, 0, 0, 1} /* 2^192 */,
  };
  // lambda + 1, r - lambda, (r - 1) / 2, the basis components themselves and their neighbours.
  field::Limbs<4> v = GlvParams<TypeParam>::kLambda;
  field::add_limbs(v, v, field::Limbs<4>{1, 0, 0, 0});
  ks.push_back(v);
  field::sub_limbs(v, Fr::Params::kModulus, GlvParams<TypeParam>::kLambda);
  ks.push_back(v);
  v = r_minus<TypeParam>(1);
  field::shr1(v);
  ks.push_back(v);
  for (const auto& c : {GlvParams<TypeParam>::kA2, GlvParams<TypeParam>::kB2, GlvParams<TypeParam>::kG2}) {
    for (std::uint64_t d : {0ull, 1ull}) {
      field::Limbs<4> w = c, lo = c;
      field::add_limbs(w, w, field::Limbs<4>{d, 0, 0, 0});
      field::sub_limbs(lo, lo, field::Limbs<4>{d, 0, 0, 0});
      if (field::cmp_limbs(w, Fr::Params::kModulus) < 0) ks.push_back(w);
      if (field::cmp_limbs(lo, Fr::Params::kModulus) < 0) ks.push_back(lo);
    }
  }
  Rng rng = test::rng(2202);
  for (int i = 0; i < 20000; ++i) ks.push_back(Fr::random(rng).to_canonical());
  for (const auto& k : ks) {
    const GlvSplit s = glv_split<TypeParam>(k);
    ASSERT_EQ(recombine<TypeParam>(s), Fr::from_canonical_unchecked(k)) << "k limb 0 = " << k[0];
    ASSERT_LE(field::bit_length(s.k1), kBits);
    ASSERT_LE(field::bit_length(s.k2), kBits);
  }
  // 0 splits into (0, 0).
  const GlvSplit z = glv_split<TypeParam>({0, 0, 0, 0});
  EXPECT_TRUE(field::is_zero_limbs(z.k1) && field::is_zero_limbs(z.k2));
}

TYPED_TEST(GlvTest, SplitScalarMultiplicationMatchesTheDirectOne) {
  using G = Jacobian<TypeParam>;
  using Fr = typename TypeParam::Scalar;
  Rng rng = test::rng(2203);
  for (int i = 0; i < 8; ++i) {
    const G p = G::random(rng);
    const Fr k = Fr::random(rng);
    const GlvSplit s = glv_split<TypeParam>(k.to_canonical());
    G a = scalar_mul(p, s.k1), b = scalar_mul(glv_endomorphism(p), s.k2);
    if (s.neg1) a = a.neg();
    if (s.neg2) b = b.neg();
    EXPECT_EQ(a + b, p * k);
  }
}

TYPED_TEST(GlvTest, GlvMulMatchesScalarMulOnEdgeAndRandomScalars) {
  using G = Jacobian<TypeParam>;
  using Fr = typename TypeParam::Scalar;
  Rng rng = test::rng(2204);
  std::vector<Fr> ks = {Fr::zero(),          Fr::one(),
                        -Fr::one(),          Fr::from_u64(2),
                        Fr::from_u64(15),    Fr::from_u64(16),
                        Fr::from_u64(~0ull), Fr::from_canonical_unchecked(GlvParams<TypeParam>::kLambda)};
  for (int i = 0; i < 12; ++i) ks.push_back(Fr::random(rng));
  for (const Fr& k : ks) {
    const G p = G::random(rng);
    EXPECT_EQ(glv_mul(p, k), p * k) << k.to_hex();
  }
  EXPECT_TRUE(glv_mul(G::identity(), Fr::random(rng)).is_identity());
}

}  // namespace
}  // namespace zk::curve
