#pragma once

// The pairing-friendly curves Groth16 runs on, as one type each that bundles the groups, the
// pairing and the evaluation-domain convention. Everything in src/groth16 is a template over it.

#include <span>

#include "curve/bls12_381.hpp"
#include "curve/bn254.hpp"
#include "curve/pairing.hpp"
#include "ntt/domain.hpp"

namespace zk::groth16 {

struct Bls12_381 {
  static constexpr const char* kName = "bls12-381";
  using Fr = curve::bls12_381::Fr;
  using G1Config = curve::Bls12_381G1;
  using G2Config = curve::Bls12_381G2;
  using G1Affine = curve::bls12_381::G1Affine;
  using G1 = curve::bls12_381::G1;
  using G2Affine = curve::bls12_381::G2Affine;
  using G2 = curve::bls12_381::G2;
  using Gt = curve::bls12_381::Fq12;
  using G2Prepared = curve::bls12_381::G2Prepared;
  /// bellman/bellperson: 7^t roots of unity, H coset shifted by 7 (every Filecoin and Zcash key).
  static constexpr ntt::DomainConfig kDomain = ntt::DomainConfig::bellman();

  static G2Prepared prepare(const G2Affine& q) { return curve::bls12_381::prepare(q); }
  static Gt multi_miller_loop(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs) {
    return curve::bls12_381::multi_miller_loop(ps, qs);
  }
  static Gt final_exponentiation(const Gt& f) { return curve::bls12_381::final_exponentiation(f); }
  static bool in_subgroup(const G1& p) { return curve::bls12_381::is_in_subgroup(p); }
  static bool in_subgroup(const G2& p) { return curve::bls12_381::is_in_subgroup(p); }
};

struct Bn254 {
  static constexpr const char* kName = "bn254";
  using Fr = curve::bn254::Fr;
  using G1Config = curve::Bn254G1;
  using G2Config = curve::Bn254G2;
  using G1Affine = curve::bn254::G1Affine;
  using G1 = curve::bn254::G1;
  using G2Affine = curve::bn254::G2Affine;
  using G2 = curve::bn254::G2;
  using Gt = curve::bn254::Fq12;
  using G2Prepared = curve::bn254::G2Prepared;
  /// zkpipe's own BN254 keys: 5^t roots (the chain snarkjs uses) and coset shift 5 (a non-residue,
  /// so never inside a power-of-two domain).
  static constexpr ntt::DomainConfig kDomain = {.root_generator = 5, .coset_generator = 5};

  static G2Prepared prepare(const G2Affine& q) { return curve::bn254::prepare(q); }
  static Gt multi_miller_loop(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs) {
    return curve::bn254::multi_miller_loop(ps, qs);
  }
  static Gt final_exponentiation(const Gt& f) { return curve::bn254::final_exponentiation(f); }
  static bool in_subgroup(const G1& p) { return curve::bn254::is_in_subgroup(p); }
  static bool in_subgroup(const G2& p) { return curve::bn254::is_in_subgroup(p); }
};

}  // namespace zk::groth16
