#include "snarkpack/kzg.hpp"

#include <algorithm>
#include <string>

#include "curve/pairing.hpp"
#include "curve/scalar_mul.hpp"
#include "msm/pippenger.hpp"

namespace zk::snarkpack {
namespace {

namespace bls = curve::bls12_381;

std::vector<Fr> reversed(std::span<const Fr> x) { return {x.rbegin(), x.rend()}; }

/// (sum_i q_i a_i, sum_i q_i b_i) over the first q.size() points of a and b.
template <class C>
Result<std::array<curve::Affine<C>, 2>> open(std::span<const curve::Affine<C>> a, std::span<const curve::Affine<C>> b,
                                             std::span<const Fr> q) {
  if (a.size() < q.size() || b.size() < q.size()) {
    return Status::invalid_argument("SnarkPack: the SRS holds " + std::to_string(std::min(a.size(), b.size())) +
                                    " powers where the opening needs " + std::to_string(q.size()));
  }
  auto pa = msm::msm<C>(a.first(q.size()), q);
  if (!pa.ok()) return pa.status();
  auto pb = msm::msm<C>(b.first(q.size()), q);
  if (!pb.ok()) return pb.status();
  return std::array<curve::Affine<C>, 2>{pa->to_affine(), pb->to_affine()};
}

}  // namespace

std::vector<Fr> challenge_polynomial(std::span<const Fr> x, const Fr& s) {
  std::vector<Fr> coeffs{Fr::one()};
  coeffs.reserve(std::size_t{1} << x.size());
  Fr s_pow = s;  // s^(2^j)
  for (std::size_t j = 0; j < x.size(); ++j) {
    if (j > 0) s_pow = s_pow.square();
    const Fr k = x[j] * s_pow;
    const std::size_t m = coeffs.size();
    for (std::size_t i = 0; i < m; ++i) coeffs.push_back(coeffs[i] * k);
  }
  return coeffs;
}

Fr challenge_polynomial_at(std::span<const Fr> x, const Fr& s, const Fr& z) {
  Fr acc = Fr::one(), zs = z * s;
  for (std::size_t j = 0; j < x.size(); ++j) {
    if (j > 0) zs = zs.square();
    acc = acc * (Fr::one() + x[j] * zs);
  }
  return acc;
}

std::vector<Fr> divide_by_linear(std::span<const Fr> f, const Fr& z) {
  if (f.size() < 2) return {};
  std::vector<Fr> q(f.size() - 1);
  Fr carry = Fr::zero();
  for (std::size_t i = f.size() - 1; i >= 1; --i) {
    carry = f[i] + carry * z;
    q[i - 1] = carry;
  }
  return q;
}

Fr v_at(const KzgInputs& in) { return challenge_polynomial_at(reversed(in.challenges_inv), Fr::one(), in.z); }

Fr w_at(const KzgInputs& in, std::size_t nproofs) {
  return in.z.pow(nproofs) * challenge_polynomial_at(reversed(in.challenges), in.r.inverse(), in.z);
}

Result<std::array<G2Affine, 2>> open_vkey(const Srs& srs, const KzgInputs& in) {
  const std::vector<Fr> f = challenge_polynomial(reversed(in.challenges_inv), Fr::one());
  std::vector<Fr> q = divide_by_linear(f, in.z);  // f(z) is the constant's share: subtracting it leaves q
  q.push_back(Fr::zero());
  return open<curve::Bls12_381G2>(srs.h_alpha, srs.h_beta, q);
}

Result<std::array<G1Affine, 2>> open_wkey(const Srs& srs, const KzgInputs& in) {
  const std::vector<Fr> f = challenge_polynomial(reversed(in.challenges), in.r.inverse());
  std::vector<Fr> fw(f.size(), Fr::zero());  // X^n f(X)
  fw.insert(fw.end(), f.begin(), f.end());
  std::vector<Fr> q = divide_by_linear(fw, in.z);
  q.push_back(Fr::zero());
  return open<curve::Bls12_381G1>(srs.g_alpha, srs.g_beta, q);
}

Result<VerifierSrs> verifier_srs(const Srs& srs) {
  if (srs.g_alpha.size() < 2 || srs.g_beta.size() < 2 || srs.h_alpha.size() < 2 || srs.h_beta.size() < 2) {
    return Status::invalid_argument("SnarkPack: the verifier needs two points of each SRS vector");
  }
  return VerifierSrs{srs.g_alpha[0], srs.g_alpha[1], srs.g_beta[1], srs.h_alpha[0], srs.h_alpha[1], srs.h_beta[1]};
}

KzgChecks check_kzg(const VerifierSrs& srs, const std::array<G2Affine, 2>& final_vkey,
                    const std::array<G1Affine, 2>& final_wkey, const std::array<G2Affine, 2>& vkey_opening,
                    const std::array<G1Affine, 2>& wkey_opening, const KzgInputs& in, std::size_t nproofs) {
  const bls::G1 g = bls::G1::from_affine(srs.g);
  const bls::G2 h = bls::G2::from_affine(srs.h);
  const Fr fv = v_at(in), fw = w_at(in, nproofs);
  const G1Affine neg_g = srs.g.neg();
  const bls::G2Prepared neg_h = bls::prepare(srs.h.neg());
  // e(-g, fvk - h f_v(z)) e(g^s - g z, pi_v) = 1
  const auto v_check = [&](const G2Affine& fvk, const G1Affine& g_s, const G2Affine& pi) {
    const bls::G2Prepared q0 = bls::prepare((bls::G2::from_affine(fvk) - h * fv).to_affine());
    const bls::G2Prepared q1 = bls::prepare(pi);
    const G1Affine ps[] = {neg_g, (bls::G1::from_affine(g_s) - g * in.z).to_affine()};
    const bls::G2Prepared* qs[] = {&q0, &q1};
    return bls::pairing_product_is_one(ps, qs);
  };
  // e(fwk - g f_w(z), -h) e(pi_w, h^s - h z) = 1
  const auto w_check = [&](const G1Affine& fwk, const G2Affine& h_s, const G1Affine& pi) {
    const bls::G2Prepared q1 = bls::prepare((bls::G2::from_affine(h_s) - h * in.z).to_affine());
    const G1Affine ps[] = {(bls::G1::from_affine(fwk) - g * fw).to_affine(), pi};
    const bls::G2Prepared* qs[] = {&neg_h, &q1};
    return bls::pairing_product_is_one(ps, qs);
  };
  KzgChecks out;
  out.v_alpha = v_check(final_vkey[0], srs.g_alpha, vkey_opening[0]);
  out.v_beta = v_check(final_vkey[1], srs.g_beta, vkey_opening[1]);
  out.w_alpha = w_check(final_wkey[0], srs.h_alpha, wkey_opening[0]);
  out.w_beta = w_check(final_wkey[1], srs.h_beta, wkey_opening[1]);
  return out;
}

}  // namespace zk::snarkpack
