#pragma once

// Sectors of random data sealed in memory: what every kind's test input (`gen-c1`, `gen-vanilla`)
// starts from. The draws come from one Rng in a fixed order, so a data seed makes the same files.

#include "base/rng.hpp"
#include "circuits/filecoin/porep/c1.hpp"
#include "circuits/filecoin/porep/vanilla.hpp"

namespace zk::circuits::filecoin {

/// 32 random bytes.
inline Bytes32 random_bytes32(Rng& rng) {
  Bytes32 b{};
  for (auto& x : b) x = static_cast<std::uint8_t>(rng.next());
  return b;
}

/// A sector of random Fr32 data (the top two bits of each node clear, as after Filecoin's padding),
/// drawn from `rng` now, sealed under `in`.
inline Result<SealedSector> seal_random_sector(const C1Context& ctx, const SealInputs& in, Rng& rng) {
  std::vector<Bytes32> data(ctx.shape.nodes);
  for (auto& d : data) {
    d = random_bytes32(rng);
    d[31] &= 0x3f;
  }
  return seal_in_memory(ctx.shape, ctx.graph, std::move(data), in);
}

/// The V1_1 seal proof of a size: the sectors PoSt and SnapDeals test inputs are sealed as.
inline Result<RegisteredSealProof> test_seal_proof(const SectorSize& size) {
  return find_registered_seal_proof(std::string("StackedDrg") + size.name + "V1_1");
}

/// Sectors of one size sealed for PoSt and SnapDeals test inputs (the size's V1_1 proof).
struct TestSealer {
  RegisteredSealProof proof;
  C1Context ctx;
  static Result<TestSealer> of(const SectorSize& size) {
    auto proof = test_seal_proof(size);
    if (!proof.ok()) return proof.status();
    auto ctx = c1_context(*proof);
    if (!ctx.ok()) return ctx.status();
    return TestSealer{std::move(*proof), std::move(*ctx)};
  }
  /// Sector `number` of `miner`: its ticket, then its data, drawn from `rng`.
  Result<SealedSector> seal(std::uint64_t number, std::uint64_t miner, Rng& rng) const {
    SealInputs in;
    in.porep_id = proof.porep_id();
    in.sector_id = number;
    in.prover_id = prover_id_from_miner(miner);
    in.ticket = random_bytes32(rng);
    return seal_random_sector(ctx, in, rng);
  }
};

}  // namespace zk::circuits::filecoin
