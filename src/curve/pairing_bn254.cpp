#include "curve/miller_steps.hpp"
#include "curve/pairing.hpp"

namespace zk::curve::bn254 {

namespace {

using P = params::Bn254Curve;
constexpr auto kTwist = detail::Twist::kD;

Fq12 exp_by_u(const Fq12& f) { return f.cyclotomic_pow(field::Limbs<1>{P::kU}); }

Fq12 easy_part(const Fq12& f) {
  const Fq12 t = f.conjugate() * f.inverse();  // f^(p^6 - 1)
  return t.frobenius(2) * t;
}

G2Affine psi_affine(const G2Affine& q) { return psi(G2::from_affine(q)).to_affine(); }

}  // namespace

G2Prepared prepare(const G2Affine& q) {
  G2Prepared out;
  if (q.infinity) return out;
  out.infinity = false;
  out.coeffs.reserve(100);
  detail::TwistPoint<Fq2> t{q.x, q.y, Fq2::one()};
  const Fq2 neg_qy = -q.y;
  const auto& naf = P::kAteLoopNaf;  // 6u + 2, most significant digit first
  for (std::size_t i = 1; i < naf.size(); ++i) {
    out.coeffs.push_back(detail::doubling_step<kTwist>(t, [](const Fq2& x) { return Bn254G2::kB * x; }));
    if (naf[i] == 1) out.coeffs.push_back(detail::addition_step<kTwist>(t, q.x, q.y));
    if (naf[i] == -1) out.coeffs.push_back(detail::addition_step<kTwist>(t, q.x, neg_qy));
  }
  // The two extra lines of the optimal ate pairing for BN curves (Vercauteren, "Optimal pairings",
  // 2010): through T = [6u + 2]Q and Q1 = psi(Q), then through T + Q1 and -Q2 = -psi^2(Q).
  const G2Affine q1 = psi_affine(q);
  const G2Affine q2 = psi_affine(q1);
  out.coeffs.push_back(detail::addition_step<kTwist>(t, q1.x, q1.y));
  out.coeffs.push_back(detail::addition_step<kTwist>(t, q2.x, -q2.y));
  return out;
}

Fq12 multi_miller_loop(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs) {
  Fq12 f = Fq12::one();
  std::size_t k = 0;
  const auto& naf = P::kAteLoopNaf;
  const auto each = [&](std::size_t idx) {
    for (std::size_t j = 0; j < ps.size(); ++j) {
      if (ps[j].infinity || qs[j]->infinity) continue;
      detail::ell<kTwist>(f, qs[j]->coeffs[idx], ps[j].x, ps[j].y);
    }
  };
  for (std::size_t i = 1; i < naf.size(); ++i) {
    if (i != 1) f = f.square();
    each(k++);
    if (naf[i] != 0) each(k++);
  }
  each(k++);
  each(k++);
  return f;
}

Fq12 final_exponentiation(const Fq12& f) {
  // Hard part: m^(2u(6u^2 + 3u + 1)(p^4 - p^2 + 1)/r) = m^(l0 + l1 p + l2 p^2 + l3 p^3) with
  // l0 = 1 + 6u + 12u^2 + 12u^3, l1 = 4u + 6u^2 + 12u^3, l2 = 6u + 6u^2 + 12u^3,
  // l3 = -1 + 4u + 6u^2 + 12u^3 (Fuentes-Castaneda, Knapp, Rodriguez-Henriquez, "Faster hashing
  // to G2", SAC 2011, section 6). Three exponentiations by u.
  const Fq12 m = easy_part(f);
  const Fq12 mu = exp_by_u(m);
  const Fq12 mu2 = exp_by_u(mu);
  const Fq12 mu3 = exp_by_u(mu2);
  const Fq12 mu_2 = mu.cyclotomic_square();                                                     // m^(2u)
  const Fq12 mu2_6 = (mu2.cyclotomic_square() * mu2).cyclotomic_square();                       // m^(6u^2)
  const Fq12 mu3_12 = (mu3.cyclotomic_square() * mu3).cyclotomic_square().cyclotomic_square();  // m^(12u^3)
  const Fq12 l1 = mu_2.cyclotomic_square() * mu2_6 * mu3_12;                                    // m^(4u + 6u^2 + 12u^3)
  const Fq12 l3 = l1 * m.conjugate();
  const Fq12 l2 = l1 * mu_2;
  const Fq12 l0 = l2 * mu2_6 * m;
  return l0 * l1.frobenius(1) * l2.frobenius(2) * l3.frobenius(3);
}

Fq12 final_exponentiation_textbook(const Fq12& f) { return easy_part(f).pow(P::kFinalExpHard); }

Fq12 pairing(const G1Affine& p, const G2Affine& q) {
  const G2Prepared prepared = prepare(q);
  const G2Prepared* qs[] = {&prepared};
  return final_exponentiation(multi_miller_loop(std::span(&p, 1), qs));
}

bool pairing_product_is_one(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs) {
  return final_exponentiation(multi_miller_loop(ps, qs)).is_one();
}

}  // namespace zk::curve::bn254
