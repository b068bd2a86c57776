// libFuzzer target: the PoRep-shaped circuit'\''s C1 input JSON
// Any input must give a value or an error Status: never a crash, a hang, an uncaught exception or
// an allocation beyond -malloc_limit_mb (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "circuits/porep_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)bytes;
  (void)text;
  (void)zk::circuits::porep::c1_from_json(text);
  return 0;
}
