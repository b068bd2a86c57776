#pragma once

// Fq2 = Fq[u]/(u^2 + 1) for CUDA kernels (and their host-side tests): the G2 coordinates of both
// curves, laid out exactly as field::Fp2 (c0, then c1, each a DevField in Montgomery form), with
// the same values as field::Fp2's operations. The product is Karatsuba's (three base products), the
// square (c0 + c1)(c0 - c1) + 2 c0 c1 u (two). The device's G2 points (curve/cuda/dev_point.hpp)
// take it through DevFieldOf<Fq2Of<P>>.

#include "field/cuda/dev_field.hpp"
#include "gpu/hd.hpp"

namespace zk::gpu {

/// The parameter tag of P's quadratic extension: DevAffine<Fq2Of<P>> is a G2 point over P's field.
template <class P>
struct Fq2Of {
  using Base = P;
};

template <class P>
struct DevFq2 {
  using Base = DevField<P>;
  Base c0, c1;  // c0 + c1 u

  ZK_HD static DevFq2 zero() { return {Base::zero(), Base::zero()}; }
  ZK_HD static DevFq2 one() { return {Base::one(), Base::zero()}; }
  ZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  ZK_HD bool operator==(const DevFq2& o) const { return c0 == o.c0 && c1 == o.c1; }
  ZK_HD friend DevFq2 operator+(const DevFq2& a, const DevFq2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  ZK_HD friend DevFq2 operator-(const DevFq2& a, const DevFq2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  ZK_HD DevFq2 operator-() const { return {-c0, -c1}; }
  ZK_HD DevFq2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  /// (a0 + a1 u)(b0 + b1 u) = a0 b0 - a1 b1 + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u. A call on the
  /// device (ZK_HD_CALL): a G2 point kernel inlining each of its dozens of Fq2 products took nvcc
  /// minutes per kernel.
  ZK_HD_CALL friend DevFq2 operator*(const DevFq2& a, const DevFq2& b) {
    const Base t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
    const Base t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
    return {t0 - t1, t2 - t0 - t1};
  }
  /// (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u.
  ZK_HD_CALL DevFq2 square() const { return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()}; }
  /// Both coordinates' canonical limbs (out of Montgomery form).
  ZK_HD DevFq2 to_canonical() const { return {c0.to_canonical(), c1.to_canonical()}; }
};

/// The device field of a parameter tag: DevField<P> for a prime field's parameters, DevFq2<P> for
/// Fq2Of<P>.
template <class P>
struct DevFieldOfT {
  using type = DevField<P>;
};
template <class P>
struct DevFieldOfT<Fq2Of<P>> {
  using type = DevFq2<P>;
};
template <class P>
using DevFieldOf = typename DevFieldOfT<P>::type;

/// The parameter tag of a host field type: a prime field's parameters (field::MontField::Params), or
/// Fq2Of<P> for an extension whose `Base` is P's field (field::Fp2).
template <class F>
struct DeviceTagT {
  using type = typename F::Params;
};
template <class F>
  requires requires { typename F::Base::Params; }
struct DeviceTagT<F> {
  using type = Fq2Of<typename F::Base::Params>;
};
template <class F>
using DeviceTag = typename DeviceTagT<F>::type;

}  // namespace zk::gpu
