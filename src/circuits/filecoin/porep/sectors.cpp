#include "circuits/filecoin/porep/sectors.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace zk::circuits::filecoin {

const std::vector<SectorSize>& sector_sizes() {
  static const std::vector<SectorSize> kSizes = {
      {"2KiB", 2048, 0, 0, 2, 2, 1, true},
      {"4KiB", 4096, 2, 0, 2, 2, 1, false},
      {"16KiB", 16384, 8, 0, 2, 2, 1, false},
      {"32KiB", 32768, 8, 2, 2, 2, 1, false},
      {"8MiB", std::uint64_t{8} << 20, 0, 0, 2, 2, 1, true},
      {"16MiB", std::uint64_t{16} << 20, 2, 0, 2, 2, 1, false},
      {"512MiB", std::uint64_t{512} << 20, 0, 0, 2, 2, 1, true},
      {"1GiB", std::uint64_t{1} << 30, 2, 0, 2, 2, 1, false},
      {"32GiB", std::uint64_t{32} << 30, 8, 0, 11, 18, 10, true},
      {"64GiB", std::uint64_t{64} << 30, 8, 2, 11, 18, 10, true},
  };
  return kSizes;
}

Result<SectorSize> find_sector_size(const std::string& name) {
  std::string n;
  for (char c : name) n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& s : sector_sizes()) {
    std::string m;  // "32gib"
    for (const char* p = s.name; *p != '\0'; ++p) m += static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
    if (n == m || n == m.substr(0, m.size() - 2) || n == std::to_string(s.bytes)) return s;  // "32gib", "32g", bytes
  }
  std::string known;
  for (const auto& s : sector_sizes()) known += std::string(known.empty() ? "" : ", ") + s.name;
  return Status::invalid_argument("unknown sector size '" + bounded_message(name, 64) + "' (known: " + known + ")");
}

const std::vector<RegisteredSealProof>& registered_seal_proofs() {
  static const std::vector<RegisteredSealProof> kProofs = [] {
    std::vector<RegisteredSealProof> out;
    const char* sizes[] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
    struct Family {
      const char* suffix;
      PorepChallenges challenges;
      const char* api;
    };
    const Family families[] = {{"V1", PorepChallenges::kInteractive, "1.0"},
                               {"V1_1", PorepChallenges::kInteractive, "1.1"},
                               {"V1_1_Feat_SyntheticPoRep", PorepChallenges::kSynthetic, "1.2"},
                               {"V1_2_Feat_NonInteractivePoRep", PorepChallenges::kNonInteractive, "1.2"}};
    std::uint64_t id = 0;
    for (const auto& f : families) {
      for (const char* size : sizes) {
        out.push_back({id++, std::string("StackedDrg") + size + f.suffix, *find_sector_size(size), f.challenges, f.api});
      }
    }
    return out;
  }();
  return kProofs;
}

std::array<std::uint8_t, 32> RegisteredSealProof::porep_id() const {
  std::array<std::uint8_t, 32> out{};
  for (int b = 0; b < 8; ++b) out[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(id >> (8 * b));
  return out;
}

std::string RegisteredSealProof::vanilla_variant() const { return std::string("StackedDrg") + size.name + "V1"; }

unsigned RegisteredSealProof::partitions() const {
  if (challenges != PorepChallenges::kNonInteractive) return size.partitions;
  return size.bytes >= (std::uint64_t{32} << 30) ? 126 : 13;
}

Result<RegisteredSealProof> find_registered_seal_proof(const std::string& name_or_number) {
  const auto& all = registered_seal_proofs();
  if (!name_or_number.empty() && name_or_number.size() <= 3 &&
      std::all_of(name_or_number.begin(), name_or_number.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const auto n = std::stoul(name_or_number);
    if (n < all.size()) return all[n];
  }
  auto lower = [](const std::string& x) {
    std::string o;
    for (char c : x) o += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return o;
  };
  for (const auto& p : all) {
    if (lower(p.name) == lower(name_or_number)) return p;
  }
  return Status::invalid_argument("unknown registered seal proof '" + bounded_message(name_or_number, 64) +
                                  "' (0..19, or a name such as StackedDrg32GiBV1_1)");
}

std::array<std::uint8_t, 32> prover_id_from_miner(std::uint64_t miner_id) {
  std::array<std::uint8_t, 32> out{};
  std::size_t i = 0;
  do {
    std::uint8_t b = miner_id & 0x7f;
    miner_id >>= 7;
    if (miner_id != 0) b |= 0x80;
    out[i++] = b;
  } while (miner_id != 0);
  return out;
}

gadgets::TreeShape column_tree_shape(std::uint64_t nodes, unsigned sub_arity, unsigned top_arity) {
  gadgets::TreeShape t{gadgets::TreeHasher::kPoseidon, {}};
  std::uint64_t base = nodes / (sub_arity == 0 ? 1 : sub_arity) / (top_arity == 0 ? 1 : top_arity);
  while (base > 1) {
    t.arities.push_back(8);
    base /= 8;
  }
  if (sub_arity != 0) t.arities.push_back(sub_arity);
  if (top_arity != 0) t.arities.push_back(top_arity);
  return t;
}

StackedShape stacked_shape(const SectorSize& s) {
  StackedShape out;
  out.nodes = s.bytes / 32;
  out.layers = s.layers;
  out.challenges = s.challenges_per_partition;
  out.tree_c = column_tree_shape(out.nodes, s.sub_arity, s.top_arity);
  out.tree_d.hasher = gadgets::TreeHasher::kSha256;
  for (std::uint64_t n = out.nodes; n > 1; n /= 2) out.tree_d.arities.push_back(2);
  return out;
}

StackedWitness StackedWitness::blank(const StackedShape& s) {
  StackedWitness w;
  w.replica_id = w.comm_d = w.comm_r = w.comm_r_last = w.comm_c = Fr::zero();
  ChallengeWitness c;
  c.data_leaf = Fr::zero();
  c.comm_d_path = gadgets::blank_path(s.tree_d);
  ColumnWitness col{std::vector<Fr>(s.layers, Fr::zero()), gadgets::blank_path(s.tree_c)};
  c.drg.fill(col);
  c.exp.fill(col);
  c.comm_r_last_path = gadgets::blank_path(s.tree_c);
  c.comm_c_path = gadgets::blank_path(s.tree_c);
  w.challenges.assign(s.challenges, c);
  return w;
}

}  // namespace zk::circuits::filecoin
