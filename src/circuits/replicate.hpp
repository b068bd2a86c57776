#pragma once

// Native SDR replication of a whole (small) sector, the way Filecoin seals one (docs/porep-spec.md
// sections 5-6): comm_d = binary SHA-256 tree over the data, replica_id from it, the L label
// layers, column hashes C_i = Poseidon-L(label_1[i] .. label_L[i]), comm_c = arity-8 Poseidon tree
// over them, replica_i = data_i + label_L[i] in Fr, comm_r_last = arity-8 Poseidon tree over the
// replica, comm_r = Poseidon-2(comm_c, comm_r_last). Everything stays in memory (tiny and small
// shapes); the streaming generator for large shapes is still to come (issue 5).

#include <vector>

#include "circuits/sdr.hpp"
#include "gadgets/merkle.hpp"

namespace zk::circuits::sdr {

struct SealInputs {
  Bytes32 prover_id{}, ticket{}, porep_id{};
  std::uint64_t sector_id = 0;
  std::uint32_t layers = 2;  // a Poseidon arity: 2, 4, 8 or 11
};

struct Replica {
  std::vector<Bytes32> data, replica;        // Fr32 nodes
  std::vector<std::vector<Bytes32>> labels;  // layers x nodes
  Bytes32 replica_id{};
  Bytes32 comm_d{}, comm_c{}, comm_r_last{}, comm_r{};
};

/// Seals `data` (a power-of-8 number of Fr32 nodes, top two bits of byte 31 clear).
Result<Replica> replicate(const ParentGraph& graph, std::vector<Bytes32> data, const SealInputs& in);

}  // namespace zk::circuits::sdr
