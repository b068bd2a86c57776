#include "circuits/filecoin/porep/vanilla.hpp"

namespace zk::circuits::filecoin {

namespace {
/// A Poseidon output or a replica node: any field element, read canonically.
Fr general_field(const Bytes32& b) { return *Fr::from_bytes(b, field::Endian::kLittle); }
Bytes32 to_bytes(const Fr& x) { return gadgets::field_to_fr32(x); }

/// A domain as a field element: canonical little-endian (Filecoin panics on anything else).
Result<Fr> domain(const Bytes32& b, const std::string& where) {
  auto v = Fr::from_bytes(b, field::Endian::kLittle);
  if (!v.ok()) return Status::invalid_argument(where + ": not a canonical field element");
  return *v;
}

/// The levels of `shape` in MerkleProof form (Single, or Sub / Top for trees with those levels).
MerkleProof make_merkle_proof(const gadgets::TreeShape& shape, unsigned sub_levels, unsigned top_levels,
                              const Fr& root, const Fr& leaf, const std::vector<gadgets::PathLevel>& path) {
  MerkleProof p;
  p.kind = top_levels > 0 ? MerkleProof::Kind::kTop : sub_levels > 0 ? MerkleProof::Kind::kSub : MerkleProof::Kind::kSingle;
  p.root = to_bytes(root);
  p.leaf = to_bytes(leaf);
  const std::size_t base_levels = shape.arities.size() - sub_levels - top_levels;
  for (std::size_t l = 0; l < path.size(); ++l) {
    PathElement e;
    e.index = path[l].index;
    for (const Fr& s : path[l].siblings) e.hashes.push_back(to_bytes(s));
    (l < base_levels ? p.base : l < base_levels + sub_levels ? p.sub : p.top).push_back(std::move(e));
  }
  return p;
}

/// Sub and top levels of tree C / R-last for a shape (the arities after the base 8s).
struct TreeSplit {
  unsigned sub = 0, top = 0;
};
TreeSplit split_of(const SectorSize& size) {
  return {size.sub_arity != 0 ? 1u : 0u, size.top_arity != 0 ? 1u : 0u};
}

Result<SectorSize> size_of(const StackedShape& s) {
  for (const auto& z : sector_sizes()) {
    if (z.bytes / 32 == s.nodes) return z;
  }
  return Status::invalid_argument("no Filecoin sector size has " + std::to_string(s.nodes) + " nodes");
}

}  // namespace

Result<OpenedProof> open_merkle_proof(const gadgets::TreeShape& shape, MerkleProof::Kind kind, const MerkleProof& proof,
                          const std::string& where) {
  static const char* kKinds[] = {"Single", "Sub", "Top"};
  if (proof.kind != kind) {
    return Status::invalid_argument(where + ": a " + kKinds[static_cast<int>(proof.kind)] + " proof where this tree has " +
                                    kKinds[static_cast<int>(kind)]);
  }
  const auto levels = proof.levels();
  if (levels.size() != shape.arities.size()) {
    return Status::invalid_argument(where + ": " + std::to_string(levels.size()) + " path levels, the tree has " +
                                    std::to_string(shape.arities.size()));
  }
  if ((kind == MerkleProof::Kind::kSub && proof.sub.size() != 1) ||
      (kind == MerkleProof::Kind::kTop && (proof.sub.size() != 1 || proof.top.size() != 1))) {
    return Status::invalid_argument(where + ": the sub / top proofs must have one level each");
  }
  OpenedProof o;
  auto leaf = domain(proof.leaf, where + ".leaf");
  if (!leaf.ok()) return leaf.status();
  auto root = domain(proof.root, where + ".root");
  if (!root.ok()) return root.status();
  o.leaf = *leaf, o.root = *root;
  Fr cur = o.leaf;
  std::uint64_t weight = 1;
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const unsigned a = shape.arities[l];
    const auto& e = levels[l];
    const std::string lw = where + " level " + std::to_string(l);
    if (e.hashes.size() + 1 != a) {
      return Status::invalid_argument(lw + ": " + std::to_string(e.hashes.size()) + " hashes for arity " + std::to_string(a));
    }
    if (e.index >= a) return Status::invalid_argument(lw + ": index " + std::to_string(e.index) + " >= arity");
    gadgets::PathLevel pl;
    pl.index = static_cast<unsigned>(e.index);
    std::vector<Fr> children;
    for (std::size_t k = 0; k < e.hashes.size(); ++k) {
      auto h = domain(e.hashes[k], lw + " hash " + std::to_string(k));
      if (!h.ok()) return h.status();
      pl.siblings.push_back(*h);
    }
    children = pl.siblings;
    children.insert(children.begin() + static_cast<std::ptrdiff_t>(e.index), cur);
    cur = gadgets::tree_node_hash(shape.hasher, children);
    o.index += e.index * weight;
    weight *= a;
    o.path.push_back(std::move(pl));
  }
  if (cur != o.root) return Status::invalid_argument(where + ": the path does not lead to its root");
  return o;
}

