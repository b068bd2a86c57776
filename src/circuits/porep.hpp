#pragma once

// The `porep` circuit family: a partition of a StackedDRG (SDR) proof of replication, shaped like
// Filecoin's commit-phase-2 circuit (docs/porep.md has the layout, the presets and every place
// where zkpipe differs from Filecoin). Over BLS12-381 Fr.
//
// A sector of N nodes is labelled in L layers over the SDR parent graph; comm_d is a binary tree
// over the data, comm_c an arity-8 Poseidon tree over the column hashes Poseidon-L(labels of node
// i), comm_r_last an arity-8 Poseidon tree over the replica (data + last label), and
// comm_r = Poseidon-2(comm_c, comm_r_last). For each challenged node a partition proves: the data
// is in comm_d; the columns of the node and of all its parents open in comm_c; each label of the
// node is the hash of its parents' labels; the replica node (data + last label) is in comm_r_last;
// and comm_r is the hash of the two private roots.
//
// Public inputs (in this order): replica_id, comm_d, comm_r, then per challenge the challenged node
// index followed by its base and expander parents' indices. The verifier derives the indices from
// the interactive seed and the parent graph, so a proof about any other node does not verify.

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.hpp"
#include "circuits/sdr.hpp"
#include "gadgets/merkle.hpp"
#include "gadgets/num.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/sha256.hpp"

namespace zk::circuits::porep {

using Fr = gadgets::Fr;
using sdr::Bytes32;

/// The hash used for labels and for comm_d (columns and comm_c/comm_r_last are always Poseidon).
enum class Hash { kSha256, kPoseidon };

struct Shape {
  std::string name = "custom";
  std::uint64_t nodes = 64;      // a power of 8, at least 8
  std::uint32_t layers = 2;      // the column hash's arity: 2, 4, 8 or 11
  unsigned base_degree = 6;      // DRG parents in the same layer (>= 2)
  unsigned expansion_degree = 8; // expander parents in the previous layer (>= 1)
  unsigned parent_slots = 37;    // parent labels hashed per label (slot k: parent k mod count)
  std::uint32_t challenges = 1;  // per partition
  std::uint32_t partitions = 1;
  Hash hash = Hash::kSha256;
  std::uint64_t registered_proof = 8;  // the porep id; below 5 selects the legacy V1_0 graph

