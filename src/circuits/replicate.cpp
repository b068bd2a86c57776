#include "circuits/replicate.hpp"

namespace zk::circuits::sdr {

using gadgets::field_to_fr32;
using gadgets::Fr;
using gadgets::fr32_to_field;

Result<Replica> replicate(const ParentGraph& graph, std::vector<Bytes32> data, const SealInputs& in) {
  if (data.size() != graph.nodes()) {
    return Status::invalid_argument("replicate: " + std::to_string(data.size()) + " data nodes for a graph of " +
                                    std::to_string(graph.nodes()));
  }
  for (std::size_t i = 0; i < data.size(); ++i) {
    if ((data[i][31] & 0xc0) != 0)
      return Status::invalid_argument("replicate: data node " + std::to_string(i) + " is not Fr32");
  }
  Replica r;
  auto tree_d = gadgets::Sha256Tree::build(data);
  if (!tree_d.ok()) return tree_d.status();
  r.comm_d = tree_d->root();
  r.replica_id = replica_id(in.prover_id, in.sector_id, in.ticket, r.comm_d, in.porep_id);
  r.labels = label_layers(graph, r.replica_id, in.layers);
  std::vector<Fr> columns(data.size()), replica(data.size());
  std::vector<Fr> column(in.layers);
  for (std::size_t i = 0; i < data.size(); ++i) {
    for (std::uint32_t l = 0; l < in.layers; ++l) column[l] = fr32_to_field(r.labels[l][i]);
    auto c = gadgets::poseidon_hash(column);
    if (!c.ok())
      return Status::invalid_argument("replicate: layers must be a Poseidon arity (2, 4, 8, 11): " +
                                      c.status().message());
    columns[i] = *c;
    replica[i] = fr32_to_field(data[i]) + column.back();  // the last layer's label is the key
  }
  auto tree_c = gadgets::PoseidonTree::build(columns);
  if (!tree_c.ok()) return tree_c.status();
  auto tree_r = gadgets::PoseidonTree::build(replica);
  if (!tree_r.ok()) return tree_r.status();
  r.comm_c = field_to_fr32(tree_c->root());
  r.comm_r_last = field_to_fr32(tree_r->root());
  const Fr pair[2] = {tree_c->root(), tree_r->root()};
  r.comm_r = field_to_fr32(*gadgets::poseidon_hash(pair));
  r.replica.resize(replica.size());
  for (std::size_t i = 0; i < replica.size(); ++i) r.replica[i] = field_to_fr32(replica[i]);
  r.data = std::move(data);
  return r;
}

}  // namespace zk::circuits::sdr