MerkleProof::Kind column_proof_kind(const SectorSize& size) {
  return size.top_arity != 0 ? MerkleProof::Kind::kTop : size.sub_arity != 0 ? MerkleProof::Kind::kSub
                                                                               : MerkleProof::Kind::kSingle;
}

namespace {

/// The 37 parent slots of a labeling proof of `layer` (1-based) as Filecoin fills them: the base
/// parents' labels in that layer, then (from layer 2) the expander parents' in the layer below,
/// repeated in order.
std::vector<Bytes32> label_slots(const std::vector<std::vector<Bytes32>>& labels, const std::vector<std::uint64_t>& drg,
                                 const std::vector<std::uint64_t>& exp, std::uint32_t layer) {
  std::vector<Bytes32> parents;
  for (auto p : drg) parents.push_back(labels[layer - 1][p]);
  if (layer > 1) {
    for (auto p : exp) parents.push_back(labels[layer - 2][p]);
  }
  std::vector<Bytes32> slots;
  for (unsigned k = 0; k < kLabelParents; ++k) slots.push_back(parents[k % parents.size()]);
  return slots;
}
}  // namespace

std::vector<PathElement> MerkleProof::levels() const {
  std::vector<PathElement> out = base;
  out.insert(out.end(), sub.begin(), sub.end());
  out.insert(out.end(), top.begin(), top.end());
  return out;
}

Result<std::vector<Fr>> porep_public_inputs(const StackedShape& shape, const sdr::ParentGraph& graph,
                                            const PorepPublic& pub, std::span<const std::uint64_t> challenges) {
  if ((pub.replica_id[31] & 0xc0) != 0) return Status::invalid_argument("replica_id is not an Fr32 value");
  if ((pub.comm_d[31] & 0xc0) != 0) return Status::invalid_argument("comm_d is not an Fr32 value (top bits set)");
  auto comm_r = Fr::from_bytes(pub.comm_r, field::Endian::kLittle);
  if (!comm_r.ok()) return Status::invalid_argument("comm_r is not a canonical field element");
  if (challenges.size() != shape.challenges) return Status::invalid_argument("wrong number of challenges");
  std::vector<Fr> out = {gadgets::fr32_to_field(pub.replica_id), gadgets::fr32_to_field(pub.comm_d), *comm_r};
  for (const std::uint64_t c : challenges) {
    if (c >= shape.nodes) return Status::invalid_argument("challenge " + std::to_string(c) + " is not a node");
    out.push_back(Fr::from_u64(c));
    for (const auto p : graph.base_parents(c)) out.push_back(Fr::from_u64(p));
    for (const auto p : graph.expander_parents(c)) out.push_back(Fr::from_u64(p));
    for (int k = 0; k < 3; ++k) out.push_back(Fr::from_u64(c));
  }
  return out;
}