  /// Every combination the circuit supports, with a message naming the bad field.
  Status validate() const;
  unsigned node_bits() const;  // log2(nodes)
  unsigned octal_depth() const { return node_bits() / 3; }
  unsigned parents() const { return base_degree + expansion_degree; }
  /// Public inputs of a partition, without ONE.
  std::size_t num_public_inputs() const { return 3 + std::size_t{challenges} * (1 + parents()); }
  Bytes32 porep_id() const { return sdr::porep_id(registered_proof); }
  Result<sdr::ParentGraph> graph() const;
  bool operator==(const Shape&) const = default;
};

std::string_view hash_name(Hash h);

/// tiny, small, bench, 32g (docs/porep.md).
Result<Shape> preset(std::string_view name);
std::vector<std::string> preset_names();

// ---- Native replication ---------------------------------------------------------------------

/// Label of `node` in `layer` (1-based) from its parents' labels: the base parents' labels of this
/// layer, then (layer > 1) the expander parents' labels of the previous layer. SHA-256: Filecoin's
/// preimage (docs/porep-spec.md section 1) truncated to Fr32; Poseidon: Poseidon-(2 + slots) of
/// (replica_id, layer 2^64 + node, slots). Node 0 hashes no parents (SHA-256) or zero slots (Poseidon).
Fr label(const Shape& s, const Fr& replica_id, std::uint32_t layer, std::uint64_t node,
         std::span<const Fr> parent_labels);

/// Hash of two children in the comm_d tree.
Fr tree_d_node(const Shape& s, const Fr& left, const Fr& right);

struct SealIds {
  Bytes32 prover_id{}, ticket{};
  std::uint64_t sector_id = 0;
};

/// A sealed sector with every tree level kept (levels[0] = leaves), in memory: proportional to the
/// sector (L + 3 times N field elements).
struct Sector {
  Shape shape;
  std::vector<Fr> data;
  std::vector<std::vector<Fr>> labels;  // layers x nodes
  std::vector<std::vector<Fr>> tree_d, tree_c, tree_r;
  Fr replica_id, comm_d, comm_c, comm_r_last, comm_r;
};

/// Progress: (stage, done, total).
using Progress = std::function<void(std::string_view, std::uint64_t, std::uint64_t)>;

/// Seals `data` (N Fr32 values for SHA-256 shapes, any field elements for Poseidon shapes).
Result<Sector> seal(const Shape& s, std::vector<Fr> data, const SealIds& ids, const Progress& progress = {});

/// Rebuilds tree_c, tree_r and comm_c, comm_r_last, comm_r from the data and labels (tree_d and
/// replica_id stay): seal() ends with it, tests use it to build consistent forgeries.
void commit(Sector& sector);

/// A random sector: data, prover id, ticket and sector id from a seeded generator.
Result<Sector> random_sector(const Shape& s, std::uint64_t seed, const Progress& progress = {});

// ---- Partition inputs ------------------------------------------------------------------------

struct ColumnOpening {
  std::uint64_t node = 0;
  std::vector<Fr> labels;                                      // layers
  std::vector<std::array<Fr, 7>> path;                         // octal siblings, leaf level first
};

struct ChallengeProof {
  std::uint64_t node = 0;
  Fr data;
  std::vector<Fr> data_path;                    // binary siblings, leaf level first
  std::vector<std::array<Fr, 7>> replica_path;  // octal siblings, leaf level first
  std::vector<ColumnOpening> columns;           // the node, its base parents, its expander parents
};

/// What the prover of one partition needs besides the public inputs (a "vanilla proof").
struct PartitionWitness {
  std::uint32_t partition = 0;
  Fr comm_c, comm_r_last;
  std::vector<ChallengeProof> challenges;
};

struct PublicInputs {
  Fr replica_id, comm_d, comm_r;
  std::vector<std::uint64_t> nodes;  // per challenge: the node, its base parents, its expander parents
  std::vector<Fr> to_field() const;
};

/// The public inputs a verifier derives for partition k from the commitments and the seed.
Result<PublicInputs> derive_public_inputs(const Shape& s, const sdr::ParentGraph& g, const Fr& replica_id,
                                          const Fr& comm_d, const Fr& comm_r, const Bytes32& seed,
                                          std::uint32_t partition);

/// Opens partition k of a sealed sector.
Result<PartitionWitness> open_partition(const Sector& sector, const sdr::ParentGraph& g, const Bytes32& seed,
                                        std::uint32_t partition);

/// Zero values of the right sizes: for setup and constraint counting.
PartitionWitness blank_witness(const Shape& s);
PublicInputs blank_public_inputs(const Shape& s);

/// Sizes only: every vector as long as the shape says (`where` prefixes the field names).
Status check_sizes(const Shape& s, const PublicInputs& pub, const PartitionWitness& w);

/// Checks a witness natively against the public inputs: every path, column hash, label and the
/// encoding. The message names the first wrong field ("challenges[0].columns[3].labels[1]: ...").
Status check_witness(const Shape& s, const PublicInputs& pub, const PartitionWitness& w);

// ---- The circuit -----------------------------------------------------------------------------

template <class CS>
Status synthesize(CS& cs, const Shape& s, const PublicInputs& pub, const PartitionWitness& w);

/// A circuit object for the engine and the CLI: the shape, public inputs and witness it proves.
class Circuit {
 public:
  Circuit(const Shape& s, const PublicInputs& pub, const PartitionWitness& w) : s_(&s), pub_(&pub), w_(&w) {}
  template <class CS>
  Status synthesize(CS& cs) const {
    return porep::synthesize(cs, *s_, *pub_, *w_);
  }

 private:
  const Shape* s_;
  const PublicInputs* pub_;
  const PartitionWitness* w_;
};

}  // namespace zk::circuits::porep

#include "circuits/porep_circuit.hpp"
