#pragma once

// Point encodings.
//
// BLS12-381: the ZCash serialization (IETF pairing-friendly-curves draft, appendix "ZCash
// serialization"; docs/formats.md): big-endian coordinates, Fq2 as c1 || c0, three flag bits in the
// top of byte 0 (0x80 compressed, 0x40 infinity, 0x20 sign of y).
//
// BN254: no flag bits (every Fq element has its top two bits free but nobody agrees on using them):
// uncompressed big-endian x || y, G2 as x.c1 || x.c0 || y.c1 || y.c0 (EIP-197 order), the point at
// infinity is all zero bytes (as in EIP-196/197 and snarkjs's bellman export). (0, 0) is not on the
// curve (b = 3 != 0), so the all-zero encoding is unambiguous.
//
// Every decoding checks the encoding (flags, lengths, canonical coordinates) and that the point is
// on the curve; checked decoding also rejects points outside the prime-order subgroup (unchecked:
// for large trusted parameter files, whose proofs are verified before they are answered).

#include <array>
#include <cstdint>
#include <span>

#include "base/status.hpp"
#include "curve/bls12_381.hpp"
#include "curve/bn254.hpp"

namespace zk::curve {

enum class Check { kChecked, kUnchecked };

namespace bls12_381 {

inline constexpr std::size_t kG1CompressedBytes = 48;
inline constexpr std::size_t kG1UncompressedBytes = 96;
inline constexpr std::size_t kG2CompressedBytes = 96;
inline constexpr std::size_t kG2UncompressedBytes = 192;

std::array<std::uint8_t, 48> to_compressed(const G1Affine& p);
std::array<std::uint8_t, 96> to_uncompressed(const G1Affine& p);
std::array<std::uint8_t, 96> to_compressed(const G2Affine& p);
std::array<std::uint8_t, 192> to_uncompressed(const G2Affine& p);

Result<G1Affine> g1_from_compressed(std::span<const std::uint8_t> bytes, Check check = Check::kChecked);
Result<G1Affine> g1_from_uncompressed(std::span<const std::uint8_t> bytes, Check check = Check::kChecked);
Result<G2Affine> g2_from_compressed(std::span<const std::uint8_t> bytes, Check check = Check::kChecked);
Result<G2Affine> g2_from_uncompressed(std::span<const std::uint8_t> bytes, Check check = Check::kChecked);

}  // namespace bls12_381

namespace bn254 {

inline constexpr std::size_t kG1Bytes = 64;
inline constexpr std::size_t kG2Bytes = 128;

std::array<std::uint8_t, 64> to_bytes(const G1Affine& p);
std::array<std::uint8_t, 128> to_bytes(const G2Affine& p);
Result<G1Affine> g1_from_bytes(std::span<const std::uint8_t> bytes, Check check = Check::kChecked);
Result<G2Affine> g2_from_bytes(std::span<const std::uint8_t> bytes, Check check = Check::kChecked);

}  // namespace bn254

}  // namespace zk::curve
