#pragma once

// Filecoin's 32-byte node values (docs/formats.md sections 3 and 6.1): the binary SHA-256 tree's node
// (TreeD / comm_d) = SHA-256(left || right) read as a little-endian Fr32 (byte 31 & 0x3f), and the
// conversions between Fr32 bytes and field elements. The trees themselves, native and in R1CS, for
// every hasher and arity, are por.hpp's FilecoinTree and por_root.

#include <array>
#include <cstdint>

#include "gadgets/poseidon.hpp"
#include "gadgets/sha256.hpp"

namespace zk::gadgets {

using Fr = PoseidonFr;
using Fr32 = std::array<std::uint8_t, 32>;

/// SHA-256(left || right) truncated to Fr32.
Fr32 sha256_node(const Fr32& left, const Fr32& right);
/// An Fr32 as a field element (byte 31 & 0x3f first, so always < r). Only for Fr32 values (hash
/// digests, data nodes): a general field element (a replica node, a Poseidon root) may use those
/// two bits and must be read with Fr::from_bytes instead.
Fr fr32_to_field(const Fr32& x);
/// The canonical 32 little-endian bytes of a field element (an Fr32 only when it is below 2^254).
Fr32 field_to_fr32(const Fr& x);

}  // namespace zk::gadgets
