// libFuzzer target: one SnapDeals partition proof (bincode PartitionProof of storage-proofs-update,
// circuits/filecoin/update/partition_proof.hpp) for a 2 KiB sector, parsed and, when it parses,
// written back (must give the same bytes) and checked natively against fixed commitments.
// Any input must give a value or an error Status: never a crash, a hang, an uncaught exception or
// an allocation beyond -malloc_limit_mb (docs/fuzzing.md).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "circuits/filecoin/update/partition_proof.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fc = zk::circuits::filecoin;
  static const auto shape = *fc::update_shape(2048);
  const std::span<const std::uint8_t> bytes(data, size);
  auto p = fc::parse_update_partition_proof(bytes, shape);
  if (!p.ok()) return 0;
  const auto back = fc::update_partition_proof_bytes(*p);
  if (back.size() != size || !std::equal(back.begin(), back.end(), data)) std::abort();  // must round-trip
  const fc::Fr one = fc::Fr::one();
  (void)fc::verify_update_partition_proof(shape, 0, fc::update_h_default(shape), one, one, one, *p);
  return 0;
}
