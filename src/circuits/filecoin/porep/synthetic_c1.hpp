#pragma once

// A consistent synthetic C1 for sector sizes that cannot be sealed here (32 / 64 GiB; any size
// works): random replica_id, seed and ticket; sparse trees D, C and R-last in which only the nodes
// on the challenged paths are computed and every other node is a fixed pseudo-random value of its
// position, so all paths of all partitions lead to one comm_d, one comm_c and one comm_r_last;
// parent columns random; each challenged column's labels computed from its parents' rows; replica
// leaves = last label + data. check_c1 accepts it, the circuit is satisfied, and its proofs verify
// — it has exactly the shape and cost of a real sector's C1. It is NOT a sector: replica_id is not
// derived from a prover id and comm_d is no data's (gen-c1 marks such files "zkpipe_synthetic").

#include <cstdint>

#include "base/status.hpp"
#include "circuits/filecoin/porep/c1.hpp"

namespace zk::circuits::filecoin {

Result<C1> synthetic_c1(const RegisteredSealProof& proof, const C1Context& ctx, std::uint64_t seed);

}  // namespace zk::circuits::filecoin
