// CRC-32C against the standard check value and RFC 3720's test vectors, both code paths agreeing.

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "base/crc32c.hpp"

namespace zk::base {
namespace {

std::uint32_t of(const std::vector<std::uint8_t>& v) { return crc32c(v); }

TEST(Crc32c, KnownVectors) {
  const char* check = "123456789";
  EXPECT_EQ(crc32c(std::span(reinterpret_cast<const std::uint8_t*>(check), 9)), 0xe3069283u);
  EXPECT_EQ(of(std::vector<std::uint8_t>(32, 0)), 0x8a9136aau);     // RFC 3720 B.4: 32 bytes of zeros
  EXPECT_EQ(of(std::vector<std::uint8_t>(32, 0xff)), 0x62a8ab43u);  // 32 bytes of ones
  std::vector<std::uint8_t> inc(32);
  for (int i = 0; i < 32; ++i) inc[i] = static_cast<std::uint8_t>(i);
  EXPECT_EQ(of(inc), 0x46dd794eu);  // incrementing
  EXPECT_EQ(crc32c({}), 0u);
}

TEST(Crc32c, ContinuingEqualsOneCallAndEveryBitMatters) {
  std::vector<std::uint8_t> v(1000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::uint8_t>(i * 7 + 3);
  const std::uint32_t whole = of(v);
  for (std::size_t cut : {0u, 1u, 7u, 8u, 9u, 500u, 999u, 1000u}) {
    const std::uint32_t a = crc32c(std::span(v).first(cut));
    EXPECT_EQ(crc32c(std::span(v).subspan(cut), a), whole) << cut;
  }
  EXPECT_EQ(crc32c_portable(v), whole);
  EXPECT_EQ(crc32c_portable(std::span(v).subspan(13), crc32c(std::span(v).first(13))), whole);
  for (std::size_t bit = 0; bit < v.size() * 8; bit += 61) {
    auto w = v;
    w[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    EXPECT_NE(of(w), whole) << bit;
  }
}

}  // namespace
}  // namespace zk::base
