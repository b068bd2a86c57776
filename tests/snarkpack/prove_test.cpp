// SnarkPack's prover and full verifier (src/snarkpack prove.hpp, verify.hpp) with a DEVELOPMENT SRS
// and development Groth16 keys (no stored vector pairs single proofs with their aggregate, and the
// production SRS is not available offline): aggregates of 2 ... 64 proofs (8192: prove_large_test)
// verify with all eleven equations (six TIPP/MIPP, four KZG, Groth16), read and write back byte for
// byte, come out identical when made twice; and fail when a proof, a public input, the transcript
// input, the version or the SRS changes. The KZG building blocks are checked against direct
// evaluation.

#include <gtest/gtest.h>

#include "snarkpack/aggregate_fixture.hpp"

namespace zk::snarkpack {
namespace {

TEST(SnarkPackProver, AggregatesOfTwoToSixtyFourProofsVerify) {
  for (std::size_t n : {2u, 4u, 8u, 16u, 64u}) aggregate_and_verify(n);
}

TEST(SnarkPackProver, TheSameInputsGiveTheSameBytesAndALongerSrsTheSameProof) {
  const Batch b = make_batch(8, 7);
  auto p1 = aggregate(development_srs(9, 16, 8), b.proofs, kInclude, Version::kV2);
  auto p2 = aggregate(development_srs(9, 64, 40), b.proofs, kInclude, Version::kV2);
  ASSERT_TRUE(p1.ok() && p2.ok());
  EXPECT_TRUE(*write_aggregate_proof(*p1) == *write_aggregate_proof(*p2));
}

TEST(SnarkPackProver, ChangedProofsInputsTranscriptVersionOrSrsFail) {
  const std::size_t n = 8;
  const Batch b = make_batch(n, 11);
  const Srs srs = development_srs(5, 2 * n, n);
  auto p = aggregate(srs, b.proofs, kInclude, Version::kV2);
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  ASSERT_TRUE(verdict(srs, b, *p, kInclude, Version::kV2, b.inputs).valid());

  // A public input of one proof.
  auto inputs = b.inputs;
  inputs[5][1] = inputs[5][1] + Fr::one();
  Verdict x = verdict(srs, b, *p, kInclude, Version::kV2, inputs);
  EXPECT_FALSE(x.groth16);
  EXPECT_TRUE(x.srs_free.all() && x.kzg.all());  // the argument itself is sound; the statement is not
  // Two proofs swapped: each is valid, but not for the other's inputs.
  auto swapped = b.proofs;
  std::swap(swapped[2], swapped[3]);
  auto q = aggregate(srs, swapped, kInclude, Version::kV2);
  ASSERT_TRUE(q.ok());
  EXPECT_FALSE(verdict(srs, b, *q, kInclude, Version::kV2, b.inputs).valid());
  // A proof of another key.
  const Batch other = make_batch(1, 12);
  auto foreign = b.proofs;
  foreign[0] = other.proofs[0];
  q = aggregate(srs, foreign, kInclude, Version::kV2);
  ASSERT_TRUE(q.ok());
  EXPECT_FALSE(verdict(srs, b, *q, kInclude, Version::kV2, b.inputs).valid());
  // Another transcript input, the other version: the challenges change.
  const std::vector<std::uint8_t> other_include = {'z', 'k', 'p', 'i', 'p', 'E'};
  EXPECT_FALSE(verdict(srs, b, *p, other_include, Version::kV2, b.inputs).valid());
  x = verdict(srs, b, *p, kInclude, Version::kV1, b.inputs);
  EXPECT_FALSE(x.srs_free.all());
  EXPECT_FALSE(x.kzg.all());
  // Another SRS: only the KZG openings notice.
  x = verdict(development_srs(6, 2 * n, n), b, *p, kInclude, Version::kV2, b.inputs);
  EXPECT_TRUE(x.srs_free.all() && x.groth16);
  EXPECT_FALSE(x.kzg.v_alpha || x.kzg.v_beta || x.kzg.w_alpha || x.kzg.w_beta);
  // An opening or a final key changed.
  AggregateProof t = *p;
  t.wkey_opening[1] = t.wkey_opening[0];
  EXPECT_FALSE(verdict(srs, b, t, kInclude, Version::kV2, b.inputs).kzg.w_beta);
  t = *p;
  t.gipa.final_vkey[0] = t.gipa.final_vkey[1];
  EXPECT_FALSE(verdict(srs, b, t, kInclude, Version::kV2, b.inputs).valid());
}

TEST(SnarkPackProver, BadCountsAndShortSrsAreRefused) {
  const Batch b = make_batch(4, 13);
  const Srs srs = development_srs(5, 8, 4);
  EXPECT_EQ(aggregate(srs, std::span(b.proofs).first(3), kInclude, Version::kV2).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(aggregate(srs, std::span(b.proofs).first(1), kInclude, Version::kV2).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(aggregate(development_srs(5, 7, 4), b.proofs, kInclude, Version::kV2).status().code(),
            StatusCode::kInvalidArgument);
  auto p = aggregate(srs, b.proofs, kInclude, Version::kV2);
  ASSERT_TRUE(p.ok());
  auto vs = verifier_srs(srs);
  ASSERT_TRUE(vs.ok());
  // Inputs for three proofs of four; a proof with one input too few.
  EXPECT_EQ(verify_aggregate(*vs, b.pk.vk, std::span(b.inputs).first(3), *p, kInclude, Version::kV2).status().code(),
            StatusCode::kInvalidArgument);
  auto inputs = b.inputs;
  inputs[2].pop_back();
  EXPECT_EQ(verify_aggregate(*vs, b.pk.vk, inputs, *p, kInclude, Version::kV2).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(SnarkPackKzg, TheChallengePolynomialAndItsQuotientMatchDirectEvaluation) {
  auto rng = test::rng(3);
  std::vector<Fr> x;
  for (int i = 0; i < 5; ++i) x.push_back(Fr::random(rng));
  const Fr s = Fr::random(rng), z = Fr::random(rng);
  const auto f = challenge_polynomial(x, s);
  ASSERT_EQ(f.size(), 32u);
  Fr direct = Fr::zero();
  for (std::size_t i = f.size(); i-- > 0;) direct = direct * z + f[i];
  EXPECT_EQ(direct, challenge_polynomial_at(x, s, z));
  // q (X - z) + f(z) = f at another point.
  const auto q = divide_by_linear(f, z);
  ASSERT_EQ(q.size(), 31u);
  const Fr y = Fr::random(rng);
  Fr qy = Fr::zero(), fy = Fr::zero();
  for (std::size_t i = q.size(); i-- > 0;) qy = qy * y + q[i];
  for (std::size_t i = f.size(); i-- > 0;) fy = fy * y + f[i];
  EXPECT_EQ(qy * (y - z) + direct, fy);
}

}  // namespace
}  // namespace zk::snarkpack
