#include "curve/bls12_381.hpp"

namespace zk::curve {

template struct Jacobian<Bls12_381G1>;
template struct Jacobian<Bls12_381G2>;

namespace bls12_381 {

namespace {
using P = params::Bls12_381Curve;
constexpr Fq kBeta = Fq::from_canonical_unchecked(P::kG1EndoBeta);
constexpr Fq2 kPsiCx = Fq2::from_canonical_unchecked(P::kG2PsiCx);
constexpr Fq2 kPsiCy = Fq2::from_canonical_unchecked(P::kG2PsiCy);

/// [|x|] p; |x| = 0xd201000000010000 has six set bits, so plain double-and-add is cheapest.
template <class G>
G mul_by_x_abs(const G& p) {
  return mul_u64(p, P::kXAbs);
}
}  // namespace

G1 endomorphism(const G1& p) { return {p.x * kBeta, p.y, p.z}; }

G2 psi(const G2& p) { return {p.x.conjugate() * kPsiCx, p.y.conjugate() * kPsiCy, p.z.conjugate()}; }

bool is_in_subgroup(const G1& p) {
  // phi(p) == [-x^2] p  <=>  phi(p) + [x^2] p == O.
  const G1 x2p = mul_by_x_abs(mul_by_x_abs(p));
  return (endomorphism(p) + x2p).is_identity();
}

bool is_in_subgroup(const G2& p) {
  // psi(p) == [x] p with x < 0  <=>  psi(p) + [|x|] p == O.
  return (psi(p) + mul_by_x_abs(p)).is_identity();
}

}  // namespace bls12_381
}  // namespace zk::curve
