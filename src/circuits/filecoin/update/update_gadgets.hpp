#pragma once

// The gadgets of Filecoin's EmptySectorUpdate (SnapDeals) circuit, constraint for constraint those
// of rust-fil-proofs storage-proofs-update `gadgets.rs` (and storage-proofs-core's
// `por_no_challenge_input`), built on zkpipe's exact gadgets (docs/filecoin-update.md):
//
//   gen_randomness_gadget  neptune Poseidon-2 with the custom domain tag 2^40 (constants.rs:
//                          HashType::Custom(CType::Arbitrary(1))): phi, rho and the challenge digests
//   por_no_challenge_input a Merkle path whose index bits and siblings are already allocated: per
//                          level insert + node hash, then computed root * ONE = root; no input
//   allocated_num_to_bits  255 allocated bits (least significant first), then sum 2^i b_i * ONE = x
//                          (note: not to_bits_le's 0 * 0 = sum - x)
//   gen_challenge_bits     per digest j: digest_index = k * digests + j (one constraint),
//                          H(comm_r_new, digest_index), its 255 bits; challenges cut from the bits
//   challenge_high_bits    per allowed h: pack the h high bits, times the h_select bit; their sum
//   label_r_new            product = d * rho, (r_old + product) * ONE = r_new
//   apex_por               the partition's apex tree (SHA-256 pairs) and its path to comm_d_new
//
// Counts: gen_challenge_bits 568 per digest; apex_por 7 x 45,379 + 1 = 317,654 for eight apex
// leaves and one partition (rust-fil-proofs' gadget pins, tests/circuits/filecoin/update_circuit_test).

#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/insertion.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/num.hpp"
#include "gadgets/por.hpp"
#include "gadgets/poseidon.hpp"

