// A real 2 KiB PoRep partition (a sector sealed in memory) and a synthetic 8 MiB one: the proving
// system's partition is, buffer for buffer and bit for bit, the one the plainest reference
// evaluation gives (tests/r1cs/reference_partition.hpp), and the witness satisfies the circuit.
// 32 GiB: proving_partition_32gib_test.cpp (label slow).

#include <gtest/gtest.h>

#include "circuits/filecoin/porep/sectors.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"
#include "circuits/filecoin/porep/vanilla.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/reference_partition.hpp"
#include "sealed_sector.hpp"
#include "synthetic_partition.hpp"
#include "test_util.hpp"

namespace zk::circuits::filecoin {
namespace {

TEST(ProvingPartition, TwoKibPorepEqualsTheReferenceEvaluation) {
  auto rng = zk::test::rng(191);
  const auto sealed = test::seal_random_two_kib(rng, 7);
  ASSERT_TRUE(sealed.sector.has_value());
  const StackedShape& s = sealed.shape;
  sdr::Bytes32 seed;
  seed.fill(5);
  const auto challenges = sdr::challenges(sealed.sector->replica.replica_id, seed, s.nodes, 0, s.challenges);
  auto w = partition_witness(s, *sealed.graph, *sealed.sector, challenges);
  ASSERT_TRUE(w.ok()) << w.status().to_string();

  r1cs::ProvingSystem<Fr> fast;
  ASSERT_TRUE(synthesize_stacked(fast, s, *w).ok());
  const auto got = std::move(fast).finish();
  r1cs::test::ReferenceSystem<Fr> ref;
  ASSERT_TRUE(synthesize_stacked(ref, s, *w).ok());
  const auto want = std::move(ref).finish();
  ASSERT_EQ(got.num_rows(), 2'687'921u + 40u);
  r1cs::test::expect_same_partition(got, want);
  // A satisfied R1CS: the prover's c = a * b is every row's C evaluation (the trailing input rows
  // too: x * 0 = 0).
  r1cs::test::expect_c_is_a_times_b(got, ref.c);
}

TEST(ProvingPartition, EightMibSyntheticPorepEqualsTheReferenceEvaluation) {
  // 8 MiB: more Merkle and Poseidon work per challenge than 2 KiB (deeper trees).
  test::expect_synthetic_partition_equals_reference("StackedDrg8MiBV1_1", 0, 3'844'929u + 40u, true);
}

}  // namespace
}  // namespace zk::circuits::filecoin
