// Label slow (~14 GB, minutes): a 32 GiB PoRep partition of a synthetic C1 (130,278,869 rows) is,
// buffer for buffer, the reference evaluation's (tests/r1cs/reference_partition.hpp). c = a o b is
// not checked here (a dense c is 4 GB more); the 2 KiB and 8 MiB tests check it.

#include <gtest/gtest.h>

#include "synthetic_partition.hpp"

namespace zk::circuits::filecoin {
namespace {

TEST(ProvingPartitionSlow, ThirtyTwoGibSyntheticPorepEqualsTheReferenceEvaluation) {
  test::expect_synthetic_partition_equals_reference("StackedDrg32GiBV1_1", 3, 130'278'869u, false);
}

}  // namespace
}  // namespace zk::circuits::filecoin
