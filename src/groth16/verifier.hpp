#pragma once

// Groth16 verification: e(A, B) e(acc, -gamma) e(C, -delta) = e(alpha, beta) with
// acc = ic_0 + sum_i x_i ic_(i+1), as one multi-Miller loop and one final exponentiation; and a batch
// verifier that checks k proofs with one multi-Miller loop of k + 2 pairs (random linear
// combination with 128-bit coefficients, as bellperson's verify_proofs_batch).

#include <span>
#include <string>
#include <vector>

#include "base/rng.hpp"
#include "base/status.hpp"
#include "groth16/keys.hpp"
#include "groth16/points.hpp"
#include "msm/pippenger.hpp"

namespace zk::groth16 {

/// Validates every point of the key (on the curve, in the subgroup); a bad key is kept with its
/// reason in `key_check` and every verification under it answers that error.
template <class E>
PreparedVerifyingKey<E> prepare_verifying_key(const VerifyingKey<E>& vk) {
  PreparedVerifyingKey<E> p;
  p.key_check = check_verifying_key(vk);
  if (!p.key_check.ok()) return p;
  const typename E::G2Prepared beta = E::prepare(vk.beta_g2);
  const typename E::G2Prepared* q[] = {&beta};
  p.alpha_beta = E::final_exponentiation(E::multi_miller_loop(std::span(&vk.alpha_g1, 1), q));
  p.neg_gamma = E::prepare(vk.gamma_g2.neg());
  p.neg_delta = E::prepare(vk.delta_g2.neg());
  p.ic = vk.ic;
  return p;
}

namespace detail {
template <class E>
Result<typename E::G1> input_accumulator(const PreparedVerifyingKey<E>& pvk, std::span<const typename E::Fr> inputs) {
  if (!pvk.key_check.ok()) return pvk.key_check;
  if (inputs.size() + 1 != pvk.ic.size()) {
    return Status::invalid_argument("verify: " + std::to_string(inputs.size()) +
                                    " public inputs given but the key has " + std::to_string(pvk.ic.size() - 1));
  }
  auto acc = msm::msm<typename E::G1Config>(std::span(pvk.ic).subspan(1), inputs);
  if (!acc.ok()) return acc.status();
  return pvk.ic[0].to_jacobian() + *acc;
}
}  // namespace detail

/// true: valid; false: the pairing check fails; error: wrong number of inputs, a proof point off
/// the curve, outside the subgroup or at infinity, or a key that failed its check.
template <class E>
Result<bool> verify(const PreparedVerifyingKey<E>& pvk, const Proof<E>& proof, std::span<const typename E::Fr> inputs) {
  if (auto s = check_proof(proof); !s.ok()) return s;
  auto acc = detail::input_accumulator(pvk, inputs);
  if (!acc.ok()) return acc.status();
  const typename E::G2Prepared b = E::prepare(proof.b);
  const typename E::G1Affine ps[] = {proof.a, acc->to_affine(), proof.c};
  const typename E::G2Prepared* qs[] = {&b, &pvk.neg_gamma, &pvk.neg_delta};
  return E::final_exponentiation(E::multi_miller_loop(ps, qs)) == pvk.alpha_beta;
}

/// All proofs valid (with overwhelming probability) iff true. inputs[j] belongs to proofs[j].
///
/// With random 128-bit z_j: prod_j e(z_j A_j, B_j) e(acc, -gamma) e(sum_j z_j C_j, -delta) =
/// e(alpha, beta)^(sum_j z_j), where acc = (sum_j z_j) ic_0 + sum_i (sum_j z_j x_ji) ic_(i+1): the
/// inputs are combined as scalars first, so the key's IC points take one MSM for the whole batch.
/// The z_j must be unpredictable to whoever made the proofs: seed `rng` from the operating system
/// (std::random_device), never from a fixed or guessable seed (base/rng.hpp is deterministic).
template <class E>
Result<bool> verify_batch(const PreparedVerifyingKey<E>& pvk, std::span<const Proof<E>> proofs,
                          std::span<const std::vector<typename E::Fr>> inputs, Rng& rng) {
  using Fr = typename E::Fr;
  using G1Config = typename E::G1Config;
  if (proofs.size() != inputs.size())
    return Status::invalid_argument("verify_batch: proofs and input sets differ in number");
  if (!pvk.key_check.ok()) return pvk.key_check;
  if (proofs.empty()) return true;
  const std::size_t k = proofs.size(), n = pvk.ic.size() - 1;
  std::vector<typename E::G1Affine> ps, cs;
  std::vector<Fr> zs;
  std::vector<typename E::G2Prepared> bs;
  bs.reserve(k);
  std::vector<Fr> combined(n, Fr::zero());
  Fr z_sum = Fr::zero();
  for (std::size_t j = 0; j < k; ++j) {
    if (auto s = check_proof(proofs[j]); !s.ok()) {
      return Status::invalid_argument("proof " + std::to_string(j) + ": " + s.message());
    }
    if (inputs[j].size() != n) {
      return Status::invalid_argument("verify_batch: proof " + std::to_string(j) + " has " +
                                      std::to_string(inputs[j].size()) + " public inputs but the key has " +
                                      std::to_string(n));
    }
    const Fr z =
        Fr::from_u64(rng.next()) * Fr::from_u64(std::uint64_t{1} << 32) * Fr::from_u64(std::uint64_t{1} << 32) +
        Fr::from_u64(rng.next() | 1);  // a random 128-bit multiplier
    for (std::size_t i = 0; i < n; ++i) combined[i] += z * inputs[j][i];
    ps.push_back((proofs[j].a.to_jacobian() * z).to_affine());
    bs.push_back(E::prepare(proofs[j].b));
    cs.push_back(proofs[j].c);
    zs.push_back(z);
    z_sum = z_sum + z;
  }
  auto acc = msm::msm<G1Config>(std::span(pvk.ic).subspan(1), combined);
  if (!acc.ok()) return acc.status();
  auto c_sum = msm::msm<G1Config>(cs, zs);
  if (!c_sum.ok()) return c_sum.status();
  ps.push_back((pvk.ic[0].to_jacobian() * z_sum + *acc).to_affine());
  ps.push_back(c_sum->to_affine());
  std::vector<const typename E::G2Prepared*> qs;
  for (auto& b : bs) qs.push_back(&b);
  qs.push_back(&pvk.neg_gamma);
  qs.push_back(&pvk.neg_delta);
  const auto lhs = E::final_exponentiation(E::multi_miller_loop(ps, qs));
  // e(alpha, beta) lies in the cyclotomic subgroup, where squarings are cheaper.
  return lhs == pvk.alpha_beta.cyclotomic_pow(z_sum.to_canonical());
}

// Instantiated once, in verifier.cpp, for both curves (see prover.hpp).
#define ZK_GROTH16_VERIFIER_INSTANCES(X, E)                                                                    \
  X template PreparedVerifyingKey<E> prepare_verifying_key<E>(const VerifyingKey<E>&);                          \
  X template Result<bool> verify<E>(const PreparedVerifyingKey<E>&, const Proof<E>&, std::span<const E::Fr>);   \
  X template Result<bool> verify_batch<E>(const PreparedVerifyingKey<E>&, std::span<const Proof<E>>,            \
                                          std::span<const std::vector<E::Fr>>, Rng&);
ZK_GROTH16_VERIFIER_INSTANCES(extern, Bls12_381)
ZK_GROTH16_VERIFIER_INSTANCES(extern, Bn254)

}  // namespace zk::groth16
