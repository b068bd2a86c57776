#pragma once

// What a PoRep partition proves, natively. The vanilla proofs (storage-proofs-porep stacked
// vanilla Proof: per challenge the data leaf's path in tree D, the replica leaf's path in tree
// R-last, the challenged and parent columns with their paths in tree C, the labeling and encoding
// proofs) exactly as Filecoin's C1 carries them (c1.hpp reads and writes that JSON); made from a
// sector sealed in memory, checked natively (every path, every label, the challenges from the
// seed), and turned into the circuit's witness. The public inputs (StackedCompound's
// generate_public_inputs) depend only on public values, never on the witness.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/porep/sectors.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"
#include "gadgets/merkle.hpp"
#include "circuits/sdr.hpp"

namespace zk::circuits::filecoin {

using Bytes32 = sdr::Bytes32;

/// The public values of one sealed sector's PoRep.
struct PorepPublic {
  Bytes32 replica_id{}, comm_d{}, comm_r{};
};

/// [replica_id, comm_d, comm_r] then per challenge [c, drg parents, expander parents, c, c, c]
/// (ONE not included). replica_id and comm_d are Fr32 (SHA-256 outputs with the top two bits
/// clear), comm_r any canonical field element; anything else is refused.
Result<std::vector<Fr>> porep_public_inputs(const StackedShape& shape, const sdr::ParentGraph& graph, const PorepPublic& pub,
                                            std::span<const std::uint64_t> challenges);

// ---- Vanilla proofs, as storage-proofs serializes them (field names in comments). Hashes and
// tree nodes are 32-byte little-endian field elements ("domains").

/// One level of an inclusion path: the arity - 1 other children of the node's parent, in order,
/// and the node's position among them (`hashes`, `index`).
struct PathElement {
  std::vector<Bytes32> hashes;
  std::uint64_t index = 0;
};

/// storage-proofs-core MerkleProof: Single (one tree), Sub (base trees under one sub level) or Top
/// (base, sub and top levels); every path leaf level first.
struct MerkleProof {
  enum class Kind { kSingle, kSub, kTop };
  Kind kind = Kind::kSingle;
  Bytes32 root{}, leaf{};
  std::vector<PathElement> base, sub, top;  // Single: all levels in `base`
  /// The levels leaf to root (base, then sub, then top).
  std::vector<PathElement> levels() const;
};

/// A column of tree C: the node (`index`), its label in every layer (`rows`), its path.
struct ColumnProof {
  std::uint32_t index = 0;
  std::vector<Bytes32> rows;
  MerkleProof inclusion_proof;
};

/// The 37 parent slots hashed into the label of `node` in `layer_index` (1-based).
struct LabelingProof {
  std::vector<Bytes32> parents;
  std::uint32_t layer_index = 0;
  std::uint64_t node = 0;
};

/// A Merkle proof opened natively in `shape`: the root recomputed from the leaf up the path must be
/// the proof's root; the leaf's index (from the path) and the path as the circuit takes it. `kind`:
/// the variant this tree's proofs have (Single / Sub / Top). Errors name `where`.
struct OpenedProof {
  Fr root, leaf;
  std::uint64_t index = 0;
  std::vector<gadgets::PathLevel> path;
};
Result<OpenedProof> open_merkle_proof(const gadgets::TreeShape& shape, MerkleProof::Kind kind, const MerkleProof& proof,
                                      const std::string& where);
/// The variant of tree C / R-last proofs of a sector size (Single; Sub with a sub level; Top).
MerkleProof::Kind column_proof_kind(const SectorSize& size);

/// One challenge's vanilla proof.
struct VanillaProof {
  MerkleProof comm_d_proofs;      // data leaf in tree D (SHA-256, binary)
  MerkleProof comm_r_last_proof;  // replica leaf in tree R-last
  ColumnProof c_x;                // the challenged column
  std::vector<ColumnProof> drg_parents, exp_parents;  // 6 and 8
  std::vector<LabelingProof> labeling_proofs;         // one per layer
  LabelingProof encoding_proof;                       // the last layer's
  /// The challenged node (labeling_proofs[0].node, as the circuit takes it).
  std::uint64_t challenge() const { return labeling_proofs.empty() ? 0 : labeling_proofs.front().node; }
};

/// The ids a sector is sealed under (the replica id derives from them and comm_d).
struct SealInputs {
  Bytes32 prover_id{}, ticket{}, porep_id{};
  std::uint64_t sector_id = 0;
};

/// What sealing produces, in Filecoin's byte forms: the data and replica nodes, the label layers,
/// the replica id and the commitments (comm_d, comm_c, comm_r_last, comm_r = Poseidon-2(comm_c,
/// comm_r_last)).
struct Replica {
  std::vector<Bytes32> data, replica;        // data: Fr32 nodes; replica_i = data_i + label_L[i] in Fr
  std::vector<std::vector<Bytes32>> labels;  // layers x nodes
  Bytes32 replica_id{};
  Bytes32 comm_d{}, comm_c{}, comm_r_last{}, comm_r{};
};

/// A sector sealed in memory with every tree kept (tests, gen-c1 and gen-vanilla for small sectors).
struct SealedSector {
  Replica replica;
  gadgets::FilecoinTree tree_d, tree_c, tree_r;
};
/// zkpipe's sealer (docs/porep-spec.md sections 5-6): tree D (binary SHA-256) over `data` (the
/// sector's Fr32 nodes, one per graph node), the replica id, the shape's SDR label layers, column
/// hashes Poseidon-L(label_1[i] .. label_L[i]) into tree C, the encoding replica_i = data_i +
/// label_L[i] into tree R-last, and comm_r. Everything in memory: 2 KiB and 8 MiB sectors.
Result<SealedSector> seal_in_memory(const StackedShape& shape, const sdr::ParentGraph& graph,
                                    std::vector<Bytes32> data, const SealInputs& in);

/// The vanilla proof of one challenge of a sector sealed in memory.
Result<VanillaProof> vanilla_proof(const StackedShape& shape, const sdr::ParentGraph& graph, const SealedSector& sector,
                                   std::uint64_t challenge);

/// The path of replica node `node` in tree R-last of a sector sealed in memory (what a PoSt opens).
Result<MerkleProof> replica_merkle_proof(const StackedShape& shape, const SealedSector& sector, std::uint64_t node);

/// Checks one partition's vanilla proofs natively against the public values: counts and path
/// shapes, every path to its root (comm_d; one comm_c and one comm_r_last for the partition, with
/// comm_r = Poseidon(comm_c, comm_r_last)), each path's index and each column's node against the
/// challenge and its parents in `graph`, every layer's label recomputed from its parents, the
/// encoding. `challenges`: the nodes the partition must prove (from the seed). Errors name the
/// challenge and the field.
Status verify_vanilla_partition(const StackedShape& shape, const sdr::ParentGraph& graph, const PorepPublic& pub,
                                std::span<const VanillaProof> proofs, std::span<const std::uint64_t> challenges);

/// The circuit's witness for one partition (values taken as they are: verify first).
Result<StackedWitness> vanilla_witness(const StackedShape& shape, const PorepPublic& pub,
                                       std::span<const VanillaProof> proofs);

/// The witness of the partition that proves `challenges` of a sector sealed in memory.
Result<StackedWitness> partition_witness(const StackedShape& shape, const sdr::ParentGraph& graph,
                                         const SealedSector& sector, std::span<const std::uint64_t> challenges);

}  // namespace zk::circuits::filecoin
