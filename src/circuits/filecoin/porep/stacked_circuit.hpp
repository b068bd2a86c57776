#pragma once

// Filecoin's PoRep circuit (rust-fil-proofs StackedCircuit, storage-proofs-porep stacked/circuit),
// constraint for constraint (docs/filecoin-porep.md): one partition proves `challenges` nodes of a
// sealed sector. Per circuit: replica_id, comm_d and comm_r as public inputs, replica_id's bits,
// comm_r = Poseidon-2(comm_c, comm_r_last). Per challenge: the data leaf's SHA-256 path to comm_d;
// the 6 DRG and 8 expander parents' columns, each hashed and opened in tree C; the challenge's 64
// bits as an input; the labels of every layer from the parents' bits (create_label_circuit); the
// encoding; the replica leaf's path in tree R; the challenged column's hash and its path in tree C.
// Public inputs: [replica_id, comm_d, comm_r] then per challenge [c, drg 1..6, exp 1..8, c, c, c].
//
// The same synthesize() serves counting, key generation and proving: a blank witness
// (StackedWitness::blank) has the exact shape.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/num.hpp"
#include "gadgets/por.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/sha256.hpp"

namespace zk::circuits::filecoin {

using Fr = gadgets::Fr;
using gadgets::Bit;
using gadgets::Num;

inline constexpr unsigned kDrgParents = 6;
inline constexpr unsigned kExpParents = 8;
inline constexpr unsigned kLabelParents = 37;

/// The circuit's dimensions (sectors.hpp maps registered proofs and sector sizes to these).
struct StackedShape {
  std::uint64_t nodes = 0;      // sector bytes / 32
  unsigned layers = 0;          // 11 in production, 2 for the small test sizes
  unsigned challenges = 0;      // per partition
  gadgets::TreeShape tree_c;    // Poseidon; tree R-last has the same shape
  gadgets::TreeShape tree_d;    // SHA-256, binary, log2(nodes) levels
  std::size_t num_inputs() const { return 1 + 3 + 18 * std::size_t{challenges}; }  // ONE included
};

/// A column of tree C: the node's label in every layer, and its path.
struct ColumnWitness {
  std::vector<Fr> rows;  // layers values, layer 1 first
  std::vector<gadgets::PathLevel> path;
};

struct ChallengeWitness {
  std::uint64_t node = 0;
  Fr data_leaf;
  std::vector<gadgets::PathLevel> comm_d_path;
  std::array<ColumnWitness, kDrgParents> drg;
  std::array<ColumnWitness, kExpParents> exp;
  std::vector<gadgets::PathLevel> comm_r_last_path;
  std::vector<gadgets::PathLevel> comm_c_path;  // of the challenged node's own column
};

struct StackedWitness {
  Fr replica_id, comm_d, comm_r, comm_r_last, comm_c;
  std::vector<ChallengeWitness> challenges;
  /// Zeros of the right shape: for counting and key generation.
  static StackedWitness blank(const StackedShape& s);
};

/// create_label_circuit: SHA-256 over replica_id's 256 bits, the layer as a big-endian u32
/// (constant), the node's 64 bits big-endian, zeros to 512 bits, then 37 parents of 256 bits; the
/// digest's bytes reversed, its first 254 bits packed into a new variable (the label).
template <class CS>
Num<Fr> create_label_circuit(CS& cs, std::span<const Bit<Fr>> replica_id_bits, std::span<const Bit<Fr>> parents,
                             std::uint32_t layer, std::span<const Bit<Fr>> node_bits_le) {
  std::vector<Bit<Fr>> msg(replica_id_bits.begin(), replica_id_bits.end());
  for (int i = 31; i >= 0; --i) msg.push_back(Bit<Fr>::of_constant(((layer >> i) & 1) != 0));
  for (std::size_t i = node_bits_le.size(); i-- > 0;) msg.push_back(node_bits_le[i]);
  while (msg.size() < 512) msg.push_back(Bit<Fr>::of_constant(false));
  msg.insert(msg.end(), parents.begin(), parents.end());
  while (msg.size() % 256 != 0) msg.push_back(Bit<Fr>::of_constant(false));
  auto digest = gadgets::sha256_bits<Fr>(cs, std::span<const Bit<Fr>>(msg));
  digest = gadgets::reverse_bit_numbering<Fr>(std::move(digest));
  return gadgets::pack_bits<Fr>(cs, std::span<const Bit<Fr>>(digest).first(gadgets::kFieldCapacity));
}

namespace detail {
template <class CS>
Num<Fr> alloc(CS& cs, const char* what, const Fr& v) {
  return Num<Fr>::alloc(cs, [what] { return std::string(what); }, v);
}
/// bits(x) then reverse_bit_numbering: x's 32 little-endian bytes, each most significant bit first.
template <class CS>
std::vector<Bit<Fr>> byte_bits(CS& cs, const Num<Fr>& x) {
  return gadgets::reverse_bit_numbering<Fr>(gadgets::to_bits_le<Fr>(cs, x));
}
/// A column's Poseidon hash (arity = layers).
template <class CS>
Result<Num<Fr>> hash_column(CS& cs, std::span<const Num<Fr>> rows) {
  return gadgets::poseidon_gadget(cs, rows);
}
}  // namespace detail

template <class CS>
Status synthesize_stacked(CS& cs, const StackedShape& s, const StackedWitness& w) {
  using detail::alloc;
  if (w.challenges.size() != s.challenges) {
    return Status::invalid_argument("the witness has " + std::to_string(w.challenges.size()) + " challenges, the circuit " +
                                    std::to_string(s.challenges));
  }
  // Once per circuit.
  const Num<Fr> replica_id = alloc(cs, "replica_id", w.replica_id);
  (void)gadgets::inputize<Fr>(cs, replica_id);
  const auto replica_id_bits = detail::byte_bits(cs, replica_id);
  const Num<Fr> comm_d = alloc(cs, "comm_d", w.comm_d);
  (void)gadgets::inputize<Fr>(cs, comm_d);
  const Num<Fr> comm_r = alloc(cs, "comm_r", w.comm_r);
  (void)gadgets::inputize<Fr>(cs, comm_r);
  const Num<Fr> comm_r_last = alloc(cs, "comm_r_last", w.comm_r_last);
  const Num<Fr> comm_c = alloc(cs, "comm_c", w.comm_c);
  {
    const Num<Fr> pre[] = {comm_c, comm_r_last};
    auto h = gadgets::poseidon_gadget(cs, std::span<const Num<Fr>>(pre));
    if (!h.ok()) return h.status();
    gadgets::enforce_equal(cs, comm_r, *h);
  }
  for (std::size_t ci = 0; ci < s.challenges; ++ci) {
    const ChallengeWitness& c = w.challenges[ci];
    r1cs::Namespace ns(cs, [ci] { return "challenge_" + std::to_string(ci); });
    const Num<Fr> data_leaf = alloc(cs, "data_leaf", c.data_leaf);
    if (Status st = gadgets::enforce_inclusion(cs, s.tree_d, c.comm_d_path, comm_d, data_leaf); !st.ok()) return st;
    // The parents' columns: allocated, hashed and opened one parent at a time.
    std::vector<std::vector<Num<Fr>>> columns;
    auto parent_column = [&](const ColumnWitness& col) -> Status {
      if (col.rows.size() != s.layers) return Status::invalid_argument("a parent column needs one value per layer");
      std::vector<Num<Fr>> rows;
      for (const Fr& v : col.rows) rows.push_back(alloc(cs, "column_num_row", v));
      auto h = detail::hash_column(cs, std::span<const Num<Fr>>(rows));
      if (!h.ok()) return h.status();
      if (Status st = gadgets::enforce_inclusion(cs, s.tree_c, col.path, comm_c, *h); !st.ok()) return st;
      columns.push_back(std::move(rows));
      return {};
    };
    for (const auto& col : c.drg) {
      if (Status st = parent_column(col); !st.ok()) return st;
    }
    for (const auto& col : c.exp) {
      if (Status st = parent_column(col); !st.ok()) return st;
    }
    // The challenge as 64 bits and an input.
    std::vector<Bit<Fr>> node_bits;
    for (unsigned i = 0; i < 64; ++i) node_bits.push_back(Bit<Fr>::alloc(cs, ((c.node >> i) & 1) != 0));
    (void)gadgets::pack_into_inputs<Fr>(cs, std::span<const Bit<Fr>>(node_bits));
    // Labels, layer by layer, from the parents' bits (each distinct parent decomposed once).
    std::vector<Num<Fr>> labels;
    for (unsigned layer = 1; layer <= s.layers; ++layer) {
      std::vector<std::vector<Bit<Fr>>> p;
      for (unsigned j = 0; j < kDrgParents; ++j) p.push_back(detail::byte_bits(cs, columns[j][layer - 1]));
      if (layer > 1) {
        for (unsigned j = 0; j < kExpParents; ++j) p.push_back(detail::byte_bits(cs, columns[kDrgParents + j][layer - 2]));
      }
      std::vector<Bit<Fr>> parents;
      parents.reserve(256 * kLabelParents);
      for (unsigned k = 0; k < kLabelParents; ++k) {
        const auto& bits = p[k % p.size()];
        parents.insert(parents.end(), bits.begin(), bits.end());
      }
      labels.push_back(create_label_circuit(cs, std::span<const Bit<Fr>>(replica_id_bits),
                                            std::span<const Bit<Fr>>(parents), layer,
                                            std::span<const Bit<Fr>>(node_bits)));
    }
    // The encoding: replica leaf = last label + data (constraint::add).
    const Fr encoded_value = labels.back().value + data_leaf.value;
    const Num<Fr> encoded = alloc(cs, "add_num", encoded_value);
    cs.enforce([] { return std::string("sum constraint"); }, labels.back().lc + data_leaf.lc,
               r1cs::LinearCombination<Fr>(r1cs::Variable::one()), encoded.lc);
    if (Status st = gadgets::enforce_inclusion(cs, s.tree_c, c.comm_r_last_path, comm_r_last, encoded); !st.ok()) {
      return st;
    }
    auto column_hash = detail::hash_column(cs, std::span<const Num<Fr>>(labels));
    if (!column_hash.ok()) return column_hash.status();
    if (Status st = gadgets::enforce_inclusion(cs, s.tree_c, c.comm_c_path, comm_c, *column_hash); !st.ok()) return st;
  }
  return {};
}

}  // namespace zk::circuits::filecoin
