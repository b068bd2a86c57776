#include "circuits/porep.hpp"

#include <cstring>

#include "base/rng.hpp"

namespace zk::circuits::porep {
namespace {

using gadgets::field_to_fr32;
using gadgets::fr32_to_field;

std::string str(std::uint64_t v) { return std::to_string(v); }

bool poseidon_arity(std::uint64_t a) { return a == 2 || a == 4 || a == 8 || a == 11; }

Fr poseidon(std::span<const Fr> in) { return *gadgets::poseidon_hash(in); }

/// Levels of a complete tree, levels[0] = leaves.
std::vector<std::vector<Fr>> build_tree(std::vector<Fr> leaves, unsigned arity,
                                        const std::function<Fr(std::span<const Fr>)>& node) {
  std::vector<std::vector<Fr>> levels;
  levels.push_back(std::move(leaves));
  while (levels.back().size() > 1) {
    const auto& below = levels.back();
    std::vector<Fr> up(below.size() / arity);
    for (std::size_t i = 0; i < up.size(); ++i) up[i] = node(std::span(below).subspan(arity * i, arity));
    levels.push_back(std::move(up));
  }
  return levels;
}

std::vector<std::array<Fr, 7>> octal_path(const std::vector<std::vector<Fr>>& levels, std::uint64_t index) {
  std::vector<std::array<Fr, 7>> out;
  for (std::size_t l = 0; l + 1 < levels.size(); ++l, index /= 8) {
    std::array<Fr, 7> sib;
    const std::uint64_t base = index - index % 8;
    std::size_t k = 0;
    for (std::uint64_t c = 0; c < 8; ++c) {
      if (base + c != index) sib[k++] = levels[l][base + c];
    }
    out.push_back(sib);
  }
  return out;
}

Fr octal_root(Fr cur, std::uint64_t index, const std::vector<std::array<Fr, 7>>& path) {
  for (const auto& sib : path) {
    const unsigned pos = static_cast<unsigned>(index % 8);
    Fr children[8];
    for (unsigned c = 0, k = 0; c < 8; ++c) children[c] = c == pos ? cur : sib[k++];
    cur = poseidon(children);
    index /= 8;
  }
  return cur;
}

bool fr32(const Fr& x) { return (field_to_fr32(x)[31] & 0xc0) == 0; }

}  // namespace

Status Shape::validate() const {
  auto bad = [&](const std::string& m) { return Status::invalid_argument("porep shape '" + name + "': " + m); };
  if (nodes < 8 || nodes > (std::uint64_t{1} << 33) || (nodes & (nodes - 1)) != 0 || node_bits() % 3 != 0)
    return bad("nodes must be a power of 8 between 8 and 2^33, got " + str(nodes));
  if (!poseidon_arity(layers)) return bad("layers must be 2, 4, 8 or 11 (a Poseidon arity), got " + str(layers));
  if (base_degree < 2 || base_degree > 64) return bad("base_degree must be 2..64");
  if (expansion_degree < 1 || expansion_degree > 64) return bad("expansion_degree must be 1..64");
  if (parent_slots < 1 || parent_slots > 256) return bad("parent_slots must be 1..256");
  if (hash == Hash::kPoseidon && !poseidon_arity(2 + parent_slots))
    return bad("Poseidon labels hash 2 + parent_slots inputs, which must be 2, 4, 8 or 11");
  if (challenges < 1 || challenges > 1024) return bad("challenges must be 1..1024");
  if (partitions < 1 || partitions > 256) return bad("partitions must be 1..256");
  return {};
}

unsigned Shape::node_bits() const {
  unsigned b = 0;
  while (b < 63 && (std::uint64_t{1} << b) < nodes) ++b;
  return b;
}

Result<sdr::ParentGraph> Shape::graph() const {
  if (Status st = validate(); !st.ok()) return st;
  return sdr::ParentGraph::create(nodes, porep_id(), registered_proof < 5, base_degree, expansion_degree);
}

std::string_view hash_name(Hash h) { return h == Hash::kSha256 ? "sha256" : "poseidon"; }

std::vector<std::string> preset_names() { return {"tiny", "small", "bench", "32g"}; }

Result<Shape> preset(std::string_view name) {
  Shape s;
  s.name = std::string(name);
  if (name == "tiny") {
    s.nodes = 64, s.layers = 2, s.base_degree = 2, s.expansion_degree = 4, s.parent_slots = 6;
    s.challenges = 1, s.partitions = 2, s.hash = Hash::kPoseidon;
  } else if (name == "small") {
    s.nodes = 64, s.layers = 2, s.base_degree = 2, s.expansion_degree = 1, s.parent_slots = 3;
    s.challenges = 1, s.partitions = 4, s.hash = Hash::kSha256;
  } else if (name == "bench") {
    s.nodes = 64, s.layers = 2, s.base_degree = 6, s.expansion_degree = 8, s.parent_slots = 37;
    s.challenges = 1, s.partitions = 10, s.hash = Hash::kSha256;
  } else if (name == "32g") {
    s.nodes = std::uint64_t{1} << 30, s.layers = 11, s.base_degree = 6, s.expansion_degree = 8;
    s.parent_slots = 37, s.challenges = 18, s.partitions = 10, s.hash = Hash::kSha256;
  } else {
    std::string known;
    for (const auto& n : preset_names()) known += (known.empty() ? "" : ", ") + n;
    return Status::invalid_argument("unknown porep shape '" + std::string(name) + "' (available: " + known + ")");
  }
  s.registered_proof = 8;  // StackedDrg32GiBV1_1's porep id for every preset
  return s;
}

Fr label(const Shape& s, const Fr& replica_id, std::uint32_t layer, std::uint64_t node,
         std::span<const Fr> parent_labels) {
  if (s.hash == Hash::kPoseidon) {
    std::vector<Fr> in{replica_id, Fr::from_u64(layer) * Fr::from_u64(1ull << 32) * Fr::from_u64(1ull << 32) +
                                       Fr::from_u64(node)};
    for (unsigned k = 0; k < s.parent_slots; ++k)
      in.push_back(node == 0 ? Fr::zero() : parent_labels[k % parent_labels.size()]);
    return poseidon(in);
  }
  std::vector<std::uint8_t> m(64, 0);
  const auto rid = field_to_fr32(replica_id);
  std::memcpy(m.data(), rid.data(), 32);
  for (int b = 0; b < 4; ++b) m[static_cast<std::size_t>(32 + b)] = static_cast<std::uint8_t>(layer >> (24 - 8 * b));
  for (int b = 0; b < 8; ++b) m[static_cast<std::size_t>(36 + b)] = static_cast<std::uint8_t>(node >> (56 - 8 * b));
  if (node > 0) {
    for (unsigned k = 0; k < s.parent_slots; ++k) {
      const auto p = field_to_fr32(parent_labels[k % parent_labels.size()]);
      m.insert(m.end(), p.begin(), p.end());
    }
  }
  return fr32_to_field(gadgets::sha256_native(m));
}

Fr tree_d_node(const Shape& s, const Fr& left, const Fr& right) {
  if (s.hash == Hash::kPoseidon) {
    const Fr pair[2] = {left, right};
    return poseidon(pair);
  }
  return fr32_to_field(gadgets::sha256_node(field_to_fr32(left), field_to_fr32(right)));
}

Result<Sector> seal(const Shape& s, std::vector<Fr> data, const SealIds& ids, const Progress& progress) {
  auto graph = s.graph();
  if (!graph.ok()) return graph.status();
  if (data.size() != s.nodes)
    return Status::invalid_argument("seal: " + str(data.size()) + " data nodes for a sector of " + str(s.nodes));
  if (s.hash == Hash::kSha256) {
    for (std::size_t i = 0; i < data.size(); ++i) {
      if (!fr32(data[i])) return Status::invalid_argument("seal: data node " + str(i) + " is not Fr32 (2^254 or more)");
    }
  }
  auto report = [&](std::string_view stage, std::uint64_t done, std::uint64_t total) {
    if (progress) progress(stage, done, total);
  };
  Sector sec;
  sec.shape = s;
  sec.tree_d = build_tree(data, 2, [&](std::span<const Fr> c) { return tree_d_node(s, c[0], c[1]); });
  sec.comm_d = sec.tree_d.back()[0];
  report("tree_d", 1, 1);
  sec.replica_id = fr32_to_field(
      sdr::replica_id(ids.prover_id, ids.sector_id, ids.ticket, field_to_fr32(sec.comm_d), s.porep_id()));
  std::vector<Fr> parents;
  for (std::uint32_t layer = 1; layer <= s.layers; ++layer) {
    std::vector<Fr> cur(s.nodes);
    const std::vector<Fr>* prev = layer > 1 ? &sec.labels.back() : nullptr;
    for (std::uint64_t i = 0; i < s.nodes; ++i) {
      parents.clear();
      for (auto p : graph->base_parents(i)) parents.push_back(cur[p]);
      if (prev) {
        for (auto p : graph->expander_parents(i)) parents.push_back((*prev)[p]);
      }
      cur[i] = label(s, sec.replica_id, layer, i, parents);
      if ((i & 0xffff) == 0xffff) report("labels layer " + str(layer), i + 1, s.nodes);
    }
    sec.labels.push_back(std::move(cur));
    report("labels", layer, s.layers);
  }
  sec.data = std::move(data);
  commit(sec);
  report("trees c and r_last", 1, 1);
  return sec;
}

void commit(Sector& sec) {
  const Shape& s = sec.shape;
  std::vector<Fr> columns(s.nodes), replica(s.nodes), column(s.layers);
  for (std::uint64_t i = 0; i < s.nodes; ++i) {
    for (std::uint32_t l = 0; l < s.layers; ++l) column[l] = sec.labels[l][i];
    columns[i] = poseidon(column);
    replica[i] = sec.data[i] + column.back();
  }
  sec.tree_c = build_tree(std::move(columns), 8, poseidon);
  sec.tree_r = build_tree(std::move(replica), 8, poseidon);
  sec.comm_c = sec.tree_c.back()[0];
  sec.comm_r_last = sec.tree_r.back()[0];
  const Fr pair[2] = {sec.comm_c, sec.comm_r_last};
  sec.comm_r = poseidon(pair);
}

Result<Sector> random_sector(const Shape& s, std::uint64_t seed, const Progress& progress) {
  if (Status st = s.validate(); !st.ok()) return st;
  if (s.nodes > (std::uint64_t{1} << 24))
    return Status::invalid_argument("porep shape '" + s.name + "': sectors of more than 2^24 nodes are not sealed here");
  Rng rng(seed ^ 0x706f726570ull);
  auto bytes32 = [&] {
    Bytes32 b;
    for (std::size_t k = 0; k < 32; k += 8) {
      const std::uint64_t v = rng.next();
      for (std::size_t i = 0; i < 8; ++i) b[k + i] = static_cast<std::uint8_t>(v >> (8 * i));
    }
    b[31] &= 0x3f;
    return b;
  };
  SealIds ids;
  ids.prover_id = bytes32();
  ids.ticket = bytes32();
  ids.sector_id = seed;
  std::vector<Fr> data(s.nodes);
  for (auto& d : data) d = fr32_to_field(bytes32());
  return seal(s, std::move(data), ids, progress);
}

std::vector<Fr> PublicInputs::to_field() const {
  std::vector<Fr> out{replica_id, comm_d, comm_r};
  for (auto n : nodes) out.push_back(Fr::from_u64(n));
  return out;
}

Result<PublicInputs> derive_public_inputs(const Shape& s, const sdr::ParentGraph& g, const Fr& replica_id,
                                          const Fr& comm_d, const Fr& comm_r, const Bytes32& seed,
                                          std::uint32_t partition) {
  if (Status st = s.validate(); !st.ok()) return st;
  if (partition >= s.partitions)
    return Status::invalid_argument("partition " + str(partition) + " of a shape with " + str(s.partitions));
  PublicInputs pub{replica_id, comm_d, comm_r, {}};
  for (auto c : sdr::challenges(field_to_fr32(replica_id), seed, s.nodes, partition, s.challenges)) {
    pub.nodes.push_back(c);
    for (auto p : g.base_parents(c)) pub.nodes.push_back(p);
    for (auto p : g.expander_parents(c)) pub.nodes.push_back(p);
  }
  return pub;
}

Result<PartitionWitness> open_partition(const Sector& sec, const sdr::ParentGraph& g, const Bytes32& seed,
                                        std::uint32_t partition) {
  const Shape& s = sec.shape;
  auto pub = derive_public_inputs(s, g, sec.replica_id, sec.comm_d, sec.comm_r, seed, partition);
  if (!pub.ok()) return pub.status();
  PartitionWitness w;
  w.partition = partition;
  w.comm_c = sec.comm_c;
  w.comm_r_last = sec.comm_r_last;
  const unsigned per = 1 + s.parents();
  for (std::uint32_t j = 0; j < s.challenges; ++j) {
    ChallengeProof cp;
    cp.node = pub->nodes[j * per];
    cp.data = sec.data[cp.node];
    std::uint64_t idx = cp.node;
    for (std::size_t l = 0; l + 1 < sec.tree_d.size(); ++l, idx /= 2) cp.data_path.push_back(sec.tree_d[l][idx ^ 1]);
    cp.replica_path = octal_path(sec.tree_r, cp.node);
    for (unsigned t = 0; t < per; ++t) {
      ColumnOpening co;
      co.node = pub->nodes[j * per + t];
      for (std::uint32_t l = 0; l < s.layers; ++l) co.labels.push_back(sec.labels[l][co.node]);
      co.path = octal_path(sec.tree_c, co.node);
      cp.columns.push_back(std::move(co));
    }
    w.challenges.push_back(std::move(cp));
  }
  return w;
}

PartitionWitness blank_witness(const Shape& s) {
  PartitionWitness w;
  w.comm_c = w.comm_r_last = Fr::zero();
  ChallengeProof cp;
  cp.data = Fr::zero();
  cp.data_path.assign(s.node_bits(), Fr::zero());
  std::array<Fr, 7> zeros;
  zeros.fill(Fr::zero());
  cp.replica_path.assign(s.octal_depth(), zeros);
  ColumnOpening co;
  co.labels.assign(s.layers, Fr::zero());
  co.path.assign(s.octal_depth(), zeros);
  cp.columns.assign(1 + s.parents(), co);
  w.challenges.assign(s.challenges, cp);
  return w;
}

PublicInputs blank_public_inputs(const Shape& s) {
  return {Fr::zero(), Fr::zero(), Fr::zero(), std::vector<std::uint64_t>(s.challenges * (1 + s.parents()), 0)};
}

Status check_sizes(const Shape& s, const PublicInputs& pub, const PartitionWitness& w) {
  auto bad = [](const std::string& field, std::size_t got, std::size_t want) {
    return Status::invalid_argument(field + ": " + str(got) + " entries, the shape needs " + str(want));
  };
  const std::size_t per = 1 + s.parents();
  if (pub.nodes.size() != s.challenges * per) return bad("public node indices", pub.nodes.size(), s.challenges * per);
  if (w.challenges.size() != s.challenges) return bad("challenges", w.challenges.size(), s.challenges);
  for (std::size_t j = 0; j < w.challenges.size(); ++j) {
    const auto& cp = w.challenges[j];
    const std::string at = "challenges[" + str(j) + "]";
    if (cp.data_path.size() != s.node_bits()) return bad(at + ".data_path", cp.data_path.size(), s.node_bits());
    if (cp.replica_path.size() != s.octal_depth())
      return bad(at + ".replica_path", cp.replica_path.size(), s.octal_depth());
    if (cp.columns.size() != per) return bad(at + ".columns", cp.columns.size(), per);
    for (std::size_t t = 0; t < per; ++t) {
      const auto& co = cp.columns[t];
      const std::string ct = at + ".columns[" + str(t) + "]";
      if (co.labels.size() != s.layers) return bad(ct + ".labels", co.labels.size(), s.layers);
      if (co.path.size() != s.octal_depth()) return bad(ct + ".path", co.path.size(), s.octal_depth());
    }
  }
  return {};
}

Status check_witness(const Shape& s, const PublicInputs& pub, const PartitionWitness& w) {
  if (Status st = s.validate(); !st.ok()) return st;
  if (Status st = check_sizes(s, pub, w); !st.ok()) return st;
  auto bad = [](const std::string& field, const std::string& what) {
    return Status::invalid_argument(field + ": " + what);
  };
  const unsigned per = 1 + s.parents();
  const bool sha = s.hash == Hash::kSha256;
  const Fr pair[2] = {w.comm_c, w.comm_r_last};
  if (!(poseidon(pair) == pub.comm_r)) return bad("comm_c, comm_r_last", "Poseidon-2 of them is not comm_r");
  if (sha && !fr32(pub.replica_id)) return bad("replica_id", "not an Fr32 value");
  for (std::size_t j = 0; j < w.challenges.size(); ++j) {
    const auto& cp = w.challenges[j];
    const std::string at = "challenges[" + str(j) + "]";
    for (unsigned t = 0; t < per; ++t) {
      const std::uint64_t want = pub.nodes[j * per + t];
      const std::uint64_t got = t == 0 ? cp.node : cp.columns[t].node;
      const std::string field = t == 0 ? at + ".node" : at + ".columns[" + str(t) + "].node";
      if (got != want) {
        return bad(field, "node " + str(got) + ", but the seed and the parent graph give " + str(want));
      }
      if (t == 0 && cp.columns[0].node != cp.node) return bad(at + ".columns[0].node", "is not the challenged node");
    }
    // Data in comm_d.
    if (sha && !fr32(cp.data)) return bad(at + ".data", "not an Fr32 value");
    Fr cur = cp.data;
    std::uint64_t idx = cp.node;
    for (std::size_t l = 0; l < cp.data_path.size(); ++l, idx /= 2) {
      if (sha && !fr32(cp.data_path[l])) return bad(at + ".data_path[" + str(l) + "]", "not an Fr32 value");
      cur = (idx & 1) ? tree_d_node(s, cp.data_path[l], cur) : tree_d_node(s, cur, cp.data_path[l]);
    }
    if (!(cur == pub.comm_d)) return bad(at + ".data_path", "does not lead from the data to comm_d");
    // Columns in comm_c.
    for (unsigned t = 0; t < per; ++t) {
      const auto& co = cp.columns[t];
      const std::string ct = at + ".columns[" + str(t) + "]";
      for (std::size_t l = 0; l < co.labels.size(); ++l) {
        if (sha && !fr32(co.labels[l])) return bad(ct + ".labels[" + str(l) + "]", "not an Fr32 value");
      }
      if (!(octal_root(poseidon(co.labels), co.node, co.path) == w.comm_c))
        return bad(ct + ".path", "the column does not open in comm_c");
    }
    // Labels.
    std::vector<Fr> parents;
    for (std::uint32_t layer = 1; layer <= s.layers; ++layer) {
      parents.clear();
      for (unsigned t = 1; t <= s.base_degree; ++t) parents.push_back(cp.columns[t].labels[layer - 1]);
      if (layer > 1) {
        for (unsigned t = 1 + s.base_degree; t < per; ++t) parents.push_back(cp.columns[t].labels[layer - 2]);
      }
      if (!(label(s, pub.replica_id, layer, cp.node, parents) == cp.columns[0].labels[layer - 1])) {
        return bad(at + ".columns[0].labels[" + str(layer - 1) + "]",
                   "is not the hash of its parents' labels (layer " + str(layer) + ")");
      }
    }
    // Encoding.
    const Fr replica = cp.data + cp.columns[0].labels[s.layers - 1];
    if (!(octal_root(replica, cp.node, cp.replica_path) == w.comm_r_last))
      return bad(at + ".replica_path", "data + last label does not open in comm_r_last");
  }
  return {};
}

}  // namespace zk::circuits::porep
