#pragma once

// A DEVELOPMENT setup: builds Groth16 keys for a circuit shape from known (random or seeded)
// trapdoor values tau, alpha, beta, gamma, delta. Whoever knows them can forge proofs, so these keys
// are for tests and benchmarks only, never for anything that needs soundness against the key maker.
//
// Same keys as bellman's generator would make from the same trapdoor: QAP rows = the constraints
// plus one `input * 0 = 0` row per input; n = the next power of two; Lagrange evaluations
// L_i(tau) = (1/n) sum_k tau^k omega^-ik, i.e. the inverse NTT of the powers of tau; A/B queries
// filtered by the densities of the shape's (normalised) matrices. Keys are then made by
// fixed-base multiplication (fixed_base.hpp), on all threads of the caller's arena.

#include <string>
#include <vector>

#include "base/rng.hpp"
#include "base/status.hpp"
#include "groth16/fixed_base.hpp"
#include "groth16/keys.hpp"
#include "msm/density.hpp"
#include "ntt/ntt.hpp"
#include "r1cs/shape.hpp"

namespace zk::groth16 {

template <class E>
struct Trapdoor {
  typename E::Fr tau, alpha, beta, gamma, delta;

  /// Non-zero random values from a seeded generator (reproducible keys for tests and benchmarks).
  static Trapdoor random(Rng& rng) {
    auto nz = [&] {
      for (;;) {
        auto x = E::Fr::random(rng);
        if (!x.is_zero()) return x;
      }
    };
    Trapdoor t;
    t.tau = nz(), t.alpha = nz(), t.beta = nz(), t.gamma = nz(), t.delta = nz();
    return t;
  }
};

/// log2 of the QAP domain for m rows (bellman: the smallest power of two >= m).
inline unsigned domain_log_size(std::size_t rows) {
  unsigned k = 0;
  while ((std::size_t{1} << k) < rows) ++k;
  return k;
}

template <class E>
Result<ProvingKey<E>> generate_parameters(const r1cs::R1csShape<typename E::Fr>& shape, const Trapdoor<E>& t) {
  using Fr = typename E::Fr;
  const std::size_t ni = shape.num_inputs, na = shape.num_aux, nc = shape.num_constraints();
  const std::size_t rows = shape.qap_rows();
  const unsigned log_n = domain_log_size(rows);
  auto domain = ntt::Domain<Fr>::create(log_n, E::kDomain);
  if (!domain.ok()) return domain.status();
  const std::size_t n = domain->size();
  if (t.tau.pow(static_cast<std::uint64_t>(n)) == Fr::one()) {
    return Status::invalid_argument("setup: tau lies in the evaluation domain; draw another trapdoor");
  }

  // Lagrange basis at tau.
  std::vector<Fr> lag(n);
  {
    Fr p = Fr::one();
    for (std::size_t i = 0; i < n; ++i, p = p * t.tau) lag[i] = p;
    ntt::inverse(*domain, std::span<Fr>(lag), ntt::Order::kNN);
  }
  // u, v, w of every variable (inputs first, then aux).
  std::vector<Fr> u(ni + na), v(ni + na), w(ni + na);
  auto idx = [&](r1cs::Variable var) { return var.is_input() ? var.index : ni + var.index; };
  auto accumulate = [&](const r1cs::SparseMatrix<Fr>& m, std::vector<Fr>& out) {
    for (std::size_t r = 0; r < nc; ++r) {
      for (std::uint64_t e = m.row_ptr[r]; e < m.row_ptr[r + 1]; ++e) {
        out[idx(m.cols[e])] = out[idx(m.cols[e])] + m.vals[e] * lag[r];
      }
    }
  };
  accumulate(shape.a, u);
  accumulate(shape.b, v);
  accumulate(shape.c, w);
  for (std::size_t j = 0; j < ni; ++j) u[j] = u[j] + lag[nc + j];  // input rows

  // Densities from the matrices (the prover marks the same bits from the same normalised rows).
  std::vector<bool> in_a(ni + na, false), in_b(ni + na, false);
  for (std::size_t j = 0; j < ni; ++j) in_a[j] = true;
  for (auto e : shape.a.cols) in_a[idx(e)] = true;
  for (auto e : shape.b.cols) in_b[idx(e)] = true;

  std::vector<Fr> a_scalars, b_scalars;
  for (std::size_t j = 0; j < ni + na; ++j) {
    if (in_a[j]) a_scalars.push_back(u[j]);
    if (in_b[j]) b_scalars.push_back(v[j]);
    if ((in_a[j] && u[j].is_zero()) || (in_b[j] && v[j].is_zero())) {
      return Status::invalid_argument("setup: a query polynomial vanishes at tau; draw another trapdoor");
    }
  }
  const Fr gamma_inv = t.gamma.inverse(), delta_inv = t.delta.inverse();
  std::vector<Fr> ic_scalars(ni), l_scalars(na);
  for (std::size_t j = 0; j < ni + na; ++j) {
    const Fr k = t.beta * u[j] + t.alpha * v[j] + w[j];
    if (j < ni) {
      ic_scalars[j] = k * gamma_inv;
    } else {
      if (k.is_zero()) {
        return Status::invalid_argument("setup: aux variable " + std::to_string(j - ni) +
                                        " is unconstrained (it appears in no constraint)");
      }
      l_scalars[j - ni] = k * delta_inv;
    }
  }
  std::vector<Fr> h_scalars(n > 0 ? n - 1 : 0);
  {
    Fr p = (t.tau.pow(static_cast<std::uint64_t>(n)) - Fr::one()) * delta_inv;  // Z(tau) / delta
    for (auto& x : h_scalars) {
      x = p;
      p = p * t.tau;
    }
  }

  const FixedBaseTable<typename E::G1Config> g1(E::G1::generator());
  const FixedBaseTable<typename E::G2Config> g2(E::G2::generator());
  ProvingKey<E> pk;
  pk.vk.alpha_g1 = g1.mul(t.alpha).to_affine();
  pk.vk.beta_g1 = g1.mul(t.beta).to_affine();
  pk.vk.beta_g2 = g2.mul(t.beta).to_affine();
  pk.vk.gamma_g2 = g2.mul(t.gamma).to_affine();
  pk.vk.delta_g1 = g1.mul(t.delta).to_affine();
  pk.vk.delta_g2 = g2.mul(t.delta).to_affine();
  pk.vk.ic = g1.mul_many(ic_scalars);
  pk.h = g1.mul_many(h_scalars);
  pk.l = g1.mul_many(l_scalars);
  pk.a = g1.mul_many(a_scalars);
  pk.b_g1 = g1.mul_many(b_scalars);
  pk.b_g2 = g2.mul_many(b_scalars);
  return pk;
}

// Instantiated once, in setup.cpp, for both curves (see prover.hpp).
#define ZK_GROTH16_SETUP_INSTANCES(X, E) \
  X template Result<ProvingKey<E>> generate_parameters<E>(const r1cs::R1csShape<E::Fr>&, const Trapdoor<E>&);
ZK_GROTH16_SETUP_INSTANCES(extern, Bls12_381)
ZK_GROTH16_SETUP_INSTANCES(extern, Bn254)

}  // namespace zk::groth16
