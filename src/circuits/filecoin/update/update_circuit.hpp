#pragma once

// Filecoin's EmptySectorUpdate (SnapDeals) partition circuit, constraint for constraint
// rust-fil-proofs' storage-proofs-update `EmptySectorUpdateCircuit` (circuit.rs: tree D new is
// SHA-256, the one filecoin-proofs uses) and its Poseidon variant (poseidon/circuit.rs: tree D new
// has tree R's shape and hash, one partition). docs/filecoin-update.md has the walk-through.
//
// A partition proves `challenges` nodes of the updated sector: for each, the old replica leaf in
// tree R old, the new data leaf in tree D new and the new replica leaf = old + data * rho in tree
// R new, where rho = H(phi, the challenge's h high bits), phi = H(comm_d_new, comm_r_old) and the
// challenges are drawn inside the circuit from comm_r_new (H: Poseidon-2 with the gen-randomness
// tag). comm_r_old / comm_r_new = Poseidon(comm_c, root of tree R old / new).
//
// Public inputs (ONE excluded): [k_and_h_select, comm_r_old, comm_d_new, comm_r_new] with
// k_and_h_select = k | h_select << log2(partitions); the Poseidon variant's first input is h_select.
// The same synthesize counts, records shapes, checks and proves; a blank witness has the exact shape.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/update/update_gadgets.hpp"
#include "gadgets/por.hpp"

