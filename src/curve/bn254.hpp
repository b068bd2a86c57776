#pragma once

// BN254 (alt_bn128): G1 over Fq (prime order, cofactor 1), G2 over Fq2 (D-type sextic twist).

#include "curve/params/bn254.hpp"
#include "curve/point.hpp"
#include "curve/scalar_mul.hpp"
#include "field/fields.hpp"
#include "field/fp12.hpp"

namespace zk::curve {

struct Bn254G1 {
  using Field = field::Bn254Fq;
  using Scalar = field::Bn254Fr;
  static constexpr const char* kName = "BN254 G1";
  static constexpr Field kB = Field::from_canonical_unchecked(params::Bn254Curve::kG1B);
  static constexpr Field kGeneratorX = Field::from_canonical_unchecked(params::Bn254Curve::kG1X);
  static constexpr Field kGeneratorY = Field::from_canonical_unchecked(params::Bn254Curve::kG1Y);
};

struct Bn254G2 {
  using Field = field::Fp2<field::Bn254Fq>;
  using Scalar = field::Bn254Fr;
  static constexpr const char* kName = "BN254 G2";
  static constexpr Field kB = Field::from_canonical_unchecked(params::Bn254Curve::kG2B);
  static constexpr Field kGeneratorX = Field::from_canonical_unchecked(params::Bn254Curve::kG2X);
  static constexpr Field kGeneratorY = Field::from_canonical_unchecked(params::Bn254Curve::kG2Y);
};

namespace bn254 {

using Fq = field::Bn254Fq;
using Fr = field::Bn254Fr;
using Fq2 = field::Fp2<Fq>;
using Fq12 = field::Fp12<Fq, field::params::Bn254Tower>;
using G1Affine = Affine<Bn254G1>;
using G1 = Jacobian<Bn254G1>;
using G1Xyzz = Xyzz<Bn254G1>;
using G2Affine = Affine<Bn254G2>;
using G2 = Jacobian<Bn254G2>;
using G2Xyzz = Xyzz<Bn254G2>;

/// psi = untwist o Frobenius o twist on E'(Fq2): acts as [6u^2] (= p mod r) on G2.
G2 psi(const G2& p);

/// G1 has cofactor 1: every point on the curve is in the group.
bool is_in_subgroup(const G1& p);
/// p is in G2 iff psi(p) = [6u^2] p (El Housni, Guillevic, Piellard, "Co-factor clearing and
/// subgroup membership testing on pairing-friendly curves", eprint 2022/352, BN curves).
bool is_in_subgroup(const G2& p);

}  // namespace bn254

extern template struct Jacobian<Bn254G1>;
extern template struct Jacobian<Bn254G2>;

}  // namespace zk::curve
