// End to end on Filecoin's exact 2 KiB PoRep circuit (label slow: a development setup of a
// 2.7M-constraint circuit takes minutes on 2 cores): seal a sector natively, record the shape,
// generate development keys, prove the partition with zkpipe's prover, and verify the proof from
// the public values alone. Prints the stage times (the closing notes quote them).

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "circuits/filecoin/porep/sectors.hpp"
#include "circuits/filecoin/porep/vanilla.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "sealed_sector.hpp"
#include "test_util.hpp"

namespace zk::circuits::filecoin {
namespace {

using E = groth16::Bls12_381;
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

TEST(PorepEndToEnd, TwoKibSealProveVerifyWithDevelopmentKeys) {
  auto rng = zk::test::rng(131);
  auto t = Clock::now();
  const auto sealed_two_kib = test::seal_random_two_kib(rng, 11);
  ASSERT_TRUE(sealed_two_kib.sector.has_value());
  const StackedShape& s = sealed_two_kib.shape;
  const auto& graph = sealed_two_kib.graph;
  const auto& sealed = sealed_two_kib.sector;
  const double seal_s = since(t);
  t = Clock::now();
  r1cs::ShapeRecorder<Fr> rec;
  ASSERT_TRUE(synthesize_stacked(rec, s, StackedWitness::blank(s)).ok());
  auto pk = groth16::generate_parameters<E>(rec.shape(), groth16::Trapdoor<E>::random(rng));
  ASSERT_TRUE(pk.ok()) << pk.status().to_string();
  const double setup_s = since(t);
  sdr::Bytes32 seed;
  seed.fill(4);
  const auto challenges = sdr::challenges(sealed->replica.replica_id, seed, s.nodes, 0, s.challenges);
  auto w = partition_witness(s, *graph, *sealed, challenges);
  ASSERT_TRUE(w.ok());
  t = Clock::now();
  r1cs::ProvingSystem<Fr> cs({.inputs = pk->vk.ic.size(), .aux = pk->l.size(), .constraints = 0});
  ASSERT_TRUE(synthesize_stacked(cs, s, *w).ok());
  auto partition = std::move(cs).finish();
  const double synth_s = since(t);
  t = Clock::now();
  auto proof = groth16::prove(*pk, std::move(partition), Fr::random(rng), Fr::random(rng));
  ASSERT_TRUE(proof.ok()) << proof.status().to_string();
  const double prove_s = since(t);
  auto pub = porep_public_inputs(s, *graph, {sealed->replica.replica_id, sealed->replica.comm_d, sealed->replica.comm_r},
                                 challenges);
  ASSERT_TRUE(pub.ok());
  const auto pvk = groth16::prepare_verifying_key(pk->vk);
  EXPECT_TRUE(*groth16::verify(pvk, *proof, *pub));
  auto other = *pub;
  other[0] = other[0] + Fr::one();
  EXPECT_FALSE(*groth16::verify(pvk, *proof, other));
  std::printf("2 KiB PoRep: seal %.2f s, shape + development setup %.1f s, synthesis %.2f s, prove %.2f s\n", seal_s,
              setup_s, synth_s, prove_s);
}

}  // namespace
}  // namespace zk::circuits::filecoin
