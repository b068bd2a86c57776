#pragma once

// BLS12-381's target group GT as SnarkPack writes it (bellperson aggregate proofs, blstrs gt.rs;
// ../shared/design/snarkpack.md section 1): 288 bytes, the torus compression b = (c0 + 1) c1^-1 of
// g = c0 + c1 w, the six Fq of b each 48 bytes little-endian canonical (b.c0.c0, b.c0.c1, b.c1.c0,
// ..., b.c2.c1); decompression g = (b + w)(b - w)^-1, then the subgroup check. The transcript
// absorbs GT uncompressed: the twelve Fq of g, 48 bytes little-endian each, c0.c0.c0 first.

#include <array>
#include <cstdint>
#include <span>

#include "base/status.hpp"
#include "curve/bls12_381.hpp"

namespace zk::snarkpack {

using Fq = curve::bls12_381::Fq;
using Fr = curve::bls12_381::Fr;
using Fq12 = curve::bls12_381::Fq12;
using G1Affine = curve::bls12_381::G1Affine;
using G2Affine = curve::bls12_381::G2Affine;

inline constexpr std::size_t kGtCompressedBytes = 288;
inline constexpr std::size_t kGtBytes = 576;

/// Whether g has order r (g^r = 1): GT, the pairing's image.
bool in_gt(const Fq12& g);
/// Decodes 288 bytes: canonical Fq limbs, a GT element (INVALID_ARGUMENT otherwise).
Result<Fq12> gt_from_compressed(std::span<const std::uint8_t> bytes);
/// Encodes a GT element; INVALID_ARGUMENT where c1 = 0 (the identity: blstrs cannot compress it).
Result<std::array<std::uint8_t, kGtCompressedBytes>> gt_to_compressed(const Fq12& g);
/// The uncompressed bytes the transcript absorbs.
std::array<std::uint8_t, kGtBytes> gt_to_bytes(const Fq12& g);

}  // namespace zk::snarkpack
