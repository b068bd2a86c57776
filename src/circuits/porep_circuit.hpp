#pragma once

// The porep partition circuit (included by porep.hpp; docs/porep.md counts its constraints).

#include <map>
#include <string>
#include <utility>

#include "circuits/porep.hpp"

namespace zk::circuits::porep {
namespace detail {

using gadgets::Bit;
using gadgets::Num;
using LC = r1cs::LinearCombination<Fr>;

template <class CS>
void enforce_equal(CS& cs, const char* what, const Num<Fr>& a, const Num<Fr>& b) {
  cs.enforce([what] { return std::string(what); }, a.lc - b.lc, LC(r1cs::Variable::one()), LC::zero());
}

template <class CS>
Num<Fr> alloc_num(CS& cs, const char* what, const Fr& v) {
  return Num<Fr>::alloc(
      cs, [what] { return std::string(what); }, v);
}

/// node_bits boolean variables holding `node` (least significant first), packed and tied to the
/// public index input: node_bits + 1 constraints.
template <class CS>
std::vector<Bit<Fr>> index_bits(CS& cs, unsigned node_bits, std::uint64_t node, const Num<Fr>& public_index) {
  std::vector<Bit<Fr>> bits;
  Num<Fr> packed;
  packed.value = Fr::zero();
  Fr w = Fr::one();
  for (unsigned k = 0; k < node_bits; ++k) {
    bits.push_back(Bit<Fr>::alloc(cs, ((node >> k) & 1) != 0));
    packed.lc += bits.back().lc * w;
    if (bits.back().value) packed.value = packed.value + w;
    w = w.dbl();
  }
  enforce_equal(cs, "index bits pack to the public index", packed, public_index);
  return bits;
}

template <class CS>
std::vector<std::array<Num<Fr>, 7>> alloc_octal_path(CS& cs, const std::vector<std::array<Fr, 7>>& path) {
  std::vector<std::array<Num<Fr>, 7>> out(path.size());
  for (std::size_t l = 0; l < path.size(); ++l) {
    for (std::size_t k = 0; k < 7; ++k) out[l][k] = alloc_num(cs, "path sibling", path[l][k]);
  }
  return out;
}

/// The 64-byte SHA-256 label header in message order: replica_id (32 bytes), layer (u32 BE), node
/// (u64 BE, from its index bits; higher bits constant zero), 20 zero bytes.
inline std::vector<Bit<Fr>> label_header(const std::vector<Bit<Fr>>& replica_id_bits, std::uint32_t layer,
                                         const std::vector<Bit<Fr>>& node_bits) {
  std::vector<Bit<Fr>> m(replica_id_bits);
  for (int i = 31; i >= 0; --i) m.push_back(Bit<Fr>::of_constant(((layer >> i) & 1) != 0));
  for (int i = 63; i >= 0; --i) {
    const auto k = static_cast<std::size_t>(i);
    m.push_back(k < node_bits.size() ? node_bits[k] : Bit<Fr>::of_constant(false));
  }
  for (int i = 0; i < 160; ++i) m.push_back(Bit<Fr>::of_constant(false));
  return m;
}

}  // namespace detail

template <class CS>
Status synthesize(CS& cs, const Shape& s, const PublicInputs& pub, const PartitionWitness& w) {
  using namespace detail;
  if (Status st = s.validate(); !st.ok()) return st;
  if (Status st = check_sizes(s, pub, w); !st.ok()) return st;
  const unsigned nb = s.node_bits(), per = 1 + s.parents();
  const bool sha = s.hash == Hash::kSha256;

  // Public inputs first, in PublicInputs::to_field order.
  auto input = [&](const char* what, const Fr& v) {
    return Num<Fr>::of(cs.alloc_input([what] { return std::string(what); }, [&] { return v; }), v);
  };
  const Num<Fr> replica_id = input("replica_id", pub.replica_id);
  const Num<Fr> comm_d = input("comm_d", pub.comm_d);
  const Num<Fr> comm_r = input("comm_r", pub.comm_r);
  std::vector<Num<Fr>> indices;
  for (std::size_t k = 0; k < pub.nodes.size(); ++k) {
    indices.push_back(input(k % per == 0 ? "challenge" : "parent", Fr::from_u64(pub.nodes[k])));
  }

  // comm_r = Poseidon-2(comm_c, comm_r_last), both private.
  const Num<Fr> comm_c = alloc_num(cs, "comm_c", w.comm_c);
  const Num<Fr> comm_r_last = alloc_num(cs, "comm_r_last", w.comm_r_last);
  {
    r1cs::Namespace ns(cs, [] { return std::string("comm_r"); });
    const Num<Fr> pair[2] = {comm_c, comm_r_last};
    auto h = gadgets::poseidon_gadget(cs, std::span<const Num<Fr>>(pair));
    if (!h.ok()) return h.status();
    enforce_equal(cs, "comm_r = H(comm_c, comm_r_last)", *h, comm_r);
  }
  std::vector<Bit<Fr>> replica_id_bits;
  if (sha) {
    r1cs::Namespace ns(cs, [] { return std::string("replica_id bits"); });
    replica_id_bits = gadgets::unpack_fr32(cs, replica_id);
  }

  for (std::size_t j = 0; j < w.challenges.size(); ++j) {
    r1cs::Namespace ns(cs, [j] { return "challenge " + std::to_string(j); });
    const ChallengeProof& cp = w.challenges[j];
    const auto c_bits = index_bits(cs, nb, cp.node, indices[j * per]);

    // The data node is in comm_d.
    const Num<Fr> data = alloc_num(cs, "data", cp.data);
    {
      r1cs::Namespace ns_d(cs, [] { return std::string("comm_d path"); });
      std::vector<Num<Fr>> sibs;
      for (const auto& x : cp.data_path) sibs.push_back(alloc_num(cs, "sibling", x));
      if (sha) {
        auto bits = gadgets::unpack_fr32(cs, data);
        bits = gadgets::sha256_merkle_root(cs, std::move(bits), std::span<const Num<Fr>>(sibs),
                                           std::span<const Bit<Fr>>(c_bits));
        enforce_equal(cs, "root is comm_d", gadgets::pack_fr32<Fr>(bits), comm_d);
      } else {
        Num<Fr> cur = data;
        for (std::size_t l = 0; l < sibs.size(); ++l) {
          auto [left, right] = gadgets::conditional_swap(cs, c_bits[l].lc, c_bits[l].value, cur, sibs[l]);
          const Num<Fr> pair[2] = {left, right};
          auto h = gadgets::poseidon_gadget(cs, std::span<const Num<Fr>>(pair));
          if (!h.ok()) return h.status();
          cur = std::move(*h);
        }
        enforce_equal(cs, "root is comm_d", cur, comm_d);
      }
    }

    // Columns of the node and its parents open in comm_c.
    std::vector<std::vector<Num<Fr>>> labels(per);
    for (unsigned t = 0; t < per; ++t) {
      r1cs::Namespace ns_c(cs, [t] { return "column " + std::to_string(t); });
      const ColumnOpening& co = cp.columns[t];
      const auto bits = t == 0 ? c_bits : index_bits(cs, nb, co.node, indices[j * per + t]);
      for (const auto& x : co.labels) labels[t].push_back(alloc_num(cs, "label", x));
      auto h = gadgets::poseidon_gadget(cs, std::span<const Num<Fr>>(labels[t]));
      if (!h.ok()) return h.status();
      const auto sibs = alloc_octal_path(cs, co.path);
      auto root = gadgets::poseidon8_merkle_root(cs, *h, std::span<const std::array<Num<Fr>, 7>>(sibs),
                                                 std::span<const Bit<Fr>>(bits));
      if (!root.ok()) return root.status();
      enforce_equal(cs, "root is comm_c", *root, comm_c);
    }

    // Every label of the node is the hash of its parents' labels.
    std::map<std::pair<unsigned, unsigned>, std::vector<Bit<Fr>>> label_bits;  // (column, layer index)
    auto bits_of = [&](unsigned t, unsigned layer_index) -> const std::vector<Bit<Fr>>& {
      auto it = label_bits.find({t, layer_index});
      if (it == label_bits.end()) {
        it = label_bits.emplace(std::make_pair(t, layer_index), gadgets::unpack_fr32(cs, labels[t][layer_index]))
                 .first;
      }
      return it->second;
    };
    for (std::uint32_t layer = 1; layer <= s.layers; ++layer) {
      r1cs::Namespace ns_l(cs, [layer] { return "label of layer " + std::to_string(layer); });
      std::vector<std::pair<unsigned, unsigned>> parents;  // (column, layer index)
      for (unsigned t = 1; t <= s.base_degree; ++t) parents.emplace_back(t, layer - 1);
      if (layer > 1) {
        for (unsigned t = 1 + s.base_degree; t < per; ++t) parents.emplace_back(t, layer - 2);
      }
      Num<Fr> derived;
      if (sha) {
        auto msg = label_header(replica_id_bits, layer, c_bits);
        for (unsigned k = 0; k < s.parent_slots; ++k) {
          const auto [t, li] = parents[k % parents.size()];
          const auto& b = bits_of(t, li);
          msg.insert(msg.end(), b.begin(), b.end());
        }
        auto digest = gadgets::sha256_bits<Fr>(cs, std::span<const Bit<Fr>>(msg));
        digest[8 * 31 + 0] = Bit<Fr>::of_constant(false);  // Fr32: byte 31 & 0x3f
        digest[8 * 31 + 1] = Bit<Fr>::of_constant(false);
        derived = gadgets::pack_fr32<Fr>(digest);
      } else {
        std::vector<Num<Fr>> in{replica_id};
        Num<Fr> tag = Num<Fr>::constant(Fr::from_u64(layer) * Fr::from_u64(1ull << 32) * Fr::from_u64(1ull << 32));
        Fr wgt = Fr::one();
        for (const auto& b : c_bits) {
          tag.lc += b.lc * wgt;
          if (b.value) tag.value = tag.value + wgt;
          wgt = wgt.dbl();
        }
        in.push_back(tag);
        for (unsigned k = 0; k < s.parent_slots; ++k) {
          const auto [t, li] = parents[k % parents.size()];
          in.push_back(labels[t][li]);
        }
        auto h = gadgets::poseidon_gadget(cs, std::span<const Num<Fr>>(in));
        if (!h.ok()) return h.status();
        derived = std::move(*h);
      }
      enforce_equal(cs, "label = H(parents)", derived, labels[0][layer - 1]);
    }

    // The replica node (data + key) is in comm_r_last.
    {
      r1cs::Namespace ns_r(cs, [] { return std::string("comm_r_last path"); });
      const Num<Fr> replica = data + labels[0][s.layers - 1];
      const auto sibs = alloc_octal_path(cs, cp.replica_path);
      auto root = gadgets::poseidon8_merkle_root(cs, replica, std::span<const std::array<Num<Fr>, 7>>(sibs),
                                                 std::span<const Bit<Fr>>(c_bits));
      if (!root.ok()) return root.status();
      enforce_equal(cs, "root is comm_r_last", *root, comm_r_last);
    }
  }
  return {};
}

}  // namespace zk::circuits::porep
