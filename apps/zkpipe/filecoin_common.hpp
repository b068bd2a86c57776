#pragma once

// What the Filecoin commands (filecoin_*.cpp) share: the kind an option names, verifying keys read
// in either layout, and the 32-byte hex values of the command line.

#include <array>
#include <cstdint>
#include <string>

#include "base/status.hpp"
#include "circuits/filecoin/commitment.hpp"
#include "circuits/filecoin/proof_kind.hpp"
#include "groth16/keys.hpp"

namespace zk::app {

namespace fc = circuits::filecoin;

/// A verifying key in bellman's layout (uncompressed) or with compressed points.
Result<groth16::VerifyingKey<groth16::Bls12_381>> read_vk(const std::string& path);

/// 32 bytes as hex (the option's name in errors), and back.
inline Result<std::array<std::uint8_t, 32>> hex32(const std::string& option, const std::string& hex) {
  return fc::parse_hex32("--" + option, hex);
}
inline std::string hex_of(const std::array<std::uint8_t, 32>& b) { return fc::hex_string(b); }

}  // namespace zk::app
