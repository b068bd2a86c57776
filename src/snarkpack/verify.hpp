#pragma once

// Verifying a SnarkPack aggregate (bellperson groth16::aggregate verify.rs; ../shared/design/
// snarkpack.md section 2). What is here: the transcript's values as the verifier derives them
// (hcom, r, the GIPA challenges, final_r) and the six equations of TIPP and MIPP that need no SRS
// (the folded commitments against the final values) — the check real Filecoin aggregates can get
// without the production SRS file. Not yet here: the KZG openings (they need the SRS's four
// points) and the Groth16 equation over the aggregated proofs (the verifying key and the public
// inputs); issue 44.

#include <cstdint>
#include <span>
#include <vector>

#include "snarkpack/aggregate_proof.hpp"

namespace zk::snarkpack {

/// AggregateVersion: V2 binds the GIPA's first round to its messages (Filecoin since network
/// version 16); V1 does not.
enum class Version { kV1, kV2 };

struct Derived {
  Fr hcom, r;
  std::vector<Fr> challenges;      // c_i, one per GIPA round
  std::vector<Fr> challenges_inv;  // c_i^-1 (what the transcript yields)
  Fr final_r;                      // prod_j (1 + c_inv_rev[j] r^(2^j))
};
/// The transcript run over the proof and `transcript_include` (Filecoin: sha256 of the seeds and
/// comm_rs, or of the comm_rs for NI-PoRep).
Derived derive(const AggregateProof& p, std::span<const std::uint8_t> transcript_include, Version v);

/// TIPP: e(final_a, final_b) = Z_AB, e(final_a, fvk.0) e(fwk.0, final_b) = T_AB, the same with .1 =
/// U_AB; MIPP: final_c^final_r = Z_C, e(final_c, fvk.0) = T_C, e(final_c, fvk.1) = U_C — with the
/// commitments folded by the challenges.
struct SrsFreeChecks {
  bool tipp_z = false, tipp_t = false, tipp_u = false, mipp_z = false, mipp_t = false, mipp_u = false;
  bool all() const { return tipp_z && tipp_t && tipp_u && mipp_z && mipp_t && mipp_u; }
};
SrsFreeChecks check_srs_free(const AggregateProof& p, const Derived& d);

}  // namespace zk::snarkpack
