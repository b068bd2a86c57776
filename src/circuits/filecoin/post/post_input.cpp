#include "circuits/filecoin/post/post_input.hpp"

#include <set>

#include "base/base64.hpp"
#include "base/json_reader.hpp"

namespace zk::circuits::filecoin {

namespace {

Result<std::array<std::uint8_t, 32>> parse_hex32(const std::string& text, const char* field) {
  std::string_view h(text);
  if (h.substr(0, 2) == "0x") h.remove_prefix(2);
  if (h.size() != 64) return Status::invalid_argument(std::string(field) + ": expected 64 hex digits");
  std::array<std::uint8_t, 32> out{};
  for (std::size_t i = 0; i < 64; ++i) {
    const char c = h[i];
    int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (v < 0) return Status::invalid_argument(std::string(field) + ": expected 64 hex digits");
    out[i / 2] = static_cast<std::uint8_t>(out[i / 2] << 4 | v);
  }
  return out;
}

std::string hex(const std::array<std::uint8_t, 32>& b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (auto x : b) s += d[x >> 4], s += d[x & 15];
  return s;
}

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
        auto b = parse_hex32(r.read_string(80), "randomness");
        if (!b.ok()) return b.status();
        in.randomness = *b;
        have_randomness = true;
      } else if (key == "partition") {
        in.partition = r.read_u64();
      } else if (key == "vanilla_proofs") {
        have_proofs = true;
        r.begin_array();
        // A 32 GiB WindowPoSt partition has 2,349 sectors of ~52 KB each (base64 ~70 KB).
        while (r.next_element()) {
          if (proofs_b64.size() >= 2349) r.fail("vanilla_proofs: more than 2,349 sectors (the most a partition holds)");
          proofs_b64.push_back(r.read_string(std::size_t{16} << 20));
        }
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
  if (!have_proofs || proofs_b64.empty()) return Status::invalid_argument("PoSt input: vanilla_proofs is missing or empty");
  if (proofs_b64.size() > in.proof.sector_count || (in.proof.winning && proofs_b64.size() != 1)) {
    return Status::invalid_argument("PoSt input: a " + in.proof.name + " partition holds " +
                                    (in.proof.winning ? std::string("exactly 1") : "1 to " + std::to_string(in.proof.sector_count)) +
                                    " sectors, not " + std::to_string(proofs_b64.size()));
  }
  for (std::size_t i = 0; i < proofs_b64.size(); ++i) {
    auto bytes = base64_decode(proofs_b64[i]);
    if (!bytes.ok()) return Status::invalid_argument("vanilla_proofs[" + std::to_string(i) + "]: " + bytes.status().message());
    auto p = parse_post_sector_proof(*bytes);
    if (!p.ok()) return Status::invalid_argument("vanilla_proofs[" + std::to_string(i) + "]: " + p.status().message());
    in.sectors.push_back(std::move(*p));
  }
  return in;
}

std::string post_input_json(const PostInput& in) {
  std::string s = "{\"registered_proof\":" + std::to_string(in.proof.id) + ",\"randomness\":\"" + hex(in.randomness) +
                  "\",\"partition\":" + std::to_string(in.partition) + ",\"vanilla_proofs\":[";
  for (std::size_t i = 0; i < in.sectors.size(); ++i) {
    s += (i ? ",\"" : "\"") + base64_encode(post_sector_proof_bytes(in.sectors[i])) + "\"";
  }
  return s + "]}";
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
    return Status::invalid_argument("randomness is not a field element (little-endian, below the BLS12-381 scalar "
                                    "modulus; clear the top two bits of its last byte)");
  }
  if (in.partition >= kMaxPostPartitions) {
    return Status::invalid_argument("partition " + std::to_string(in.partition) + " is out of range");
  }
  std::set<std::uint64_t> ids;
  for (std::size_t i = 0; i < in.sectors.size(); ++i) {
    const auto& p = in.sectors[i];
    if (!ids.insert(p.sector_id).second) {
      return Status::invalid_argument("vanilla_proofs[" + std::to_string(i) + "]: sector " + std::to_string(p.sector_id) +
                                      " appears twice");
    }
    const std::size_t index = static_cast<std::size_t>(in.partition * proof.sector_count + i);
    if (Status st = verify_post_sector_proof(proof, in.randomness, p, index); !st.ok()) {
      return Status::invalid_argument("vanilla_proofs[" + std::to_string(i) + "]: " + st.message());  // names the sector
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
