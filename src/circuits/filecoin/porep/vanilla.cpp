#include "circuits/filecoin/porep/vanilla.hpp"

namespace zk::circuits::filecoin {

namespace {
/// A Poseidon output or a replica node: any field element, read canonically.
Fr general_field(const sdr::Bytes32& b) { return *Fr::from_bytes(b, field::Endian::kLittle); }
}  // namespace

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
                                    std::vector<sdr::Bytes32> data, const sdr::SealInputs& in) {
  if (in.layers != shape.layers) return Status::invalid_argument("seal: layers differ from the circuit's");
  auto r = sdr::replicate(graph, std::move(data), in);
  if (!r.ok()) return r.status();
  std::vector<Fr> d, columns, replica;
  std::vector<Fr> column(shape.layers);
  for (std::size_t i = 0; i < r->data.size(); ++i) {
    d.push_back(gadgets::fr32_to_field(r->data[i]));
    for (unsigned l = 0; l < shape.layers; ++l) column[l] = gadgets::fr32_to_field(r->labels[l][i]);
    columns.push_back(*gadgets::poseidon_hash(column));
    replica.push_back(general_field(r->replica[i]));
  }
  auto tree_d = gadgets::FilecoinTree::build(shape.tree_d, std::move(d));
  if (!tree_d.ok()) return tree_d.status();
  auto tree_c = gadgets::FilecoinTree::build(shape.tree_c, std::move(columns));
  if (!tree_c.ok()) return tree_c.status();
  auto tree_r = gadgets::FilecoinTree::build(shape.tree_c, std::move(replica));
  if (!tree_r.ok()) return tree_r.status();
  // The roots of the generic trees must be the sealer's commitments (two implementations agree).
  if (tree_d->root() != gadgets::fr32_to_field(r->comm_d) || tree_c->root() != general_field(r->comm_c) ||
      tree_r->root() != general_field(r->comm_r_last)) {
    return Status::internal("seal: tree roots disagree with the sealer's commitments");
  }
  return SealedSector{std::move(*r), std::move(*tree_d), std::move(*tree_c), std::move(*tree_r)};
}

Result<StackedWitness> partition_witness(const StackedShape& shape, const sdr::ParentGraph& graph,
                                         const SealedSector& sector, std::span<const std::uint64_t> challenges) {
  if (challenges.size() != shape.challenges) return Status::invalid_argument("wrong number of challenges");
  const auto& rep = sector.replica;
  StackedWitness w;
  w.replica_id = gadgets::fr32_to_field(rep.replica_id);
  w.comm_d = gadgets::fr32_to_field(rep.comm_d);
  w.comm_r = general_field(rep.comm_r);
  w.comm_r_last = general_field(rep.comm_r_last);
  w.comm_c = general_field(rep.comm_c);
  auto column = [&](std::uint64_t node) {
    ColumnWitness col;
    for (unsigned l = 0; l < shape.layers; ++l) col.rows.push_back(gadgets::fr32_to_field(rep.labels[l][node]));
    col.path = sector.tree_c.path(node);
    return col;
  };
  for (const std::uint64_t c : challenges) {
    if (c == 0 || c >= shape.nodes) return Status::invalid_argument("challenge " + std::to_string(c) + " out of range");
    ChallengeWitness cw;
    cw.node = c;
    cw.data_leaf = gadgets::fr32_to_field(rep.data[c]);
    cw.comm_d_path = sector.tree_d.path(c);
    const auto drg = graph.base_parents(c);
    const auto exp = graph.expander_parents(c);
    if (drg.size() != kDrgParents || exp.size() != kExpParents) {
      return Status::invalid_argument("the graph's degrees are not Filecoin's 6 + 8");
    }
    for (unsigned j = 0; j < kDrgParents; ++j) cw.drg[j] = column(drg[j]);
    for (unsigned j = 0; j < kExpParents; ++j) cw.exp[j] = column(exp[j]);
    cw.comm_r_last_path = sector.tree_r.path(c);
    cw.comm_c_path = sector.tree_c.path(c);
    w.challenges.push_back(std::move(cw));
  }
  return w;
}

}  // namespace zk::circuits::filecoin
