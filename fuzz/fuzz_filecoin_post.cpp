// libFuzzer target: one FallbackPoStSectorProof in bincode (a PoSt `vanilla_proofs` entry), parsed
// and, when it parses, checked as a 32 GiB WindowPoSt sector (every path opened natively).
// Any input must give a value or an error Status: never a crash, a hang, an uncaught exception or
// an allocation beyond -malloc_limit_mb (docs/fuzzing.md).
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "circuits/filecoin/post/vanilla_post.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fc = zk::circuits::filecoin;
  auto p = fc::parse_post_sector_proof(std::span<const std::uint8_t>(data, size));
  if (!p.ok()) return 0;
  static const auto proof = *fc::find_registered_post_proof("8");
  const std::array<std::uint8_t, 32> zeros{};
  (void)fc::verify_post_sector_proof(proof, zeros, *p, 0);
  (void)fc::post_sector_witness(proof, *p);
  return 0;
}
