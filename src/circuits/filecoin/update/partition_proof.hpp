#pragma once

// One SnapDeals (EmptySectorUpdate) partition's vanilla proof as Filecoin's software hands it over:
// bincode (1.x defaults: little-endian fixed-width integers, u64 lengths, u32 enum tags, domains
// as 32 raw bytes, no wrapper) of storage-proofs-update's `PartitionProof` (vanilla.rs):
//
//     comm_c 32 | apex_leafs: u64 n, n × 32 | challenge_proofs: u64 m, m × ChallengeProof
//     ChallengeProof = proof_r_old: MerkleProof (tree R) | proof_d_new: MerkleProof (tree D, Single)
//                    | proof_r_new: MerkleProof (tree R)
//
// MerkleProof is the Single / Sub / Top enum of the PoSt and PoRep vanilla proofs
// (docs/filecoin-post.md has its byte map). Parsing bounds every length by the bytes left and
// refuses trailing bytes; checking does natively what the circuit checks (synthesize_update).
// Only the SHA-256 tree D variant (the one filecoin-proofs uses) has this input.

#include <cstdint>
#include <span>
#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/porep/vanilla.hpp"
#include "circuits/filecoin/update/update_circuit.hpp"

namespace zk::circuits::filecoin {

/// One challenge: the old replica leaf in tree R old, the new data leaf in tree D new, the new
/// replica leaf in tree R new, each with its path and root.
struct UpdateChallengeProof {
  MerkleProof proof_r_old, proof_d_new, proof_r_new;
};

struct UpdatePartitionProof {
  Bytes32 comm_c{};
  std::vector<Bytes32> apex_leafs;                    // the partition's apex leaves (tree D new)
  std::vector<UpdateChallengeProof> challenge_proofs;  // in the order update_challenges draws them
};

/// The bincode bytes of one PartitionProof of a sector of shape `s` (SHA-256 tree D); the counts
/// must be the shape's. INVALID_ARGUMENT naming the field and the offset.
Result<UpdatePartitionProof> parse_update_partition_proof(std::span<const std::uint8_t> bytes, const UpdateShape& s);
/// Writes `p` back, byte for byte as bincode does.
std::vector<std::uint8_t> update_partition_proof_bytes(const UpdatePartitionProof& p);
/// The size of a well-formed PartitionProof of shape `s` (2 KiB: 15,064; 32 GiB: 561,768).
std::size_t update_partition_proof_size(const UpdateShape& s);

/// Everything the circuit checks, natively, for partition k with h (h_default in production):
/// the counts; every proof's variant and depth; each of the three paths to its root with its leaf
/// index = the challenge update_challenges draws from comm_r_new; the tree R roots one per tree,
/// with comm_r_old = Poseidon(comm_c, root_r_old) and comm_r_new = Poseidon(comm_c, root_r_new);
/// tree D paths to comm_d_new; the encoding leaf_r_new = leaf_r_old + leaf_d_new * rho; the apex
/// leaves: each data path passes through the apex leaf its challenge selects, and the apex leaves
/// hash to comm_d_new along the partition's path (the same in every challenge). Errors name the
/// field, e.g. `challenge_proofs[3].proof_r_new: proves leaf 12, but comm_r_new challenges leaf 40`.
Status verify_update_partition_proof(const UpdateShape& s, unsigned k, unsigned h, const Fr& comm_r_old,
                                     const Fr& comm_d_new, const Fr& comm_r_new, const UpdatePartitionProof& p);

/// The circuit's witness for partition k (the proof is checked first).
Result<UpdateWitness> update_witness_from_proof(const UpdateShape& s, unsigned k, unsigned h, const Fr& comm_r_old,
                                                const Fr& comm_d_new, const Fr& comm_r_new, const UpdatePartitionProof& p);

/// The partition proof of an update made in memory (tests, a future gen-vanilla --kind snap-update).
Result<UpdatePartitionProof> make_update_partition_proof(const UpdateShape& s, const UpdatedSector& u, unsigned k);

}  // namespace zk::circuits::filecoin
