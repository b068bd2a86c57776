#pragma once

// Filecoin's sector sizes and registered seal proofs as data (rust-fil-proofs filecoin-proofs
// constants and parameters, filecoin-proofs-api registry; docs/filecoin-porep.md): nodes, layers,
// challenges per partition, partitions, and the shape of trees C and R-last (base arity 8, then an
// optional sub and top level).

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

/// The interactive PoRep partition circuit of a sector size.
StackedShape stacked_shape(const SectorSize& s);

/// Tree C / R-last of a sector of `nodes` leaves: base arity 8 levels, then sub and top levels.
gadgets::TreeShape column_tree_shape(std::uint64_t nodes, unsigned sub_arity, unsigned top_arity);

}  // namespace zk::circuits::filecoin
