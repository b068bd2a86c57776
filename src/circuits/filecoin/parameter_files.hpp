#pragma once

// Filecoin's Groth16 parameter files: their names (storage-proofs-core parameter_cache), the
// published list (rust-fil-proofs parameters.json v28: CID, digest, sector size; generated from
// data/filecoin/parameters-v28.json), and the section counts a PoRep .params must have for the
// exact circuit (what `zkpipe circuit-info` computes: ic = inputs, h = domain - 1, l = aux,
// a = inputs + A-dense aux, b_g1 = b_g2 = B-dense inputs + aux), so `zkpipe params check` can
// tell a usable file from a wrong one without loading it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "circuits/filecoin/porep/sectors.hpp"
#include "circuits/filecoin/post/fallback_post.hpp"

namespace zk::circuits::filecoin {

/// Filecoin's parameter files of a published sector size's PoRep (storage-proofs-core
/// parameter_cache): "v28-stacked-proof-of-replication-<tree>-sha256_hasher-<hex>" where <hex> is the
/// SHA-256 of the public parameters' identifier. Append ".params" / ".vk". One file pair serves
/// every registered proof of the size (the identifier names neither porep id nor API version).
std::string stacked_params_identifier(const SectorSize& s);
std::string stacked_params_stem(const SectorSize& s);

/// FallbackPoSt's files: "v28-proof-of-spacetime-fallback-<tree>-<hex>", the identifier
/// `FallbackPoSt::PublicParams{sector_size: N, challenge_count: C, sector_count: S}` (WinningPoSt:
/// 1 and 66). Window V1 and V1_2 share their files.
std::string post_params_identifier(const RegisteredPoStProof& p);
std::string post_params_stem(const RegisteredPoStProof& p);

/// EmptySectorUpdate (SnapDeals)'s files, "v28-empty-sector-update-merkletree-poseidon_hasher-<tree>-
/// <hex>": the published one of that sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB), looked up in
/// the published list (its identifier is not recomputed). INVALID_ARGUMENT for other sizes.
Result<std::string> update_params_stem(const SectorSize& s);

struct PublishedFile {
  const char* name;    // "v28-….params" / ".vk"
  const char* cid;     // IPFS CID
  const char* digest;  // BLAKE2b-512 of the file, first 32 hex digits
  std::uint64_t sector_size;
};
const std::vector<PublishedFile>& published_parameter_files();
/// The published entry of a file name, if any.
std::optional<PublishedFile> find_published(const std::string& name);

/// Expected section counts of a PoRep .params (pinned from circuit-info; tests recompute them).
struct KeySections {
  std::uint64_t ic, h, l, a, b;  // b: b_g1 and b_g2
};
std::optional<KeySections> stacked_key_sections(const SectorSize& s);
/// The same for a PoSt circuit where pinned (the 125M-constraint WindowPoSt 32 GiB partition);
/// the smaller ones are cheap to count (circuit-info).
std::optional<KeySections> fallback_key_sections(const RegisteredPoStProof& p);

}  // namespace zk::circuits::filecoin