Result<SealedSector> seal_in_memory(const StackedShape& shape, const sdr::ParentGraph& graph,
                                    std::vector<Bytes32> data, const SealInputs& in) {
  if (data.size() != graph.nodes() || graph.nodes() != shape.nodes) {
    return Status::invalid_argument("seal: " + std::to_string(data.size()) + " data nodes for a graph of " +
                                    std::to_string(graph.nodes()) + " and a sector of " + std::to_string(shape.nodes));
  }
  std::vector<Fr> d(data.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    if ((data[i][31] & 0xc0) != 0) return Status::invalid_argument("seal: data node " + std::to_string(i) + " is not Fr32");
    d[i] = gadgets::fr32_to_field(data[i]);
  }
  auto tree_d = gadgets::FilecoinTree::build(shape.tree_d, std::move(d));
  if (!tree_d.ok()) return tree_d.status();
  Replica r;
  r.comm_d = gadgets::field_to_fr32(tree_d->root());
  r.replica_id = sdr::replica_id(in.prover_id, in.sector_id, in.ticket, r.comm_d, in.porep_id);
  r.labels = sdr::label_layers(graph, r.replica_id, shape.layers);
  std::vector<Fr> columns(data.size()), replica(data.size());
  std::vector<Fr> column(shape.layers);
  r.replica.resize(data.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    for (unsigned l = 0; l < shape.layers; ++l) column[l] = gadgets::fr32_to_field(r.labels[l][i]);
    auto c = gadgets::poseidon_hash(column);
    if (!c.ok()) return c.status();
    columns[i] = *c;
    replica[i] = gadgets::fr32_to_field(data[i]) + column.back();  // the last layer's label is the key
    r.replica[i] = gadgets::field_to_fr32(replica[i]);
  }
  auto tree_c = gadgets::FilecoinTree::build(shape.tree_c, std::move(columns));
  if (!tree_c.ok()) return tree_c.status();
  auto tree_r = gadgets::FilecoinTree::build(shape.tree_c, std::move(replica));
  if (!tree_r.ok()) return tree_r.status();
  r.comm_c = gadgets::field_to_fr32(tree_c->root());
  r.comm_r_last = gadgets::field_to_fr32(tree_r->root());
  const Fr pair[2] = {tree_c->root(), tree_r->root()};
  r.comm_r = gadgets::field_to_fr32(*gadgets::poseidon_hash(pair));
  r.data = std::move(data);
  return SealedSector{std::move(r), std::move(*tree_d), std::move(*tree_c), std::move(*tree_r)};
}

Result<MerkleProof> replica_merkle_proof(const StackedShape& shape, const SealedSector& sector, std::uint64_t node) {
  auto size = size_of(shape);
  if (!size.ok()) return size.status();
  if (node >= shape.nodes) return Status::invalid_argument("node " + std::to_string(node) + " out of range");
  const auto split = split_of(*size);
  return make_merkle_proof(shape.tree_c, split.sub, split.top, sector.tree_r.root(),
                           general_field(sector.replica.replica[node]), sector.tree_r.path(node));
}

Result<VanillaProof> vanilla_proof(const StackedShape& shape, const sdr::ParentGraph& graph, const SealedSector& sector,
                                   std::uint64_t c) {
  auto size = size_of(shape);
  if (!size.ok()) return size.status();
  if (c == 0 || c >= shape.nodes) return Status::invalid_argument("challenge " + std::to_string(c) + " out of range");
  const auto split = split_of(*size);
  const auto& rep = sector.replica;
  auto column = [&](std::uint64_t node) {
    ColumnProof col;
    col.index = static_cast<std::uint32_t>(node);
    std::vector<Fr> rows;
    for (unsigned l = 0; l < shape.layers; ++l) {
      col.rows.push_back(rep.labels[l][node]);
      rows.push_back(gadgets::fr32_to_field(rep.labels[l][node]));
    }
    col.inclusion_proof = make_merkle_proof(shape.tree_c, split.sub, split.top, sector.tree_c.root(),
                                            *gadgets::poseidon_hash(rows), sector.tree_c.path(node));
    return col;
  };
  VanillaProof v;
  v.comm_d_proofs = make_merkle_proof(shape.tree_d, 0, 0, sector.tree_d.root(), gadgets::fr32_to_field(rep.data[c]),
                                      sector.tree_d.path(c));
  v.comm_r_last_proof = make_merkle_proof(shape.tree_c, split.sub, split.top, sector.tree_r.root(),
                                          general_field(rep.replica[c]), sector.tree_r.path(c));
  v.c_x = column(c);
  const auto drg = graph.base_parents(c);
  const auto exp = graph.expander_parents(c);
  for (auto p : drg) v.drg_parents.push_back(column(p));
  for (auto p : exp) v.exp_parents.push_back(column(p));
  for (std::uint32_t layer = 1; layer <= shape.layers; ++layer) {
    v.labeling_proofs.push_back({label_slots(rep.labels, drg, exp, layer), layer, c});
  }
  v.encoding_proof = v.labeling_proofs.back();
  return v;
}

