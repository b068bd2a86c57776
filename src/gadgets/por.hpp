#pragma once

// Filecoin's Merkle trees and their inclusion proofs, exactly as rust-fil-proofs builds them
// (storage-proofs-core gadgets/por.rs, filecoin-hashers; docs/filecoin-gadgets.md):
//  - a node is the hash of its children in order: SHA-256 of their 32-byte little-endian forms
//    truncated to 254 bits (tree D), or neptune Poseidon of the level's arity (trees C and R);
//  - a tree is base levels of one arity, then at most one sub level and one top level;
//  - per level the circuit allocates the index bits (least significant first), then the siblings,
//    inserts the current node among them (insertion.hpp) and hashes; then all index bits go into
//    ONE public input (the leaf's index) and the computed root must equal the given root.
// `TreeShape` and `FilecoinTree` are the native twins used by tests and the sealer.

#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "gadgets/insertion.hpp"
#include "gadgets/merkle.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/sha256.hpp"

namespace zk::gadgets {

enum class TreeHasher { kSha256, kPoseidon };

/// Arities per level, leaf level first (e.g. 32 GiB tree C: nine 8s then one 8 (the sub tree)).
struct TreeShape {
  TreeHasher hasher = TreeHasher::kPoseidon;
  std::vector<unsigned> arities;
  std::size_t leaves() const {
    std::size_t n = 1;
    for (unsigned a : arities) n *= a;
    return n;
  }
};

/// A Filecoin tree's node: the hash of its children in order (native).
Fr tree_node_hash(TreeHasher hasher, std::span<const Fr> children);

/// The children's hash in R1CS (filecoin-hashers hash_multi_leaf_circuit). SHA-256: each child to
/// 255 bits (+ a constant zero), bytes in message order, SHA-256, the first 254 digest bits packed
/// into one new variable. Poseidon: neptune's gadget of the children's arity.
template <class CS>
Result<Num<Fr>> tree_node_gadget(CS& cs, TreeHasher hasher, std::span<const Num<Fr>> children) {
  if (hasher == TreeHasher::kPoseidon) return poseidon_gadget(cs, children);
  std::vector<Bit<Fr>> msg;
  msg.reserve(256 * children.size());
  for (const auto& c : children) {
    auto bits = to_bits_le<Fr>(cs, c);
    bits = reverse_bit_numbering<Fr>(std::move(bits));  // 256: the constant zero lands in bit 248
    msg.insert(msg.end(), bits.begin(), bits.end());
  }
  auto digest = sha256_bits<Fr>(cs, std::span<const Bit<Fr>>(msg));
  digest = reverse_bit_numbering<Fr>(std::move(digest));
  return pack_bits<Fr>(cs, std::span<const Bit<Fr>>(digest).first(kFieldCapacity));
}

/// One level of an inclusion path: the arity - 1 siblings (the node's own slot removed) and the
/// node's position among its siblings.
struct PathLevel {
  std::vector<Fr> siblings;
  unsigned index = 0;
};

/// A complete native tree, every level kept.
class FilecoinTree {
 public:
  static Result<FilecoinTree> build(TreeShape shape, std::vector<Fr> leaves);
  const Fr& root() const { return levels_.back()[0]; }
  const TreeShape& shape() const { return shape_; }
  std::vector<PathLevel> path(std::size_t leaf) const;

 private:
  TreeShape shape_;
  std::vector<std::vector<Fr>> levels_;
};

/// A blank path of `shape` (parameter generation and counting: every sibling 0, index 0).
std::vector<PathLevel> blank_path(const TreeShape& shape);

/// The root computed from `leaf` up `path` (index bits, siblings, insert, hash per level); the
/// index bits, least significant first and leaf level first, are appended to `index_bits`.
template <class CS>
Result<Num<Fr>> por_root(CS& cs, const TreeShape& shape, const Num<Fr>& leaf, std::span<const PathLevel> path,
                         std::vector<Bit<Fr>>& index_bits) {
  if (path.size() != shape.arities.size()) {
    return Status::invalid_argument("a path of " + std::to_string(path.size()) + " levels for a tree of " +
                                    std::to_string(shape.arities.size()));
  }
  Num<Fr> cur = leaf;
  for (std::size_t l = 0; l < path.size(); ++l) {
    const unsigned arity = shape.arities[l];
    unsigned nb = 0;
    while ((1u << nb) < arity) ++nb;
    if ((1u << nb) != arity || path[l].siblings.size() + 1 != arity || path[l].index >= arity) {
      return Status::invalid_argument("path level " + std::to_string(l) + " does not fit arity " +
                                      std::to_string(arity));
    }
    std::vector<Bit<Fr>> bits;
    for (unsigned t = 0; t < nb; ++t) bits.push_back(Bit<Fr>::alloc(cs, ((path[l].index >> t) & 1) != 0));
    std::vector<Num<Fr>> sib;
    for (const Fr& s : path[l].siblings) sib.push_back(Num<Fr>::alloc(cs, [] { return std::string("path element"); }, s));
    auto children = insert<Fr>(cs, cur, std::span<const Bit<Fr>>(bits), std::span<const Num<Fr>>(sib));
    if (!children.ok()) return children.status();
    auto h = tree_node_gadget(cs, shape.hasher, std::span<const Num<Fr>>(*children));
    if (!h.ok()) return h.status();
    cur = *h;
    index_bits.insert(index_bits.end(), bits.begin(), bits.end());
  }
  return cur;
}

/// equal(a, b): a * ONE = b.
template <class CS>
void enforce_equal(CS& cs, const Num<Fr>& a, const Num<Fr>& b) {
  cs.enforce([] { return std::string("equality"); }, a.lc, r1cs::LinearCombination<Fr>(r1cs::Variable::one()), b.lc);
}

/// PoRep's enforce_inclusion (PoRCircuit with a private root, leaf and root already allocated):
/// the path, ONE public input (the leaf's index), then computed root = root.
template <class CS>
Status enforce_inclusion(CS& cs, const TreeShape& shape, std::span<const PathLevel> path, const Num<Fr>& root,
                         const Num<Fr>& leaf) {
  std::vector<Bit<Fr>> bits;
  auto computed = por_root(cs, shape, leaf, path, bits);
  if (!computed.ok()) return computed.status();
  (void)pack_into_inputs<Fr>(cs, std::span<const Bit<Fr>>(bits));
  enforce_equal(cs, *computed, root);
  return {};
}

/// The stand-alone PoR circuit (storage-proofs-core PoRCircuit with values): the leaf allocated,
/// the path, the index input, the root allocated, equality, and the root as a public input unless
/// private. Public inputs: [index, root].
template <class CS>
Status por_circuit(CS& cs, const TreeShape& shape, const Fr& leaf_value, std::span<const PathLevel> path,
                   const Fr& root_value, bool private_root) {
  const Num<Fr> leaf = Num<Fr>::alloc(cs, [] { return std::string("value"); }, leaf_value);
  std::vector<Bit<Fr>> bits;
  auto computed = por_root(cs, shape, leaf, path, bits);
  if (!computed.ok()) return computed.status();
  (void)pack_into_inputs<Fr>(cs, std::span<const Bit<Fr>>(bits));
  const Num<Fr> root = Num<Fr>::alloc(cs, [] { return std::string("root_value"); }, root_value);
  enforce_equal(cs, *computed, root);
  if (!private_root) (void)inputize<Fr>(cs, root);
  return {};
}

}  // namespace zk::gadgets
