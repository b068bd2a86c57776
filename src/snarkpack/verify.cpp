#include "snarkpack/verify.hpp"

#include <string>

#include "curve/pairing.hpp"
#include "snarkpack/transcript.hpp"

namespace zk::snarkpack {
namespace {

namespace bls = curve::bls12_381;

/// g^e for g in GT (cyclotomic).
Fq12 gt_pow(const Fq12& g, const Fr& e) { return g.cyclotomic_pow(e.to_canonical()); }

/// The round's messages in the order the V2 transcript takes them.
void write_round(Transcript& t, const GipaProof& g, std::size_t i) {
  t.write(g.z_ab[i][0]).write(g.z_ab[i][1]).write(g.z_c[i][0]).write(g.z_c[i][1]);
  for (const auto& c : g.comms_ab[i]) t.write(c.t).write(c.u);
  for (const auto& c : g.comms_c[i]) t.write(c.t).write(c.u);
}

}  // namespace

Derived derive(const AggregateProof& p, std::span<const std::uint8_t> transcript_include, Version v) {
  const GipaProof& g = p.gipa;
  Derived d;
  d.hcom = Transcript("hcom").write(p.com_ab.t).write(p.com_ab.u).write(p.com_c.t).write(p.com_c.u).challenge();
  d.r = Transcript("random-r").write(d.hcom).write_bytes(transcript_include).challenge();
  Fr c_inv = Transcript("gipa-0").write(d.hcom).write(p.ip_ab).write(p.agg_c).write(d.r).challenge();
  for (std::size_t i = 0; i < g.comms_ab.size(); ++i) {
    if (i > 0 || v == Version::kV2) {
      Transcript t("gipa-" + std::to_string(i));
      t.write(c_inv);
      write_round(t, g, i);
      c_inv = t.challenge();
    }
    d.challenges_inv.push_back(c_inv);
    d.challenges.push_back(c_inv.inverse());
  }
  // final_r = prod_j (1 + c_inv_rev[j] r^(2^j)), the challenges in reverse.
  d.final_r = Fr::one();
  Fr r_pow = d.r;
  for (std::size_t j = 0; j < d.challenges_inv.size(); ++j) {
    d.final_r = d.final_r * (Fr::one() + d.challenges_inv[d.challenges_inv.size() - 1 - j] * r_pow);
    r_pow = r_pow.square();
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

}  // namespace zk::snarkpack
