#pragma once

// Aggregating Groth16 proofs into one SnarkPack proof (bellperson groth16::aggregate prove.rs
// aggregate_proofs, byte for byte; ../shared/design/snarkpack.md). With v = (h_alpha, h_beta)[0, n)
// and w = (g_alpha, g_beta)[n, 2n) from the SRS, r from the transcript:
//   com_ab = pair commitment of (A, B) under (v, w), com_c = single commitment of C under v,
//   ip_ab = prod e(A_j, B_j)^(r^j), agg_c = sum r^j C_j;
// then log2 n GIPA rounds over (A, B^r, C, r^j) with keys (v, w^(r^-j)), each sending the cross
// commitments and products of the halves and folding them by its challenge; then the KZG openings
// of the final keys (kzg.hpp). Deterministic: the same proofs, SRS and transcript input give the
// same bytes. Threaded in the caller's oneTBB arena.

#include <cstdint>
#include <span>

#include "base/status.hpp"
#include "groth16/engine.hpp"
#include "groth16/keys.hpp"
#include "snarkpack/aggregate_proof.hpp"
#include "snarkpack/challenges.hpp"
#include "snarkpack/srs.hpp"

namespace zk::snarkpack {

using Groth16Proof = groth16::Proof<groth16::Bls12_381>;

/// Where the time went (seconds).
struct AggregateTimings {
  double commitments = 0;  // com_ab, com_c, B^r, ip_ab, agg_c, w^(r^-1)
  double gipa = 0;         // the rounds
  double openings = 0;     // the KZG openings
};

/// Aggregates n proofs (n a power of two in [2, 2^19]; the SRS holds at least 2n G1 and n G2
/// points per vector — read_srs_prefix(n) reads exactly that). INVALID_ARGUMENT otherwise.
Result<AggregateProof> aggregate(const Srs& srs, std::span<const Groth16Proof> proofs,
                                 std::span<const std::uint8_t> transcript_include, Version version,
                                 AggregateTimings* timings = nullptr);

}  // namespace zk::snarkpack
