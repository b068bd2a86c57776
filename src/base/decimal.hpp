#pragma once

// Strict decimal integers for what a user types (sector numbers, partition indexes, registered
// proof numbers): ASCII digits only — no sign, no spaces, no "0x", nothing after the digits — and
// a value that fits. std::stoull reads "-18446744073709551615" as 1 and " 1" or "+1" as 1; a
// verifier must not guess what was meant.

#include <cstdint>
#include <string_view>

#include "base/status.hpp"

namespace zk::base {

/// The value of `text` if it is a decimal number of at most `max`; INVALID_ARGUMENT otherwise,
/// naming the text (cut to 40 characters) and why.
Result<std::uint64_t> parse_decimal_u64(std::string_view text, std::uint64_t max = UINT64_MAX);

}  // namespace zk::base
