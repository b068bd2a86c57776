#include "gadgets/sha256.hpp"

#include <openssl/sha.h>

namespace zk::gadgets {

std::array<std::uint8_t, 32> sha256_native(std::span<const std::uint8_t> data) {
  std::array<std::uint8_t, 32> out{};
  SHA256(data.data(), data.size(), out.data());
  return out;
}

}  // namespace zk::gadgets
