#pragma once

// Hex strings of byte strings: lowercase out; in, either case, an optional "0x", and a bound on the
// decoded length (untrusted input).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.hpp"

namespace zk {

std::string hex_encode(std::span<const std::uint8_t> bytes);
/// INVALID_ARGUMENT (naming `what`) for an odd length, a non-hex digit or more than `max_bytes`.
Result<std::vector<std::uint8_t>> hex_decode(std::string_view text, std::string_view what,
                                             std::size_t max_bytes = std::size_t{1} << 20);

}  // namespace zk