Status verify_vanilla_partition(const StackedShape& shape, const sdr::ParentGraph& graph, const PorepPublic& pub,
                                std::span<const VanillaProof> proofs, std::span<const std::uint64_t> challenges) {
  auto size = size_of(shape);
  if (!size.ok()) return size.status();
  const auto column_kind = column_proof_kind(*size);
  if (proofs.size() != shape.challenges) {
    return Status::invalid_argument(std::to_string(proofs.size()) + " challenge proofs, the partition has " +
                                    std::to_string(shape.challenges));
  }
  if (challenges.size() != proofs.size()) return Status::invalid_argument("wrong number of challenges");
  auto comm_r = domain(pub.comm_r, "comm_r");
  if (!comm_r.ok()) return comm_r.status();
  auto comm_d = domain(pub.comm_d, "comm_d");
  if (!comm_d.ok()) return comm_d.status();
  Fr comm_c, comm_r_last;
  for (std::size_t i = 0; i < proofs.size(); ++i) {
    const VanillaProof& v = proofs[i];
    const std::string at = "challenge " + std::to_string(i);
    if (v.labeling_proofs.size() != shape.layers) {
      return Status::invalid_argument(at + ": " + std::to_string(v.labeling_proofs.size()) + " labeling_proofs, " +
                                      std::to_string(shape.layers) + " layers");
    }
    const std::uint64_t c = v.challenge();
    if (c != challenges[i]) {
      return Status::invalid_argument(at + ": proves node " + std::to_string(c) + ", but the challenge drawn for it is node " +
                                      std::to_string(challenges[i]) + " (another seed, replica id or comm_r?)");
    }
    // Tree D.
    auto d = open_merkle_proof(shape.tree_d, MerkleProof::Kind::kSingle, v.comm_d_proofs, at + ": comm_d_proofs");
    if (!d.ok()) return d.status();
    if (d->root != *comm_d) return Status::invalid_argument(at + ": comm_d_proofs: the root is not comm_d");
    if (d->index != c) return Status::invalid_argument(at + ": comm_d_proofs: the path is not the challenged node's");
    // Tree R-last: one root per partition.
    auto r = open_merkle_proof(shape.tree_c, column_kind, v.comm_r_last_proof, at + ": comm_r_last_proof");
    if (!r.ok()) return r.status();
    if (r->index != c) return Status::invalid_argument(at + ": comm_r_last_proof: the path is not the challenged node's");
    if (i == 0) comm_r_last = r->root;
    if (r->root != comm_r_last) return Status::invalid_argument(at + ": comm_r_last_proof: inconsistent comm_r_last");
    // Columns in tree C: one root per partition.
    auto check_column = [&](const ColumnProof& col, std::uint64_t node, const std::string& what) -> Status {
      const std::string w = at + ": " + what;
      if (col.index != node) {
        return Status::invalid_argument(w + ": column of node " + std::to_string(col.index) + ", expected node " +
                                        std::to_string(node));
      }
      if (col.rows.size() != shape.layers) return Status::invalid_argument(w + ": a row per layer expected");
      std::vector<Fr> rows;
      for (std::size_t l = 0; l < col.rows.size(); ++l) {
        auto x = domain(col.rows[l], w + ".rows[" + std::to_string(l) + "]");
        if (!x.ok()) return x.status();
        rows.push_back(*x);
      }
      auto o = open_merkle_proof(shape.tree_c, column_kind, col.inclusion_proof, w + ".inclusion_proof");
      if (!o.ok()) return o.status();
      if (o->index != node) return Status::invalid_argument(w + ".inclusion_proof: the path is not the column's node");
      if (o->leaf != *gadgets::poseidon_hash(rows)) {
        return Status::invalid_argument(w + ".inclusion_proof: the leaf is not the column's hash");
      }
      if (i == 0 && what == "c_x") comm_c = o->root;
      if (o->root != comm_c) return Status::invalid_argument(w + ".inclusion_proof: inconsistent comm_c");
      return {};
    };
    if (Status st = check_column(v.c_x, c, "c_x"); !st.ok()) return st;
    if (i == 0 && gadgets::poseidon_hash(std::vector<Fr>{comm_c, comm_r_last}).value() != *comm_r) {
      return Status::invalid_argument("comm_r is not Poseidon(comm_c, comm_r_last) of the proofs");
    }
    const auto drg = graph.base_parents(c);
    const auto exp = graph.expander_parents(c);
    if (v.drg_parents.size() != drg.size() || v.exp_parents.size() != exp.size()) {
      return Status::invalid_argument(at + ": " + std::to_string(v.drg_parents.size()) + " drg_parents and " +
                                      std::to_string(v.exp_parents.size()) + " exp_parents, expected " +
                                      std::to_string(drg.size()) + " and " + std::to_string(exp.size()));
    }
    for (std::size_t j = 0; j < drg.size(); ++j) {
      if (Status st = check_column(v.drg_parents[j], drg[j], "drg_parents[" + std::to_string(j) + "]"); !st.ok()) return st;
    }
    for (std::size_t j = 0; j < exp.size(); ++j) {
      if (Status st = check_column(v.exp_parents[j], exp[j], "exp_parents[" + std::to_string(j) + "]"); !st.ok()) return st;
    }
    // Labels: every layer's from its parents' rows, as the circuit computes them.
    std::vector<std::uint64_t> local_drg, local_exp;  // parents renumbered into a small table
    std::vector<std::vector<Bytes32>> table(shape.layers);
    for (std::uint32_t l = 0; l < shape.layers; ++l) {
      for (const auto& col : v.drg_parents) table[l].push_back(col.rows[l]);
      for (const auto& col : v.exp_parents) table[l].push_back(col.rows[l]);
    }
    for (std::size_t j = 0; j < drg.size(); ++j) local_drg.push_back(j);
    for (std::size_t j = 0; j < exp.size(); ++j) local_exp.push_back(drg.size() + j);
    for (std::uint32_t layer = 1; layer <= shape.layers; ++layer) {
      const LabelingProof& lp = v.labeling_proofs[layer - 1];
      const std::string w = at + ": labeling_proofs[" + std::to_string(layer - 1) + "]";
      if (lp.layer_index != layer || lp.node != c) {
        return Status::invalid_argument(w + ": layer_index / node are not layer " + std::to_string(layer) + ", node " +
                                        std::to_string(c));
      }
      const auto slots = label_slots(table, local_drg, local_exp, layer);
      if (lp.parents != slots) return Status::invalid_argument(w + ": the parents are not the parent columns' labels");
      if (sdr::label_from_slots(pub.replica_id, layer, c, slots) != v.c_x.rows[layer - 1]) {
        return Status::invalid_argument(at + ": c_x.rows[" + std::to_string(layer - 1) +
                                        "] is not the label computed from its parents");
      }
    }
    const LabelingProof& last = v.labeling_proofs.back();
    if (v.encoding_proof.layer_index != last.layer_index || v.encoding_proof.node != c ||
        v.encoding_proof.parents != last.parents) {
      return Status::invalid_argument(at + ": encoding_proof differs from the last layer's labeling proof");
    }
    // The encoding: replica = last label + data.
    if (r->leaf != gadgets::fr32_to_field(v.c_x.rows.back()) + d->leaf) {
      return Status::invalid_argument(at + ": comm_r_last_proof: the replica leaf is not the encoded data leaf");
    }
  }
  return {};
}

