// libFuzzer target: snarkjs proof.json and verification_key.json (both curves)
// Any input must give a value or an error Status: never a crash, a hang, an uncaught exception or
// an allocation beyond -malloc_limit_mb (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "groth16/snarkjs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)bytes;
  (void)text;
  namespace sj = zk::groth16::snarkjs;
  (void)sj::proof_from_json<zk::groth16::Bn254>(text);
  (void)sj::proof_from_json<zk::groth16::Bls12_381>(text);
  (void)sj::verifying_key_from_json<zk::groth16::Bn254>(text);
  (void)sj::verifying_key_from_json<zk::groth16::Bls12_381>(text);
  return 0;
}
