#pragma once

// Filecoin's sector sizes and registered seal proofs as data (rust-fil-proofs filecoin-proofs
// constants and parameters, filecoin-proofs-api registry; docs/filecoin-porep.md): nodes, layers,
// challenges per partition, partitions, and the shape of trees C and R-last (base arity 8, then an
// optional sub and top level).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"

namespace zk::circuits::filecoin {

struct SectorSize {
  const char* name;  // "2KiB", "8MiB", ...
  std::uint64_t bytes;
  unsigned sub_arity, top_arity;  // 0: no such level
  unsigned layers;
  unsigned challenges_per_partition;  // interactive PoRep
  unsigned partitions;                // interactive PoRep
  bool published;                     // Filecoin publishes parameters for it
};

/// Every sector size rust-fil-proofs defines (2 KiB ... 64 GiB).
const std::vector<SectorSize>& sector_sizes();
/// By name ("32GiB", case-insensitive, "32g" and "34359738368" accepted too).
Result<SectorSize> find_sector_size(const std::string& name);

/// How a registered proof draws its challenges (the circuit and its keys are the same for all three;
/// sdr.hpp has the derivations).
enum class PorepChallenges { kInteractive, kSynthetic, kNonInteractive };

/// filecoin-proofs-api's RegisteredSealProof (Curio's Go numbering is the same): 0-4 StackedDrg*V1
/// (API 1.0, the legacy expander graph), 5-9 V1_1, 10-14 V1_1_Feat_SyntheticPoRep (API 1.2),
/// 15-19 V1_2_Feat_NonInteractivePoRep (API 1.2).
struct RegisteredSealProof {
  std::uint64_t id;
  std::string name;  // "StackedDrg2KiBV1_1"
  SectorSize size;
  PorepChallenges challenges;
  const char* api_version;  // "1.0", "1.1", "1.2"
  bool legacy_graph() const { return id <= 4; }
  /// The id as u64 little-endian, the nonce (0) as u64 little-endian, then zeros.
  std::array<std::uint8_t, 32> porep_id() const;
  /// The VanillaSealProof variant its C1 uses ("StackedDrg2KiBV1" for every proof of that size).
  std::string vanilla_variant() const;
  /// Partitions of a C2: the size's (1, or 10 at 32/64 GiB), or for non-interactive PoRep 13, or
  /// 126 at 32/64 GiB (rust-fil-proofs' constants; challenges per partition are the size's either way).
  unsigned partitions() const;
};
const std::vector<RegisteredSealProof>& registered_seal_proofs();
/// By number ("5") or name ("StackedDrg2KiBV1_1", case-insensitive).
Result<RegisteredSealProof> find_registered_seal_proof(const std::string& name_or_number);

/// The prover id of a miner actor (filecoin-ffi / cuzk): the id address's payload (the actor id as
/// an unsigned LEB128 varint) left-aligned in 32 zero bytes.
std::array<std::uint8_t, 32> prover_id_from_miner(std::uint64_t miner_id);


/// The interactive PoRep partition circuit of a sector size.
StackedShape stacked_shape(const SectorSize& s);

/// Tree C / R-last of a sector of `nodes` leaves: base arity 8 levels, then sub and top levels.
gadgets::TreeShape column_tree_shape(std::uint64_t nodes, unsigned sub_arity, unsigned top_arity);

}  // namespace zk::circuits::filecoin
