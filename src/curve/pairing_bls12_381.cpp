#include "curve/miller_steps.hpp"
#include "curve/pairing.hpp"

namespace zk::curve::bls12_381 {

namespace {

using P = params::Bls12_381Curve;
constexpr auto kTwist = detail::Twist::kM;

/// b' x for the twist's b' = 4 (1 + u): (x0 - x1, x0 + x1) doubled twice, by additions.
Fq2 mul_by_twist_b(const Fq2& x) {
  static_assert(Bls12_381G2::kB == Fq2{Fq::from_u64(4), Fq::from_u64(4)});
  const Fq2 t{x.c0 - x.c1, x.c0 + x.c1};
  return t.dbl().dbl();
}

/// f^x for f in the cyclotomic subgroup; x < 0, so f^|x| is conjugated (inverted).
Fq12 exp_by_x(const Fq12& f) { return f.cyclotomic_pow(field::Limbs<1>{P::kXAbs}).conjugate(); }

/// f^((p^6 - 1)(p^2 + 1)): lands in the cyclotomic subgroup.
Fq12 easy_part(const Fq12& f) {
  const Fq12 t = f.conjugate() * f.inverse();  // f^(p^6 - 1)
  return t.frobenius(2) * t;
}

}  // namespace

G2Prepared prepare(const G2Affine& q) {
  G2Prepared out;
  if (q.infinity) return out;
  out.infinity = false;
  out.coeffs.reserve(70);
  detail::TwistPoint<Fq2> t{q.x, q.y, Fq2::one()};
  // Bits of |x| below the leading one, most significant first.
  for (int i = 62; i >= 0; --i) {
    out.coeffs.push_back(detail::doubling_step<kTwist>(t, mul_by_twist_b));
    if ((P::kXAbs >> i) & 1) out.coeffs.push_back(detail::addition_step<kTwist>(t, q.x, q.y));
  }
  return out;
}

Fq12 multi_miller_loop(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs) {
  Fq12 f = Fq12::one();
  std::size_t k = 0;
  bool first = true;
  for (int i = 62; i >= 0; --i) {
    if (!first) f = f.square();
    first = false;
    const bool add = ((P::kXAbs >> i) & 1) != 0;
    for (std::size_t j = 0; j < ps.size(); ++j) {
      if (ps[j].infinity || qs[j]->infinity) continue;
      detail::ell<kTwist>(f, qs[j]->coeffs[k], ps[j].x, ps[j].y);
      if (add) detail::ell<kTwist>(f, qs[j]->coeffs[k + 1], ps[j].x, ps[j].y);
    }
    k += add ? 2 : 1;
  }
  return f.conjugate();  // x < 0: f_{x,Q} = 1 / f_{|x|,Q}, and 1/f = conj(f) after the final exponentiation
}

Fq12 final_exponentiation(const Fq12& f) {
  // Hard part: m^(3 (p^4 - p^2 + 1)/r) with 3 (p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3,
  // an identity of the BLS12 parametrisation (docs/pairing.md; the test
  // FastFinalExponentiationIsAFixedPowerOfTheTextbookOne checks the result against the textbook exponent).
  const Fq12 m = easy_part(f);
  Fq12 a = exp_by_x(m) * m.conjugate();                                   // m^(x - 1)
  a = exp_by_x(a) * a.conjugate();                                        // m^((x - 1)^2)
  const Fq12 b = exp_by_x(a) * a.frobenius(1);                            // a^(x + p)
  const Fq12 c = exp_by_x(exp_by_x(b)) * b.frobenius(2) * b.conjugate();  // b^(x^2 + p^2 - 1)
  return c * m.cyclotomic_square() * m;                                   // * m^3
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

}  // namespace zk::curve::bls12_381
