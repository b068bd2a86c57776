#pragma once

// BLS12-381: G1 over Fq, G2 over Fq2 (M-type sextic twist), their group configs, endomorphisms and
// subgroup checks.

#include "curve/params/bls12_381.hpp"
#include "curve/point.hpp"
#include "curve/scalar_mul.hpp"
#include "field/fields.hpp"
#include "field/fp12.hpp"

namespace zk::curve {

struct Bls12_381G1 {
  using Field = field::Bls12_381Fq;
  using Scalar = field::Bls12_381Fr;
  static constexpr const char* kName = "BLS12-381 G1";
  static constexpr Field kB = Field::from_canonical_unchecked(params::Bls12_381Curve::kG1B);
  static constexpr Field kGeneratorX = Field::from_canonical_unchecked(params::Bls12_381Curve::kG1X);
  static constexpr Field kGeneratorY = Field::from_canonical_unchecked(params::Bls12_381Curve::kG1Y);
};

struct Bls12_381G2 {
  using Field = field::Fp2<field::Bls12_381Fq>;
  using Scalar = field::Bls12_381Fr;
  static constexpr const char* kName = "BLS12-381 G2";
  static constexpr Field kB = Field::from_canonical_unchecked(params::Bls12_381Curve::kG2B);
  static constexpr Field kGeneratorX = Field::from_canonical_unchecked(params::Bls12_381Curve::kG2X);
  static constexpr Field kGeneratorY = Field::from_canonical_unchecked(params::Bls12_381Curve::kG2Y);
};

namespace bls12_381 {

using Fq = field::Bls12_381Fq;
using Fr = field::Bls12_381Fr;
using Fq2 = field::Fp2<Fq>;
using Fq12 = field::Fp12<Fq, field::params::Bls12_381Tower>;
using G1Affine = Affine<Bls12_381G1>;
using G1 = Jacobian<Bls12_381G1>;
using G1Xyzz = Xyzz<Bls12_381G1>;
using G2Affine = Affine<Bls12_381G2>;
using G2 = Jacobian<Bls12_381G2>;
using G2Xyzz = Xyzz<Bls12_381G2>;

/// phi(x, y) = (beta x, y): an endomorphism of E(Fq) acting as [-x^2] on G1.
G1 endomorphism(const G1& p);
/// psi = untwist o Frobenius o twist: an endomorphism of E'(Fq2) acting as [x] on G2.
G2 psi(const G2& p);

/// True when p lies in the order-r subgroup G1 (p must be on the curve). Scott, "A note on group
/// membership tests for G1, G2 and GT on BLS pairing-friendly curves" (eprint 2021/1130):
/// p is in G1 iff phi(p) = [-x^2] p.
bool is_in_subgroup(const G1& p);
/// Same paper: p is in G2 iff psi(p) = [x] p.
bool is_in_subgroup(const G2& p);

}  // namespace bls12_381

extern template struct Jacobian<Bls12_381G1>;
extern template struct Jacobian<Bls12_381G2>;

}  // namespace zk::curve
