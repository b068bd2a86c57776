#include "snarkpack/prove.hpp"

#include <chrono>
#include <string>
#include <vector>

#include "msm/pippenger.hpp"
#include "snarkpack/inner_product.hpp"
#include "snarkpack/kzg.hpp"

namespace zk::snarkpack {
namespace {

Result<G1Affine> inner_product_g1(std::span<const G1Affine> x, std::span<const Fr> k) {
  auto s = msm::msm<curve::Bls12_381G1>(x, k);
  if (!s.ok()) return s.status();
  return s->to_affine();
}

template <class T>
std::span<const T> first_half(const std::vector<T>& x) {
  return std::span(x).first(x.size() / 2);
}
template <class T>
std::span<const T> second_half(const std::vector<T>& x) {
  return std::span(x).subspan(x.size() / 2);
}

}  // namespace

Result<AggregateProof> aggregate(const Srs& srs, std::span<const Groth16Proof> proofs,
                                 std::span<const std::uint8_t> transcript_include, Version version,
                                 AggregateTimings* timings) {
  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  AggregateTimings spent;
  auto t0 = Clock::now();
  const std::size_t n = proofs.size();
  if (n < 2 || (n & (n - 1)) != 0 || n > kMaxSrsPoints / 2) {
    return Status::invalid_argument("SnarkPack: " + std::to_string(n) +
                                    " proofs given; an aggregate holds a power of two of them, from 2 to 2^19");
  }
  if (srs.g_alpha.size() < 2 * n || srs.g_beta.size() < 2 * n || srs.h_alpha.size() < n || srs.h_beta.size() < n) {
    return Status::invalid_argument("SnarkPack: the SRS is too short for " + std::to_string(n) + " proofs (" +
                                    std::to_string(2 * n) + " G1 and " + std::to_string(n) +
                                    " G2 points per vector needed)");
  }
  std::vector<G1Affine> a(n), c(n);
  std::vector<G2Affine> b(n);
  for (std::size_t j = 0; j < n; ++j) a[j] = proofs[j].a, b[j] = proofs[j].b, c[j] = proofs[j].c;
  // The keys: v = h_*[0, n), w = g_*[n, 2n).
  std::vector<G2Affine> v1(srs.h_alpha.begin(), srs.h_alpha.begin() + static_cast<std::ptrdiff_t>(n));
  std::vector<G2Affine> v2(srs.h_beta.begin(), srs.h_beta.begin() + static_cast<std::ptrdiff_t>(n));
  const std::span<const G1Affine> w1 = std::span(srs.g_alpha).subspan(n, n), w2 = std::span(srs.g_beta).subspan(n, n);

  AggregateProof out;
  {
    auto coms = pair_commitment(a, b, v1, v2, w1, w2);
    const auto single = single_commitment(c, v1, v2);
    coms.insert(coms.end(), single.begin(), single.end());
    const auto t = pairing_products(n, coms);
    out.com_ab = {t[0], t[1]};
    out.com_c = {t[2], t[3]};
  }
  const Fr hcom = hcom_challenge(out.com_ab, out.com_c);
  const Fr r = r_challenge(hcom, transcript_include);
  std::vector<Fr> m_r = powers_of(r, n);
  std::vector<Fr> r_inv = m_r;
  Fr::batch_inverse(r_inv);
  std::vector<G2Affine> m_b = scale(b, m_r);  // B^(r^j)
  out.ip_ab = pairing_products(n, std::vector<PairingProduct>{{{a, m_b}}})[0];
  auto agg_c = inner_product_g1(c, m_r);
  if (!agg_c.ok()) return agg_c.status();
  out.agg_c = *agg_c;
  std::vector<G1Affine> m_w1 = scale(w1, r_inv), m_w2 = scale(w2, r_inv);  // w^(r^-j)
  std::vector<G1Affine> m_a = std::move(a), m_c = std::move(c);

  spent.commitments = since(t0);
  t0 = Clock::now();

  // GIPA over (A, B^r, C, r) with keys (v, w^(r^-1)).
  GipaProof& g = out.gipa;
  g.nproofs = static_cast<std::uint32_t>(n);
  std::vector<Fr> challenges, challenges_inv;
  Fr c_inv = first_challenge_inv(hcom, out.ip_ab, out.agg_c, r);
  for (std::size_t i = 0; m_a.size() > 1; ++i) {
    const std::size_t h = m_a.size() / 2;
    const auto a_l = first_half(m_a), a_r = second_half(m_a);
    const auto b_l = first_half(m_b), b_r = second_half(m_b);
    const auto c_l = first_half(m_c), c_r = second_half(m_c);
    const auto v1_l = first_half(v1), v1_r = second_half(v1), v2_l = first_half(v2), v2_r = second_half(v2);
    const auto w1_l = first_half(m_w1), w1_r = second_half(m_w1), w2_l = first_half(m_w2), w2_r = second_half(m_w2);
    // tab_l = com((v_l, w_r), A_r, B_l), tab_r = com((v_r, w_l), A_l, B_r); zab_l = <A_r, B_l>,
    // zab_r = <A_l, B_r>; tuc_l = com(v_l, C_r), tuc_r = com(v_r, C_l).
    std::vector<PairingProduct> products = pair_commitment(a_r, b_l, v1_l, v2_l, w1_r, w2_r);
    for (auto&& p : pair_commitment(a_l, b_r, v1_r, v2_r, w1_l, w2_l)) products.push_back(p);
    products.push_back({{a_r, b_l}});
    products.push_back({{a_l, b_r}});
    for (auto&& p : single_commitment(c_r, v1_l, v2_l)) products.push_back(p);
    for (auto&& p : single_commitment(c_l, v1_r, v2_r)) products.push_back(p);
    const auto t = pairing_products(h, products);
    g.comms_ab.push_back({Commitment{t[0], t[1]}, Commitment{t[2], t[3]}});
    g.z_ab.push_back({t[4], t[5]});
    g.comms_c.push_back({Commitment{t[6], t[7]}, Commitment{t[8], t[9]}});
    auto zc_l = inner_product_g1(c_r, std::span(m_r).first(h));
    if (!zc_l.ok()) return zc_l.status();
    auto zc_r = inner_product_g1(c_l, std::span(m_r).subspan(h));
    if (!zc_r.ok()) return zc_r.status();
    g.z_c.push_back({*zc_l, *zc_r});

    c_inv = round_challenge_inv(g, i, c_inv, version);
    const Fr ch = c_inv.inverse();
    challenges.push_back(ch);
    challenges_inv.push_back(c_inv);
    // A_l + c A_r, B_l + c^-1 B_r, C_l + c C_r, r_l + c^-1 r_r, v_l + c^-1 v_r, w_l + c w_r.
    fold(m_a, ch);
    fold(m_b, c_inv);
    fold(m_c, ch);
    fold(m_r, c_inv);
    fold(v1, c_inv);
    fold(v2, c_inv);
    fold(m_w1, ch);
    fold(m_w2, ch);
  }
  g.final_a = m_a[0];
  g.final_b = m_b[0];
  g.final_c = m_c[0];
  g.final_vkey = {v1[0], v2[0]};
  g.final_wkey = {m_w1[0], m_w2[0]};

  spent.gipa = since(t0);
  t0 = Clock::now();

  const KzgPoint point = kzg_point(g, challenges.back(), version);
  const KzgInputs in{challenges, challenges_inv, r, point.z};
  auto vo = open_vkey(srs, in);
  if (!vo.ok()) return vo.status();
  auto wo = open_wkey(srs, in);
  if (!wo.ok()) return wo.status();
  out.vkey_opening = *vo;
  out.wkey_opening = *wo;
  spent.openings = since(t0);
  if (timings) *timings = spent;
  return out;
}

}  // namespace zk::snarkpack
