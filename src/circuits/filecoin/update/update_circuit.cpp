#include "circuits/filecoin/update/update_circuit.hpp"

#include <algorithm>
#include <memory>

namespace zk::circuits::filecoin {

namespace update {

const gadgets::PoseidonParams& gen_randomness_params() {
  // Same strength, hence the same constants and matrices as the MerkleTree hash of arity 2
  // (neptune PoseidonConstants::new_with_strength_and_type); only lane 0's tag differs.
  static const std::unique_ptr<const gadgets::PoseidonParams> params = [] {
    auto merkle = gadgets::poseidon_params(2);
    auto p = std::make_unique<gadgets::PoseidonParams>(**merkle);
    p->domain_tag = Fr::from_u64(kGenRandomnessTag);
    return p;
  }();
  return *params;
}

Fr gen_randomness_hash(const Fr& a, const Fr& b) {
  const gadgets::PoseidonParams& p = gen_randomness_params();
  std::array<Fr, 3> s = {p.domain_tag, a, b};
  gadgets::poseidon_permute_optimized(p, std::span<Fr>(s));
  return s[1];
}

}  // namespace update

namespace {

constexpr std::uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

/// constants.rs validate_tree_r_shape: tree R's sub and top arities per sector size (base 8).
struct UpdateSize {
  std::uint64_t bytes;
  unsigned sub_arity, top_arity;
};
constexpr UpdateSize kSizes[] = {
    {1 * kKiB, 4, 0},   {2 * kKiB, 0, 0},   {4 * kKiB, 2, 0}, {8 * kKiB, 4, 0},  {16 * kKiB, 8, 0}, {32 * kKiB, 8, 2},
    {8 * kMiB, 0, 0},   {16 * kMiB, 2, 0},  {512 * kMiB, 0, 0}, {32 * kGiB, 8, 0}, {64 * kGiB, 8, 2},
};

// constants.rs, in sector nodes.
constexpr std::uint64_t k8KiBNodes = 1 << 8, k32KiBNodes = 1 << 10, k16MiBNodes = 1 << 19;

unsigned log2_exact(std::uint64_t x) {
  unsigned n = 0;
  while ((std::uint64_t{1} << n) < x) ++n;
  return n;
}

/// Tree R of a sector: base levels of 8, then the sub and top levels.
gadgets::TreeShape tree_r_shape(std::uint64_t nodes, unsigned sub, unsigned top) {
  gadgets::TreeShape t{gadgets::TreeHasher::kPoseidon, {}};
  for (std::uint64_t base = nodes / (sub == 0 ? 1 : sub) / (top == 0 ? 1 : top); base > 1; base /= 8) {
    t.arities.push_back(8);
  }
  if (sub != 0) t.arities.push_back(sub);
  if (top != 0) t.arities.push_back(top);
  return t;
}

std::string bytes_name(std::uint64_t b) {
  if (b % kGiB == 0) return std::to_string(b / kGiB) + " GiB";
  if (b % kMiB == 0) return std::to_string(b / kMiB) + " MiB";
  if (b % kKiB == 0) return std::to_string(b / kKiB) + " KiB";
  return std::to_string(b) + " bytes";
}

Status check_path(const gadgets::TreeShape& tree, const std::vector<gadgets::PathLevel>& path, const std::string& what) {
  if (path.size() != tree.arities.size()) {
    return Status::invalid_argument(what + " has " + std::to_string(path.size()) + " levels, the tree " +
                                    std::to_string(tree.arities.size()));
  }
  for (std::size_t l = 0; l < path.size(); ++l) {
    if (path[l].siblings.size() + 1 != tree.arities[l]) {
      return Status::invalid_argument(what + " level " + std::to_string(l) + " has " +
                                      std::to_string(path[l].siblings.size()) + " siblings, arity " +
                                      std::to_string(tree.arities[l]));
    }
  }
  return {};
}

}  // namespace

const std::vector<std::uint64_t>& update_sector_sizes() {
  static const std::vector<std::uint64_t> sizes = [] {
    std::vector<std::uint64_t> v;
    for (const auto& s : kSizes) v.push_back(s.bytes);
    return v;
  }();
  return sizes;
}

Result<UpdateShape> update_shape(std::uint64_t sector_bytes, UpdateTreeD tree_d) {
  const auto* size = std::find_if(std::begin(kSizes), std::end(kSizes), [&](const UpdateSize& s) { return s.bytes == sector_bytes; });
  if (size == std::end(kSizes)) {
    return Status::invalid_argument("EmptySectorUpdate has no circuit for sectors of " + bytes_name(sector_bytes) +
                                    " (1, 2, 4, 8, 16, 32 KiB, 8, 16, 512 MiB, 32, 64 GiB)");
  }
  UpdateShape s;
  s.tree_d_kind = tree_d;
  s.nodes = sector_bytes / 32;
  s.challenge_bits = log2_exact(s.nodes);
  // constants.rs partition_count, challenge_count, apex_leaf_count, hs.
  const unsigned partitions = s.nodes <= k8KiBNodes ? 1 : s.nodes <= k32KiBNodes ? 2 : s.nodes <= k16MiBNodes ? 4 : 16;
  const unsigned challenges = s.nodes <= k16MiBNodes ? 10 : 86;
  if (s.nodes <= k32KiBNodes) {
    s.hs.fill(1);
  } else {
    for (unsigned i = 0; i < kUpdateHCount; ++i) s.hs[i] = 7 + i;
  }
  s.tree_r = tree_r_shape(s.nodes, size->sub_arity, size->top_arity);
  if (tree_d == UpdateTreeD::kSha256) {
    s.partitions = partitions;
    s.partition_bits = log2_exact(partitions);
    s.challenges = challenges;
    s.apex_leaves = s.nodes <= k8KiBNodes ? 8 : 128;
    s.apex_bits = log2_exact(s.apex_leaves);
    s.tree_d = {gadgets::TreeHasher::kSha256, std::vector<unsigned>(s.challenge_bits, 2)};
  } else {
    // from_sector_size_poseidon: one partition proving every partition's challenges.
    s.challenges = challenges * partitions;
    s.tree_d = s.tree_r;
  }
  return s;
}

Result<std::uint64_t> update_h_select(const UpdateShape& s, unsigned h) {
  for (unsigned i = 0; i < kUpdateHCount; ++i) {
    if (s.hs[i] == h) return std::uint64_t{1} << i;
  }
  return Status::invalid_argument("h = " + std::to_string(h) + " is not allowed for this sector size (allowed: " +
                                  std::to_string(s.hs.front()) + " .. " + std::to_string(s.hs.back()) + ")");
}

Result<std::vector<Fr>> update_public_inputs(const UpdateShape& s, unsigned k, unsigned h, const Fr& comm_r_old,
                                             const Fr& comm_d_new, const Fr& comm_r_new) {
  if (k >= s.partitions) {
    return Status::invalid_argument("partition " + std::to_string(k) + " of " + std::to_string(s.partitions));
  }
  auto h_select = update_h_select(s, h);
  if (!h_select.ok()) return h_select.status();
  const std::uint64_t first = std::uint64_t{k} | (*h_select << s.partition_bits);
  return std::vector<Fr>{Fr::from_u64(first), comm_r_old, comm_d_new, comm_r_new};
}

Fr update_phi(const Fr& comm_d_new, const Fr& comm_r_old) { return update::gen_randomness_hash(comm_d_new, comm_r_old); }

Fr update_rho(const Fr& phi, std::uint64_t high) { return update::gen_randomness_hash(phi, Fr::from_u64(high)); }

std::vector<std::uint64_t> update_challenges(const UpdateShape& s, const Fr& comm_r_new, unsigned k) {
  const unsigned random_bits = s.challenge_bits - s.partition_bits;
  const std::size_t per_digest = gadgets::kFieldCapacity / random_bits;
  const std::size_t digests = (s.challenges + per_digest - 1) / per_digest;
  std::vector<std::uint64_t> out;
  out.reserve(s.challenges);
  for (std::size_t j = 0; out.size() < s.challenges; ++j) {
    const auto bits = update::gen_randomness_hash(comm_r_new, Fr::from_u64(k * digests + j)).to_canonical();
    for (std::size_t i = 0; i < per_digest && out.size() < s.challenges; ++i) {
      std::uint64_t c = 0;
      for (unsigned b = 0; b < random_bits; ++b) {
        const std::size_t at = i * random_bits + b;
        c |= ((bits[at / 64] >> (at % 64)) & 1) << b;
      }
      out.push_back(c | (std::uint64_t{k} << random_bits));
    }
  }
  return out;
}

UpdateWitness UpdateWitness::blank(const UpdateShape& s) {
  UpdateWitness w;
  w.k_and_h_select = w.comm_r_old = w.comm_d_new = w.comm_r_new = Fr::zero();
  w.comm_c = w.root_r_old = w.root_r_new = Fr::zero();
  w.apex_leaves.assign(s.apex_leaves, Fr::zero());
  UpdateChallengeWitness c;
  c.leaf_r_old = c.leaf_d_new = Fr::zero();
  c.path_r_old = c.path_r_new = gadgets::blank_path(s.tree_r);
  c.path_d_new = gadgets::blank_path(s.tree_d);
  w.challenges.assign(s.challenges, c);
  return w;
}

Status check_update_witness(const UpdateShape& s, const UpdateWitness& w) {
  if (w.challenges.size() != s.challenges) {
    return Status::invalid_argument("the witness has " + std::to_string(w.challenges.size()) + " challenges, the circuit " +
                                    std::to_string(s.challenges));
  }
  if (w.apex_leaves.size() != s.apex_leaves) {
    return Status::invalid_argument("the witness has " + std::to_string(w.apex_leaves.size()) + " apex leaves, the circuit " +
                                    std::to_string(s.apex_leaves));
  }
  for (std::size_t i = 0; i < w.challenges.size(); ++i) {
    const auto& c = w.challenges[i];
    const std::string at = "challenge " + std::to_string(i) + ": ";
    if (Status st = check_path(s.tree_r, c.path_r_old, at + "path_r_old"); !st.ok()) return st;
    if (Status st = check_path(s.tree_r, c.path_r_new, at + "path_r_new"); !st.ok()) return st;
    if (Status st = check_path(s.tree_d, c.path_d_new, at + "path_d_new"); !st.ok()) return st;
  }
  // circuit.rs: every challenge's tree D path ends in the partition's path (taken from challenge 0).
  if (s.tree_d_kind == UpdateTreeD::kSha256) {
    const auto& first = w.challenges[0].path_d_new;
    for (std::size_t i = 1; i < w.challenges.size(); ++i) {
      for (std::size_t l = s.challenge_bits - s.partition_bits; l < s.challenge_bits; ++l) {
        if (!(w.challenges[i].path_d_new[l].siblings[0] == first[l].siblings[0])) {
          return Status::invalid_argument("challenge " + std::to_string(i) +
                                          ": path_d_new leaves the partition's path at level " + std::to_string(l));
        }
      }
    }
  }
  return {};
}

Result<UpdatedSector> update_in_memory(const UpdateShape& s, unsigned h, const Fr& comm_c, std::vector<Fr> replica_old,
                                       std::vector<Fr> data_new) {
  if (replica_old.size() != s.nodes || data_new.size() != s.nodes) {
    return Status::invalid_argument("an update of " + std::to_string(s.nodes) + " nodes needs as many replica and data nodes");
  }
  if (!update_h_select(s, h).ok()) return update_h_select(s, h).status();
  if (s.tree_d_kind == UpdateTreeD::kSha256) {
    for (std::size_t i = 0; i < data_new.size(); ++i) {
      if ((data_new[i].to_canonical()[3] >> 62) != 0) {
        return Status::invalid_argument("data node " + std::to_string(i) + " is not Fr32 (its top two bits are set)");
      }
    }
  }
  UpdatedSector u;
  u.h = h;
  u.comm_c = comm_c;
  auto tree_r_old = gadgets::FilecoinTree::build(s.tree_r, replica_old);
  if (!tree_r_old.ok()) return tree_r_old.status();
  auto tree_d_new = gadgets::FilecoinTree::build(s.tree_d, data_new);
  if (!tree_d_new.ok()) return tree_d_new.status();
  u.comm_r_old = gadgets::tree_node_hash(gadgets::TreeHasher::kPoseidon, std::array<Fr, 2>{comm_c, tree_r_old->root()});
  u.comm_d_new = tree_d_new->root();
  u.phi = update_phi(u.comm_d_new, u.comm_r_old);
  // vanilla.rs encode_into: new = old + data * rho(node's h high bits).
  const unsigned shr = s.challenge_bits - h;
  std::vector<Fr> rhos(std::size_t{1} << h);
  for (std::size_t high = 0; high < rhos.size(); ++high) rhos[high] = update_rho(u.phi, high);
  u.replica_new.resize(s.nodes);
  for (std::size_t i = 0; i < s.nodes; ++i) u.replica_new[i] = replica_old[i] + data_new[i] * rhos[i >> shr];
  auto tree_r_new = gadgets::FilecoinTree::build(s.tree_r, u.replica_new);
  if (!tree_r_new.ok()) return tree_r_new.status();
  u.comm_r_new = gadgets::tree_node_hash(gadgets::TreeHasher::kPoseidon, std::array<Fr, 2>{comm_c, tree_r_new->root()});
  u.tree_r_old = std::move(*tree_r_old);
  u.tree_d_new = std::move(*tree_d_new);
  u.tree_r_new = std::move(*tree_r_new);
  u.replica_old = std::move(replica_old);
  u.data_new = std::move(data_new);
  return u;
}

Result<UpdateWitness> update_partition_witness(const UpdateShape& s, const UpdatedSector& u, unsigned k) {
  auto pub = update_public_inputs(s, k, u.h, u.comm_r_old, u.comm_d_new, u.comm_r_new);
  if (!pub.ok()) return pub.status();
  UpdateWitness w;
  w.k_and_h_select = (*pub)[0];
  w.comm_r_old = u.comm_r_old;
  w.comm_d_new = u.comm_d_new;
  w.comm_r_new = u.comm_r_new;
  w.comm_c = u.comm_c;
  w.root_r_old = u.tree_r_old.root();
  w.root_r_new = u.tree_r_new.root();
  if (s.tree_d_kind == UpdateTreeD::kSha256) {
    // Apex leaf g is the root of the binary subtree over data nodes [g 2^L, (g + 1) 2^L).
    const unsigned levels = s.apex_path_levels();
    const gadgets::TreeShape sub{gadgets::TreeHasher::kSha256, std::vector<unsigned>(levels, 2)};
    for (std::size_t j = 0; j < s.apex_leaves; ++j) {
      const std::size_t g = std::size_t{k} * s.apex_leaves + j;
      const auto first = u.data_new.begin() + static_cast<std::ptrdiff_t>(g << levels);
      auto t = gadgets::FilecoinTree::build(sub, std::vector<Fr>(first, first + (std::ptrdiff_t{1} << levels)));
      if (!t.ok()) return t.status();
      w.apex_leaves.push_back(t->root());
    }
  }
  for (const std::uint64_t c : update_challenges(s, u.comm_r_new, k)) {
    UpdateChallengeWitness cw;
    cw.leaf_r_old = u.replica_old[c];
    cw.leaf_d_new = u.data_new[c];
    cw.path_r_old = u.tree_r_old.path(c);
    cw.path_d_new = u.tree_d_new.path(c);
    cw.path_r_new = u.tree_r_new.path(c);
    w.challenges.push_back(std::move(cw));
  }
  return w;
}

}  // namespace zk::circuits::filecoin
