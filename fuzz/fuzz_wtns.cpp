// libFuzzer target: snarkjs .wtns (both curves)
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
  (void)zk::groth16::snarkjs::read_wtns<zk::groth16::Bn254>(bytes);
  (void)zk::groth16::snarkjs::read_wtns<zk::groth16::Bls12_381>(bytes);
  return 0;
}
