#pragma once

// Base64 with the standard alphabet and padding (RFC 4648 section 4), as Go's encoding/json writes
// a []byte and Rust's base64 STANDARD engine reads it: decoding is strict (padding required, no
// whitespace, unused bits zero), so one byte string has exactly one accepted encoding.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.hpp"

namespace zk {

std::string base64_encode(std::span<const std::uint8_t> bytes);
Result<std::vector<std::uint8_t>> base64_decode(std::string_view text);

}  // namespace zk
