#include "circuits/filecoin/update/partition_proof.hpp"

#include "circuits/filecoin/bincode.hpp"

#include <algorithm>

namespace zk::circuits::filecoin {

using namespace bincode;  // NOLINT: this file is one bincode format
namespace {


/// Sub and top levels of tree R (constants.rs validate_tree_r_shape: a sub arity for 1, 4, 8, 16
/// KiB, 16 MiB and 32 GiB; sub and top for 32 KiB and 64 GiB). update_circuit.cpp's size table
/// holds the same arities, file-local; UpdateShape's tree_r cannot tell a sub level of 8 from a
/// base level.
struct TreeRSplit {
  unsigned sub = 0, top = 0;
};
TreeRSplit tree_r_split(std::uint64_t nodes) {
  constexpr std::uint64_t kKiB = 1024 / 32, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;  // in nodes
  switch (nodes) {
    case 1 * kKiB: case 4 * kKiB: case 8 * kKiB: case 16 * kKiB: case 16 * kMiB: case 32 * kGiB: return {1, 0};
    case 32 * kKiB: case 64 * kGiB: return {1, 1};
    default: return {0, 0};
  }
}
MerkleProof::Kind tree_r_kind(const UpdateShape& s) {
  const TreeRSplit t = tree_r_split(s.nodes);
  return t.top ? MerkleProof::Kind::kTop : t.sub ? MerkleProof::Kind::kSub : MerkleProof::Kind::kSingle;
}

Bytes32 to_bytes(const Fr& x) { return gadgets::field_to_fr32(x); }

/// A path in MerkleProof form, its last sub / top levels split off.
MerkleProof make_merkle(MerkleProof::Kind kind, const Fr& root, const Fr& leaf, const std::vector<gadgets::PathLevel>& path) {
  MerkleProof p;
  p.kind = kind;
  p.root = to_bytes(root);
  p.leaf = to_bytes(leaf);
  const std::size_t tail = kind == MerkleProof::Kind::kTop ? 2 : kind == MerkleProof::Kind::kSub ? 1 : 0;
  for (std::size_t l = 0; l < path.size(); ++l) {
    PathElement e;
    e.index = path[l].index;
    for (const Fr& x : path[l].siblings) e.hashes.push_back(to_bytes(x));
    const std::size_t base = path.size() - tail;
    (l < base ? p.base : l == base ? p.sub : p.top).push_back(std::move(e));
  }
  return p;
}

std::size_t merkle_size(const gadgets::TreeShape& tree, MerkleProof::Kind kind) {
  const std::size_t parts = kind == MerkleProof::Kind::kTop ? 3 : kind == MerkleProof::Kind::kSub ? 2 : 1;
  std::size_t n = 4 + 32 + 32 + 8 * parts;  // tag, root, leaf, a length per path
  for (unsigned a : tree.arities) n += 8 + 32 * (a - 1) + 8;
  return n;
}

Fr node_hash(gadgets::TreeHasher hasher, const Fr& cur, const gadgets::PathLevel& level) {
  std::vector<Fr> children = level.siblings;
  children.insert(children.begin() + static_cast<std::ptrdiff_t>(level.index), cur);
  return gadgets::tree_node_hash(hasher, children);
}

/// The check, filling `out` when given (the witness from the opened paths).
Status check_partition_proof(const UpdateShape& s, unsigned k, unsigned h, const Fr& comm_r_old, const Fr& comm_d_new,
                             const Fr& comm_r_new, const UpdatePartitionProof& p, UpdateWitness* out) {
  if (s.tree_d_kind != UpdateTreeD::kSha256) {
    return Status::invalid_argument("a PartitionProof proves the SHA-256 tree D circuit (filecoin-proofs'); not the Poseidon variant");
  }
  auto pub = update_public_inputs(s, k, h, comm_r_old, comm_d_new, comm_r_new);
  if (!pub.ok()) return pub.status();
  if (p.apex_leafs.size() != s.apex_leaves) {
    return Status::invalid_argument("apex_leafs: " + std::to_string(p.apex_leafs.size()) + " leaves, a partition of this size has " +
                                    std::to_string(s.apex_leaves));
  }
  if (p.challenge_proofs.size() != s.challenges) {
    return Status::invalid_argument("challenge_proofs: " + std::to_string(p.challenge_proofs.size()) +
                                    " proofs, a partition of this size proves " + std::to_string(s.challenges) + " challenges");
  }
  auto fr = [](const Bytes32& b, const std::string& what) -> Result<Fr> {
    auto v = Fr::from_bytes(b, field::Endian::kLittle);
    if (!v.ok()) return Status::invalid_argument(what + ": not a canonical field element");
    return *v;
  };
  auto comm_c = fr(p.comm_c, "comm_c");
  if (!comm_c.ok()) return comm_c.status();
  std::vector<Fr> apex;
  for (std::size_t j = 0; j < p.apex_leafs.size(); ++j) {
    auto a = fr(p.apex_leafs[j], "apex_leafs[" + std::to_string(j) + "]");
    if (!a.ok()) return a.status();
    apex.push_back(*a);
  }
  const auto kind_r = tree_r_kind(s);
  const auto challenges = update_challenges(s, comm_r_new, k);
  const Fr phi = update_phi(comm_d_new, comm_r_old);
  const unsigned shr = s.challenge_bits - h;
  const unsigned below_apex = s.apex_path_levels();
  const unsigned partition_from = s.challenge_bits - s.partition_bits;

  Fr root_r_old, root_r_new;
  std::vector<gadgets::PathLevel> partition_path;
  std::vector<UpdateChallengeWitness> witnesses;
  for (std::size_t i = 0; i < challenges.size(); ++i) {
    const std::string at = "challenge_proofs[" + std::to_string(i) + "].";
    const auto& cp = p.challenge_proofs[i];
    const std::uint64_t c = challenges[i];
    auto r_old = open_merkle_proof(s.tree_r, kind_r, cp.proof_r_old, at + "proof_r_old");
    if (!r_old.ok()) return r_old.status();
    auto d_new = open_merkle_proof(s.tree_d, MerkleProof::Kind::kSingle, cp.proof_d_new, at + "proof_d_new");
    if (!d_new.ok()) return d_new.status();
    auto r_new = open_merkle_proof(s.tree_r, kind_r, cp.proof_r_new, at + "proof_r_new");
    if (!r_new.ok()) return r_new.status();
    for (const auto& [o, name] : {std::pair{&*r_old, "proof_r_old"}, std::pair{&*d_new, "proof_d_new"}, std::pair{&*r_new, "proof_r_new"}}) {
      if (o->index != c) {
        return Status::invalid_argument(at + name + ": proves leaf " + std::to_string(o->index) +
                                        ", but comm_r_new challenges leaf " + std::to_string(c));
      }
    }
    if (i == 0) {
      // vanilla.rs: the roots of challenge 0's tree R proofs, bound to the public commitments by comm_c.
      root_r_old = r_old->root, root_r_new = r_new->root;
      if (gadgets::tree_node_hash(gadgets::TreeHasher::kPoseidon, std::array<Fr, 2>{*comm_c, root_r_old}) != comm_r_old) {
        return Status::invalid_argument("comm_c: comm_r_old is not Poseidon(comm_c, challenge_proofs[0].proof_r_old.root)");
      }
      if (gadgets::tree_node_hash(gadgets::TreeHasher::kPoseidon, std::array<Fr, 2>{*comm_c, root_r_new}) != comm_r_new) {
        return Status::invalid_argument("comm_c: comm_r_new is not Poseidon(comm_c, challenge_proofs[0].proof_r_new.root)");
      }
      partition_path.assign(d_new->path.begin() + partition_from, d_new->path.end());
    } else {
      if (r_old->root != root_r_old) return Status::invalid_argument(at + "proof_r_old.root: not challenge_proofs[0]'s");
      if (r_new->root != root_r_new) return Status::invalid_argument(at + "proof_r_new.root: not challenge_proofs[0]'s");
      for (std::size_t l = partition_from; l < s.challenge_bits; ++l) {
        if (!(d_new->path[l].siblings == partition_path[l - partition_from].siblings)) {
          return Status::invalid_argument(at + "proof_d_new: level " + std::to_string(l) +
                                          " leaves the partition's path (challenge_proofs[0]'s)");
        }
      }
    }
    if (d_new->root != comm_d_new) return Status::invalid_argument(at + "proof_d_new.root: not comm_d_new");
    // vanilla.rs encode: new = old + data * rho(c's h high bits).
    if (r_new->leaf != r_old->leaf + d_new->leaf * update_rho(phi, c >> shr)) {
      return Status::invalid_argument(at + "proof_r_new.leaf: not proof_r_old.leaf + proof_d_new.leaf * rho (the encoding)");
    }
    // The circuit's apex check: the data leaf's path below the apex leaves ends in the apex leaf
    // that c's next apex_bits bits select.
    Fr node = d_new->leaf;
    for (unsigned l = 0; l < below_apex; ++l) node = node_hash(gadgets::TreeHasher::kSha256, node, d_new->path[l]);
    const std::size_t j = (c >> below_apex) & (s.apex_leaves - 1);
    if (node != apex[j]) {
      return Status::invalid_argument(at + "proof_d_new: its node at level " + std::to_string(below_apex) + " is not apex_leafs[" +
                                      std::to_string(j) + "]");
    }
    if (out != nullptr) {
      UpdateChallengeWitness w;
      w.leaf_r_old = r_old->leaf;
      w.leaf_d_new = d_new->leaf;
      w.path_r_old = std::move(r_old->path);
      w.path_d_new = std::move(d_new->path);
      w.path_r_new = std::move(r_new->path);
      witnesses.push_back(std::move(w));
    }
  }
  // apex_por: the apex leaves hashed pairwise to the apex root, then up the partition's path.
  std::vector<Fr> row = apex;
  while (row.size() > 1) {
    std::vector<Fr> up;
    for (std::size_t j = 0; j + 1 < row.size(); j += 2) {
      up.push_back(gadgets::tree_node_hash(gadgets::TreeHasher::kSha256, std::array<Fr, 2>{row[j], row[j + 1]}));
    }
    row = std::move(up);
  }
  Fr node = row[0];
  for (std::size_t l = 0; l < partition_path.size(); ++l) {
    gadgets::PathLevel level = partition_path[l];
    level.index = (k >> l) & 1;
    node = node_hash(gadgets::TreeHasher::kSha256, node, level);
  }
  if (node != comm_d_new) {
    return Status::invalid_argument("apex_leafs: they do not hash to comm_d_new along partition " + std::to_string(k) + "'s path");
  }
  if (out != nullptr) {
    out->k_and_h_select = (*pub)[0];
    out->comm_r_old = comm_r_old, out->comm_d_new = comm_d_new, out->comm_r_new = comm_r_new;
    out->comm_c = *comm_c, out->root_r_old = root_r_old, out->root_r_new = root_r_new;
    out->apex_leaves = std::move(apex);
    out->challenges = std::move(witnesses);
  }
  return {};
}

}  // namespace

Result<UpdatePartitionProof> parse_update_partition_proof(std::span<const std::uint8_t> bytes, const UpdateShape& s) {
  if (s.tree_d_kind != UpdateTreeD::kSha256) {
    return Status::invalid_argument("a PartitionProof proves the SHA-256 tree D circuit (filecoin-proofs'); not the Poseidon variant");
  }
  BinReader r(bytes);
  UpdatePartitionProof p;
  auto comm_c = r.domain("comm_c");
  if (!comm_c.ok()) return comm_c.status();
  p.comm_c = *comm_c;
  const std::size_t apex_at = r.offset();
  auto apex = r.length("apex_leafs", 32, 1 << 16);
  if (!apex.ok()) return apex.status();
  if (*apex != s.apex_leaves) {
    return Status::invalid_argument("apex_leafs: " + std::to_string(*apex) + " leaves at byte " + std::to_string(apex_at) +
                                    ", a partition of this size has " + std::to_string(s.apex_leaves));
  }
  for (std::uint64_t j = 0; j < *apex; ++j) {
    auto d = r.domain("apex_leafs[" + std::to_string(j) + "]");
    if (!d.ok()) return d.status();
    p.apex_leafs.push_back(*d);
  }
  const std::size_t n_at = r.offset();
  auto n = r.length("challenge_proofs", 3 * 76, 1 << 16);  // three proofs of at least 76 bytes each
  if (!n.ok()) return n.status();
  if (*n != s.challenges) {
    return Status::invalid_argument("challenge_proofs: " + std::to_string(*n) + " proofs at byte " + std::to_string(n_at) +
                                    ", a partition of this size proves " + std::to_string(s.challenges) + " challenges");
  }
  for (std::uint64_t i = 0; i < *n; ++i) {
    const std::string at = "challenge_proofs[" + std::to_string(i) + "].";
    UpdateChallengeProof cp;
    for (const auto& [m, name] : {std::pair{&cp.proof_r_old, "proof_r_old"}, std::pair{&cp.proof_d_new, "proof_d_new"},
                                  std::pair{&cp.proof_r_new, "proof_r_new"}}) {
      auto v = read_merkle(r, at + name);
      if (!v.ok()) return v.status();
      *m = std::move(*v);
    }
    p.challenge_proofs.push_back(std::move(cp));
  }
  if (r.remaining() != 0) {
    return Status::invalid_argument(std::to_string(r.remaining()) + " bytes after the PartitionProof (at byte " +
                                    std::to_string(r.offset()) + ")");
  }
  return p;
}

std::vector<std::uint8_t> update_partition_proof_bytes(const UpdatePartitionProof& p) {
  std::vector<std::uint8_t> o;
  put_domain(o, p.comm_c);
  put_uint(o, p.apex_leafs.size(), 8);
  for (const auto& a : p.apex_leafs) put_domain(o, a);
  put_uint(o, p.challenge_proofs.size(), 8);
  for (const auto& cp : p.challenge_proofs) {
    put_merkle(o, cp.proof_r_old);
    put_merkle(o, cp.proof_d_new);
    put_merkle(o, cp.proof_r_new);
  }
  return o;
}

std::size_t update_partition_proof_size(const UpdateShape& s) {
  const std::size_t per_challenge =
      2 * merkle_size(s.tree_r, tree_r_kind(s)) + merkle_size(s.tree_d, MerkleProof::Kind::kSingle);
  return 32 + 8 + 32 * std::size_t{s.apex_leaves} + 8 + s.challenges * per_challenge;
}

Status verify_update_partition_proof(const UpdateShape& s, unsigned k, unsigned h, const Fr& comm_r_old, const Fr& comm_d_new,
                                     const Fr& comm_r_new, const UpdatePartitionProof& p) {
  return check_partition_proof(s, k, h, comm_r_old, comm_d_new, comm_r_new, p, nullptr);
}

Result<UpdateWitness> update_witness_from_proof(const UpdateShape& s, unsigned k, unsigned h, const Fr& comm_r_old,
                                                const Fr& comm_d_new, const Fr& comm_r_new, const UpdatePartitionProof& p) {
  UpdateWitness w;
  if (Status st = check_partition_proof(s, k, h, comm_r_old, comm_d_new, comm_r_new, p, &w); !st.ok()) return st;
  if (Status st = check_update_witness(s, w); !st.ok()) return st;
  return w;
}

Result<UpdatePartitionProof> make_update_partition_proof(const UpdateShape& s, const UpdatedSector& u, unsigned k) {
  if (s.tree_d_kind != UpdateTreeD::kSha256) {
    return Status::invalid_argument("a PartitionProof proves the SHA-256 tree D circuit (filecoin-proofs'); not the Poseidon variant");
  }
  auto w = update_partition_witness(s, u, k);
  if (!w.ok()) return w.status();
  const auto kind_r = tree_r_kind(s);
  const auto challenges = update_challenges(s, u.comm_r_new, k);
  UpdatePartitionProof p;
  p.comm_c = to_bytes(u.comm_c);
  for (const Fr& a : w->apex_leaves) p.apex_leafs.push_back(to_bytes(a));
  for (std::size_t i = 0; i < challenges.size(); ++i) {
    const auto& cw = w->challenges[i];
    UpdateChallengeProof cp;
    cp.proof_r_old = make_merkle(kind_r, u.tree_r_old.root(), cw.leaf_r_old, cw.path_r_old);
    cp.proof_d_new = make_merkle(MerkleProof::Kind::kSingle, u.tree_d_new.root(), cw.leaf_d_new, cw.path_d_new);
    cp.proof_r_new = make_merkle(kind_r, u.tree_r_new.root(), u.replica_new[challenges[i]], cw.path_r_new);
    p.challenge_proofs.push_back(std::move(cp));
  }
  return p;
}

}  // namespace zk::circuits::filecoin
