#include "circuits/filecoin/post/vanilla_post.hpp"

#include "circuits/filecoin/bincode.hpp"

namespace zk::circuits::filecoin {
using namespace bincode;  // NOLINT: this file is one bincode format

Result<PostSectorProof> parse_post_sector_proof(std::span<const std::uint8_t> bytes) {
  BinReader r(bytes);
  PostSectorProof p;
  auto id = r.u64("sector_id");
  if (!id.ok()) return id.status();
  p.sector_id = *id;
  auto comm_r = r.domain("comm_r");
  if (!comm_r.ok()) return comm_r.status();
  p.comm_r = *comm_r;
  auto sectors = r.length("vanilla_proof.sectors", 72, 1 << 20);
  if (!sectors.ok()) return sectors.status();
  if (*sectors != 1) {
    return Status::invalid_argument("vanilla_proof.sectors: " + std::to_string(*sectors) +
                                    " sector proofs; a FallbackPoStSectorProof holds exactly one");
  }
  auto n = r.length("inclusion_proofs", 76, 1 << 16);
  if (!n.ok()) return n.status();
  for (std::uint64_t i = 0; i < *n; ++i) {
    auto m = read_merkle(r, "inclusion_proofs[" + std::to_string(i) + "]");
    if (!m.ok()) return m.status();
    p.inclusion_proofs.push_back(std::move(*m));
  }
  auto comm_c = r.domain("comm_c");
  if (!comm_c.ok()) return comm_c.status();
  p.comm_c = *comm_c;
  auto comm_r_last = r.domain("comm_r_last");
  if (!comm_r_last.ok()) return comm_r_last.status();
  p.comm_r_last = *comm_r_last;
  if (r.remaining() != 0) {
    return Status::invalid_argument(std::to_string(r.remaining()) + " bytes after the proof (at byte " +
                                    std::to_string(r.offset()) + ")");
  }
  return p;
}

std::vector<std::uint8_t> post_sector_proof_bytes(const PostSectorProof& p) {
  std::vector<std::uint8_t> o;
  put_u64(o, p.sector_id);
  put_domain(o, p.comm_r);
  put_u64(o, 1);
  put_u64(o, p.inclusion_proofs.size());
  for (const auto& m : p.inclusion_proofs) put_merkle(o, m);
  put_domain(o, p.comm_c);
  put_domain(o, p.comm_r_last);
  return o;
}

namespace {
/// Inclusion proofs per sector proof: WinningPoSt's one proof carries all 66 challenges.
std::size_t proofs_per_sector(const RegisteredPoStProof& proof) {
  return proof.winning ? proof.sector_count : proof.challenge_count;
}
}  // namespace

Status verify_post_sector_proof(const RegisteredPoStProof& proof, const std::array<std::uint8_t, 32>& randomness,
                                const PostSectorProof& p, std::size_t sector_index) {
  const std::string at = "sector " + std::to_string(p.sector_id);
  const std::size_t count = proofs_per_sector(proof);
  if (p.inclusion_proofs.size() != count) {
    return Status::invalid_argument(at + ": " + std::to_string(p.inclusion_proofs.size()) + " inclusion_proofs, " +
                                    proof.name + " has " + std::to_string(count) + " challenges per sector");
  }
  const FallbackShape shape = fallback_shape(proof);
  const auto kind = column_proof_kind(proof.size);
  auto fr = [&](const Bytes32& b, const char* what) -> Result<Fr> {
    auto v = Fr::from_bytes(b, field::Endian::kLittle);
    if (!v.ok()) return Status::invalid_argument(at + ": " + what + " is not a canonical field element");
    return *v;
  };
  auto comm_r = fr(p.comm_r, "comm_r");
  if (!comm_r.ok()) return comm_r.status();
  auto comm_c = fr(p.comm_c, "comm_c");
  if (!comm_c.ok()) return comm_c.status();
  auto comm_r_last = fr(p.comm_r_last, "comm_r_last");
  if (!comm_r_last.ok()) return comm_r_last.status();
  if (*gadgets::poseidon_hash(std::vector<Fr>{*comm_c, *comm_r_last}) != *comm_r) {
    return Status::invalid_argument(at + ": comm_r is not Poseidon(comm_c, comm_r_last)");
  }
  const std::uint64_t nodes = proof.size.bytes / 32;
  for (std::size_t n = 0; n < count; ++n) {
    const std::string w = at + ": inclusion_proofs[" + std::to_string(n) + "]";
    auto o = open_merkle_proof(shape.tree, kind, p.inclusion_proofs[n], w);
    if (!o.ok()) return o.status();
    if (o->root != *comm_r_last) return Status::invalid_argument(w + ": its root is not comm_r_last");
    // WinningPoSt and API 1.2: index n; WindowPoSt API 1.0: sector_index * challenges + n.
    const std::uint64_t index =
        proof.winning || proof.api_1_2 ? n : static_cast<std::uint64_t>(sector_index) * proof.challenge_count + n;
    const std::uint64_t want = post_leaf_challenge(randomness, p.sector_id, index, nodes);
    if (o->index != want) {
      return Status::invalid_argument(w + ": proves leaf " + std::to_string(o->index) + ", but the randomness challenges leaf " +
                                      std::to_string(want));
    }
  }
  return {};
}

Result<PostSectorProof> make_post_sector_proof(const RegisteredPoStProof& proof, const std::array<std::uint8_t, 32>& randomness,
                                               std::uint64_t sector_id, const StackedShape& shape,
                                               const SealedSector& sector, std::size_t sector_index) {
  if (shape.nodes != proof.size.bytes / 32) {
    return Status::invalid_argument("the sector has " + std::to_string(shape.nodes) + " nodes; " + proof.name +
                                    " proves " + proof.size.name + " sectors");
  }
  PostSectorProof p;
  p.sector_id = sector_id;
  p.comm_r = sector.replica.comm_r;
  p.comm_c = sector.replica.comm_c;
  p.comm_r_last = sector.replica.comm_r_last;
  const std::uint64_t nodes = proof.size.bytes / 32;
  for (std::size_t n = 0; n < proofs_per_sector(proof); ++n) {
    const std::uint64_t index =
        proof.winning || proof.api_1_2 ? n : static_cast<std::uint64_t>(sector_index) * proof.challenge_count + n;
    auto m = replica_merkle_proof(shape, sector, post_leaf_challenge(randomness, sector_id, index, nodes));
    if (!m.ok()) return m.status();
    p.inclusion_proofs.push_back(std::move(*m));
  }
  return p;
}

Result<FallbackSectorWitness> post_sector_witness(const RegisteredPoStProof& proof, const PostSectorProof& p) {
  const FallbackShape shape = fallback_shape(proof);
  const auto kind = column_proof_kind(proof.size);
  FallbackSectorWitness w;
  auto comm_r = Fr::from_bytes(p.comm_r, field::Endian::kLittle);
  auto comm_c = Fr::from_bytes(p.comm_c, field::Endian::kLittle);
  auto comm_r_last = Fr::from_bytes(p.comm_r_last, field::Endian::kLittle);
  if (!comm_r.ok() || !comm_c.ok() || !comm_r_last.ok()) return Status::invalid_argument("non-canonical commitment");
  w.comm_r = *comm_r, w.comm_c = *comm_c, w.comm_r_last = *comm_r_last;
  for (std::size_t n = 0; n < p.inclusion_proofs.size(); ++n) {
    auto o = open_merkle_proof(shape.tree, kind, p.inclusion_proofs[n], "inclusion_proofs[" + std::to_string(n) + "]");
    if (!o.ok()) return o.status();
    w.leaves.push_back(o->leaf);
    w.paths.push_back(std::move(o->path));
  }
  return w;
}

}  // namespace zk::circuits::filecoin
