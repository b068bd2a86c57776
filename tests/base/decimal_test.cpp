// Strict decimal integers: what std::stoull reads leniently is refused.

#include <gtest/gtest.h>

#include "base/decimal.hpp"

namespace zk::base {
namespace {

TEST(ParseDecimal, DigitsOnlyAndInRange) {
  EXPECT_EQ(*parse_decimal_u64("0"), 0u);
  EXPECT_EQ(*parse_decimal_u64("40"), 40u);
  EXPECT_EQ(*parse_decimal_u64("007"), 7u);
  EXPECT_EQ(*parse_decimal_u64("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(*parse_decimal_u64("19", 19), 19u);
}

TEST(ParseDecimal, WhatStoullAcceptsIsRefused) {
  for (const char* bad : {"", "-1", "-18446744073709551615", "+1", " 1", "1 ", "0x10", "1e3", "1.0", "٣",
                          "18446744073709551616", "99999999999999999999999"}) {
    auto v = parse_decimal_u64(bad);
    EXPECT_FALSE(v.ok()) << "'" << bad << "' read as " << (v.ok() ? *v : 0);
    if (!v.ok()) {
      EXPECT_EQ(v.status().code(), StatusCode::kInvalidArgument);
    }
  }
  EXPECT_FALSE(parse_decimal_u64("20", 19).ok());
  EXPECT_FALSE(parse_decimal_u64("5", 0).ok());
  EXPECT_NE(parse_decimal_u64(std::string_view("1\0" "2", 3)).status().message().find("'1?2'"), std::string::npos);
}

}  // namespace
}  // namespace zk::base
