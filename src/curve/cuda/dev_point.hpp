#pragma once

// Points for CUDA kernels (and their host-side tests): affine points laid out exactly as
// curve::Affine<C> (x, y, infinity flag), and XYZZ accumulators with the same formulas as
// curve::Xyzz (madd-2008-s, add-2008-s, dbl-2008-s-1; a = 0), so results match the CPU's. FP is the
// coordinates' parameter tag: a prime field's parameters for G1, Fq2Of<P> for G2 (field/cuda/dev_fq2.hpp).

#include <cstdint>

#include "field/cuda/dev_field.hpp"
#include "field/cuda/dev_fq2.hpp"
#include "gpu/hd.hpp"

namespace zk::gpu {

template <class FP>
struct DevAffine {
  using Field = DevFieldOf<FP>;
  Field x, y;
  bool infinity;
};

template <class FP>
struct DevXyzz {
  using Field = DevFieldOf<FP>;
  Field x, y, zz, zzz;  // zz = 0: the identity

  ZK_HD static DevXyzz identity() { return {Field::one(), Field::one(), Field::zero(), Field::zero()}; }
  ZK_HD bool is_identity() const { return zz.is_zero(); }
  ZK_HD static DevXyzz from_affine(const DevAffine<FP>& a) {
    return a.infinity ? identity() : DevXyzz{a.x, a.y, Field::one(), Field::one()};
  }

  ZK_HD DevXyzz dbl() const {
    if (is_identity()) return *this;
    const Field u = y.dbl();
    const Field v = u.square();
    const Field w = u * v;
    const Field s = x * v;
    const Field xx = x.square();
    const Field m = xx.dbl() + xx;
    const Field x3 = m.square() - s.dbl();
    return {x3, m * (s - x3) - w * y, v * zz, w * zzz};
  }

  ZK_HD static DevXyzz dbl_affine(const DevAffine<FP>& a) {
    if (a.infinity) return identity();
    const Field u = a.y.dbl();
    const Field v = u.square();
    const Field w = u * v;
    const Field s = a.x * v;
    const Field xx = a.x.square();
    const Field m = xx.dbl() + xx;
    const Field x3 = m.square() - s.dbl();
    return {x3, m * (s - x3) - w * a.y, v, w};
  }

  ZK_HD DevXyzz add_mixed(const DevAffine<FP>& q) const {
    if (q.infinity) return *this;
    if (is_identity()) return from_affine(q);
    const Field u2 = q.x * zz;
    const Field s2 = q.y * zzz;
    const Field p = u2 - x;
    const Field r = s2 - y;
    if (p.is_zero()) return r.is_zero() ? dbl_affine(q) : identity();
    const Field pp = p.square();
    const Field ppp = p * pp;
    const Field qq = x * pp;
    const Field x3 = r.square() - ppp - qq.dbl();
    return {x3, r * (qq - x3) - y * ppp, zz * pp, zzz * ppp};
  }

  ZK_HD friend DevXyzz operator+(const DevXyzz& a, const DevXyzz& b) {
    if (a.is_identity()) return b;
    if (b.is_identity()) return a;
    const Field u1 = a.x * b.zz;
    const Field u2 = b.x * a.zz;
    const Field s1 = a.y * b.zzz;
    const Field s2 = b.y * a.zzz;
    const Field p = u2 - u1;
    const Field r = s2 - s1;
    if (p.is_zero()) return r.is_zero() ? a.dbl() : identity();
    const Field pp = p.square();
    const Field ppp = p * pp;
    const Field qq = u1 * pp;
    const Field x3 = r.square() - ppp - qq.dbl();
    return {x3, r * (qq - x3) - s1 * ppp, a.zz * b.zz * pp, a.zzz * b.zzz * ppp};
  }

  /// k P for a small k (double-and-add, most significant bit first).
  ZK_HD DevXyzz mul_small(std::uint64_t k) const {
    DevXyzz acc = identity();
    int top = 63;
    while (top >= 0 && ((k >> top) & 1) == 0) --top;
    for (int bit = top; bit >= 0; --bit) {
      acc = acc.dbl();
      if ((k >> bit) & 1) acc = acc + *this;
    }
    return acc;
  }
};

}  // namespace zk::gpu
