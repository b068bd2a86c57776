// Groth16 end to end on both curves: a toy circuit small enough to follow by hand, random
// satisfiable circuits, the split prover against the one-shot prover, key/circuit mismatches,
// wrong public inputs, tampered proofs, and batch verification.

#include <gtest/gtest.h>

#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/test_cs.hpp"
#include "test_circuits.hpp"
#include "test_util.hpp"

namespace zk::groth16 {
namespace {

template <class E, class Circuit>
ProvingKey<E> setup_for(const Circuit& circuit, Rng& rng) {
  r1cs::ShapeRecorder<typename E::Fr> rec;
  EXPECT_TRUE(circuit.synthesize(rec).ok());
  auto pk = generate_parameters<E>(rec.shape(), Trapdoor<E>::random(rng));
  EXPECT_TRUE(pk.ok()) << pk.status().to_string();
  return std::move(pk).value();
}

template <class E, class Circuit>
r1cs::Partition<typename E::Fr> synthesize(const Circuit& circuit) {
  r1cs::ProvingSystem<typename E::Fr> cs;
  EXPECT_TRUE(circuit.synthesize(cs).ok());
  return std::move(cs).finish();
}

template <class E>
class Groth16Test : public ::testing::Test {};
using Engines = ::testing::Types<Bls12_381, Bn254>;
TYPED_TEST_SUITE(Groth16Test, Engines);

TYPED_TEST(Groth16Test, ToyCircuitProvesAndVerifies) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  auto rng = test::rng(41);
  const test::ToyCircuit<Fr> circuit{Fr::from_u64(3), Fr::from_u64(11), Fr::from_u64(7), Fr::from_u64(5)};
  EXPECT_EQ(circuit.out(), Fr::from_u64(236));
  const auto pk = setup_for<E>(circuit, rng);
  EXPECT_EQ(pk.vk.ic.size(), 3u);   // ONE, out, k
  EXPECT_EQ(pk.l.size(), 4u);       // a, b, c, ab
  EXPECT_EQ(pk.domain_size(), 8u);  // 2 constraints + 3 input rows -> 8
  EXPECT_EQ(pk.h.size(), 7u);
  EXPECT_EQ(pk.a.size(), 3u + 2u);  // inputs, then a and ab (the aux used in A)
  EXPECT_EQ(pk.b_g1.size(), 2u);    // b and c
  const auto pvk = prepare_verifying_key(pk.vk);
  auto proof = prove(pk, synthesize<E>(circuit), Fr::random(rng), Fr::random(rng));
  ASSERT_TRUE(proof.ok()) << proof.status().to_string();
  const std::vector<Fr> pub{Fr::from_u64(236), Fr::from_u64(5)};
  EXPECT_TRUE(*verify(pvk, *proof, pub));
  const std::vector<Fr> wrong{Fr::from_u64(237), Fr::from_u64(5)};
  EXPECT_FALSE(*verify(pvk, *proof, wrong));
  EXPECT_EQ(verify(pvk, *proof, std::span(pub).first(1)).status().code(), StatusCode::kInvalidArgument);
}

TYPED_TEST(Groth16Test, RandomCircuitsProveAndVerifyAndSplitEqualsOneShot) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  auto rng = test::rng(42);
  for (auto [pub, free_aux, constraints] : {std::tuple{1, 2, 5}, std::tuple{3, 4, 40}, std::tuple{2, 10, 300}}) {
    const auto circuit = test::RandomCircuit<Fr>::make(rng, pub, free_aux, constraints);
    r1cs::TestSystem<Fr> tcs;
    ASSERT_TRUE(circuit.synthesize(tcs).ok());
    ASSERT_TRUE(tcs.is_satisfied()) << *tcs.which_is_unsatisfied();
    const auto pk = setup_for<E>(circuit, rng);
    const auto pvk = prepare_verifying_key(pk.vk);
    const Fr r = Fr::random(rng), s = Fr::random(rng);
    auto one_shot = prove(pk, synthesize<E>(circuit), r, s);
    ASSERT_TRUE(one_shot.ok()) << one_shot.status().to_string();
    auto pending = prove_start(pk, synthesize<E>(circuit), r, s);
    ASSERT_TRUE(pending.ok());
    auto split = prove_finish(pk, std::move(*pending));
    ASSERT_TRUE(split.ok());
    EXPECT_EQ(*split, *one_shot);
    EXPECT_TRUE(*verify(pvk, *one_shot, circuit.public_inputs())) << constraints;
    // A different r, s gives a different proof that verifies too.
    auto other = prove(pk, synthesize<E>(circuit), Fr::random(rng), Fr::random(rng));
    ASSERT_TRUE(other.ok());
    EXPECT_FALSE(*other == *one_shot);
    EXPECT_TRUE(*verify(pvk, *other, circuit.public_inputs()));
  }
}

