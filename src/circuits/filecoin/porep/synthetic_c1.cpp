#include "circuits/filecoin/porep/synthetic_c1.hpp"

#include <map>
#include <set>
#include <unordered_map>

#include "base/rng.hpp"

namespace zk::circuits::filecoin {
namespace {

Bytes32 to_bytes(const Fr& x) { return gadgets::field_to_fr32(x); }

/// A deterministic pseudo-random Fr32 value per (salt, a, b).
Bytes32 filler_bytes(std::uint64_t salt, std::uint64_t a, std::uint64_t b) {
  Rng r(salt ^ (a * 0x9e3779b97f4a7c15ull) ^ (b * 0xc2b2ae3d27d4eb4full) ^ (b >> 29));
  Bytes32 out{};
  for (std::size_t i = 0; i < 32; i += 8) {
    const std::uint64_t w = r.next();
    for (std::size_t k = 0; k < 8; ++k) out[i + k] = static_cast<std::uint8_t>(w >> (8 * k));
  }
  out[31] &= 0x3f;
  return out;
}

/// A tree of `shape` in which only the nodes above set leaves are computed; every other node is
/// filler(level, index).
class SparseTree {
 public:
  SparseTree(gadgets::TreeShape shape, std::uint64_t salt)
      : shape_(std::move(shape)), salt_(salt), levels_(shape_.arities.size() + 1) {}
  void set_leaf(std::uint64_t i, const Fr& v) { levels_[0][i] = v; }
  Fr node(std::size_t level, std::uint64_t i) const {
    if (auto it = levels_[level].find(i); it != levels_[level].end()) return it->second;
    return gadgets::fr32_to_field(filler_bytes(salt_, level, i));
  }
  /// Computes every node above the set leaves; the root.
  Fr build() {
    for (std::size_t l = 0; l < shape_.arities.size(); ++l) {
      const unsigned a = shape_.arities[l];
      std::set<std::uint64_t> parents;
      for (const auto& [i, v] : levels_[l]) parents.insert(i / a);
      for (const std::uint64_t p : parents) {
        std::vector<Fr> children;
        for (unsigned k = 0; k < a; ++k) children.push_back(node(l, p * a + k));
        levels_[l + 1][p] = gadgets::tree_node_hash(shape_.hasher, children);
      }
    }
    return node(shape_.arities.size(), 0);
  }
  std::vector<gadgets::PathLevel> path(std::uint64_t i) const {
    std::vector<gadgets::PathLevel> out;
    for (std::size_t l = 0; l < shape_.arities.size(); ++l) {
      const unsigned a = shape_.arities[l];
      gadgets::PathLevel p;
      p.index = static_cast<unsigned>(i % a);
      for (unsigned k = 0; k < a; ++k) {
        if (k != p.index) p.siblings.push_back(node(l, i - p.index + k));
      }
      out.push_back(std::move(p));
      i /= a;
    }
    return out;
  }

