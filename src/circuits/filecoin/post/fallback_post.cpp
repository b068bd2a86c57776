#include "circuits/filecoin/post/fallback_post.hpp"

#include "circuits/filecoin/post/fallback_circuit.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "base/decimal.hpp"
#include "circuits/filecoin/commitment.hpp"

namespace zk::circuits::filecoin {

const std::vector<RegisteredPoStProof>& registered_post_proofs() {
  static const std::vector<RegisteredPoStProof> kProofs = [] {
    // filecoin-proofs constants: WINNING_POST_CHALLENGE_COUNT 66 over one sector (the vanilla
    // parameters swap them: 66 "sectors" of 1 challenge), WINDOW_POST_CHALLENGE_COUNT 10 and the
    // window sector counts per size.
    struct Size {
      const char* name;
      unsigned window_sectors;
    };
    const Size sizes[] = {{"2KiB", 2}, {"8MiB", 2}, {"512MiB", 2}, {"32GiB", 2349}, {"64GiB", 2300}};
    std::vector<RegisteredPoStProof> out;
    std::uint64_t id = 0;
    for (const auto& s : sizes) {
      const std::string n = std::string("StackedDrgWinning") + s.name + "V1";
      out.push_back({id++, n, n, *find_sector_size(s.name), true, false, 66, 1});
    }
    for (const auto& s : sizes) {
      const std::string n = std::string("StackedDrgWindow") + s.name + "V1";
      out.push_back({id++, n, n, *find_sector_size(s.name), false, false, s.window_sectors, 10});
    }
    for (const auto& s : sizes) {
      out.push_back({id++, std::string("StackedDrgWindow") + s.name + "V1_2", std::string("StackedDrgWindow") + s.name + "V1_1",
                     *find_sector_size(s.name), false, true, s.window_sectors, 10});
    }
    return out;
  }();
  return kProofs;
}

Result<RegisteredPoStProof> find_registered_post_proof(const std::string& name_or_number) {
  const auto& all = registered_post_proofs();
  if (!name_or_number.empty() && name_or_number.size() <= 3 &&
      std::all_of(name_or_number.begin(), name_or_number.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const auto n = std::stoul(name_or_number);
    if (n < all.size()) return all[n];
  }
  auto lower = [](std::string x) {
    for (auto& c : x) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return x;
  };
  const std::string want = lower(name_or_number);
  for (const auto& p : all) {
    // Go prints V1_1 as "V1P1" (and DRG in capitals).
    std::string printed = lower(p.go_name);
    if (const auto at = printed.rfind("v1_1"); at != std::string::npos && at + 4 == printed.size()) {
      printed.replace(at, 4, "v1p1");
    }
    if (want == lower(p.name) || want == lower(p.go_name) || want == printed) return p;
  }
  return Status::invalid_argument("unknown registered PoSt proof '" + bounded_message(name_or_number, 64) +
                                  "' (0..14, or a name such as StackedDrgWindow32GiBV1_2)");
}

std::uint64_t post_leaf_challenge(const std::array<std::uint8_t, 32>& randomness, std::uint64_t sector_id,
                                  std::uint64_t challenge_index, std::uint64_t nodes) {
  std::uint8_t buf[48];
  std::copy(randomness.begin(), randomness.end(), buf);
  for (int b = 0; b < 8; ++b) {
    buf[32 + b] = static_cast<std::uint8_t>(sector_id >> (8 * b));
    buf[40 + b] = static_cast<std::uint8_t>(challenge_index >> (8 * b));
  }
  std::uint8_t h[SHA256_DIGEST_LENGTH];
  SHA256(buf, sizeof(buf), h);
  std::uint64_t v = 0;
  for (int b = 7; b >= 0; --b) v = (v << 8) | h[b];
  return v % nodes;
}

Result<std::vector<Fr>> fallback_post_public_inputs(const RegisteredPoStProof& proof,
                                                    const std::array<std::uint8_t, 32>& randomness,
                                                    std::span<const PoStSector> sectors, std::size_t partition) {
  if (proof.winning) {
    if (sectors.size() != 1) return Status::invalid_argument("a WinningPoSt proves exactly one sector");
    return fallback_partition_inputs(proof, randomness, sectors, 0);
  }
  const std::size_t per = proof.sector_count;
  if (sectors.empty() || partition > (sectors.size() - 1) / per) {
    return Status::invalid_argument("partition " + std::to_string(partition) + " has no sectors (" +
                                    std::to_string(sectors.size()) + " sectors, " + std::to_string(per) +
                                    " per partition)");
  }
  const std::size_t first = partition * per, count = std::min(per, sectors.size() - first);
  return fallback_partition_inputs(proof, randomness, sectors.subspan(first, count), first);
}

Result<std::vector<Fr>> fallback_partition_inputs(const RegisteredPoStProof& proof,
                                                  const std::array<std::uint8_t, 32>& randomness,
                                                  std::span<const PoStSector> partition_sectors,
                                                  std::uint64_t first_index) {
  std::vector<PoStSector> part(partition_sectors.begin(), partition_sectors.end());
  if (proof.winning) {
    if (part.size() != 1) return Status::invalid_argument("a WinningPoSt proves exactly one sector");
    part.assign(proof.sector_count, part.front());  // its one sector, once per challenge
  }
  if (part.empty() || part.size() > proof.sector_count) {
    return Status::invalid_argument("a " + proof.name + " partition holds 1 to " + std::to_string(proof.sector_count) +
                                    " sectors, not " + std::to_string(part.size()));
  }
  const std::uint64_t nodes = proof.size.bytes / 32;
  std::vector<Fr> inputs;
  for (std::size_t i = 0; i < part.size(); ++i) {
    const PoStSector& s = part[i];
    auto comm_r = Fr::from_bytes(s.comm_r, field::Endian::kLittle);
    if (!comm_r.ok()) return Status::invalid_argument("sector " + std::to_string(s.id) + ": comm_r is not a field element");
    inputs.push_back(*comm_r);
    for (std::uint64_t n = 0; n < proof.challenge_count; ++n) {
      // storage-proofs-post get_challenge_index: API 1.2 restarts at 0 for every sector.
      const std::uint64_t index = proof.api_1_2 ? n : (first_index + i) * proof.challenge_count + n;
      inputs.push_back(Fr::from_u64(post_leaf_challenge(randomness, s.id, index, nodes)));
    }
  }
  // A short partition repeats its last sector's inputs.
  const std::size_t per_sector = 1 + proof.challenge_count;
  while (inputs.size() < std::size_t{proof.sector_count} * per_sector) {
    const std::vector<Fr> last(inputs.end() - static_cast<std::ptrdiff_t>(per_sector), inputs.end());
    inputs.insert(inputs.end(), last.begin(), last.end());
  }
  return inputs;
}

FallbackShape fallback_shape(const RegisteredPoStProof& proof) {
  return {column_tree_shape(proof.size.bytes / 32, proof.size.sub_arity, proof.size.top_arity), proof.sector_count,
          proof.challenge_count};
}

FallbackWitness FallbackWitness::blank(const FallbackShape& s) {
  FallbackSectorWitness sec;
  sec.comm_r = sec.comm_c = sec.comm_r_last = Fr::zero();
  sec.leaves.assign(s.challenges, Fr::zero());
  sec.paths.assign(s.challenges, gadgets::blank_path(s.tree));
  FallbackWitness w;
  w.sectors.assign(s.sectors, sec);
  return w;
}

Result<PoStSector> parse_post_sector(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    return Status::invalid_argument("expected NUMBER:COMM_R (comm_r as 64 hex digits or a sealed CID)");
  }
  PoStSector s;
  auto id = base::parse_decimal_u64(text.substr(0, colon));
  if (!id.ok()) return Status::invalid_argument("sector number: " + id.status().message());
  s.id = *id;
  auto comm_r = parse_commitment(std::string(text.substr(colon + 1)), CommitmentKind::kSealed);
  if (!comm_r.ok()) return Status::invalid_argument("comm_r: " + comm_r.status().message());
  s.comm_r = *comm_r;
  return s;
}

Result<std::vector<PoStPartition>> post_partitions(const RegisteredPoStProof& proof,
                                                   const std::array<std::uint8_t, 32>& randomness,
                                                   std::span<const PoStSector> sectors,
                                                   std::optional<std::size_t> only) {
  if (sectors.empty()) return Status::invalid_argument("a " + proof.name + " proof needs its sectors");
  std::map<std::uint64_t, std::size_t> seen;
  for (std::size_t i = 0; i < sectors.size(); ++i) {
    auto [it, fresh] = seen.emplace(sectors[i].id, i);
    if (!fresh) {
      return Status::invalid_argument("sector " + std::to_string(sectors[i].id) + " is named twice (sectors " +
                                      std::to_string(it->second + 1) + " and " + std::to_string(i + 1) +
                                      "): a PoSt proves each sector once");
    }
  }
  const std::size_t per = proof.winning ? 1 : proof.sector_count;
  if (proof.winning && sectors.size() != 1) {
    return Status::invalid_argument("a WinningPoSt proves exactly one sector, not " + std::to_string(sectors.size()));
  }
  const std::size_t total = (sectors.size() + per - 1) / per;
  if (only && *only >= total) {
    return Status::invalid_argument("partition " + std::to_string(*only) + " does not exist: " +
                                    std::to_string(sectors.size()) + " sector(s) at " + std::to_string(per) +
                                    " per partition make " + std::to_string(total) + " partition(s) (0-" +
                                    std::to_string(total - 1) + ")");
  }
  std::vector<PoStPartition> out;
  for (std::size_t k = only ? *only : 0; k < (only ? *only + 1 : total); ++k) {
    PoStPartition p;
    p.index = k;
    p.first_sector = k * per;
    p.sectors = std::min(per, sectors.size() - p.first_sector);
    auto in = fallback_partition_inputs(proof, randomness, sectors.subspan(p.first_sector, p.sectors), p.first_sector);
    if (!in.ok()) return in.status();
    p.inputs = std::move(*in);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace zk::circuits::filecoin
