// The synthetic benchmark circuit: exact constraint count, satisfied, a shape that does not depend
// on the seed (keys from one seed prove every other), and mostly-bit witnesses.

#include <gtest/gtest.h>

#include "circuits/synthetic.hpp"
#include "field/fields.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/test_cs.hpp"

namespace zk::circuits {
namespace {

using Fr = field::Bls12_381Fr;

TEST(SyntheticCircuit, HasExactlyNConstraintsAndIsSatisfied) {
  for (std::size_t n : {2, 3, 19, 20, 21, 37, 38, 1000, 4096}) {
    for (std::uint64_t seed : {1, 2, 77}) {
      const SyntheticCircuit<Fr> c(n, seed);
      r1cs::TestSystem<Fr> cs;
      ASSERT_TRUE(c.synthesize(cs).ok());
      EXPECT_EQ(cs.num_constraints(), n) << n;
      EXPECT_TRUE(cs.is_satisfied()) << n << " " << seed << ": " << cs.which_is_unsatisfied().value_or("");
      const auto pub = c.public_inputs();
      ASSERT_EQ(cs.inputs().size(), 3u);
      EXPECT_EQ(cs.inputs()[1], pub[0]);
      EXPECT_EQ(cs.inputs()[2], pub[1]);
    }
  }
}

TEST(SyntheticCircuit, ShapeDoesNotDependOnTheSeed) {
  r1cs::ShapeRecorder<Fr> a, b;
  ASSERT_TRUE(SyntheticCircuit<Fr>(500, 1).synthesize(a).ok());
  ASSERT_TRUE(SyntheticCircuit<Fr>(500, 2).synthesize(b).ok());
  EXPECT_EQ(r1cs::shape_hash(a.shape()), r1cs::shape_hash(b.shape()));
}

TEST(SyntheticCircuit, WitnessIsMostlyBits) {
  r1cs::ProvingSystem<Fr> cs;
  ASSERT_TRUE(SyntheticCircuit<Fr>(18 * 100 + 2, 5).synthesize(cs).ok());
  const auto p = std::move(cs).finish();
  std::size_t bits = 0;
  p.aux.for_each([&](const Fr& x) { bits += (x.is_zero() || x.is_one()) ? 1 : 0; });
  EXPECT_GT(bits * 10, p.aux.size() * 8);  // > 80 % zeros and ones
  EXPECT_LT(bits, p.aux.size());           // and some dense values
}

}  // namespace
}  // namespace zk::circuits
