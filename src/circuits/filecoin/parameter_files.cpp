#include "circuits/filecoin/parameter_files.hpp"

#include <openssl/sha.h>

#include <cstdio>
#include <cstring>
#include <string_view>

namespace zk::circuits::filecoin {

namespace {
std::string tree_display(const SectorSize& s) {
  return "merkletree-poseidon_hasher-8-" + std::to_string(s.sub_arity) + "-" + std::to_string(s.top_arity);
}
/// storage-proofs-core parameter_cache: the full SHA-256 of the identifier, lower-case hex.
std::string identifier_hash(const std::string& id) {
  unsigned char h[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(id.data()), id.size(), h);
  std::string hex;
  char buf[3];
  for (unsigned char b : h) {
    std::snprintf(buf, sizeof(buf), "%02x", b);
    hex += buf;
  }
  return hex;
}
}  // namespace

std::string stacked_params_identifier(const SectorSize& s) {
  // storage-proofs-porep stacked PublicParams::identifier (the spelling, spaces and missing comma
  // included, is what the published names hash).
  return "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
         "drgraph::BucketGraph{size: " +
         std::to_string(s.bytes / 32) + "; degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges { layers: " +
         std::to_string(s.layers) + ", max_count: " + std::to_string(s.challenges_per_partition) +
         " }, tree: " + tree_display(s) + " }";
}

std::string stacked_params_stem(const SectorSize& s) {
  return "v28-stacked-proof-of-replication-" + tree_display(s) + "-sha256_hasher-" +
         identifier_hash(stacked_params_identifier(s));
}

std::string post_params_identifier(const RegisteredPoStProof& p) {
  // storage-proofs-post fallback PublicParams::identifier (the winning counts swapped, as the
  // vanilla parameters have them).
  return "FallbackPoSt::PublicParams{sector_size: " + std::to_string(p.size.bytes) +
         ", challenge_count: " + std::to_string(p.challenge_count) + ", sector_count: " + std::to_string(p.sector_count) +
         "}";
}

std::string post_params_stem(const RegisteredPoStProof& p) {
  return "v28-proof-of-spacetime-fallback-" + tree_display(p.size) + "-" + identifier_hash(post_params_identifier(p));
}

Result<std::string> update_params_stem(const SectorSize& s) {
  static constexpr std::string_view kPrefix = "v28-empty-sector-update-merkletree-";
  static constexpr std::string_view kSuffix = ".params";
  for (const auto& f : published_parameter_files()) {
    const std::string_view name(f.name);
    if (f.sector_size == s.bytes && name.starts_with(kPrefix) && name.ends_with(kSuffix)) {
      return std::string(name.substr(0, name.size() - kSuffix.size()));
    }
  }
  return Status::invalid_argument(std::string("Filecoin publishes no SnapDeals parameters for ") + s.name +
                                  " sectors (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)");
}

std::optional<KeySections> fallback_key_sections(const RegisteredPoStProof& p) {
  // zkpipe circuit-info --kind window-post --sector-size 32GiB (465 s; the slow test
  // filecoin_window_post_32gib_count pins its constraint count).
  if (!p.winning && p.size.bytes == (std::uint64_t{32} << 30)) return KeySections{25840, 134217727, 126902376, 96205645, 91925767};
  return std::nullopt;
}

const std::vector<PublishedFile>& published_parameter_files() {
  static const std::vector<PublishedFile> kFiles = {
#include "circuits/filecoin/published_params.inc"
  };
  return kFiles;
}

std::optional<PublishedFile> find_published(const std::string& name) {
  for (const auto& f : published_parameter_files()) {
    if (name == f.name) return f;
  }
  return std::nullopt;
}

std::optional<KeySections> stacked_key_sections(const SectorSize& s) {
  // zkpipe circuit-info --kind porep --sector-size S (key_points); the test
  // FilecoinParameterFiles.KeySectionsAreTheCircuits recomputes the small ones, the slow test
  // filecoin_porep_key_sections the large ones. 32 GiB: 47.4 GB, the published file's size.
  struct Row {
    std::uint64_t bytes;
    KeySections k;
  };
  static const Row kRows[] = {
      {2048, {40, 4194303, 2685673, 2674948, 685522}},
      {std::uint64_t{8} << 20, {40, 4194303, 3842449, 3815036, 1011290}},
      {std::uint64_t{512} << 20, {40, 8388607, 4420837, 4385080, 1174174}},
      {std::uint64_t{32} << 30, {328, 134217727, 130169893, 129753620, 33112282}},
      {std::uint64_t{64} << 30, {328, 134217727, 131076643, 130637870, 33386944}},
  };
  for (const auto& r : kRows) {
    if (r.bytes == s.bytes) return r.k;
  }
  return std::nullopt;
}

}  // namespace zk::circuits::filecoin
