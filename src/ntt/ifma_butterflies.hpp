#pragma once

// The NTT's radix-2 butterflies eight at a time with AVX-512 IFMA (field/ifma.hpp), for the 4-limb
// scalar fields (BN254's Fr, BLS12-381's Fr). Same networks, same twiddles and the same lazy bounds
// as ntt.hpp's scalar butterfly (values below 2p between stages); run_pass uses them for every run
// of 8 or more butterflies whose a and b elements are consecutive, when the CPU has IFMA. docs/ntt.md,
// "IFMA butterflies".

#include <cstddef>

#include "field/ifma.hpp"

namespace zk::ntt::detail {

#ifdef ZK_HAVE_IFMA

/// Butterflies (pa[k], pb[k]) for k < count (a multiple of 8) with twiddle index t0 + k tw_step into
/// tw (omega_m^j, j <= half_m), as butterfly<F, kDit, kInverse> computes them.
template <class F, bool kDit, bool kInverse>
[[gnu::target("avx512f,avx512ifma")]] void butterflies_ifma(F* pa, F* pb, std::size_t count, const F* tw,
                                                            std::size_t half_m, std::size_t t0,
                                                            std::size_t tw_step) {
  namespace v = field::ifma;
  const v::Modulus md = v::modulus<F>();
  const auto step = static_cast<std::ptrdiff_t>(tw_step);
  for (std::size_t k = 0; k < count; k += 8) {
    const std::size_t t = t0 + k * tw_step;
    // Inverse networks read omega^-t = -omega^(m/2 - t): descending indices, the sign folded below.
    const v::Lanes w = kInverse ? v::gather(tw, static_cast<std::ptrdiff_t>(half_m - t), -step)
                       : tw_step == 1 ? v::load(tw + t)
                                      : v::gather(tw, static_cast<std::ptrdiff_t>(t), step);
    const v::Lanes a = v::load(pa + k), b = v::load(pb + k);
    if constexpr (!kDit) {
      const v::Lanes& x = kInverse ? b : a;
      const v::Lanes& y = kInverse ? a : b;
      const v::Lanes d = F::kQuarterModulus ? v::sub_plus_2p(x, y, md) : v::sub_lazy(x, y, md);
      v::store(v::add_lazy(a, b, md), pa + k);
      v::store(v::mont_mul(v::shl4(d), w, md), pb + k);
    } else {
      const v::Lanes wb = v::mont_mul(v::shl4(b), w, md);
      v::store(kInverse ? v::sub_lazy(a, wb, md) : v::add_lazy(a, wb, md), pa + k);
      v::store(kInverse ? v::add_lazy(a, wb, md) : v::sub_lazy(a, wb, md), pb + k);
    }
  }
}

#endif  // ZK_HAVE_IFMA

/// Whether run_pass uses butterflies_ifma for field F on this CPU.
template <class F>
bool use_ifma() {
#ifdef ZK_HAVE_IFMA
  if constexpr (requires { F::kLimbs; }) {
    if constexpr (F::kLimbs == 4) return field::ifma::available();
  }
#endif
  return false;
}

}  // namespace zk::ntt::detail