namespace zk::circuits::filecoin::update {

using Fr = gadgets::Fr;
using gadgets::Bit;
using gadgets::Num;

/// neptune's domain tag of HashType::Custom(CType::Arbitrary(1)): identifier * 2^40.
inline constexpr std::uint64_t kGenRandomnessTag = std::uint64_t{1} << 40;

/// Poseidon arity 2 (neptune's Standard strength: the same round constants and matrices as the
/// MerkleTree hash) with the tag above: POSEIDON_CONSTANTS_GEN_RANDOMNESS. Built once.
const gadgets::PoseidonParams& gen_randomness_params();
/// H(a, b) with those constants, natively.
Fr gen_randomness_hash(const Fr& a, const Fr& b);

namespace detail {
inline r1cs::LinearCombination<Fr> one() { return r1cs::LinearCombination<Fr>(r1cs::Variable::one()); }
inline auto name(const char* n) {
  return [n] { return std::string(n); };
}
}  // namespace detail

using gadgets::poseidon_gadget_with;  // neptune's poseidon_hash with explicit parameters

/// H(a, b) with the gen-randomness constants (311 constraints).
template <class CS>
Num<Fr> gen_randomness_gadget(CS& cs, const Num<Fr>& a, const Num<Fr>& b) {
  const Num<Fr> pre[] = {a, b};
  return poseidon_gadget_with(cs, gen_randomness_params(), std::span<const Num<Fr>>(pre));
}

/// A new allocated variable holding `v`.
template <class CS>
Num<Fr> alloc_num(CS& cs, const char* what, const Fr& v) {
  return Num<Fr>::alloc(cs, detail::name(what), v);
}

/// `x`'s bits, each allocated (least significant first, Fr's 255), then sum 2^i b_i * ONE = x
/// (gadgets.rs allocated_num_to_allocated_bits; bellpepper field_into_allocated_bits_le).
template <class CS>
std::vector<Bit<Fr>> allocated_num_to_bits(CS& cs, const Num<Fr>& x) {
  const auto repr = x.value.to_canonical();
  std::vector<Bit<Fr>> bits;
  bits.reserve(Fr::kBits);
  r1cs::LinearCombination<Fr> packed;
  Fr coeff = Fr::one();
  for (unsigned i = 0; i < Fr::kBits; ++i) {
    bits.push_back(Bit<Fr>::alloc(cs, ((repr[i / 64] >> (i % 64)) & 1) != 0));
    packed.add(coeff, bits.back().var);
    coeff = coeff.dbl();
  }
  cs.enforce(detail::name("binary decomp"), packed, detail::one(), x.lc);
  return bits;
}

/// Allocates every sibling of a path, level by level (leaf level first), in order.
template <class CS>
std::vector<std::vector<Num<Fr>>> alloc_path(CS& cs, std::span<const gadgets::PathLevel> path) {
  std::vector<std::vector<Num<Fr>>> out;
  out.reserve(path.size());
  for (const auto& level : path) {
    std::vector<Num<Fr>> sib;
    sib.reserve(level.siblings.size());
    for (const Fr& v : level.siblings) sib.push_back(alloc_num(cs, "path sibling", v));
    out.push_back(std::move(sib));
  }
  return out;
}

/// storage-proofs-core por_no_challenge_input: the index bits (least significant first, leaf level
/// first) and the siblings are allocated already; per level the node is inserted among its
/// siblings and the level hashed; then computed root * ONE = root. Every bit must be used.
template <class CS>
Status por_no_challenge_input(CS& cs, const gadgets::TreeShape& shape, std::span<const Bit<Fr>> bits, const Num<Fr>& leaf,
                              const std::vector<std::vector<Num<Fr>>>& path, const Num<Fr>& root) {
  if (path.size() != shape.arities.size()) {
    return Status::invalid_argument("a path of " + std::to_string(path.size()) + " levels for a tree of " +
                                    std::to_string(shape.arities.size()));
  }
  Num<Fr> cur = leaf;
  std::size_t at = 0;
  for (std::size_t l = 0; l < path.size(); ++l) {
    const unsigned arity = shape.arities[l];
    unsigned nb = 0;
    while ((1u << nb) < arity) ++nb;
    if ((1u << nb) != arity || path[l].size() + 1 != arity || at + nb > bits.size()) {
      return Status::invalid_argument("path level " + std::to_string(l) + " does not fit arity " + std::to_string(arity) +
                                      " and the index bits");
    }
    auto children = gadgets::insert<Fr>(cs, cur, bits.subspan(at, nb), std::span<const Num<Fr>>(path[l]));
    if (!children.ok()) return children.status();
    auto h = gadgets::tree_node_gadget(cs, shape.hasher, std::span<const Num<Fr>>(*children));
    if (!h.ok()) return h.status();
    cur = *h;
    at += nb;
  }
  if (at != bits.size()) {
    return Status::invalid_argument(std::to_string(bits.size()) + " index bits for a tree of " + std::to_string(at));
  }
  gadgets::enforce_equal(cs, cur, root);
  return {};
}

/// Each challenge's random bits (gadgets.rs gen_challenge_bits): ceil(challenges / (254 /
/// bits_per_challenge)) digests; digest j of partition k is H(comm_r_new, k * digests + j), and the
/// challenges are its bits cut into bits_per_challenge pieces from the least significant end.
template <class CS>
std::vector<std::vector<Bit<Fr>>> gen_challenge_bits(CS& cs, const Num<Fr>& comm_r_new, const Num<Fr>& partition,
                                                     std::size_t challenges, std::size_t bits_per_challenge) {
  const std::size_t per_digest = gadgets::kFieldCapacity / bits_per_challenge;
  const std::size_t digests = (challenges + per_digest - 1) / per_digest;
  const Fr dpp = Fr::from_u64(digests);
  std::vector<std::vector<Bit<Fr>>> out;
  out.reserve(challenges);
  for (std::size_t j = 0; j < digests; ++j) {
    const Fr jj = Fr::from_u64(j);
    const Num<Fr> digest_index = alloc_num(cs, "digest_index", partition.value * dpp + jj);
    r1cs::LinearCombination<Fr> a = partition.lc * dpp;
    a.add(jj, r1cs::Variable::one());
    cs.enforce(detail::name("digest_index == k * digests_per_partition + j"), a, detail::one(), digest_index.lc);
    const Num<Fr> digest = gen_randomness_gadget(cs, comm_r_new, digest_index);
    const std::vector<Bit<Fr>> bits = allocated_num_to_bits(cs, digest);
    const std::size_t take = j + 1 == digests ? challenges - out.size() : per_digest;
    for (std::size_t c = 0; c < take; ++c) {
      out.emplace_back(bits.begin() + static_cast<std::ptrdiff_t>(c * bits_per_challenge),
                       bits.begin() + static_cast<std::ptrdiff_t>((c + 1) * bits_per_challenge));
    }
  }
  return out;
}

/// The h high bits of a challenge, h chosen by h_select (one bit set): per allowed h its high bits
/// packed (pack_bits), times its h_select bit into a new variable; then their sum as a new variable.
/// 2 |hs| + 1 constraints.
template <class CS>
Num<Fr> challenge_high_bits(CS& cs, std::span<const Bit<Fr>> c_bits, std::span<const Bit<Fr>> h_select_bits,
                            std::span<const unsigned> hs) {
  std::vector<Num<Fr>> parts;
  parts.reserve(hs.size());
  for (std::size_t k = 0; k < hs.size(); ++k) {
    const Num<Fr> c_high = gadgets::pack_bits<Fr>(cs, c_bits.last(hs[k]));
    const Fr v = h_select_bits[k].value ? c_high.value : Fr::zero();
    const Num<Fr> or_zero = alloc_num(cs, "c_high_or_zero", v);
    cs.enforce(detail::name("c_high_or_zero == c_high * h_select_bit"), c_high.lc, h_select_bits[k].lc(), or_zero.lc);
    parts.push_back(or_zero);
  }
  Num<Fr> sum;
  sum.value = Fr::zero();
  for (const auto& p : parts) sum += p;
  const Num<Fr> selected = alloc_num(cs, "c_high_selected", sum.value);
  cs.enforce(detail::name("c_high_selected == dot(c_highs, h_select_bits)"), sum.lc, detail::one(), selected.lc);
  return selected;
}

/// The encoding of one node: r_new = r_old + d * rho (two constraints).
template <class CS>
Num<Fr> label_r_new(CS& cs, const Num<Fr>& label_r_old, const Num<Fr>& label_d_new, const Num<Fr>& rho) {
  const Num<Fr> product = Num<Fr>::mul(cs, detail::name("label_d_new * rho"), label_d_new, rho);
  const Num<Fr> out = alloc_num(cs, "label_r_new", label_r_old.value + product.value);
  cs.enforce(detail::name("label_r_new == label_r_old + label_d_new * rho"), label_r_old.lc + product.lc, detail::one(),
             out.lc);
  return out;
}

/// The partition's apex tree: the apex leaves (a power of two) hashed pairwise (SHA-256 node hash)
/// row by row to the apex root, then its path (the partition bits and one sibling per level) to
/// comm_d.
template <class CS>
Status apex_por(CS& cs, std::span<const Num<Fr>> apex_leaves, std::span<const Bit<Fr>> partition_bits,
                const std::vector<std::vector<Num<Fr>>>& partition_path, const Num<Fr>& comm_d) {
  if (apex_leaves.empty() || (apex_leaves.size() & (apex_leaves.size() - 1)) != 0) {
    return Status::invalid_argument("the apex leaves must be a power of two, not " + std::to_string(apex_leaves.size()));
  }
  std::vector<Num<Fr>> row(apex_leaves.begin(), apex_leaves.end());
  while (row.size() > 1) {
    std::vector<Num<Fr>> up;
    up.reserve(row.size() / 2);
    for (std::size_t i = 0; i < row.size(); i += 2) {
      auto h = gadgets::tree_node_gadget(cs, gadgets::TreeHasher::kSha256, std::span<const Num<Fr>>(row).subspan(i, 2));
      if (!h.ok()) return h.status();
      up.push_back(*h);
    }
    row = std::move(up);
  }
  const gadgets::TreeShape partition_tree{gadgets::TreeHasher::kSha256, std::vector<unsigned>(partition_bits.size(), 2)};
  return por_no_challenge_input(cs, partition_tree, partition_bits, row[0], partition_path, comm_d);
}

}  // namespace zk::circuits::filecoin::update
