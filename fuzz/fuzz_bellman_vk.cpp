// libFuzzer target: bellman .vk, uncompressed (both curves) and compressed
// Any input must give a value or an error Status: never a crash, a hang, an uncaught exception or
// an allocation beyond -malloc_limit_mb (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "groth16/io.hpp"
#include "groth16/verifier.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)bytes;
  (void)text;
  if (auto vk = zk::groth16::read_verifying_key<zk::groth16::Bls12_381>(bytes); vk.ok()) {
    (void)zk::groth16::prepare_verifying_key(*vk).key_check;
  }
  (void)zk::groth16::read_verifying_key<zk::groth16::Bn254>(bytes);
  (void)zk::groth16::read_verifying_key_compressed(bytes);
  return 0;
}
