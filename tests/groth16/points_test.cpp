// Proof and key points outside the prime-order subgroup are refused by every verification path,
// whatever format they came in: crafted cofactor-order additions to a valid proof's A, B, C and to
// a verifying key, on both curves, through the verifier itself, bellman proof bytes and snarkjs JSON.

#include <gtest/gtest.h>

#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "test_circuits.hpp"
#include "test_util.hpp"

namespace zk::groth16 {
namespace {

/// A point of E's twist (G2's curve) that is not in the prime-order subgroup: the first
/// x = (i, 1) with x^3 + b a square (the twist's cofactor is huge, so such a point is almost never
/// in the subgroup; the loop checks).
template <class E>
typename E::G2Affine off_subgroup_g2() {
  using Fq2 = typename E::G2Affine::Field;
  using Fq = decltype(Fq2{}.c0);
  for (std::uint64_t i = 1;; ++i) {
    const Fq2 x{Fq::from_u64(i), Fq::one()};
    const auto y = (x.square() * x + E::G2Config::kB).sqrt();
    if (!y) continue;
    const auto p = E::G2Affine::from_xy(x, *y);
    if (p.is_on_curve() && !E::in_subgroup(p.to_jacobian())) return p;
  }
}

template <class A>
A plus(const A& p, const A& q) {
  return (p.to_jacobian() + q.to_jacobian()).to_affine();
}

/// The Groth16 equation with no point checks at all (what an on-curve-only verifier computes).
template <class E>
bool raw_pairing_check(const PreparedVerifyingKey<E>& pvk, const Proof<E>& proof, std::span<const typename E::Fr> in) {
  auto acc = pvk.ic[0].to_jacobian();
  for (std::size_t i = 0; i < in.size(); ++i) acc += pvk.ic[i + 1].to_jacobian() * in[i];
  const typename E::G2Prepared b = E::prepare(proof.b);
  const typename E::G1Affine ps[] = {proof.a, acc.to_affine(), proof.c};
  const typename E::G2Prepared* qs[] = {&b, &pvk.neg_gamma, &pvk.neg_delta};
  return E::final_exponentiation(E::multi_miller_loop(ps, qs)) == pvk.alpha_beta;
}

template <class E>
struct Fixture {
  using Fr = typename E::Fr;
  ProvingKey<E> pk;
  Proof<E> proof;
  std::vector<Fr> pub;

