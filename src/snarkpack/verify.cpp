#include "snarkpack/verify.hpp"

#include <string>

#include <tbb/parallel_for.h>

#include "curve/pairing.hpp"
#include "curve/scalar_mul.hpp"
#include "groth16/points.hpp"
#include "msm/pippenger.hpp"

namespace zk::snarkpack {
namespace {

namespace bls = curve::bls12_381;

/// g^e for g in GT (cyclotomic).
Fq12 gt_pow(const Fq12& g, const Fr& e) { return g.cyclotomic_pow(e.to_canonical()); }

}  // namespace

Derived derive(const AggregateProof& p, std::span<const std::uint8_t> transcript_include, Version v) {
  const GipaProof& g = p.gipa;
  Derived d;
  d.hcom = hcom_challenge(p.com_ab, p.com_c);
  d.r = r_challenge(d.hcom, transcript_include);
  Fr c_inv = first_challenge_inv(d.hcom, p.ip_ab, p.agg_c, d.r);
  for (std::size_t i = 0; i < g.comms_ab.size(); ++i) {
    c_inv = round_challenge_inv(g, i, c_inv, v);
    d.challenges_inv.push_back(c_inv);
    d.challenges.push_back(c_inv.inverse());
  }
  // final_r = prod_j (1 + c_inv_rev[j] r^(2^j)), the challenges in reverse.
  const std::vector<Fr> rev(d.challenges_inv.rbegin(), d.challenges_inv.rend());
  d.final_r = challenge_polynomial_at(rev, Fr::one(), d.r);
  if (!d.challenges.empty()) {
    const KzgPoint k = kzg_point(g, d.challenges.back(), v);
    d.extra = k.extra;
    d.z = k.z;
  }
  return d;
}

SrsFreeChecks check_srs_free(const AggregateProof& p, const Derived& d) {
  const GipaProof& g = p.gipa;
  // Fold the commitments: X = X_0 prod_i X_l[i]^(c_i) X_r[i]^(c_i^-1).
  Fq12 t_ab = p.com_ab.t, u_ab = p.com_ab.u, t_c = p.com_c.t, u_c = p.com_c.u, z_ab = p.ip_ab;
  bls::G1 z_c = bls::G1::from_affine(p.agg_c);
  for (std::size_t i = 0; i < d.challenges.size(); ++i) {
    const Fr& c = d.challenges[i];
    const Fr& ci = d.challenges_inv[i];
    t_ab = t_ab * gt_pow(g.comms_ab[i][0].t, c) * gt_pow(g.comms_ab[i][1].t, ci);
    u_ab = u_ab * gt_pow(g.comms_ab[i][0].u, c) * gt_pow(g.comms_ab[i][1].u, ci);
    t_c = t_c * gt_pow(g.comms_c[i][0].t, c) * gt_pow(g.comms_c[i][1].t, ci);
    u_c = u_c * gt_pow(g.comms_c[i][0].u, c) * gt_pow(g.comms_c[i][1].u, ci);
    z_ab = z_ab * gt_pow(g.z_ab[i][0], c) * gt_pow(g.z_ab[i][1], ci);
    z_c = z_c + bls::G1::from_affine(g.z_c[i][0]) * c + bls::G1::from_affine(g.z_c[i][1]) * ci;
  }
  SrsFreeChecks out;
  const auto e = [](const G1Affine& a, const G2Affine& b) { return bls::pairing(a, b); };
  out.tipp_z = e(g.final_a, g.final_b) == z_ab;
  out.tipp_t = e(g.final_a, g.final_vkey[0]) * e(g.final_wkey[0], g.final_b) == t_ab;
  out.tipp_u = e(g.final_a, g.final_vkey[1]) * e(g.final_wkey[1], g.final_b) == u_ab;
  out.mipp_z = (bls::G1::from_affine(g.final_c) * d.final_r).to_affine() == z_c.to_affine();
  out.mipp_t = e(g.final_c, g.final_vkey[0]) == t_c;
  out.mipp_u = e(g.final_c, g.final_vkey[1]) == u_c;
  return out;
}

KzgChecks check_kzg(const VerifierSrs& srs, const AggregateProof& p, const Derived& d) {
  const GipaProof& g = p.gipa;
  const KzgInputs in{d.challenges, d.challenges_inv, d.r, d.z};
  return snarkpack::check_kzg(srs, g.final_vkey, g.final_wkey, p.vkey_opening, p.wkey_opening, in, g.nproofs);
}

Result<bool> check_groth16(const Groth16VerifyingKey& vk, std::span<const std::vector<Fr>> public_inputs,
                           const AggregateProof& p, const Fr& r) {
  const std::size_t n = p.gipa.nproofs;
  if (public_inputs.size() != n) {
    return Status::invalid_argument("SnarkPack: the aggregate holds " + std::to_string(n) + " proofs but " +
                                    std::to_string(public_inputs.size()) + " public-input sets were given");
  }
  if (Status s = groth16::check_verifying_key(vk); !s.ok()) return s;
  const std::size_t inputs = vk.ic.size() - 1;
  for (std::size_t j = 0; j < n; ++j) {
    if (public_inputs[j].size() != inputs) {
      return Status::invalid_argument("SnarkPack: proof " + std::to_string(j) + " has " +
                                      std::to_string(public_inputs[j].size()) + " public inputs; the key takes " +
                                      std::to_string(inputs));
    }
  }
  // s_k = sum_j r^j x_jk by Horner's rule, per input.
  std::vector<Fr> s(inputs);
  tbb::parallel_for(std::size_t{0}, inputs, [&](std::size_t k) {
    Fr acc = Fr::zero();
    for (std::size_t j = n; j-- > 0;) acc = acc * r + public_inputs[j][k];
    s[k] = acc;
  });
  const Fr r_sum = (r.pow(n) - Fr::one()) * (r - Fr::one()).inverse();
  auto acc = msm::msm<curve::Bls12_381G1>(std::span(vk.ic).subspan(1), s);
  if (!acc.ok()) return acc.status();
  const bls::G1 ic = bls::G1::from_affine(vk.ic[0]) * r_sum + *acc;
  const bls::G2Prepared beta = bls::prepare(vk.beta_g2), gamma = bls::prepare(vk.gamma_g2),
                        delta = bls::prepare(vk.delta_g2);
  const G1Affine ps[] = {(bls::G1::from_affine(vk.alpha_g1) * r_sum).to_affine(), ic.to_affine(), p.agg_c};
  const bls::G2Prepared* qs[] = {&beta, &gamma, &delta};
  return bls::final_exponentiation(bls::multi_miller_loop(ps, qs)) == p.ip_ab;
}

Result<Verdict> verify_aggregate(const VerifierSrs& srs, const Groth16VerifyingKey& vk,
                                 std::span<const std::vector<Fr>> public_inputs, const AggregateProof& p,
                                 std::span<const std::uint8_t> transcript_include, Version v) {
  const Derived d = derive(p, transcript_include, v);
  Verdict out;
  auto g = check_groth16(vk, public_inputs, p, d.r);
  if (!g.ok()) return g.status();
  out.groth16 = *g;
  out.srs_free = check_srs_free(p, d);
  out.kzg = check_kzg(srs, p, d);
  return out;
}

}  // namespace zk::snarkpack
