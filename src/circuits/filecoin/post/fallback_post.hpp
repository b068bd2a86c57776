#pragma once

// Filecoin's FallbackPoSt (WindowPoSt and WinningPoSt) as far as a verifier needs it: the
// registered PoSt proofs as data, the leaf challenges and the public inputs of a partition exactly
// as storage-proofs-post's FallbackPoStCircuit::generate_public_inputs (docs/filecoin-post.md).
// Per sector of the partition: comm_r, then per challenge the challenged leaf's index (the PoR
// input of a private-root path); a partition with fewer sectors than sector_count repeats the last
// sector's inputs. The circuit itself is issue 18's next step.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/porep/sectors.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"

namespace zk::circuits::filecoin {

/// filecoin-proofs-api's RegisteredPoStProof; Curio / Lotus number them the same (0-4 Winning,
/// 5-9 Window V1, 10-14 Window; proofs-api's StackedDrgWindow*V1_2 is Go's StackedDrgWindow*V1_1).
struct RegisteredPoStProof {
  std::uint64_t id;
  std::string name;     // proofs-api: "StackedDrgWindow2KiBV1_2"
  std::string go_name;  // Go: "StackedDrgWindow2KiBV1_1" (printed "StackedDRGWindow2KiBV1P1")
  SectorSize size;
  bool winning;
  bool api_1_2;                // the challenge index rule of API 1.2 (Window V1_2); else API 1.0
  unsigned sector_count;       // sectors per partition (WinningPoSt: its one sector, 66 times)
  unsigned challenge_count;    // challenges per sector (WinningPoSt: 1)
};
const std::vector<RegisteredPoStProof>& registered_post_proofs();
/// By number, proofs-api name, Go name or Go's printed name (case-insensitive).
Result<RegisteredPoStProof> find_registered_post_proof(const std::string& name_or_number);

struct PoStSector {
  std::uint64_t id = 0;
  std::array<std::uint8_t, 32> comm_r{};
};

/// The challenged leaf: LE-u64(SHA-256(randomness || sector_id u64 LE || challenge_index u64 LE)[0..8])
/// mod nodes.
std::uint64_t post_leaf_challenge(const std::array<std::uint8_t, 32>& randomness, std::uint64_t sector_id,
                                  std::uint64_t challenge_index, std::uint64_t nodes);

/// Partition k's public inputs (ONE excluded). `sectors`: every sector of the proof, in order
/// (WindowPoSt: the deadline's sectors, sector_count per partition; WinningPoSt: the one challenged
/// sector, repeated as Filecoin does).
Result<std::vector<Fr>> fallback_post_public_inputs(const RegisteredPoStProof& proof,
                                                    const std::array<std::uint8_t, 32>& randomness,
                                                    std::span<const PoStSector> sectors, std::size_t partition);
/// The same from one partition's sectors (1..sector_count; WinningPoSt: its one sector), the first
/// of which is sector number `first_index` of the whole proof (partition · sector_count).
Result<std::vector<Fr>> fallback_partition_inputs(const RegisteredPoStProof& proof,
                                                  const std::array<std::uint8_t, 32>& randomness,
                                                  std::span<const PoStSector> partition_sectors,
                                                  std::uint64_t first_index);

/// One sector as a verifier's user names it, `NUMBER:COMM_R`: the number strictly decimal (digits
/// only, fits 64 bits), comm_r as 64 hex digits or a sealed CID.
Result<PoStSector> parse_post_sector(std::string_view text);

/// A partition a PoSt proof must hold, as the verifier derives it from the public values.
struct PoStPartition {
  std::size_t index = 0;                       // the partition's number in the whole proof
  std::size_t first_sector = 0, sectors = 0;  // its sectors among those named (before padding)
  std::vector<Fr> inputs;                      // its public inputs (ONE excluded)
};

/// Every partition a proof over `sectors` must hold, in order, as Filecoin's verifier derives them:
/// WinningPoSt exactly one sector and one partition; WindowPoSt ceil(n / sector_count) partitions —
/// or, with `only`, that one partition alone (a proof of one partition, as Curio's per-partition
/// WindowPoSt requests make; the sectors are still the whole list: API 1.0 challenges depend on a
/// sector's position in it). Refused: no sectors, a sector number listed twice (Filecoin's
/// verifier takes the sectors as a set), `only` past the last partition.
Result<std::vector<PoStPartition>> post_partitions(const RegisteredPoStProof& proof,
                                                   const std::array<std::uint8_t, 32>& randomness,
                                                   std::span<const PoStSector> sectors,
                                                   std::optional<std::size_t> only = std::nullopt);

}  // namespace zk::circuits::filecoin