TYPED_TEST(Groth16Test, UnsatisfiedWitnessDoesNotVerify) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  auto rng = test::rng(43);
  auto circuit = test::RandomCircuit<Fr>::make(rng, 2, 3, 30);
  const auto pk = setup_for<E>(circuit, rng);
  circuit.break_at = 17;
  r1cs::TestSystem<Fr> tcs;
  ASSERT_TRUE(circuit.synthesize(tcs).ok());
  ASSERT_FALSE(tcs.is_satisfied());
  EXPECT_EQ(*tcs.which_is_unsatisfied(), "row 17/product");
  auto proof = prove(pk, synthesize<E>(circuit), Fr::random(rng), Fr::random(rng));
  ASSERT_TRUE(proof.ok());
  EXPECT_FALSE(*verify(prepare_verifying_key(pk.vk), *proof, circuit.public_inputs()));
}

TYPED_TEST(Groth16Test, KeyForAnotherCircuitIsAnErrorNotAWrongProof) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  auto rng = test::rng(44);
  const auto c1 = test::RandomCircuit<Fr>::make(rng, 2, 3, 20);
  const auto c2 = test::RandomCircuit<Fr>::make(rng, 3, 3, 20);  // one more input
  const auto c3 = test::RandomCircuit<Fr>::make(rng, 2, 3, 21);  // one more aux
  const auto pk = setup_for<E>(c1, rng);
  for (const auto* other : {&c2, &c3}) {
    auto proof = prove(pk, synthesize<E>(*other), Fr::random(rng), Fr::random(rng));
    ASSERT_FALSE(proof.ok());
    EXPECT_EQ(proof.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(proof.status().message().find("circuit/key mismatch"), std::string::npos) << proof.status().message();
  }
}

TYPED_TEST(Groth16Test, TamperedProofsFailAndBatchVerificationAgrees) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  auto rng = test::rng(45);
  const auto circuit = test::RandomCircuit<Fr>::make(rng, 2, 4, 25);
  const auto pk = setup_for<E>(circuit, rng);
  const auto pvk = prepare_verifying_key(pk.vk);
  std::vector<Proof<E>> proofs;
  std::vector<std::vector<Fr>> inputs;
  for (int i = 0; i < 3; ++i) {
    auto p = prove(pk, synthesize<E>(circuit), Fr::random(rng), Fr::random(rng));
    ASSERT_TRUE(p.ok());
    proofs.push_back(*p);
    inputs.push_back(circuit.public_inputs());
  }
  EXPECT_TRUE(*verify_batch<E>(pvk, proofs, inputs, rng));
  // Swap A and C, negate B, shift C by the generator: each must fail alone and in a batch.
  auto bad = proofs;
  bad[1].c = (bad[1].c.to_jacobian() + E::G1::generator()).to_affine();
  EXPECT_FALSE(*verify(pvk, bad[1], inputs[1]));
  EXPECT_FALSE(*verify_batch<E>(pvk, bad, inputs, rng));
  bad = proofs;
  bad[2].b = bad[2].b.neg();
  EXPECT_FALSE(*verify(pvk, bad[2], inputs[2]));
  EXPECT_FALSE(*verify_batch<E>(pvk, bad, inputs, rng));
  auto wrong_inputs = inputs;
  wrong_inputs[0][1] = wrong_inputs[0][1] + Fr::one();
  EXPECT_FALSE(*verify_batch<E>(pvk, proofs, wrong_inputs, rng));
}

}  // namespace
}  // namespace zk::groth16
