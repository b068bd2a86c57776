#pragma once

// Verifying a SnarkPack aggregate (bellperson groth16::aggregate verify.rs; ../shared/design/
// snarkpack.md section 2), as three groups of real equality tests (bellperson merges them with
// random coefficients into one final exponentiation; honest proofs pass both ways):
// - the six TIPP/MIPP equations that need no SRS: the folded commitments against the final values
//   (`check_srs_free`; what a real Filecoin aggregate gets without the production SRS file);
// - the four KZG openings of the final commitment keys (kzg.hpp; the SRS's first powers);
// - the Groth16 equation over the aggregated proofs with the verifying key and every proof's
//   public inputs (`check_groth16`).

#include <cstdint>
#include <span>
#include <vector>

#include "base/status.hpp"
#include "groth16/engine.hpp"
#include "groth16/keys.hpp"
#include "snarkpack/aggregate_proof.hpp"
#include "snarkpack/challenges.hpp"
#include "snarkpack/kzg.hpp"

namespace zk::snarkpack {

using Groth16VerifyingKey = groth16::VerifyingKey<groth16::Bls12_381>;

struct Derived {
  Fr hcom, r;
  std::vector<Fr> challenges;      // c_i, one per GIPA round
  std::vector<Fr> challenges_inv;  // c_i^-1 (what the transcript yields)
  Fr final_r;                      // prod_j (1 + c_inv_rev[j] r^(2^j))
  Fr extra;                        // V2's link between GIPA and the KZG point (zero for V1)
  Fr z;                            // the KZG point
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

/// The KZG openings of the final keys at z.
KzgChecks check_kzg(const VerifierSrs& srs, const AggregateProof& p, const Derived& d);

/// e(alpha r_sum, beta) e(IC_0 r_sum + sum_k IC_(k+1) sum_j r^j x_jk, gamma) e(agg_c, delta) = ip_ab,
/// r_sum = sum_j r^j. INVALID_ARGUMENT: not one input vector per proof, or one whose length is not
/// the key's; a key that fails its point checks.
Result<bool> check_groth16(const Groth16VerifyingKey& vk, std::span<const std::vector<Fr>> public_inputs,
                           const AggregateProof& p, const Fr& r);

struct Verdict {
  SrsFreeChecks srs_free;
  KzgChecks kzg;
  bool groth16 = false;
  bool valid() const { return srs_free.all() && kzg.all() && groth16; }
};
/// All three groups. `public_inputs[j]` belongs to the j-th aggregated proof.
Result<Verdict> verify_aggregate(const VerifierSrs& srs, const Groth16VerifyingKey& vk,
                                 std::span<const std::vector<Fr>> public_inputs, const AggregateProof& p,
                                 std::span<const std::uint8_t> transcript_include, Version v);

}  // namespace zk::snarkpack
