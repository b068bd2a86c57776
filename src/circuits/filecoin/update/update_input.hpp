#pragma once

// One SnapDeals (EmptySectorUpdate) proof to make, as a job's input: the registered update proof,
// the three commitments and every partition's vanilla proof (bincode PartitionProof, the bytes
// Curio puts in `vanilla_proofs`). A job proves all partitions, as filecoin-proofs'
// generate_empty_sector_update_proof_with_vanilla does (2 KiB: 1 partition; 32 GiB: 16).
// zkpipe's own JSON for it (docs/filecoin-update.md, "SnapDeals input"):
//   {"registered_proof": 0 | "StackedDrg2KiBV1", "comm_r_old": "<64 hex>", "comm_d_new": "<64 hex>",
//    "comm_r_new": "<64 hex>", "vanilla_proofs": ["<base64 bincode PartitionProof>", ...]}
// Commitments are Filecoin's 32 bytes (the field element little-endian) as hex, or their CIDs.
// Keys in any order, unknown keys ignored, duplicates refused. `check_update_input` verifies every
// partition natively (verify_update_partition_proof) before anything is proved.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/porep/sectors.hpp"
#include "circuits/filecoin/update/partition_proof.hpp"

namespace zk::circuits::filecoin {

/// filecoin-proofs-api's RegisteredUpdateProof (Curio's abi.RegisteredUpdateProof is the same):
/// 0 StackedDrg2KiBV1, 1 8MiB, 2 512MiB, 3 32GiB, 4 64GiB.
struct RegisteredUpdateProof {
  std::uint64_t id;
  std::string name;  // "StackedDrg2KiBV1"
  SectorSize size;
};
const std::vector<RegisteredUpdateProof>& registered_update_proofs();
/// By number ("0") or name ("StackedDrg32GiBV1", case-insensitive).
Result<RegisteredUpdateProof> find_registered_update_proof(const std::string& name_or_number);
/// The update proof of a sector size (INVALID_ARGUMENT for sizes Filecoin has none for).
Result<RegisteredUpdateProof> update_proof_for_size(const SectorSize& size);

struct UpdateInput {
  RegisteredUpdateProof proof;
  UpdateShape shape;  // update_shape(proof.size.bytes), SHA-256 tree D
  Fr comm_r_old, comm_d_new, comm_r_new;
  std::vector<UpdatePartitionProof> partitions;  // exactly shape.partitions, in order
  /// The h every partition is proved with: filecoin-proofs' default for the size.
  unsigned h() const { return update_h_default(shape); }
};

/// Parses the JSON above: exactly the size's partition count of proofs, each parsed against the
/// size's shape; INVALID_ARGUMENT naming the field ("vanilla_proofs[3]: …", "comm_r_new: …").
Result<UpdateInput> parse_update_input(std::string_view json);
std::string update_input_json(const UpdateInput& in);

/// Every partition's vanilla proof checked natively against the commitments (errors name the
/// partition: "vanilla_proofs[k]: …").
Status check_update_input(const UpdateInput& in);
/// Partition k's circuit witness (its proof is checked too).
Result<UpdateWitness> update_input_witness(const UpdateInput& in, unsigned k);
/// Partition k's public inputs (ONE excluded).
Result<std::vector<Fr>> update_input_public_inputs(const UpdateInput& in, unsigned k);

/// 32 bytes as Filecoin shows a commitment (field element little-endian), and back.
std::array<std::uint8_t, 32> update_commitment_bytes(const Fr& c);

}  // namespace zk::circuits::filecoin
