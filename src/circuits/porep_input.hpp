#pragma once

// The porep "C1 output": everything the partitions of one sector need, as documented JSON
// (docs/porep.md, "Input file"). Written by `zkpipe gen-input`, read by `zkpipe prove` and
// `zkpipe verify --input`. Reading checks the whole file against the shape before any proving work:
// sizes, hex encodings, canonical field elements, challenge and parent indices (re-derived from the
// seed and the graph) and every opening, label and encoding natively, naming the first wrong field.

#include <string>
#include <string_view>
#include <vector>

#include "circuits/porep.hpp"

namespace zk::circuits::porep {

struct C1 {
  Shape shape;
  Bytes32 seed{};  // the interactive challenge randomness
  Fr replica_id, comm_d, comm_c, comm_r_last, comm_r;
  std::vector<PartitionWitness> partitions;

  /// The public inputs of partition k, derived from the commitments and the seed (not the openings).
  Result<PublicInputs> public_inputs(std::uint32_t partition) const;
};

/// Seals a random sector (`random_sector`) and opens every partition.
Result<C1> generate_c1(const Shape& s, std::uint64_t seed, const Progress& progress = {});

std::string c1_to_json(const C1& c1);

/// Parses and checks a C1 file. With `expected`, the file's shape must equal it. `check_openings`
/// false skips the native re-verification (sizes and encodings are always checked).
Result<C1> c1_from_json(std::string_view text, const Shape* expected = nullptr, bool check_openings = true);

}  // namespace zk::circuits::porep
