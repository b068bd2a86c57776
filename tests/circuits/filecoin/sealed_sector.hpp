#pragma once

// A 2 KiB sector of random data sealed in memory with Filecoin's exact circuit shape, for the
// PoRep tests.

#include <gtest/gtest.h>

#include <optional>

#include "circuits/filecoin/porep/sectors.hpp"
#include "circuits/filecoin/porep/vanilla.hpp"
#include "test_util.hpp"

namespace zk::circuits::filecoin::test {

struct SealedTwoKib {
  StackedShape shape = stacked_shape(*find_sector_size("2KiB"));
  SealInputs in;
  std::optional<sdr::ParentGraph> graph;
  std::optional<SealedSector> sector;
};

/// Seals random data with the given sector id under `porep_id` (default registered proof 5,
/// StackedDrg2KiBV1_1); ADD_FAILURE and empty optionals on error.
inline SealedTwoKib seal_random_two_kib(Rng& rng, std::uint64_t sector_id, const sdr::Bytes32& porep_id = sdr::porep_id(5)) {
  SealedTwoKib out;
  std::vector<sdr::Bytes32> data(out.shape.nodes);
  for (auto& d : data) {
    for (auto& b : d) b = static_cast<std::uint8_t>(rng.next());
    d[31] &= 0x3f;  // Fr32 data
  }
  out.in.porep_id = porep_id;
  out.in.sector_id = sector_id;
  out.in.ticket.fill(static_cast<std::uint8_t>(sector_id + 1));
  out.in.prover_id.fill(9);
  auto graph = sdr::ParentGraph::create(out.shape.nodes, out.in.porep_id, false);
  if (!graph.ok()) {
    ADD_FAILURE() << graph.status().to_string();
    return out;
  }
  out.graph = std::move(*graph);
  auto sealed = seal_in_memory(out.shape, *out.graph, std::move(data), out.in);
  if (!sealed.ok()) {
    ADD_FAILURE() << sealed.status().to_string();
    return out;
  }
  out.sector = std::move(*sealed);
  return out;
}

}  // namespace zk::circuits::filecoin::test
