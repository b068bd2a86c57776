#include "base/crc32c.hpp"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace zk::base {
namespace {

constexpr std::uint32_t kPoly = 0x82f63b78;  // Castagnoli's polynomial, bit-reflected

constexpr std::array<std::uint32_t, 256> make_table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ ((c & 1) ? kPoly : 0);
    t[i] = c;
  }
  return t;
}
constexpr auto kTable = make_table();

std::uint32_t crc_table(const std::uint8_t* p, std::size_t n, std::uint32_t c) {
  for (std::size_t i = 0; i < n; ++i) c = kTable[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return c;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) std::uint32_t crc_sse42(const std::uint8_t* p, std::size_t n, std::uint32_t c) {
  std::uint64_t c64 = c;
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    c64 = _mm_crc32_u64(c64, v);
  }
  auto c32 = static_cast<std::uint32_t>(c64);
  for (; n > 0; ++p, --n) c32 = _mm_crc32_u8(c32, *p);
  return c32;
}
#endif

}  // namespace

std::uint32_t crc32c(std::span<const std::uint8_t> data, std::uint32_t crc) {
  std::uint32_t c = ~crc;
#if defined(__x86_64__)
  static const bool hw = __builtin_cpu_supports("sse4.2");
  c = hw ? crc_sse42(data.data(), data.size(), c) : crc_table(data.data(), data.size(), c);
#else
  c = crc_table(data.data(), data.size(), c);
#endif
  return ~c;
}

std::uint32_t crc32c_portable(std::span<const std::uint8_t> data, std::uint32_t crc) {
  return ~crc_table(data.data(), data.size(), ~crc);
}

}  // namespace zk::base
