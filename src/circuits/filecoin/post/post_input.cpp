#include "circuits/filecoin/post/post_input.hpp"

#include <set>

#include "base/base64.hpp"
#include "base/json_reader.hpp"
#include "circuits/filecoin/commitment.hpp"
#include "circuits/filecoin/vanilla_json.hpp"

namespace zk::circuits::filecoin {

namespace {

std::vector<PoStSector> sectors_of(const PostInput& in) {
  std::vector<PoStSector> out;
  for (const auto& p : in.sectors) out.push_back({p.sector_id, p.comm_r});
  return out;
}

}  // namespace

Result<PostInput> parse_post_input(std::string_view json) {
  PostInput in;
  bool have_proof = false, have_randomness = false;
  std::vector<std::string> proofs_b64;
  bool have_proofs = false;
  try {
    JsonReader r(json, 8);
    if (r.peek() != JsonReader::Type::kObject) r.fail("a PoSt input is a JSON object");
    r.begin_object();
    std::set<std::string> seen;
    std::string key;
    while (r.next_key(key)) {
      if (!seen.insert(key).second) r.fail("duplicate key '" + key + "'");
      if (key == "registered_proof") {
        std::string name;
        if (r.peek() == JsonReader::Type::kNumber) {
          name = std::to_string(r.read_u64());
        } else {
          name = r.read_string(64);
        }
        auto p = find_registered_post_proof(name);
        if (!p.ok()) return Status::invalid_argument("registered_proof: " + p.status().message());
        in.proof = *p;
        have_proof = true;
      } else if (key == "randomness") {
        auto b = parse_hex32("randomness", r.read_string(80));
        if (!b.ok()) return b.status();
        in.randomness = *b;
        have_randomness = true;
      } else if (key == "partition") {
        in.partition = r.read_u64();
      } else if (key == "vanilla_proofs") {
        have_proofs = true;
        // A 32 GiB WindowPoSt partition has 2,349 sectors of ~52 KB each (base64 ~70 KB).
        proofs_b64 = read_vanilla_proofs(r, 2349, std::size_t{16} << 20,
                                         "vanilla_proofs: more than 2,349 sectors (the most a partition holds)");
      } else {
        r.skip_value();
      }
    }
    r.expect_end();
  } catch (const JsonError& e) {
    return Status::invalid_argument(std::string("PoSt input: ") + e.what());
  }
  if (!have_proof) return Status::invalid_argument("PoSt input: registered_proof is missing");
  if (!have_randomness) return Status::invalid_argument("PoSt input: randomness is missing");
  if (!have_proofs || proofs_b64.empty())
    return Status::invalid_argument("PoSt input: vanilla_proofs is missing or empty");
  if (proofs_b64.size() > in.proof.sector_count || (in.proof.winning && proofs_b64.size() != 1)) {
    return Status::invalid_argument(
        "PoSt input: a " + in.proof.name + " partition holds " +
        (in.proof.winning ? std::string("exactly 1") : "1 to " + std::to_string(in.proof.sector_count)) +
        " sectors, not " + std::to_string(proofs_b64.size()));
  }
  auto sectors = decode_vanilla_proofs<PostSectorProof>(
      proofs_b64, [](const std::vector<std::uint8_t>& b) { return parse_post_sector_proof(b); });
  if (!sectors.ok()) return sectors.status();
  in.sectors = std::move(*sectors);
  return in;
}

std::string post_input_json(const PostInput& in) {
  std::vector<std::vector<std::uint8_t>> proofs;
  for (const auto& sector : in.sectors) proofs.push_back(post_sector_proof_bytes(sector));
  return vanilla_proofs_json("\"registered_proof\":" + std::to_string(in.proof.id) + ",\"randomness\":\"" +
                                 hex_string(in.randomness) + "\",\"partition\":" + std::to_string(in.partition),
                             proofs);
}

Status check_post_input(const PostInput& in) {
  const auto& proof = in.proof;
  if (in.sectors.empty() || in.sectors.size() > proof.sector_count || (proof.winning && in.sectors.size() != 1)) {
    return Status::invalid_argument("a " + proof.name + " partition holds 1 to " + std::to_string(proof.sector_count) +
                                    " sectors, not " + std::to_string(in.sectors.size()));
  }
  if (proof.winning && in.partition != 0) return Status::invalid_argument("a WinningPoSt has one partition (0)");
  // filecoin-proofs takes the randomness as a field element (as_safe_commitment): the caller clears
  // its top bits, as Lotus and Curio do.
  if (!Fr::from_bytes(in.randomness, field::Endian::kLittle).ok()) {
    return Status::invalid_argument(
        "randomness is not a field element (little-endian, below the BLS12-381 scalar "
        "modulus; clear the top two bits of its last byte)");
  }
  if (in.partition >= kMaxPostPartitions) {
    return Status::invalid_argument("partition " + std::to_string(in.partition) + " is out of range");
  }
  std::set<std::uint64_t> ids;
  for (std::size_t i = 0; i < in.sectors.size(); ++i) {
    const auto& p = in.sectors[i];
    if (!ids.insert(p.sector_id).second) {
      return Status::invalid_argument("vanilla_proofs[" + std::to_string(i) + "]: sector " +
                                      std::to_string(p.sector_id) + " appears twice");
    }
    const std::size_t index = static_cast<std::size_t>(in.partition * proof.sector_count + i);
    if (Status st = verify_post_sector_proof(proof, in.randomness, p, index); !st.ok()) {
      return Status::invalid_argument("vanilla_proofs[" + std::to_string(i) +
                                      "]: " + st.message());  // names the sector
    }
  }
  return {};
}

Result<FallbackWitness> post_witness(const PostInput& in) {
  FallbackWitness w;
  for (const auto& p : in.sectors) {
    auto s = post_sector_witness(in.proof, p);
    if (!s.ok()) return s.status();
    if (in.proof.winning) {
      // The circuit sees WinningPoSt's challenges as sectors of one challenge each.
      for (std::size_t n = 0; n < s->leaves.size(); ++n) {
        FallbackSectorWitness one{s->comm_r, s->comm_c, s->comm_r_last, {s->leaves[n]}, {s->paths[n]}};
        w.sectors.push_back(std::move(one));
      }
    } else {
      w.sectors.push_back(std::move(*s));
    }
  }
  if (w.sectors.empty()) return Status::invalid_argument("no sectors");
  while (w.sectors.size() < in.proof.sector_count) w.sectors.push_back(w.sectors.back());  // Filecoin's padding
  return w;
}

Result<std::vector<Fr>> post_public_inputs(const PostInput& in) {
  const auto sectors = sectors_of(in);
  return fallback_partition_inputs(in.proof, in.randomness, sectors, in.partition * in.proof.sector_count);
}

}  // namespace zk::circuits::filecoin