 private:
  gadgets::TreeShape shape_;
  std::uint64_t salt_;
  std::vector<std::unordered_map<std::uint64_t, Fr>> levels_;
};

MerkleProof merkle_proof(const SparseTree& t, const SectorSize& size, bool column_tree, const Fr& root, const Fr& leaf,
                         std::uint64_t i, std::size_t levels) {
  MerkleProof p;
  const unsigned sub = column_tree && size.sub_arity != 0 ? 1 : 0, top = column_tree && size.top_arity != 0 ? 1 : 0;
  p.kind = top ? MerkleProof::Kind::kTop : sub ? MerkleProof::Kind::kSub : MerkleProof::Kind::kSingle;
  p.root = to_bytes(root);
  p.leaf = to_bytes(leaf);
  const auto path = t.path(i);
  for (std::size_t l = 0; l < path.size(); ++l) {
    PathElement e;
    e.index = path[l].index;
    for (const Fr& s : path[l].siblings) e.hashes.push_back(to_bytes(s));
    (l < levels - sub - top ? p.base : l < levels - top ? p.sub : p.top).push_back(std::move(e));
  }
  return p;
}

}  // namespace

Result<C1> synthetic_c1(const RegisteredSealProof& proof, const C1Context& ctx, std::uint64_t seed) {
  const StackedShape& s = ctx.shape;
  const SectorSize& size = proof.size;
  if (proof.challenges != PorepChallenges::kInteractive) {
    // Its comm_r comes from the challenged columns' paths, so challenges drawn from comm_r
    // (synthetic and non-interactive PoRep) would be circular.
    return Status::invalid_argument(proof.name + ": synthetic C1s are made for interactive PoRep only (V1, V1_1): "
                                    "synthetic and non-interactive PoRep draw their challenges from comm_r");
  }
  for (std::uint64_t attempt = 0; attempt < 16; ++attempt) {
    const std::uint64_t salt = seed * 0x100 + attempt;
    C1 c1;
    c1.registered_proof = proof;
    c1.replica_id = filler_bytes(salt, ~0ull, 1);
    c1.seed = filler_bytes(salt, ~0ull, 2);
    c1.ticket = filler_bytes(salt, ~0ull, 3);
    // Every challenge of every partition; its parents.
    std::vector<std::vector<std::uint64_t>> challenges;
    std::set<std::uint64_t> challenged, parents;
    std::map<std::uint64_t, std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>>> graph;
    for (std::size_t k = 0; k < size.partitions; ++k) {
      auto drawn = ctx.challenges(c1, k);
      if (!drawn.ok()) return drawn.status();
      challenges.push_back(std::move(*drawn));
      for (const auto c : challenges.back()) {
        challenged.insert(c);
        auto& g = graph[c];
        g.first = ctx.graph.base_parents(c);
        g.second = ctx.graph.expander_parents(c);
        parents.insert(g.first.begin(), g.first.end());
        parents.insert(g.second.begin(), g.second.end());
      }
    }
    // A challenged node that is another's parent would need its labels both computed and random:
    // draw another replica id (vanishingly rare at real sizes).
    bool clash = false;
    for (const auto c : challenged) clash = clash || parents.count(c) != 0;
    if (clash) continue;
    // Columns: parents' rows random, challenged rows the labels of their parents' rows.
    std::map<std::uint64_t, std::vector<Bytes32>> rows;
    for (const auto p : parents) {
      auto& r = rows[p];
      for (unsigned l = 0; l < s.layers; ++l) r.push_back(filler_bytes(salt + 1, p, l));
    }
    for (const auto c : challenged) {
      const auto& [drg, exp] = graph[c];
      auto& r = rows[c];
      for (std::uint32_t layer = 1; layer <= s.layers; ++layer) {
        std::vector<Bytes32> ps;
        for (auto p : drg) ps.push_back(rows[p][layer - 1]);
        if (layer > 1) {
          for (auto p : exp) ps.push_back(rows[p][layer - 2]);
        }
        std::vector<Bytes32> slots;
        for (unsigned k = 0; k < kLabelParents; ++k) slots.push_back(ps[k % ps.size()]);
        r.push_back(sdr::label_from_slots(c1.replica_id, layer, c, slots));
      }
    }
    // Trees.
    SparseTree tree_d(s.tree_d, salt + 2), tree_c(s.tree_c, salt + 3), tree_r(s.tree_c, salt + 4);
    std::map<std::uint64_t, Fr> column_hash;
    for (const auto& [node, r] : rows) {
      std::vector<Fr> v;
      for (const auto& b : r) v.push_back(gadgets::fr32_to_field(b));
      column_hash[node] = *gadgets::poseidon_hash(v);
      tree_c.set_leaf(node, column_hash[node]);
    }
    for (const auto c : challenged) {
      const Fr data = tree_d.node(0, c);
      tree_d.set_leaf(c, data);
      tree_r.set_leaf(c, gadgets::fr32_to_field(rows[c].back()) + data);
    }
    const Fr comm_d = tree_d.build(), comm_c = tree_c.build(), comm_r_last = tree_r.build();
    c1.comm_d = to_bytes(comm_d);
    c1.comm_r = to_bytes(*gadgets::poseidon_hash(std::vector<Fr>{comm_c, comm_r_last}));
    const std::size_t column_levels = s.tree_c.arities.size();
    auto column_proof = [&](std::uint64_t node) {
      ColumnProof col;
      col.index = static_cast<std::uint32_t>(node);
      col.rows = rows[node];
      col.inclusion_proof = merkle_proof(tree_c, size, true, comm_c, column_hash[node], node, column_levels);
      return col;
    };
    for (std::size_t k = 0; k < size.partitions; ++k) {
      std::vector<VanillaProof> partition;
      for (const auto c : challenges[k]) {
        const auto& [drg, exp] = graph[c];
        VanillaProof v;
        v.comm_d_proofs = merkle_proof(tree_d, size, false, comm_d, tree_d.node(0, c), c, s.tree_d.arities.size());
        v.comm_r_last_proof = merkle_proof(tree_r, size, true, comm_r_last, tree_r.node(0, c), c, column_levels);
        v.c_x = column_proof(c);
        for (auto p : drg) v.drg_parents.push_back(column_proof(p));
        for (auto p : exp) v.exp_parents.push_back(column_proof(p));
        for (std::uint32_t layer = 1; layer <= s.layers; ++layer) {
          std::vector<Bytes32> ps;
          for (auto p : drg) ps.push_back(rows[p][layer - 1]);
          if (layer > 1) {
            for (auto p : exp) ps.push_back(rows[p][layer - 2]);
          }
          LabelingProof lp;
          for (unsigned q = 0; q < kLabelParents; ++q) lp.parents.push_back(ps[q % ps.size()]);
          lp.layer_index = layer;
          lp.node = c;
          v.labeling_proofs.push_back(std::move(lp));
        }
        v.encoding_proof = v.labeling_proofs.back();
        partition.push_back(std::move(v));
      }
      c1.vanilla_proofs.push_back(std::move(partition));
    }
    return c1;
  }
  return Status::internal("synthetic C1: every attempt had a challenged node among the parents");
}

}  // namespace zk::circuits::filecoin
