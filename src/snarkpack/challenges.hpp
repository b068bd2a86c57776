#pragma once

// SnarkPack's Fiat-Shamir steps (bellperson groth16::aggregate prove.rs / verify.rs; ../shared/
// design/snarkpack.md section 2), one definition for the prover and the verifier: the values each
// challenge absorbs, in their order. The prover calls them as its messages appear; the verifier
// (verify.hpp derive) on the proof it reads.

#include <cstddef>
#include <span>

#include "snarkpack/aggregate_proof.hpp"

namespace zk::snarkpack {

/// AggregateVersion: V2 binds the GIPA's first round to its messages and the KZG point to the final
/// values (Filecoin since network version 16); V1 does neither.
enum class Version { kV1, kV2 };

/// hcom = T("hcom") (com_ab, com_c).
Fr hcom_challenge(const Commitment& com_ab, const Commitment& com_c);
/// r = T("random-r") (hcom, transcript_include): the random linear combination of the proofs.
Fr r_challenge(const Fr& hcom, std::span<const std::uint8_t> transcript_include);
/// The inverse of the first GIPA challenge before round 0: T("gipa-0") (hcom, ip_ab, agg_c, r).
Fr first_challenge_inv(const Fr& hcom, const Fq12& ip_ab, const G1Affine& agg_c, const Fr& r);
/// Round i's challenge inverse from the previous one and the round's messages (g.comms_ab[i], ...):
/// T("gipa-i") (c_inv, z_ab, z_c, comms_ab, comms_c). Round 0 of V1 keeps `c_inv` unchanged.
Fr round_challenge_inv(const GipaProof& g, std::size_t i, const Fr& c_inv, Version v);
/// The KZG point z. V2: T("random-z") (extra, final keys, final a, b, c) with extra =
/// T("gipa-extra-link") (last challenge, final a, b, c, the last round's messages); V1:
/// T("random-z") (last challenge, final keys).
struct KzgPoint {
  Fr extra;  // V2 only (zero for V1)
  Fr z;
};
KzgPoint kzg_point(const GipaProof& g, const Fr& last_challenge, Version v);

}  // namespace zk::snarkpack
