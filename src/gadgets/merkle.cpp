#include "gadgets/merkle.hpp"

#include <cstring>

namespace zk::gadgets {

Fr32 sha256_node(const Fr32& left, const Fr32& right) {
  std::uint8_t buf[64];
  std::memcpy(buf, left.data(), 32);
  std::memcpy(buf + 32, right.data(), 32);
  Fr32 d = sha256_native(buf);
  d[31] &= 0x3f;
  return d;
}

Fr fr32_to_field(const Fr32& x) {
  Fr32 y = x;
  y[31] &= 0x3f;
  return *Fr::from_bytes(y, field::Endian::kLittle);  // < 2^254 < r: always canonical
}

Fr32 field_to_fr32(const Fr& x) {
  Fr32 out{};
  x.to_bytes(out, field::Endian::kLittle);
  return out;
}

}  // namespace zk::gadgets
