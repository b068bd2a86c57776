// The production EmptySectorUpdate (SnapDeals) partition counted by synthesis (label `slow`: minutes
// on one core, little memory): rust-fil-proofs storage-proofs-update's ignored tests
// test_empty_sector_update_constraints_32gib (BenchCS): 81,049,499 constraints for a 32 GiB
// partition, and 22,305,906 for the Poseidon variant's one 32 GiB partition.

#include <gtest/gtest.h>

#include "circuits/filecoin/update/update_circuit.hpp"
#include "r1cs/constraint_system.hpp"

namespace zk::circuits::filecoin {
namespace {

constexpr std::uint64_t k32GiB = std::uint64_t{32} << 30;

TEST(EmptySectorUpdateCount, ThirtyTwoGibPartitionIsRustFilProofsPin) {
  auto s = update_shape(k32GiB);
  ASSERT_TRUE(s.ok());
  r1cs::MetricsSystem<Fr> m;
  ASSERT_TRUE(synthesize_update(m, *s, UpdateWitness::blank(*s)).ok());
  EXPECT_EQ(m.num_constraints(), 81'049'499u);
  EXPECT_EQ(m.num_inputs(), 5u);
}

TEST(EmptySectorUpdateCount, ThirtyTwoGibPoseidonVariantIsRustFilProofsPin) {
  auto s = update_shape(k32GiB, UpdateTreeD::kPoseidon);
  ASSERT_TRUE(s.ok());
  r1cs::MetricsSystem<Fr> m;
  ASSERT_TRUE(synthesize_update_poseidon(m, *s, UpdateWitness::blank(*s)).ok());
  EXPECT_EQ(m.num_constraints(), 22'305'906u);
  EXPECT_EQ(m.num_inputs(), 5u);
}

}  // namespace
}  // namespace zk::circuits::filecoin
