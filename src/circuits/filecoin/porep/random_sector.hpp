#pragma once

// Sectors of random data sealed in memory: what every kind's test input (`gen-c1`, `gen-vanilla`)
// starts from. The draws come from one Rng in a fixed order, so a data seed makes the same files.

#include "base/rng.hpp"
#include "circuits/filecoin/porep/c1.hpp"
#include "circuits/filecoin/porep/vanilla.hpp"
#include "circuits/filecoin/proof_kind.hpp"

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

/// A gen-vanilla input's registered proof: --registered-proof (`by_name`: number or name), else the
/// kind's at --sector-size (`by_size`, default 2KiB); refused above 8 MiB (sealed in memory).
template <class ByName, class BySize>
auto gen_vanilla_proof(const KindOptions& o, ByName&& by_name, BySize&& by_size) -> decltype(by_name(std::string())) {
  decltype(by_name(std::string())) proof = Status::internal("unset");
  if (const std::string name = option_value(o, "registered-proof"); !name.empty()) {
    proof = by_name(name);
  } else {
    const std::string size_name = option_value(o, "sector-size");
    auto size = find_sector_size(size_name.empty() ? "2KiB" : size_name);
    if (!size.ok()) return size.status();
    proof = by_size(*size);
  }
  if (proof.ok() && proof->size.bytes > (std::uint64_t{8} << 20)) {
    return Status::invalid_argument(proof->name + ": gen-vanilla seals in memory, up to 8 MiB sectors (2KiB, 8MiB)");
  }
  return proof;
}

}  // namespace zk::circuits::filecoin