  Fixture() {
    auto rng = test::rng(77);
    const test::ToyCircuit<Fr> circuit{Fr::from_u64(3), Fr::from_u64(11), Fr::from_u64(7), Fr::from_u64(5)};
    r1cs::ShapeRecorder<Fr> rec;
    EXPECT_TRUE(circuit.synthesize(rec).ok());
    pk = std::move(generate_parameters<E>(rec.shape(), Trapdoor<E>::random(rng))).value();
    r1cs::ProvingSystem<Fr> cs;
    EXPECT_TRUE(circuit.synthesize(cs).ok());
    proof = std::move(prove(pk, std::move(cs).finish(), Fr::random(rng), Fr::random(rng))).value();
    pub = {circuit.out(), Fr::from_u64(5)};
  }
};

template <class E>
class PointsTest : public ::testing::Test {};
using Engines = ::testing::Types<Bls12_381, Bn254>;
TYPED_TEST_SUITE(PointsTest, Engines);

TYPED_TEST(PointsTest, AValidProofVerifiesAndItsPointsPass) {
  using E = TypeParam;
  Fixture<E> f;
  EXPECT_TRUE(check_proof(f.proof).ok());
  EXPECT_TRUE(check_verifying_key(f.pk.vk).ok());
  EXPECT_TRUE(*verify(prepare_verifying_key(f.pk.vk), f.proof, f.pub));
}

TYPED_TEST(PointsTest, ProofBPlusACofactorPointIsRefusedInEveryFormat) {
  using E = TypeParam;
  Fixture<E> f;
  auto bad = f.proof;
  bad.b = plus(bad.b, off_subgroup_g2<E>());
  ASSERT_TRUE(bad.b.is_on_curve());
  const auto pvk = prepare_verifying_key(f.pk.vk);
  auto v = verify(pvk, bad, f.pub);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.status().message().find("proof B: point is not in the prime-order subgroup"), std::string::npos)
      << v.status().message();
  // Batch verification too.
  std::vector<Proof<E>> proofs{f.proof, bad};
  std::vector<std::vector<typename E::Fr>> inputs{f.pub, f.pub};
  auto rng = test::rng(3);
  EXPECT_FALSE(verify_batch<E>(pvk, proofs, inputs, rng).ok());
  // snarkjs JSON: refused when read.
  auto from_json = snarkjs::proof_from_json<E>(snarkjs::proof_to_json<E>(bad));
  ASSERT_FALSE(from_json.ok());
  EXPECT_NE(from_json.status().message().find("subgroup"), std::string::npos) << from_json.status().message();
  // bellman bytes: refused when read.
  const auto bytes = write_proofs<E>(std::span(&bad, 1));
  EXPECT_FALSE(read_proofs<E>(bytes).ok());
}

// BLS12-381's G1 has cofactor ~2^126 with a point of order 3 at (0, 2): y^2 = 0 + 4. Added to A or
// C it passes an on-curve check. (BN254's G1 has cofactor 1: every point of the curve is in G1.)
TEST(PointsTestBls, ProofAOrCPlusTheOrder3PointIsRefused) {
  using E = Bls12_381;
  using Fq = curve::bls12_381::Fq;
  Fixture<E> f;
  const auto t = E::G1Affine::from_xy(Fq::zero(), Fq::from_u64(2));
  ASSERT_TRUE(t.is_on_curve());
  ASSERT_TRUE((t.to_jacobian() + t.to_jacobian() + t.to_jacobian()).is_identity());  // order 3
  const auto pvk = prepare_verifying_key(f.pk.vk);
  for (int which : {0, 1}) {
    auto bad = f.proof;
    (which == 0 ? bad.a : bad.c) = plus(which == 0 ? bad.a : bad.c, t);
    ASSERT_TRUE(bad.a.is_on_curve() && bad.c.is_on_curve());
    // The attack is real: the pairing equation alone (no subgroup check) still holds.
    EXPECT_TRUE(raw_pairing_check(pvk, bad, f.pub)) << "order-3 component " << (which == 0 ? "in A" : "in C");
    auto v = verify(pvk, bad, f.pub);
    ASSERT_FALSE(v.ok()) << "a proof with a small-order component must not verify";
    EXPECT_NE(v.status().message().find(which == 0 ? "proof A" : "proof C"), std::string::npos);
    auto from_json = snarkjs::proof_from_json<E>(snarkjs::proof_to_json<E>(bad));
    EXPECT_FALSE(from_json.ok());
    EXPECT_FALSE(read_proofs<E>(write_proofs<E>(std::span(&bad, 1))).ok());
  }
}

TYPED_TEST(PointsTest, AVerifyingKeyWithAnOffSubgroupPointVerifiesNothing) {
  using E = TypeParam;
  Fixture<E> f;
  auto vk = f.pk.vk;
  vk.delta_g2 = plus(vk.delta_g2, off_subgroup_g2<E>());
  const auto pvk = prepare_verifying_key(vk);
  ASSERT_FALSE(pvk.key_check.ok());
  EXPECT_NE(pvk.key_check.message().find("vk delta_g2"), std::string::npos) << pvk.key_check.message();
  EXPECT_FALSE(verify(pvk, f.proof, f.pub).ok());
  // verification_key.json: refused when read.
  EXPECT_FALSE(snarkjs::verifying_key_from_json<E>(snarkjs::verifying_key_to_json<E>(vk)).ok());
}

TEST(PointsTestBls, AVerifyingKeyIcPointWithTheOrder3PointIsNamed) {
  using E = Bls12_381;
  using Fq = curve::bls12_381::Fq;
  Fixture<E> f;
  auto vk = f.pk.vk;
  vk.ic[2] = plus(vk.ic[2], E::G1Affine::from_xy(Fq::zero(), Fq::from_u64(2)));
  const auto pvk = prepare_verifying_key(vk);
  ASSERT_FALSE(pvk.key_check.ok());
  EXPECT_NE(pvk.key_check.message().find("vk ic[2]"), std::string::npos) << pvk.key_check.message();
  EXPECT_FALSE(verify(pvk, f.proof, f.pub).ok());
  EXPECT_FALSE(snarkjs::verifying_key_from_json<E>(snarkjs::verifying_key_to_json<E>(vk)).ok());
}

TYPED_TEST(PointsTest, IdentityProofPointsAreRefused) {
  using E = TypeParam;
  Fixture<E> f;
  auto bad = f.proof;
  bad.c = E::G1Affine::identity();
  EXPECT_FALSE(verify(prepare_verifying_key(f.pk.vk), bad, f.pub).ok());
}

}  // namespace
}  // namespace zk::groth16
