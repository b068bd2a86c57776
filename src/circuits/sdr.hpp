#pragma once

// Stacked DRG (SDR) replication, natively, following Filecoin's rust-fil-proofs byte for byte
// (docs/porep-spec.md has the layouts and where each was established): the porep id, the parent
// graph (6 DRG parents by ChaCha8 bucket sampling in the same layer, 8 expander parents by a
// 3-round Feistel permutation with BLAKE2b in the previous layer), labels (SHA-256 over a 64-byte
// header and 37 parent slots, truncated to Fr32), replica ids and interactive challenges.
// The graph version matters: V1_0 (registered proofs 0..4) orders DRG parents differently and
// truncates expander indices to 32 bits (a known legacy quirk); V1_1 and later fix both.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "base/status.hpp"

namespace zk::circuits::sdr {

using Bytes32 = std::array<std::uint8_t, 32>;

inline constexpr unsigned kBaseDegree = 6;
inline constexpr unsigned kExpansionDegree = 8;
inline constexpr unsigned kParentSlots = 37;

/// porep_id for a registered-proof id: the id as u64 little-endian, then zeros.
Bytes32 porep_id(std::uint64_t registered_proof);

class ParentGraph {
 public:
  /// `legacy_v1_0`: the V1_0 graph (registered proofs 0..4). Filecoin's degrees are 6 and 8; other
  /// degrees (base >= 2, expansion >= 1) run the same algorithms with base - 1 sampled DRG parents
  /// and `expansion` Feistel draws per node (reduced graphs for tests).
  static Result<ParentGraph> create(std::uint64_t nodes, const Bytes32& porep_id, bool legacy_v1_0,
                                    unsigned base_degree = kBaseDegree, unsigned expansion_degree = kExpansionDegree);

  std::uint64_t nodes() const { return nodes_; }
  unsigned base_degree() const { return base_degree_; }
  unsigned expansion_degree() const { return expansion_degree_; }
  /// The DRG parents of node i (all < i, or 0 for nodes 0 and 1).
  std::vector<std::uint64_t> base_parents(std::uint64_t i) const;
  /// The expander parents of node i (indices into the previous layer).
  std::vector<std::uint64_t> expander_parents(std::uint64_t i) const;

 private:
  std::uint64_t feistel_permute(std::uint64_t a) const;
  std::uint64_t nodes_ = 0;
  bool legacy_ = false;
  unsigned base_degree_ = kBaseDegree, expansion_degree_ = kExpansionDegree;
  std::array<std::uint8_t, 28> drg_seed_{};
  std::array<std::uint64_t, 4> feistel_keys_{};
  unsigned half_bits_ = 0;
};

/// Label of node i of layer l (1-based) given the labels of layer l (for DRG parents, all < i)
/// and of layer l - 1 (for expander parents; empty for layer 1). `slots` parent labels are hashed:
/// slot k holds parent k mod (number of parents of this layer); Filecoin uses 37.
Bytes32 label(const ParentGraph& g, const Bytes32& replica_id, std::uint32_t layer, std::uint64_t i,
              const std::vector<Bytes32>& current, const std::vector<Bytes32>& previous, unsigned slots = kParentSlots);

/// The label of `node` in `layer` from its parent slots as a labeling proof carries them (37 for
/// Filecoin, parents repeated in order): SHA-256(replica_id, layer u32 BE, node u64 BE, zeros to 64
/// bytes, slots), truncated to Fr32.
Bytes32 label_from_slots(const Bytes32& replica_id, std::uint32_t layer, std::uint64_t node,
                         std::span<const Bytes32> slots);

/// All layers' labels (layers x nodes).
std::vector<std::vector<Bytes32>> label_layers(const ParentGraph& g, const Bytes32& replica_id, std::uint32_t layers,
                                               unsigned slots = kParentSlots);

/// SHA-256(prover_id || sector_id (u64 BE) || ticket || comm_d || porep_id), byte 31 & 0x3f.
Bytes32 replica_id(const Bytes32& prover_id, std::uint64_t sector_id, const Bytes32& ticket, const Bytes32& comm_d,
                   const Bytes32& porep_id);

/// Interactive PoRep challenges of partition k: node = (SHA-256(replica_id || seed || u32 LE(cpp k + i))
/// as a little-endian integer mod (nodes - 1)) + 1, for i < challenges_per_partition.
std::vector<std::uint64_t> challenges(const Bytes32& replica_id, const Bytes32& seed, std::uint64_t nodes,
                                      std::uint32_t partition, std::uint32_t challenges_per_partition);

/// Non-interactive PoRep (registered proofs 15-19): the same reduction of SHA-256("filecoin.io|PoRep|1|
/// NonInteractive|1" || replica_id || comm_r || u32 LE(cpp k + i)); no seed.
std::vector<std::uint64_t> ni_challenges(const Bytes32& replica_id, const Bytes32& comm_r, std::uint64_t nodes,
                                         std::uint32_t partition, std::uint32_t challenges_per_partition);

/// Synthetic PoRep (registered proofs 10-14). The sealer commits to a set of `count` synthetic
/// challenges, set[i] = (bytes 32i..32i+31 of a ChaCha20 keystream (RFC 8439, 96-bit nonce
/// "synth-porep\0", block counter from 0) under the key BLAKE2b-256 keyed with "filecoin.io|PoRep|1|
/// Synthetic|1|Generation" of replica_id || comm_r, as a little-endian integer mod (nodes - 1)) + 1;
/// the interactive seed then selects C2's challenges from the set, with replacement: challenge j =
/// set[u32 LE(bytes 4j..4j+3 of the keystream under the key keyed with "…|Selection" of replica_id
/// || seed) mod count], j = cpp k + i. `count` = min(nodes, 2^18).
class SyntheticChallenges {
 public:
  /// `count` 0: Filecoin's set size, min(nodes, 2^18) (rust-fil-proofs' test vector uses 21).
  static Result<SyntheticChallenges> create(const Bytes32& replica_id, const Bytes32& comm_r, std::uint64_t nodes,
                                            std::uint64_t count = 0);
  std::uint64_t count() const { return count_; }
  /// Element i of the synthetic set.
  std::uint64_t at(std::uint64_t i) const;
  /// The set indices the seed selects for partition k.
  Result<std::vector<std::uint64_t>> selected_indices(const Bytes32& seed, std::uint32_t partition,
                                                      std::uint32_t cpp) const;
  /// The challenges the seed selects for partition k (set[index] for each selected index).
  Result<std::vector<std::uint64_t>> select(const Bytes32& seed, std::uint32_t partition, std::uint32_t cpp) const;

 private:
  Bytes32 replica_id_{}, generation_key_{};
  std::uint64_t nodes_ = 0, count_ = 0;
};

}  // namespace zk::circuits::sdr
