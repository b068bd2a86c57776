#pragma once

// Groth16 keys and proofs (bellman's layout and semantics, docs/formats.md section 2).

#include <vector>

#include "base/status.hpp"
#include "groth16/engine.hpp"
#include "groth16/key_points.hpp"

namespace zk::groth16 {

template <class E>
struct VerifyingKey {
  typename E::G1Affine alpha_g1, beta_g1;
  typename E::G2Affine beta_g2, gamma_g2;
  typename E::G1Affine delta_g1;
  typename E::G2Affine delta_g2;
  std::vector<typename E::G1Affine> ic;  // one per input, ic[0] for ONE

  std::size_t num_inputs() const { return ic.size(); }  // including ONE
};

/// The CRS, density-filtered like bellman's: `a` holds every input then the aux variables with an
/// A-density bit; `b_g1`/`b_g2` the inputs with a B-density bit then such aux variables. The
/// queries are owned or mapped from a key cache (groth16/key_points.hpp).
template <class E>
struct ProvingKey {
  VerifyingKey<E> vk;
  KeyPoints<typename E::G1Affine> h;  // tau^i Z(tau) / delta, i < n - 1
  KeyPoints<typename E::G1Affine> l;  // (beta u_j + alpha v_j + w_j)(tau) / delta per aux variable
  KeyPoints<typename E::G1Affine> a;
  KeyPoints<typename E::G1Affine> b_g1;
  KeyPoints<typename E::G2Affine> b_g2;

  /// The QAP domain size n (h has n - 1 points).
  std::size_t domain_size() const { return h.size() + 1; }
};

/// e(alpha, beta) and the negated, prepared gamma and delta: what every verification reuses.
/// `key_check` is the outcome of validating the key's points (groth16/points.hpp) when it was
/// prepared: a key that failed never verifies anything.
template <class E>
struct PreparedVerifyingKey {
  Status key_check;
  typename E::Gt alpha_beta;
  typename E::G2Prepared neg_gamma, neg_delta;
  std::vector<typename E::G1Affine> ic;
};

template <class E>
struct Proof {
  typename E::G1Affine a;
  typename E::G2Affine b;
  typename E::G1Affine c;
  friend bool operator==(const Proof& x, const Proof& y) { return x.a == y.a && x.b == y.b && x.c == y.c; }
};

}  // namespace zk::groth16