Result<StackedWitness> vanilla_witness(const StackedShape& shape, const PorepPublic& pub,
                                       std::span<const VanillaProof> proofs) {
  if (proofs.size() != shape.challenges) return Status::invalid_argument("wrong number of challenge proofs");
  auto size = size_of(shape);
  if (!size.ok()) return size.status();
  const auto column_kind = column_proof_kind(*size);
  StackedWitness w;
  w.replica_id = gadgets::fr32_to_field(pub.replica_id);
  w.comm_d = gadgets::fr32_to_field(pub.comm_d);
  auto comm_r = domain(pub.comm_r, "comm_r");
  if (!comm_r.ok()) return comm_r.status();
  w.comm_r = *comm_r;
  for (std::size_t i = 0; i < proofs.size(); ++i) {
    const VanillaProof& v = proofs[i];
    const std::string at = "challenge " + std::to_string(i);
    ChallengeWitness cw;
    cw.node = v.challenge();
    auto d = open_merkle_proof(shape.tree_d, MerkleProof::Kind::kSingle, v.comm_d_proofs, at + ": comm_d_proofs");
    if (!d.ok()) return d.status();
    cw.data_leaf = d->leaf;
    cw.comm_d_path = std::move(d->path);
    auto r = open_merkle_proof(shape.tree_c, column_kind, v.comm_r_last_proof, at + ": comm_r_last_proof");
    if (!r.ok()) return r.status();
    if (i == 0) w.comm_r_last = r->root;
    cw.comm_r_last_path = std::move(r->path);
    auto c = open_merkle_proof(shape.tree_c, column_kind, v.c_x.inclusion_proof, at + ": c_x.inclusion_proof");
    if (!c.ok()) return c.status();
    if (i == 0) w.comm_c = c->root;
    cw.comm_c_path = std::move(c->path);
    if (v.drg_parents.size() != kDrgParents || v.exp_parents.size() != kExpParents) {
      return Status::invalid_argument(at + ": Filecoin's columns are 6 drg_parents and 8 exp_parents");
    }
    auto column = [&](const ColumnProof& col, ColumnWitness& out, const std::string& what) -> Status {
      for (std::size_t l = 0; l < col.rows.size(); ++l) {
        auto x = domain(col.rows[l], at + ": " + what + ".rows");
        if (!x.ok()) return x.status();
        out.rows.push_back(*x);
      }
      auto o = open_merkle_proof(shape.tree_c, column_kind, col.inclusion_proof, at + ": " + what + ".inclusion_proof");
      if (!o.ok()) return o.status();
      out.path = std::move(o->path);
      return {};
    };
    for (unsigned j = 0; j < kDrgParents; ++j) {
      if (Status st = column(v.drg_parents[j], cw.drg[j], "drg_parents"); !st.ok()) return st;
    }
    for (unsigned j = 0; j < kExpParents; ++j) {
      if (Status st = column(v.exp_parents[j], cw.exp[j], "exp_parents"); !st.ok()) return st;
    }
    w.challenges.push_back(std::move(cw));
  }
  return w;
}

Result<StackedWitness> partition_witness(const StackedShape& shape, const sdr::ParentGraph& graph,
                                         const SealedSector& sector, std::span<const std::uint64_t> challenges) {
  if (challenges.size() != shape.challenges) return Status::invalid_argument("wrong number of challenges");
  std::vector<VanillaProof> proofs;
  for (const std::uint64_t c : challenges) {
    auto v = vanilla_proof(shape, graph, sector, c);
    if (!v.ok()) return v.status();
    proofs.push_back(std::move(*v));
  }
  return vanilla_witness(shape, {sector.replica.replica_id, sector.replica.comm_d, sector.replica.comm_r}, proofs);
}

}  // namespace zk::circuits::filecoin
