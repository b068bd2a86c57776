#pragma once

// What Filecoin binds into a SnarkPack aggregate of seal proofs (filecoin-proofs seal.rs: the
// transcript input of aggregate_seal_commit_proofs and its verifier; ../shared/design/
// snarkpack.md section 2): sha256(seed_1 || comm_r_1 || seed_2 || comm_r_2 || ...) for interactive
// PoRep, sha256(comm_r_1 || comm_r_2 || ...) for non-interactive PoRep (no seed), the sectors in
// the order of their proofs (ProveCommitAggregate: ascending sector number). A non-interactive C2
// is the aggregate of its own partitions, so its input is sha256(comm_r).
//
// The aggregate itself is src/snarkpack's; this layer only names the statement's bytes.

#include <span>

#include "circuits/sdr.hpp"

namespace zk::circuits::filecoin {

struct AggregatedSector {
  sdr::Bytes32 comm_r{}, seed{};
};

sdr::Bytes32 seal_transcript_input(std::span<const AggregatedSector> sectors, bool non_interactive);

}  // namespace zk::circuits::filecoin
