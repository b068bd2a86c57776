#pragma once

// The curve equation y^2 = x^3 + b checked for eight affine points at a time with AVX-512 IFMA
// (field/ifma.hpp), for curves over a 4-limb field (BN254's G1). Callers check
// field::ifma::available() first; the zkey reader uses it while it decodes (docs/snarkjs.md).

#include <cstddef>
#include <vector>

#include "curve/point.hpp"
#include "field/ifma.hpp"

namespace zk::curve {

#ifdef ZK_HAVE_IFMA

/// Adds to `suspects` the indices i < n of the points pts[i] (a zkey's layout, at any alignment:
/// gathers need none) for which y^2 = x^3 + b fails, plus the last n % 8, which are not checked. The
/// identity (x = y = 0) fails the equation too: suspects are to be re-checked one by one.
template <CurveConfig C>
[[gnu::target("avx512f,avx512ifma")]] void off_curve_suspects(const PackedAffine<C>* pts, std::size_t n,
                                                              std::vector<std::size_t>& suspects) {
  namespace v = field::ifma;
  using Fq = typename C::Field;
  static_assert(sizeof(PackedAffine<C>) == 2 * sizeof(Fq) && sizeof(Fq) % 8 == 0);
  constexpr long long kStride = sizeof(PackedAffine<C>) / 8, kY = sizeof(Fq) / 8;  // in 64-bit words
  const v::Modulus md = v::modulus<Fq>();
  const v::Lanes b = v::broadcast(C::kB);
  long long wx[8], wy[8];
  for (long long k = 0; k < 8; ++k) wx[k] = k * kStride, wy[k] = k * kStride + kY;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const auto* base = reinterpret_cast<const Fq*>(pts + i);
    const v::Lanes x = v::gather_words(base, wx), y = v::gather_words(base, wy);
    const v::Lanes rhs = v::add_mod(v::mul(v::mul(x, x, md), x, md), b, md);
    const unsigned on = v::equal(v::mul(y, y, md), rhs);
    for (unsigned k = 0; k < 8; ++k)
      if (((on >> k) & 1) == 0) suspects.push_back(i + k);
  }
  for (; i < n; ++i) suspects.push_back(i);
}

#endif  // ZK_HAVE_IFMA

}  // namespace zk::curve
