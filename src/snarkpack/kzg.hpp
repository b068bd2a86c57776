#pragma once

// The KZG openings that prove GIPA's final commitment keys well formed (bellperson groth16::
// aggregate prove.rs prove_commitment_v / _w and verify.rs; ../shared/design/snarkpack.md
// section 2). After the GIPA rounds the final keys are single points, commitments to the challenge
// polynomial in the SRS's secrets:
//   final_vkey.i = h^(f_v(s_i)),  f_v(X) = prod_j (1 + c_inv_rev[j] X^(2^j))
//   final_wkey.i = g^(f_w(s_i)),  f_w(X) = X^n prod_j (1 + c_rev[j] (X / r)^(2^j))
// (s_0 = alpha, s_1 = beta; _rev: the round challenges last first). The prover opens both at the
// transcript's point z with the quotient (f - f(z)) / (X - z) over the SRS powers; the verifier
// checks e(-g, fvk.i - h f_v(z)) e(g^(s_i) - g z, pi_v.i) = 1 and
// e(fwk.i - g f_w(z), -h) e(pi_w.i, h^(s_i) - h z) = 1.

#include <array>
#include <span>
#include <vector>

#include "base/status.hpp"
#include "snarkpack/gt.hpp"
#include "snarkpack/srs.hpp"

namespace zk::snarkpack {

/// The coefficients of prod_j (1 + x[j] (s X)^(2^j)), x the challenges last round first: 2^|x|.
std::vector<Fr> challenge_polynomial(std::span<const Fr> x, const Fr& s);
/// Its value at z in product form (|x| products).
Fr challenge_polynomial_at(std::span<const Fr> x, const Fr& s, const Fr& z);
/// The quotient of f(X) - f(z) by X - z (f.size() - 1 coefficients; f's remainder at z is dropped).
std::vector<Fr> divide_by_linear(std::span<const Fr> f, const Fr& z);

/// The round challenges and their inverses (first round first), r and z: what both sides need.
struct KzgInputs {
  std::span<const Fr> challenges, challenges_inv;
  Fr r, z;
};
/// f_v(z) and f_w(z).
Fr v_at(const KzgInputs& in);
Fr w_at(const KzgInputs& in, std::size_t nproofs);

/// The prover's openings from the SRS prefix of n = 2^rounds proofs (h_* [0, n), g_* [0, 2n)).
Result<std::array<G2Affine, 2>> open_vkey(const Srs& srs, const KzgInputs& in);
Result<std::array<G1Affine, 2>> open_wkey(const Srs& srs, const KzgInputs& in);

/// The four points of the SRS the verifier needs (bellperson VerifierSRS): g, h, and the first power
/// of alpha and beta in each group.
struct VerifierSrs {
  G1Affine g, g_alpha, g_beta;
  G2Affine h, h_alpha, h_beta;
};
/// From an SRS holding at least two points per vector.
Result<VerifierSrs> verifier_srs(const Srs& srs);

struct KzgChecks {
  bool v_alpha = false, v_beta = false, w_alpha = false, w_beta = false;
  bool all() const { return v_alpha && v_beta && w_alpha && w_beta; }
};
KzgChecks check_kzg(const VerifierSrs& srs, const std::array<G2Affine, 2>& final_vkey,
                    const std::array<G1Affine, 2>& final_wkey, const std::array<G2Affine, 2>& vkey_opening,
                    const std::array<G1Affine, 2>& wkey_opening, const KzgInputs& in, std::size_t nproofs);

}  // namespace zk::snarkpack
