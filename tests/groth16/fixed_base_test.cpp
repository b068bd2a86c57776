// The development setup's fixed-base multiplication (groth16/fixed_base.hpp) against the curve's own
// variable-base scalar multiplication (wNAF, curve/scalar_mul.hpp): one scalar at a time (mul) and
// in batch-affine chunks (mul_many), on G1 and G2 of both curves, with scalars whose signed digits
// hit every edge: zero digits, the largest digit 2^12 with and without a carry, negative digits,
// the top window, and 0 (the identity).
#include <gtest/gtest.h>

#include <vector>

#include "groth16/engine.hpp"
#include "groth16/fixed_base.hpp"
#include "test_util.hpp"

namespace zk::groth16 {
namespace {

template <class C>
void expect_fixed_base_matches(std::uint64_t salt) {
  using Scalar = typename C::Scalar;
  using J = curve::Jacobian<C>;
  auto rng = test::rng(salt);
  const FixedBaseTable<C> table(J::generator());
  std::vector<Scalar> k = {Scalar::zero(), Scalar::one(), -Scalar::one(), Scalar::from_u64(4096),
                           Scalar::from_u64(4097), Scalar::from_u64(8191), Scalar::from_u64(8192),
                           -Scalar::from_u64(4096), Scalar::from_u64(std::uint64_t{4096} << 13),
                           Scalar::from_u64(~std::uint64_t{0})};
  Scalar p = Scalar::one();
  for (int i = 0; i < 20; ++i, p = p * Scalar::from_u64(8192)) k.push_back(p * Scalar::from_u64(4096));
  while (k.size() < 2100) k.push_back(Scalar::random(rng));  // three chunks of mul_many, the last partial
  const auto many = table.mul_many(k);
  ASSERT_EQ(many.size(), k.size());
  for (std::size_t i = 0; i < k.size(); ++i) {
    const auto want = (J::generator() * k[i]).to_affine();
    ASSERT_EQ(many[i], want) << "mul_many, scalar " << i;
    if (i < 64) {
      ASSERT_EQ(table.mul(k[i]).to_affine(), want) << "mul, scalar " << i;
    }
  }
  EXPECT_TRUE(many[0].is_identity());
}

TEST(FixedBase, Bls12_381G1) { expect_fixed_base_matches<curve::Bls12_381G1>(1); }
TEST(FixedBase, Bls12_381G2) { expect_fixed_base_matches<curve::Bls12_381G2>(2); }
TEST(FixedBase, Bn254G1) { expect_fixed_base_matches<curve::Bn254G1>(3); }
TEST(FixedBase, Bn254G2) { expect_fixed_base_matches<curve::Bn254G2>(4); }

}  // namespace
}  // namespace zk::groth16
