#pragma once

// SnarkPack's aggregate proof (bellperson groth16::aggregate AggregateProof, the bytes Filecoin puts
// on chain; ../shared/design/snarkpack.md section 1), one format for V1 and V2:
//   com_ab (T, U), com_c (T, U), ip_ab: 5 GT; agg_c: G1;
//   the TIPP/MIPP proof: nproofs (u32 little-endian), then per GIPA round (L = log2 nproofs) the
//   commitments of the halves of AB and C (each T_l, U_l, T_r, U_r), then per round z_ab (Z_l, Z_r,
//   GT) and z_c (Z_l, Z_r, G1); final_a (G1), final_b (G2), final_c (G1), final_vkey (G2, G2),
//   final_wkey (G1, G1); then the KZG openings vkey_opening (G2, G2), wkey_opening (G1, G1).
// G1 and G2 compressed (48 / 96 bytes), GT torus-compressed (288, gt.hpp): 2260 + 2976 L bytes.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "base/status.hpp"
#include "snarkpack/gt.hpp"

namespace zk::snarkpack {

/// A pair commitment (T, U).
struct Commitment {
  Fq12 t, u;
};

struct GipaProof {
  std::uint32_t nproofs = 0;
  std::vector<std::array<Commitment, 2>> comms_ab, comms_c;  // per round: (left, right)
  std::vector<std::array<Fq12, 2>> z_ab;                     // per round: (Z_l, Z_r)
  std::vector<std::array<G1Affine, 2>> z_c;
  G1Affine final_a, final_c;
  G2Affine final_b;
  std::array<G2Affine, 2> final_vkey;
  std::array<G1Affine, 2> final_wkey;
};

struct AggregateProof {
  Commitment com_ab, com_c;
  Fq12 ip_ab;
  G1Affine agg_c;
  GipaProof gipa;
  std::array<G2Affine, 2> vkey_opening;
  std::array<G1Affine, 2> wkey_opening;
};

/// The most proofs an aggregate holds (bellperson's reader: 2^20, its SRS's size less one).
inline constexpr std::uint32_t kMaxAggregatedProofs = 1u << 20;

/// log2 of a power of two.
unsigned log2_exact(std::uint32_t n);
/// The byte length of an aggregate of n proofs (n a power of two, at least 2).
std::size_t aggregate_proof_bytes(std::uint32_t nproofs);
/// Reads the bytes above: nproofs a power of two in [2, 2^20], the exact length it implies, every
/// point and GT element checked (on the curve, in its subgroup, canonical). INVALID_ARGUMENT names
/// the field.
Result<AggregateProof> read_aggregate_proof(std::span<const std::uint8_t> bytes);
/// Writes them (INVALID_ARGUMENT only for a GT element that has no compressed form).
Result<std::vector<std::uint8_t>> write_aggregate_proof(const AggregateProof& p);

}  // namespace zk::snarkpack
