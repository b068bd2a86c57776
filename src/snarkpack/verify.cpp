#include "snarkpack/verify.hpp"

#include <algorithm>
#include <array>
#include <string>

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include "curve/glv.hpp"
#include "curve/pairing.hpp"
#include "groth16/points.hpp"
#include "msm/pippenger.hpp"

namespace zk::snarkpack {
namespace {

namespace bls = curve::bls12_381;

/// prod_i g_i^(e_i) for g_i in GT (Straus): one run of cyclotomic squarings shared by every base,
/// signed 5-bit window digits per exponent (a negative digit multiplies by the conjugate, GT's
/// inverse), 8 odd powers per base. About 43 products per base instead of a 255-bit exponentiation.
Fq12 gt_multi_pow(std::span<const Fq12> bases, std::span<const Fr> exps) {
  constexpr unsigned kWindow = 5;
  constexpr std::size_t kOdd = std::size_t{1} << (kWindow - 2);
  using Digits = std::array<std::int8_t, 64 * 4 + 1>;
  std::vector<Digits> digits(bases.size());
  std::vector<std::size_t> lengths(bases.size());
  std::vector<std::array<Fq12, kOdd>> odd(bases.size());
  std::size_t top = 0;
  for (std::size_t i = 0; i < bases.size(); ++i) {
    lengths[i] = curve::wnaf_digits(exps[i].to_canonical(), kWindow, digits[i]);
    top = std::max(top, lengths[i]);
    odd[i][0] = bases[i];
    const Fq12 sq = bases[i].cyclotomic_square();
    for (std::size_t k = 1; k < kOdd; ++k) odd[i][k] = odd[i][k - 1] * sq;
  }
  Fq12 acc = Fq12::one();
  for (std::size_t b = top; b-- > 0;) {
    acc = acc.cyclotomic_square();
    for (std::size_t i = 0; i < bases.size(); ++i) {
      if (b >= lengths[i]) continue;
      const int d = digits[i][b];
      if (d > 0) acc = acc * odd[i][static_cast<std::size_t>(d / 2)];
      if (d < 0) acc = acc * odd[i][static_cast<std::size_t>(-d / 2)].conjugate();
    }
  }
  return acc;
}

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
  // Fold the commitments: X = X_0 prod_i X_l[i]^(c_i) X_r[i]^(c_i^-1), each a multi-exponentiation
  // (five in GT, one in G1), in parallel.
  const std::size_t rounds = d.challenges.size();
  std::vector<Fr> exps;
  for (std::size_t i = 0; i < rounds; ++i) exps.insert(exps.end(), {d.challenges[i], d.challenges_inv[i]});
  std::array<std::vector<Fq12>, 5> bases;  // T_AB, U_AB, T_C, U_C, Z_AB
  std::vector<G1Affine> zc_bases;
  for (std::size_t i = 0; i < rounds; ++i) {
    for (std::size_t side = 0; side < 2; ++side) {
      bases[0].push_back(g.comms_ab[i][side].t);
      bases[1].push_back(g.comms_ab[i][side].u);
      bases[2].push_back(g.comms_c[i][side].t);
      bases[3].push_back(g.comms_c[i][side].u);
      bases[4].push_back(g.z_ab[i][side]);
      zc_bases.push_back(g.z_c[i][side]);
    }
  }
  const Fq12 start[5] = {p.com_ab.t, p.com_ab.u, p.com_c.t, p.com_c.u, p.ip_ab};
  std::array<Fq12, 5> folded;
  bls::G1 z_c = bls::G1::from_affine(p.agg_c);
  tbb::parallel_for(0, 6, [&](int k) {
    if (k < 5) {
      folded[static_cast<std::size_t>(k)] = start[k] * gt_multi_pow(bases[static_cast<std::size_t>(k)], exps);
    } else {
      for (std::size_t i = 0; i < zc_bases.size(); ++i)
        z_c = z_c + curve::glv_mul(bls::G1::from_affine(zc_bases[i]), exps[i]);
    }
  });
  const Fq12 &t_ab = folded[0], &u_ab = folded[1], &t_c = folded[2], &u_c = folded[3], &z_ab = folded[4];
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
  // s_k = sum_j r^j x_jk, reading each proof's inputs in order (n x inputs values: 86 MB at 8192
  // proofs of 328 inputs; read input-major they would miss the cache at every value), in chunks of
  // proofs with a partial sum per chunk. The products are summed wide (mod p R, Fr::wide_add) and
  // reduced once per chunk and input: no Montgomery reduction per product.
  const std::vector<Fr> r_pow = [&] {
    std::vector<Fr> out(n);
    Fr x = Fr::one();
    for (auto& y : out) y = x, x = x * r;
    return out;
  }();
  constexpr std::size_t kChunk = 256;
  std::vector<std::vector<Fr>> partial((n + kChunk - 1) / kChunk, std::vector<Fr>(inputs, Fr::zero()));
  tbb::parallel_for(std::size_t{0}, partial.size(), [&](std::size_t c) {
    std::vector<Fr::Wide> acc(inputs, Fr::Wide{});
    for (std::size_t j = c * kChunk; j < std::min(n, (c + 1) * kChunk); ++j) {
      const std::vector<Fr>& x = public_inputs[j];
      for (std::size_t k = 0; k < inputs; ++k) acc[k] = Fr::wide_add(acc[k], Fr::mul_wide(r_pow[j].mont(), x[k].mont()));
    }
    for (std::size_t k = 0; k < inputs; ++k) partial[c][k] = Fr::redc(acc[k]);
  });
  std::vector<Fr> s(inputs, Fr::zero());
  for (const auto& p : partial) {
    for (std::size_t k = 0; k < inputs; ++k) s[k] = s[k] + p[k];
  }
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
  Result<bool> g = false;
  tbb::parallel_invoke([&] { g = check_groth16(vk, public_inputs, p, d.r); },
                       [&] { out.srs_free = check_srs_free(p, d); }, [&] { out.kzg = check_kzg(srs, p, d); });
  if (!g.ok()) return g.status();
  out.groth16 = *g;
  return out;
}

}  // namespace zk::snarkpack
