#pragma once

// Miller-loop steps shared by both curves: the point T on the twist in homogeneous projective
// coordinates (x = X/Z, y = Y/Z), the doubling and addition steps that also return the line through
// the points, and the sparse multiplication of the accumulator by a line evaluated at P.
// Formulas: Costello, Lange and Naehrig, "Faster Pairing Computations on Curves with High-Degree
// Twists" (PKC 2010), section 5, in the form of Aranha et al., "High-Speed Software Implementation
// of the Optimal Ate Pairing over Barreto-Naehrig Curves" (2010), Algorithms 26/27; the coefficient
// order depends on whether the twist is M-type (BLS12-381) or D-type (BN254).

#include <array>

#include "curve/point.hpp"

namespace zk::curve::detail {

enum class Twist { kM, kD };

template <class Fq2>
struct TwistPoint {
  Fq2 x, y, z;
};

/// x / 2 (a shift, not a product by 1/2).
template <class Fq2>
Fq2 halve(const Fq2& x) {
  return {x.c0.halve(), x.c1.halve()};
}

/// T <- 2T; returns the tangent line's coefficients. mul_b(x) = b' x, b' the twist's b.
template <Twist kTwist, class Fq2, class MulB>
std::array<Fq2, 3> doubling_step(TwistPoint<Fq2>& t, MulB&& mul_b) {
  const Fq2 a = halve(t.x * t.y);
  const Fq2 b = t.y.square();
  const Fq2 c = t.z.square();
  const Fq2 c3 = c.dbl() + c;
  const Fq2 e = mul_b(c3);
  const Fq2 f = e.dbl() + e;
  const Fq2 g = halve(b + f);
  const Fq2 h = (t.y + t.z).square() - (b + c);
  const Fq2 i = e - b;
  const Fq2 j = t.x.square();
  const Fq2 e2 = e.square();
  t.x = a * (b - f);
  t.y = g.square() - (e2.dbl() + e2);
  t.z = b * h;
  const Fq2 j3 = j.dbl() + j;
  if constexpr (kTwist == Twist::kM) {
    return {i, j3, -h};
  } else {
    return {-h, j3, i};
  }
}

/// T <- T + Q (Q affine); returns the chord's coefficients.
template <Twist kTwist, class Fq2>
std::array<Fq2, 3> addition_step(TwistPoint<Fq2>& t, const Fq2& qx, const Fq2& qy) {
  const Fq2 theta = t.y - qy * t.z;
  const Fq2 lambda = t.x - qx * t.z;
  const Fq2 c = theta.square();
  const Fq2 d = lambda.square();
  const Fq2 e = lambda * d;
  const Fq2 f = t.z * c;
  const Fq2 g = t.x * d;
  const Fq2 h = e + f - g.dbl();
  t.x = lambda * h;
  t.y = theta * (g - h) - e * t.y;
  t.z = t.z * e;
  const Fq2 j = theta * qx - lambda * qy;
  if constexpr (kTwist == Twist::kM) {
    return {j, -theta, lambda};
  } else {
    return {lambda, -theta, j};
  }
}

/// f <- f * line(P).
template <Twist kTwist, class Fq12, class Fq2, class Fq>
void ell(Fq12& f, const std::array<Fq2, 3>& l, const Fq& px, const Fq& py) {
  if constexpr (kTwist == Twist::kM) {
    f = f.mul_by_014(l[0], l[1].mul_by_base(px), l[2].mul_by_base(py));
  } else {
    f = f.mul_by_034(l[0].mul_by_base(py), l[1].mul_by_base(px), l[2]);
  }
}

}  // namespace zk::curve::detail
