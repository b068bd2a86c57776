#pragma once

// The NTT's radix-2 butterflies eight at a time with AVX-512 IFMA (field/ifma.hpp), for the 4-limb
// scalar fields (BN254's Fr, BLS12-381's Fr). Same networks, same twiddles and the same lazy bounds
// as ntt.hpp's scalar butterfly (values below 2p between stages); run_pass uses them, when the CPU
// has IFMA, for every run of 8 or more butterflies whose a and b elements are consecutive, and for
// the stages of half-size 4 and 2 of its contiguous blocks. docs/ntt.md, "IFMA butterflies".

#include <cstddef>

#include "field/ifma.hpp"

namespace zk::ntt::detail {

#ifdef ZK_HAVE_IFMA

/// One butterfly per lane, as butterfly<F, kDit, kInverse> computes it (w: the twiddles read).
template <class F, bool kDit, bool kInverse>
[[gnu::always_inline, gnu::target("avx512f,avx512ifma")]] inline void butterfly8(field::ifma::Lanes& a,
                                                                                field::ifma::Lanes& b,
                                                                                const field::ifma::Lanes& w,
                                                                                const field::ifma::Modulus& md) {
  namespace v = field::ifma;
  if constexpr (!kDit) {
    const v::Lanes& x = kInverse ? b : a;
    const v::Lanes& y = kInverse ? a : b;
    const v::Lanes d = F::kQuarterModulus ? v::sub_plus_2p(x, y, md) : v::sub_lazy(x, y, md);
    a = v::add_lazy(a, b, md);
    b = v::mont_mul(v::shl4(d), w, md);
  } else {
    const v::Lanes wb = v::mont_mul(v::shl4(b), w, md);
    const v::Lanes s = kInverse ? v::sub_lazy(a, wb, md) : v::add_lazy(a, wb, md);
    b = kInverse ? v::add_lazy(a, wb, md) : v::sub_lazy(a, wb, md);
    a = s;
  }
}

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
    v::Lanes a = v::load(pa + k), b = v::load(pb + k);
    butterfly8<F, kDit, kInverse>(a, b, w, md);
    v::store(a, pa + k);
    v::store(b, pb + k);
  }
}

/// A stage of half-size h = 4 or 2 over x[0 .. count) (count a multiple of 16; blocks of 2h, twiddle
/// index j tw_step for offset j in a block). Each group of 16 elements is eight butterflies whose a
/// and b elements come in runs of two: h = 4, a at 0-3 and 8-11, b at 4-7 and 12-15; h = 2, a at
/// 0-1, 4-5, 8-9, 12-13, b two further on. The lanes' offsets j repeat with period h.
template <class F, bool kDit, bool kInverse>
[[gnu::target("avx512f,avx512ifma")]] void short_butterflies_ifma(F* x, std::size_t count, std::size_t h,
                                                                  const F* tw, std::size_t half_m,
                                                                  std::size_t tw_step) {
  namespace v = field::ifma;
  const v::Modulus md = v::modulus<F>();
  std::size_t oa[4], ob[4];
  for (std::size_t j = 0; j < 4; ++j) {
    oa[j] = h == 4 ? (j / 2) * 8 + (j % 2) * 2 : j * 4;
    ob[j] = oa[j] + h;
  }
  long long words[8];
  for (std::size_t k = 0; k < 8; ++k) {
    const std::size_t t = (k % h) * tw_step;
    words[k] = static_cast<long long>(kInverse ? half_m - t : t) * 4;
  }
  const v::Lanes w = v::gather_words(tw, words);
  for (std::size_t g = 0; g < count; g += 16) {
    v::Lanes a = v::load_pairs(x + g, oa), b = v::load_pairs(x + g, ob);
    butterfly8<F, kDit, kInverse>(a, b, w, md);
    v::store_pairs(a, x + g, oa);
    v::store_pairs(b, x + g, ob);
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
