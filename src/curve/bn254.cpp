#include "curve/bn254.hpp"

namespace zk::curve {

template struct Jacobian<Bn254G1>;
template struct Jacobian<Bn254G2>;

namespace bn254 {

namespace {
using P = params::Bn254Curve;
constexpr Fq2 kPsiCx = Fq2::from_canonical_unchecked(P::kG2PsiCx);
constexpr Fq2 kPsiCy = Fq2::from_canonical_unchecked(P::kG2PsiCy);
}  // namespace

G2 psi(const G2& p) { return {p.x.conjugate() * kPsiCx, p.y.conjugate() * kPsiCy, p.z.conjugate()}; }

bool is_in_subgroup(const G1& p) { return p.is_on_curve(); }

bool is_in_subgroup(const G2& p) { return psi(p) == scalar_mul(p, P::kG2PsiEigen); }

}  // namespace bn254
}  // namespace zk::curve
