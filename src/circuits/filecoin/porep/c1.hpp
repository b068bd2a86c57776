#pragma once

// Filecoin's commit-phase-1 output, the input of a PoRep C2: filecoin-proofs-api's
// SealCommitPhase1Output as serde-JSON (what lotus / Curio / filecoin-ffi's seal_commit_phase1
// return), or cuzk / Curio's wrapper {"SectorNum", "Phase1Out": base64 of that JSON, "SectorSize"}.
// docs/filecoin-porep.md has the layout. Parsing is a single pass that keeps only the values (a
// 32 GiB C1 is ~38 MB of JSON); any key order is accepted, unknown keys are ignored (as serde
// does), duplicates and malformed values are refused with the field's path. check_c1 then checks
// everything against the registered proof before anything is proved.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/porep/vanilla.hpp"

namespace zk::circuits::filecoin {

struct C1 {
  RegisteredSealProof registered_proof;
  std::vector<std::vector<VanillaProof>> vanilla_proofs;  // per partition, per challenge
  Bytes32 comm_r{}, comm_d{}, replica_id{}, seed{}, ticket{};
};

/// A parsed input: the C1, and the wrapper's values when it came wrapped.
struct C1Input {
  C1 c1;
  bool wrapped = false;
  std::uint64_t sector_num = 0, sector_size = 0;
};

/// Either form (detected by its keys). INVALID_ARGUMENT naming the field on anything malformed.
Result<C1Input> parse_c1(std::string_view text);
/// Compact serde-JSON, fields in filecoin-proofs-api's order (what seal_commit_phase1 returns).
std::string c1_json(const C1& c1);
/// cuzk / Curio's wrapper around c1_json (Go's encoding/json layout).
std::string c1_wrapper_json(const C1& c1, std::uint64_t sector_num);

/// The circuit, the graph and the challenges of a C1's registered proof.
struct C1Context {
  StackedShape shape;
  sdr::ParentGraph graph;
  /// The nodes partition k must prove, as the registered proof draws them: interactive from
  /// replica_id and the seed, synthetic from the synthetic set (replica_id, comm_r) the seed
  /// selects from, non-interactive from replica_id and comm_r (sdr.hpp).
  Result<std::vector<std::uint64_t>> challenges(const C1& c1, std::size_t partition) const;
};
Result<C1Context> c1_context(const RegisteredSealProof& proof);

/// Everything a C2 needs, checked natively before proving: no zero commitment or seed, replica_id
/// and comm_d Fr32, the partition and challenge counts of the registered proof, and every
/// partition's vanilla proofs (verify_vanilla_partition) against the challenges the registered
/// proof derives (the seed must be non-zero for non-interactive PoRep too, as rust-fil-proofs
/// requires, although it draws nothing).
Status check_c1(const C1& c1, const C1Context& ctx);

/// Partition k's witness and public inputs (after check_c1).
Result<StackedWitness> c1_witness(const C1& c1, const C1Context& ctx, std::size_t partition);
Result<std::vector<Fr>> c1_public_inputs(const C1& c1, const C1Context& ctx, std::size_t partition);

/// A C1 made from a sector sealed in memory (`zkpipe gen-c1`, tests): every partition's vanilla
/// proofs for the challenges `seed` derives.
Result<C1> make_c1(const RegisteredSealProof& proof, const C1Context& ctx, const SealedSector& sector,
                   const Bytes32& seed, const Bytes32& ticket);

}  // namespace zk::circuits::filecoin
