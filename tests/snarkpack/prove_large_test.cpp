// SnarkPack at Filecoin's largest count: 8192 proofs (819 sectors of 10 partitions, padded) aggregate
// and verify with a development SRS. Minutes on two cores: CTest label `slow`.

#include "snarkpack/aggregate_fixture.hpp"

namespace zk::snarkpack {
namespace {

TEST(SnarkPackProverLarge, EightThousandOneHundredNinetyTwoProofs) { aggregate_and_verify(8192); }

}  // namespace
}  // namespace zk::snarkpack
