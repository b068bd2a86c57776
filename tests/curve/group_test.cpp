// Group-law tests written once and instantiated for G1 and G2 of both curves: Jacobian, mixed and
// XYZZ formulas against each other, scalar multiplication against double-and-add, the group order,
// batch conversion to affine, endomorphisms and subgroup checks.

#include <gtest/gtest.h>

#include "curve/bls12_381.hpp"
#include "curve/bn254.hpp"
#include "test_util.hpp"

namespace zk::curve {
namespace {

bool in_subgroup(const Jacobian<Bls12_381G1>& p) { return bls12_381::is_in_subgroup(p); }
bool in_subgroup(const Jacobian<Bls12_381G2>& p) { return bls12_381::is_in_subgroup(p); }
bool in_subgroup(const Jacobian<Bn254G1>& p) { return bn254::is_in_subgroup(p); }
bool in_subgroup(const Jacobian<Bn254G2>& p) { return bn254::is_in_subgroup(p); }

/// A point on the curve with a random x (not necessarily in the prime-order subgroup).
template <class C>
Affine<C> random_curve_point(Rng& rng) {
  using F = typename C::Field;
  for (;;) {
    const F x = F::random(rng);
    if (auto y = (x.square() * x + C::kB).sqrt()) return Affine<C>::from_xy(x, *y);
  }
}

template <class C>
class GroupTest : public ::testing::Test {};
using Groups = ::testing::Types<Bls12_381G1, Bls12_381G2, Bn254G1, Bn254G2>;
TYPED_TEST_SUITE(GroupTest, Groups);

TYPED_TEST(GroupTest, GeneratorIsOnCurveAndInSubgroup) {
  using G = Jacobian<TypeParam>;
  EXPECT_TRUE(Affine<TypeParam>::generator().is_on_curve());
  EXPECT_TRUE(G::generator().is_on_curve());
  EXPECT_TRUE(in_subgroup(G::generator()));
  EXPECT_TRUE(in_subgroup(G::identity()));
}

TYPED_TEST(GroupTest, GroupLawHolds) {
  using G = Jacobian<TypeParam>;
  Rng rng = test::rng(21);
  for (int i = 0; i < 10; ++i) {
    const G a = G::random(rng), b = G::random(rng), c = G::random(rng);
    EXPECT_TRUE(a.is_on_curve());
    EXPECT_EQ(a + b, b + a);
    EXPECT_EQ((a + b) + c, a + (b + c));
    EXPECT_EQ(a + G::identity(), a);
    EXPECT_EQ(G::identity() + a, a);
    EXPECT_TRUE((a + a.neg()).is_identity());
    EXPECT_EQ(a + a, a.dbl());
    EXPECT_EQ(a.dbl().dbl(), a + a + a + a);
    EXPECT_EQ((a - b) + b, a);
  }
  EXPECT_TRUE(G::identity().dbl().is_identity());
}

TYPED_TEST(GroupTest, MixedAndXyzzFormulasAgreeWithJacobian) {
  using C = TypeParam;
  using G = Jacobian<C>;
  using X = Xyzz<C>;
  Rng rng = test::rng(22);
  for (int i = 0; i < 10; ++i) {
    const G a = G::random(rng);
    const G b = G::random(rng);
    const Affine<C> ba = b.to_affine();
    const Affine<C> aa = a.to_affine();
    EXPECT_EQ(a.add_mixed(ba), a + b);
    EXPECT_EQ(a.add_mixed(aa), a.dbl());               // P + P
    EXPECT_TRUE(a.add_mixed(aa.neg()).is_identity());  // P - P
    EXPECT_EQ(G::identity().add_mixed(ba), b);
    EXPECT_EQ(a.add_mixed(Affine<C>::identity()), a);
    const X xa = X::from_affine(aa);
    EXPECT_EQ(xa.add_mixed(ba).to_jacobian(), a + b);
    EXPECT_EQ(xa.add_mixed(aa).to_jacobian(), a.dbl());
    EXPECT_TRUE(xa.add_mixed(aa.neg()).is_identity());
    EXPECT_EQ(xa.dbl().to_jacobian(), a.dbl());
    EXPECT_EQ(X::dbl_affine(aa).to_jacobian(), a.dbl());
    const X xb = X::from_affine(ba).dbl();  // a non-trivial ZZ
    EXPECT_EQ((xa.dbl() + xb).to_jacobian(), a.dbl() + b.dbl());
    EXPECT_EQ((xb + xb).to_jacobian(), b.dbl().dbl());
    EXPECT_TRUE((xb + xb.neg()).is_identity());
    EXPECT_EQ((X::identity() + xb).to_affine(), b.dbl().to_affine());
  }
}

TYPED_TEST(GroupTest, ScalarMultiplicationMatchesDoubleAndAdd) {
  using C = TypeParam;
  using G = Jacobian<C>;
  using Fr = typename C::Scalar;
  Rng rng = test::rng(23);
  const G p = G::random(rng);
  // Small scalars against repeated addition.
  G acc = G::identity();
  for (std::uint64_t k = 0; k < 70; ++k) {
    EXPECT_EQ(scalar_mul(p, field::Limbs<1>{k}), acc) << "k = " << k;
    EXPECT_EQ(mul_u64(p, k), acc);
    acc = acc + p;
  }
  // Random scalars: linearity [a]P + [b]P = [a + b]P and [a]([b]P) = [ab]P.
  for (int i = 0; i < 5; ++i) {
    const Fr a = Fr::random(rng), b = Fr::random(rng);
    EXPECT_EQ(p * a + p * b, p * (a + b));
    EXPECT_EQ((p * b) * a, p * (a * b));
  }
  EXPECT_TRUE((p * Fr::zero()).is_identity());
  EXPECT_EQ(p * Fr::one(), p);
  EXPECT_EQ(p * (-Fr::one()), p.neg());
}

TYPED_TEST(GroupTest, OrderOfGeneratorIsR) {
  using C = TypeParam;
  using G = Jacobian<C>;
  typename C::Scalar::Repr r = C::Scalar::Params::kModulus;
  EXPECT_TRUE(scalar_mul(G::generator(), r).is_identity());
  r[0] -= 1;
  EXPECT_EQ(scalar_mul(G::generator(), r), G::generator().neg());
}

TYPED_TEST(GroupTest, BatchToAffineMatchesOneByOne) {
  using C = TypeParam;
  using G = Jacobian<C>;
  Rng rng = test::rng(24);
  std::vector<G> pts;
  for (int i = 0; i < 17; ++i) pts.push_back(i % 5 == 3 ? G::identity() : G::random(rng).dbl());
  const auto affine = batch_to_affine<C>(pts);
  ASSERT_EQ(affine.size(), pts.size());
  for (std::size_t i = 0; i < pts.size(); ++i) {
    EXPECT_EQ(affine[i], pts[i].to_affine());
    EXPECT_TRUE(affine[i].is_on_curve());
  }
  EXPECT_TRUE(batch_to_affine<C>(std::span<const G>()).empty());
}

TYPED_TEST(GroupTest, SubgroupCheckRejectsPointsOutsideTheSubgroup) {
  using C = TypeParam;
  Rng rng = test::rng(25);
  int outside = 0;
  for (int i = 0; i < 8; ++i) {
    const Affine<C> q = random_curve_point<C>(rng);
    ASSERT_TRUE(q.is_on_curve());
    const auto j = q.to_jacobian();
    // Cross-check the fast test with the definition: [r]Q == O.
    const bool by_order = scalar_mul(j, C::Scalar::Params::kModulus).is_identity();
    EXPECT_EQ(in_subgroup(j), by_order);
    if (!by_order) ++outside;
  }
  if constexpr (std::is_same_v<C, Bn254G1>) {
    EXPECT_EQ(outside, 0);  // cofactor 1
  } else {
    EXPECT_EQ(outside, 8);  // the cofactor is huge: random points are essentially never in the subgroup
  }
}

TEST(Bls12_381, EndomorphismsActAsTheirEigenvalues) {
  using namespace bls12_381;
  Rng rng = test::rng(26);
  const G1 p = G1::random(rng);
  // phi = [-x^2]: phi(P) + [x^2]P = O.
  const Fr x_abs = Fr::from_u64(params::Bls12_381Curve::kXAbs);
  EXPECT_EQ(endomorphism(p), p * -(x_abs * x_abs));
  // psi = [x] = [-|x|] on G2.
  const G2 q = G2::random(rng);
  EXPECT_EQ(psi(q), q * -x_abs);
}

TEST(Bn254, PsiActsAsSixUSquaredOnG2) {
  using namespace bn254;
  Rng rng = test::rng(27);
  const G2 q = G2::random(rng);
  const Fr u = Fr::from_u64(params::Bn254Curve::kU);
  EXPECT_EQ(psi(q), q * (Fr::from_u64(6) * u * u));
}

}  // namespace
}  // namespace zk::curve