namespace zk::circuits::filecoin {

using Fr = gadgets::Fr;
using gadgets::Bit;
using gadgets::Num;

inline constexpr unsigned kUpdateHCount = 6;  // constants.rs hs(): six allowed h per sector size

/// Which tree commits to the new data: SHA-256 binary (circuit.rs, SnapDeals) or tree R's shape
/// and Poseidon (poseidon/circuit.rs).
enum class UpdateTreeD { kSha256, kPoseidon };

/// The dimensions of one partition's circuit (constants.rs, vanilla.rs PublicParams).
struct UpdateShape {
  UpdateTreeD tree_d_kind = UpdateTreeD::kSha256;
  std::uint64_t nodes = 0;           // sector bytes / 32
  unsigned challenge_bits = 0;       // log2(nodes)
  unsigned partitions = 1;           // Poseidon variant: 1
  unsigned partition_bits = 0;       // log2(partitions)
  unsigned challenges = 0;           // per partition (Poseidon variant: all partitions' worth)
  unsigned apex_leaves = 0;          // per partition (Poseidon variant: 0)
  unsigned apex_bits = 0;            // log2(apex_leaves)
  std::array<unsigned, kUpdateHCount> hs{};  // the allowed h; h_select = 2^index
  gadgets::TreeShape tree_r;         // trees R old and R new: Poseidon, base 8, sub, top
  gadgets::TreeShape tree_d;         // tree D new: SHA-256 binary, or tree_r's shape
  std::size_t num_inputs() const { return 5; }  // ONE included
  /// Levels of tree D new below the apex leaves (the per-challenge SHA-256 path).
  unsigned apex_path_levels() const { return challenge_bits - partition_bits - apex_bits; }
};

/// Sector sizes constants.rs allows: 1, 2, 4, 8, 16, 32 KiB (tests), 8 and 16 MiB, 512 MiB, 32 and
/// 64 GiB (published: 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB).
const std::vector<std::uint64_t>& update_sector_sizes();
Result<UpdateShape> update_shape(std::uint64_t sector_bytes, UpdateTreeD tree_d = UpdateTreeD::kSha256);

/// h_select = 2^i for h = hs[i] (the first index holding h); an h the size does not allow is refused.
Result<std::uint64_t> update_h_select(const UpdateShape& s, unsigned h);
/// The production h (constants.rs h_default: hs[3], 10 for production sizes, 1 for test sizes).
inline unsigned update_h_default(const UpdateShape& s) { return s.hs[3]; }

/// [k_and_h_select, comm_r_old, comm_d_new, comm_r_new] for partition k (compound.rs
/// generate_public_inputs); the Poseidon variant: [h_select, ...] and k must be 0.
Result<std::vector<Fr>> update_public_inputs(const UpdateShape& s, unsigned k, unsigned h, const Fr& comm_r_old,
                                             const Fr& comm_d_new, const Fr& comm_r_new);

/// phi = H(comm_d_new, comm_r_old) and rho = H(phi, high) (vanilla.rs; H: gen-randomness Poseidon).
Fr update_phi(const Fr& comm_d_new, const Fr& comm_r_old);
Fr update_rho(const Fr& phi, std::uint64_t high);

/// The challenged nodes of partition k (challenges.rs): digest j = H(comm_r_new, k * digests + j),
/// each challenge the next (challenge_bits - partition_bits) bits of it, least significant first,
/// with k's bits above them. The Poseidon variant draws all challenges from digest 0 on, k = 0.
std::vector<std::uint64_t> update_challenges(const UpdateShape& s, const Fr& comm_r_new, unsigned k);

/// One challenge's witness: the old replica leaf, the new data leaf and the paths (siblings used,
/// the indices are the challenge's bits inside the circuit). path_d_new runs to comm_d_new: the
/// circuit takes its levels below the apex leaves and, from challenge 0, the partition path.
struct UpdateChallengeWitness {
  Fr leaf_r_old, leaf_d_new;
  std::vector<gadgets::PathLevel> path_r_old, path_d_new, path_r_new;
};

struct UpdateWitness {
  Fr k_and_h_select;  // the Poseidon variant: h_select
  Fr comm_r_old, comm_d_new, comm_r_new;
  Fr comm_c, root_r_old, root_r_new;
  std::vector<Fr> apex_leaves;  // the partition's apex leaves (tree D new); none in the Poseidon variant
  std::vector<UpdateChallengeWitness> challenges;
  /// Zeros of the right shape: counting and key generation.
  static UpdateWitness blank(const UpdateShape& s);
};

/// The shape and path lengths of `w` against `s` (synthesize checks this before allocating).
Status check_update_witness(const UpdateShape& s, const UpdateWitness& w);

// ---- Natively: an update made in memory (tests; the vanilla proof's source).

/// A sector updated in memory: old replica (a sealed sector's replica), new data, the new replica
/// new = old + data * rho(node >> (challenge_bits - h)), the three trees and the commitments.
struct UpdatedSector {
  unsigned h = 0;
  Fr comm_c, comm_r_old, comm_d_new, comm_r_new, phi;
  std::vector<Fr> replica_old, data_new, replica_new;
  gadgets::FilecoinTree tree_r_old, tree_d_new, tree_r_new;
};
/// Data for tree D new (SHA-256 variant) must be Fr32 (below 2^254).
Result<UpdatedSector> update_in_memory(const UpdateShape& s, unsigned h, const Fr& comm_c, std::vector<Fr> replica_old,
                                       std::vector<Fr> data_new);
/// The witness of partition k (its apex leaves, the challenges' leaves and paths).
Result<UpdateWitness> update_partition_witness(const UpdateShape& s, const UpdatedSector& sector, unsigned k);

// ---- The circuits.

namespace update::detail {
/// Allocates `v` and makes it an input (inputize: one constraint, input * ONE = the number).
template <class CS>
Num<Fr> public_num(CS& cs, const char* what, const Fr& v) {
  const Num<Fr> n = alloc_num(cs, what, v);
  (void)gadgets::inputize<Fr>(cs, n);
  return n;
}
/// `bit_len` bits of x allocated (least significant first) and sum 2^i b_i * ONE = x.
template <class CS>
std::vector<Bit<Fr>> decompose(CS& cs, const Num<Fr>& x, unsigned bit_len) {
  const auto repr = x.value.to_canonical();
  std::vector<Bit<Fr>> bits;
  r1cs::LinearCombination<Fr> packed;
  Fr coeff = Fr::one();
  for (unsigned i = 0; i < bit_len; ++i) {
    bits.push_back(Bit<Fr>::alloc(cs, ((repr[i / 64] >> (i % 64)) & 1) != 0));
    packed.add(coeff, bits.back().var);
    coeff = coeff.dbl();
  }
  cs.enforce(detail::name("binary decomp"), packed, detail::one(), x.lc);
  return bits;
}
/// comm_r = Poseidon-2(comm_c, root) (hash2_circuit, the MerkleTree tag), then calc * ONE = comm_r.
template <class CS>
Status check_comm_r(CS& cs, const Num<Fr>& comm_c, const Num<Fr>& root, const Num<Fr>& comm_r) {
  const Num<Fr> pre[] = {comm_c, root};
  auto calc = gadgets::poseidon_gadget(cs, std::span<const Num<Fr>>(pre));
  if (!calc.ok()) return calc.status();
  gadgets::enforce_equal(cs, *calc, comm_r);
  return {};
}
/// The per-challenge head both circuits share: rho, the two leaves, the new leaf, and the paths in
/// trees R old and R new. Returns leaf_d_new for the caller's tree D path.
template <class CS>
Result<Num<Fr>> challenge_head(CS& cs, const UpdateShape& s, const UpdateChallengeWitness& cw,
                               std::span<const Bit<Fr>> c_bits, std::span<const Bit<Fr>> h_select_bits,
                               const Num<Fr>& phi, const Num<Fr>& root_r_old, const Num<Fr>& root_r_new) {
  const Num<Fr> c_high = challenge_high_bits(cs, c_bits, h_select_bits, std::span<const unsigned>(s.hs));
  const Num<Fr> rho = gen_randomness_gadget(cs, phi, c_high);
  const Num<Fr> leaf_r_old = alloc_num(cs, "leaf_r_old", cw.leaf_r_old);
  const Num<Fr> leaf_d_new = alloc_num(cs, "leaf_d_new", cw.leaf_d_new);
  const Num<Fr> leaf_r_new = label_r_new(cs, leaf_r_old, leaf_d_new, rho);
  const auto path_r_old = alloc_path(cs, std::span<const gadgets::PathLevel>(cw.path_r_old));
  if (Status st = por_no_challenge_input(cs, s.tree_r, c_bits, leaf_r_old, path_r_old, root_r_old); !st.ok()) return st;
  const auto path_r_new = alloc_path(cs, std::span<const gadgets::PathLevel>(cw.path_r_new));
  if (Status st = por_no_challenge_input(cs, s.tree_r, c_bits, leaf_r_new, path_r_new, root_r_new); !st.ok()) return st;
  return leaf_d_new;
}
}  // namespace update::detail

/// circuit.rs: EmptySectorUpdateCircuit (tree D new SHA-256).
template <class CS>
Status synthesize_update(CS& cs, const UpdateShape& s, const UpdateWitness& w) {
  namespace ud = update::detail;
  if (s.tree_d_kind != UpdateTreeD::kSha256) return Status::invalid_argument("synthesize_update: a SHA-256 tree D shape");
  if (Status st = check_update_witness(s, w); !st.ok()) return st;

  // k and h_select: one input, decomposed into partition bits then h_select bits.
  const Num<Fr> k_and_h_select = ud::public_num(cs, "k_and_h_select", w.k_and_h_select);
  const std::vector<Bit<Fr>> kh_bits = ud::decompose(cs, k_and_h_select, s.partition_bits + kUpdateHCount);
  const std::span<const Bit<Fr>> partition_bits = std::span<const Bit<Fr>>(kh_bits).first(s.partition_bits);
  const std::span<const Bit<Fr>> h_select_bits = std::span<const Bit<Fr>>(kh_bits).subspan(s.partition_bits);
  const Num<Fr> partition = gadgets::pack_bits<Fr>(cs, partition_bits);

  const Num<Fr> comm_r_old = ud::public_num(cs, "comm_r_old", w.comm_r_old);
  const Num<Fr> comm_d_new = ud::public_num(cs, "comm_d_new", w.comm_d_new);
  const Num<Fr> comm_r_new = ud::public_num(cs, "comm_r_new", w.comm_r_new);
  const Num<Fr> phi = update::gen_randomness_gadget(cs, comm_d_new, comm_r_old);

  const Num<Fr> comm_c = update::alloc_num(cs, "comm_c", w.comm_c);
  const Num<Fr> root_r_old = update::alloc_num(cs, "root_r_old", w.root_r_old);
  const Num<Fr> root_r_new = update::alloc_num(cs, "root_r_new", w.root_r_new);
  std::vector<Num<Fr>> apex_leaves;
  apex_leaves.reserve(w.apex_leaves.size());
  for (const Fr& v : w.apex_leaves) apex_leaves.push_back(update::alloc_num(cs, "apex_leaf", v));
  const auto& path_d0 = w.challenges[0].path_d_new;
  const auto partition_path =
      update::alloc_path(cs, std::span<const gadgets::PathLevel>(path_d0).subspan(s.challenge_bits - s.partition_bits));

  if (Status st = ud::check_comm_r(cs, comm_c, root_r_old, comm_r_old); !st.ok()) return st;
  if (Status st = ud::check_comm_r(cs, comm_c, root_r_new, comm_r_new); !st.ok()) return st;
  {
    r1cs::Namespace ns(cs, [] { return std::string("apex_gadget"); });
    if (Status st = update::apex_por(cs, std::span<const Num<Fr>>(apex_leaves), partition_bits, partition_path, comm_d_new);
        !st.ok()) {
      return st;
    }
  }
  const auto generated = update::gen_challenge_bits(cs, comm_r_new, partition, s.challenges, s.challenge_bits - s.partition_bits);

  const gadgets::TreeShape apex_path_tree{gadgets::TreeHasher::kSha256, std::vector<unsigned>(s.apex_path_levels(), 2)};
  for (std::size_t i = 0; i < generated.size(); ++i) {
    r1cs::Namespace ns(cs, [i] { return "challenge " + std::to_string(i); });
    const auto& cw = w.challenges[i];
    std::vector<Bit<Fr>> c_bits = generated[i];
    c_bits.insert(c_bits.end(), partition_bits.begin(), partition_bits.end());
    auto leaf_d_new =
        ud::challenge_head(cs, s, cw, std::span<const Bit<Fr>>(c_bits), h_select_bits, phi, root_r_old, root_r_new);
    if (!leaf_d_new.ok()) return leaf_d_new.status();
    // The data leaf's path up to its apex leaf, which is selected by the next apex_bits bits.
    const std::span<const Bit<Fr>> all(c_bits);
    const Num<Fr> apex_leaf = gadgets::select<Fr>(cs, std::span<const Num<Fr>>(apex_leaves),
                                                  all.subspan(s.apex_path_levels(), s.apex_bits));
    const auto path_to_apex =
        update::alloc_path(cs, std::span<const gadgets::PathLevel>(cw.path_d_new).first(s.apex_path_levels()));
    if (Status st = update::por_no_challenge_input(cs, apex_path_tree, all.first(s.apex_path_levels()), *leaf_d_new, path_to_apex,
                                           apex_leaf);
        !st.ok()) {
      return st;
    }
  }
  return {};
}

/// poseidon/circuit.rs: the Poseidon variant (tree D new with tree R's shape, one partition).
template <class CS>
Status synthesize_update_poseidon(CS& cs, const UpdateShape& s, const UpdateWitness& w) {
  namespace ud = update::detail;
  if (s.tree_d_kind != UpdateTreeD::kPoseidon) {
    return Status::invalid_argument("synthesize_update_poseidon: a Poseidon tree D shape");
  }
  if (Status st = check_update_witness(s, w); !st.ok()) return st;

  const Num<Fr> h_select = ud::public_num(cs, "h_select", w.k_and_h_select);
  const std::vector<Bit<Fr>> h_select_bits = ud::decompose(cs, h_select, kUpdateHCount);
  const Num<Fr> comm_r_old = ud::public_num(cs, "comm_r_old", w.comm_r_old);
  const Num<Fr> comm_d_new = ud::public_num(cs, "comm_d_new", w.comm_d_new);
  const Num<Fr> comm_r_new = ud::public_num(cs, "comm_r_new", w.comm_r_new);
  const Num<Fr> phi = update::gen_randomness_gadget(cs, comm_d_new, comm_r_old);

  const Num<Fr> comm_c = update::alloc_num(cs, "comm_c", w.comm_c);
  const Num<Fr> root_r_old = update::alloc_num(cs, "root_r_old", w.root_r_old);
  const Num<Fr> root_r_new = update::alloc_num(cs, "root_r_new", w.root_r_new);
  if (Status st = ud::check_comm_r(cs, comm_c, root_r_old, comm_r_old); !st.ok()) return st;
  if (Status st = ud::check_comm_r(cs, comm_c, root_r_new, comm_r_new); !st.ok()) return st;

  const Num<Fr> partition = update::alloc_num(cs, "gen_challenge_bits partition zero", Fr::zero());
  const auto generated = update::gen_challenge_bits(cs, comm_r_new, partition, s.challenges, s.challenge_bits);
  for (std::size_t i = 0; i < generated.size(); ++i) {
    r1cs::Namespace ns(cs, [i] { return "challenge " + std::to_string(i); });
    const auto& cw = w.challenges[i];
    const std::span<const Bit<Fr>> c_bits(generated[i]);
    auto leaf_d_new = ud::challenge_head(cs, s, cw, c_bits, std::span<const Bit<Fr>>(h_select_bits), phi, root_r_old,
                                         root_r_new);
    if (!leaf_d_new.ok()) return leaf_d_new.status();
    const auto path_d_new = update::alloc_path(cs, std::span<const gadgets::PathLevel>(cw.path_d_new));
    if (Status st = update::por_no_challenge_input(cs, s.tree_d, c_bits, *leaf_d_new, path_d_new, comm_d_new); !st.ok()) return st;
  }
  return {};
}

}  // namespace zk::circuits::filecoin
