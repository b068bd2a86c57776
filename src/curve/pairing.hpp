#pragma once

// The optimal ate pairing on BLS12-381 and BN254: a multi-Miller loop over (G1, prepared G2)
// pairs followed by one final exponentiation.
//
// Values match @noble/curves (and arkworks/gnark) exactly: the hard part of the final
// exponentiation computes a fixed multiple of (p^4 - p^2 + 1)/r, namely 3 for BLS12-381 and
// 2u(6u^2 + 3u + 1) for BN254 (docs/pairing.md). The result is still a non-degenerate bilinear
// pairing; only its GT values differ from the "textbook" exponent, which
// final_exponentiation_textbook() computes for tests.

#include <span>
#include <vector>

#include "curve/bls12_381.hpp"
#include "curve/bn254.hpp"

namespace zk::curve {

namespace bls12_381 {

/// The line coefficients of the Miller loop for a fixed G2 point (reusable across pairings, e.g.
/// for a verifying key's gamma and delta).
struct G2Prepared {
  std::vector<std::array<Fq2, 3>> coeffs;
  bool infinity = true;
};
G2Prepared prepare(const G2Affine& q);

/// prod_i f_{x, Q_i}(P_i), without the final exponentiation. Pairs with an infinite point are skipped.
Fq12 multi_miller_loop(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs);
Fq12 final_exponentiation(const Fq12& f);
/// f^((p^12 - 1)/r) by plain exponentiation (slow; a test oracle).
Fq12 final_exponentiation_textbook(const Fq12& f);
Fq12 pairing(const G1Affine& p, const G2Affine& q);
/// prod_i e(P_i, Q_i) == 1, with one final exponentiation.
bool pairing_product_is_one(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs);

}  // namespace bls12_381

namespace bn254 {

struct G2Prepared {
  std::vector<std::array<Fq2, 3>> coeffs;
  bool infinity = true;
};
G2Prepared prepare(const G2Affine& q);
Fq12 multi_miller_loop(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs);
Fq12 final_exponentiation(const Fq12& f);
Fq12 final_exponentiation_textbook(const Fq12& f);
Fq12 pairing(const G1Affine& p, const G2Affine& q);
bool pairing_product_is_one(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs);

}  // namespace bn254

}  // namespace zk::curve
