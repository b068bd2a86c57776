// libFuzzer target: SnarkPack aggregate proofs (src/snarkpack/aggregate_proof.hpp)
// Any input must give a proof or an error Status: never a crash, a hang, an uncaught exception or
// an allocation beyond -malloc_limit_mb (docs/fuzzing.md). A proof that reads must write back to
// the same bytes, and the SRS-free checks must run on it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "snarkpack/aggregate_proof.hpp"
#include "snarkpack/verify.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  auto p = zk::snarkpack::read_aggregate_proof(bytes);
  if (!p.ok()) return 0;
  auto back = zk::snarkpack::write_aggregate_proof(*p);
  if (!back.ok() || back->size() != size || !std::equal(back->begin(), back->end(), data)) __builtin_trap();
  const auto d = zk::snarkpack::derive(*p, bytes.first(8), zk::snarkpack::Version::kV2);
  (void)zk::snarkpack::check_srs_free(*p, d);
  return 0;
}
