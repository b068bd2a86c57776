#pragma once

// What a PoRep partition proves, natively: the public inputs (StackedCompound's
// generate_public_inputs) from the sector's public values, and for small sectors sealed in memory
// the partition's witness (the vanilla proofs: paths in trees D, C and R-last, the parents'
// columns). The public inputs depend only on public values, never on the witness.

#include <cstdint>
#include <span>
#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"
#include "circuits/replicate.hpp"
#include "circuits/sdr.hpp"

namespace zk::circuits::filecoin {

/// The public values of one sealed sector's PoRep.
struct PorepPublic {
  sdr::Bytes32 replica_id{}, comm_d{}, comm_r{};
};

/// [replica_id, comm_d, comm_r] then per challenge [c, drg parents, expander parents, c, c, c]
/// (ONE not included). replica_id and comm_d are Fr32 (SHA-256 outputs with the top two bits
/// clear), comm_r any canonical field element; anything else is refused.
Result<std::vector<Fr>> porep_public_inputs(const StackedShape& shape, const sdr::ParentGraph& graph, const PorepPublic& pub,
                                    std::span<const std::uint64_t> challenges);

/// A sector sealed in memory with every tree kept (tests, gen-c1 for small sectors).
struct SealedSector {
  sdr::Replica replica;
  gadgets::FilecoinTree tree_d, tree_c, tree_r;
};
Result<SealedSector> seal_in_memory(const StackedShape& shape, const sdr::ParentGraph& graph,
                                    std::vector<sdr::Bytes32> data, const sdr::SealInputs& in);

/// The witness of the partition that proves `challenges`.
Result<StackedWitness> partition_witness(const StackedShape& shape, const sdr::ParentGraph& graph,
                                         const SealedSector& sector, std::span<const std::uint64_t> challenges);

}  // namespace zk::circuits::filecoin
