// libFuzzer target: SnarkPack SRS files (src/snarkpack/srs.hpp), read as the prefix 2 proofs need.
// Any input must give an SRS or an error Status: never a crash, a hang, an uncaught exception or an
// allocation beyond -malloc_limit_mb (docs/fuzzing.md): the four length fields are untrusted.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "snarkpack/srs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const zk::snarkpack::ReadAt read = [&](std::uint64_t offset, std::span<std::uint8_t> out) -> zk::Status {
    if (offset > size || out.size() > size - offset) return zk::Status::invalid_argument("past the end");
    if (!out.empty()) std::memcpy(out.data(), data + offset, out.size());
    return {};
  };
  (void)zk::snarkpack::read_srs_prefix(read, size, 2);
  return 0;
}
