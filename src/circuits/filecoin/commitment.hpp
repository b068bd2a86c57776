#pragma once

// Sector commitments as Filecoin's software shows them: 32 bytes (the field element's
// little-endian bytes, as in a C1), written as 64 hex digits or as a CID — CIDv1, multibase
// base32 lower ('b'), codec fil-commitment-unsealed (0xf101, comm_d) with multihash
// sha2-256-trunc254-padded (0x1012), or fil-commitment-sealed (0xf102, comm_r) with
// poseidon-bls12_381-a2-fc1 (0xb401); digest length 32. So comm_d CIDs read "baga6ea4sea…" and
// comm_r CIDs "bagboea4b5abc…".

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "base/status.hpp"

namespace zk::circuits::filecoin {

enum class CommitmentKind { kUnsealed /* comm_d */, kSealed /* comm_r */ };

/// 64 hex digits (optionally 0x-prefixed) or a CID of `kind`; a CID of the other kind is refused.
Result<std::array<std::uint8_t, 32>> parse_commitment(const std::string& text, CommitmentKind kind);
std::string commitment_cid(const std::array<std::uint8_t, 32>& c, CommitmentKind kind);

/// 32 bytes (a seed, ticket, randomness, id) as 64 hex digits, optionally 0x-prefixed; errors begin
/// with `what` ("--randomness: expected 32 bytes as 64 hex digits").
Result<std::array<std::uint8_t, 32>> parse_hex32(std::string_view what, std::string_view hex);
/// Lower-case hex of any bytes.
std::string hex_string(std::span<const std::uint8_t> bytes);

}  // namespace zk::circuits::filecoin
