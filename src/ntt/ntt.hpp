#pragma once

// In-place radix-2 number-theoretic transforms over a Domain, multi-threaded with oneTBB (they run
// in the caller's task arena, so the engine decides how many threads a transform gets).
//
// Orders: the decimation-in-frequency network (Gentleman-Sande) maps natural order to bit-reversed
// order, the decimation-in-time network (Cooley-Tukey) maps bit-reversed to natural, with the same
// twiddle table. Chaining a DIF transform into a DIT transform therefore needs no permutation pass,
// which is how the quotient computation (quotient.hpp) uses them.
//
// Cache blocking: the log n butterfly stages are grouped into passes. Each pass applies several
// consecutive stages to independent groups of elements that fit in L2 (the last DIF pass works on
// contiguous blocks, the earlier ones on strided columns a few cache lines wide), so a transform
// reads and writes main memory about log n / 10 times instead of log n times. docs/ntt.md has the
// derivation and the measured effect.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "ntt/domain.hpp"
#include "ntt/ifma_butterflies.hpp"

namespace zk::ntt {

/// Input order -> output order of a transform. N = natural, R = bit-reversed.
enum class Order { kNR, kRN, kNN };

/// Tuning of the pass structure (log2 of element counts).
struct PassPlan {
  unsigned block_log =
      14;  // stages done per contiguous block in the innermost pass (2^14 x 32 B = 512 KiB, half of L2)
  unsigned column_log = 5;  // width of the strided columns of the outer passes (32 elements = 16 cache lines)
};

namespace detail {

inline std::uint64_t reverse_bits(std::uint64_t x, unsigned bits) {
  if (bits == 0) return 0;
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
  x = __builtin_bswap64(x);
  return x >> (64 - bits);
}

// Lazy butterflies (Harvey, "Faster arithmetic for number-theoretic transforms", 2014): inside a
// transform the elements are Montgomery representations below 2p, not p, so a butterfly pays one
// correction (two on the DIT side, or on BLS12-381's Fr where 4p > R) instead of the three of
// reduced add, sub and product (docs/ntt.md). The last stage of a transform makes its outputs
// canonical, so nothing outside run_pass sees a lazy value; between passes they sit in memory
// below 2p.
template <class F>
using Lazy = typename F::Repr;

// One radix-2 butterfly with twiddle omega_m^t read from tw (omega_m^j, j <= m/2).
// DIF: (a + b, (a - b) w); DIT: (a + w b, a - w b). The inverse uses w = omega^-t = -omega^(m/2 - t),
// folding the sign into the add/sub.
template <class F, bool kDit, bool kInverse>
[[gnu::always_inline]] inline void butterfly(F& pa, F& pb, const F* tw, std::size_t half_m, std::size_t t) {
  const Lazy<F> a = pa.mont(), b = pb.mont();
  if constexpr (!kDit) {
    const Lazy<F>& x = kInverse ? b : a;
    const Lazy<F>& y = kInverse ? a : b;
    Lazy<F> d;
    if constexpr (F::kQuarterModulus) {
      d = F::sub_lazy_uncorrected(x, y);  // below 4p: a valid operand when 4p < R
    } else {
      d = F::sub_lazy(x, y);
    }
    pa = F::from_mont(F::add_lazy(a, b));
    pb = F::from_mont(F::mul_lazy(tw[kInverse ? half_m - t : t], d));
  } else {
    const Lazy<F> wb = F::mul_lazy(tw[kInverse ? half_m - t : t], b);
    pa = F::from_mont(kInverse ? F::sub_lazy(a, wb) : F::add_lazy(a, wb));
    pb = F::from_mont(kInverse ? F::add_lazy(a, wb) : F::sub_lazy(a, wb));
  }
}

// The butterfly whose twiddle is omega^0 = 1 (every butterfly of the last DIF stage and of the first
// DIT stage): (a + b, a - b) in all four networks, since the inverses' twiddle there is
// -omega^(m/2) = 1 as well.
template <class F>
[[gnu::always_inline]] inline void butterfly_unit(F& pa, F& pb) {
  const Lazy<F> a = pa.mont(), b = pb.mont();
  pa = F::from_mont(F::add_lazy(a, b));
  pb = F::from_mont(F::sub_lazy(a, b));
}

// Lazy -> canonical, for the outputs of a transform's last stage.
template <class F>
[[gnu::always_inline]] inline void canonicalize(F& x) {
  x = F::from_lazy(x.mont());
}

// One pass: stages s0 .. s0+g-1 of an m-point network (m = 2^sub_log; stage s has butterflies of
// half-size m >> (s + 1) and twiddle omega_m^(j 2^s) for offset j), applied to each of the n / m
// consecutive blocks of x. tw holds omega_m^j for j in [0, m/2]. Elements whose index agrees modulo
// the smallest half-size h_min only meet each other, so the pass splits into independent units: a
// super-block of 2 h0 elements times a batch of `width` consecutive residues r mod h_min. The DIF
// network walks the stages forward, the DIT network backward. Inputs and outputs are lazy (below
// 2p); with `last` (the transform's final pass) the outputs of the final stage are canonical.
template <class F, bool kDit, bool kInverse>
void run_pass(F* x, std::size_t n, unsigned sub_log, const F* tw, unsigned s0, unsigned g, unsigned column_log,
              bool last) {
  const std::size_t m = std::size_t{1} << sub_log;
  const std::size_t h0 = m >> (s0 + 1);
  const std::size_t h_min = h0 >> (g - 1);
  const std::size_t width = std::min<std::size_t>(h_min, std::size_t{1} << column_log);
  const std::size_t batches = h_min / width;
  const std::size_t units = (n / (2 * h0)) * batches;
  const std::size_t half_m = m / 2;
  const std::size_t m_count = std::size_t{1} << g;
  [[maybe_unused]] const bool ifma = use_ifma<F>();

  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, units), [&](const tbb::blocked_range<std::size_t>& range) {
    for (std::size_t u = range.begin(); u != range.end(); ++u) {
      F* base = x + (u / batches) * (2 * h0);
      const std::size_t r0 = (u % batches) * width;
      for (unsigned step = 0; step < g; ++step) {
        const unsigned l = kDit ? g - 1 - step : step;  // level within the pass
        const unsigned s = s0 + l;                      // stage within the m-point network
        const std::size_t halfm = std::size_t{1} << (g - 1 - l);
        const std::size_t half = halfm * h_min;
        const std::size_t tw_step = std::size_t{1} << s;
        if (half == 1) {  // last DIF / first DIT stage: every twiddle is omega^0 = 1
          for (std::size_t mb = 0; mb < m_count; mb += 2) butterfly_unit(base[mb], base[mb + 1]);
        } else if (h_min == 1) {  // contiguous blocks: one butterfly per (block, offset)
#ifdef ZK_HAVE_IFMA
          if (ifma && (halfm == 4 || halfm == 2) && m_count % 16 == 0) {
            short_butterflies_ifma<F, kDit, kInverse>(base, m_count, halfm, tw, half_m, tw_step);
            continue;
          }
#endif
          for (std::size_t mb = 0; mb < m_count; mb += 2 * halfm) {
            F* pa = base + mb;
            F* pb = pa + half;
#ifdef ZK_HAVE_IFMA
            if (ifma && halfm >= 8) {  // t = 0 included: one product in vain per block
              butterflies_ifma<F, kDit, kInverse>(pa, pb, halfm, tw, half_m, 0, tw_step);
              continue;
            }
#endif
            butterfly_unit(pa[0], pb[0]);  // t = 0; skipping the product saves ~1 stage in 18 of them
            for (std::size_t mm = 1; mm < halfm; ++mm)
              butterfly<F, kDit, kInverse>(pa[mm], pb[mm], tw, half_m, mm * tw_step);
          }
        } else {
          for (std::size_t mb = 0; mb < m_count; mb += 2 * halfm) {
            for (std::size_t mm = 0; mm < halfm; ++mm) {
              F* pa = base + (mb + mm) * h_min + r0;
              F* pb = pa + half;
              std::size_t t = (mm * h_min + r0) * tw_step;
#ifdef ZK_HAVE_IFMA
              if (ifma && width % 8 == 0) {
                butterflies_ifma<F, kDit, kInverse>(pa, pb, width, tw, half_m, t, tw_step);
                continue;
              }
#endif
              for (std::size_t r = 0; r < width; ++r, t += tw_step)
                butterfly<F, kDit, kInverse>(pa[r], pb[r], tw, half_m, t);
            }
          }
        }
      }
      if (last) {  // the final stage touched every element of the unit once
        for (std::size_t i = 0; i < 2 * h0; i += h_min)
          for (std::size_t r = 0; r < width; ++r) canonicalize(base[i + r0 + r]);
      }
    }
  });
}

// Splits the log n stages into passes: the innermost pass takes up to block_log stages, the
// others at most block_log - column_log each, evenly.
inline std::vector<std::pair<unsigned, unsigned>> plan_passes(unsigned log_n, const PassPlan& plan) {
  std::vector<std::pair<unsigned, unsigned>> passes;  // (first stage, stage count), DIF order
  if (log_n == 0) return passes;
  const unsigned inner = std::min(log_n, std::max(1u, plan.block_log));
  const unsigned outer_total = log_n - inner;
  const unsigned outer_max = std::max(1u, plan.block_log > plan.column_log ? plan.block_log - plan.column_log : 1u);
  const unsigned outer_count = (outer_total + outer_max - 1) / outer_max;
  unsigned s = 0;
  for (unsigned i = 0; i < outer_count; ++i) {
    const unsigned g = outer_total / outer_count + (i < outer_total % outer_count ? 1 : 0);
    passes.emplace_back(s, g);
    s += g;
  }
  passes.emplace_back(s, inner);
  return passes;
}

// The innermost pass is a set of independent 2^g-point transforms on contiguous blocks; they need
// only omega_{2^g}^j, j <= 2^(g-1): a small table (64 KiB at g = 12) instead of strided reads all
// over the domain's table, which cost a cache line (and often a TLB entry) per butterfly.
template <class F>
std::vector<F> block_twiddles(const Domain<F>& domain, unsigned g) {
  const std::size_t half = (std::size_t{1} << g) / 2;
  const std::size_t stride = domain.size() >> g;
  std::vector<F> t(half + 1);
  for (std::size_t j = 0; j <= half; ++j) t[j] = domain.twiddles()[j * stride];
  return t;
}

/// Natural -> bit-reversed, no 1/n scaling.
template <class F, bool kInverse>
void dif(const Domain<F>& domain, std::span<F> data, const PassPlan& plan) {
  const unsigned log_n = domain.log_size();
  const auto passes = plan_passes(log_n, plan);
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const auto [s0, g] = passes[i];
    if (i + 1 == passes.size()) {
      const auto tw = block_twiddles(domain, g);
      run_pass<F, false, kInverse>(data.data(), data.size(), g, tw.data(), 0, g, plan.column_log, /*last=*/true);
    } else {
      run_pass<F, false, kInverse>(data.data(), data.size(), log_n, domain.twiddles().data(), s0, g, plan.column_log,
                                   /*last=*/false);
    }
  }
}

/// Bit-reversed -> natural, no 1/n scaling.
template <class F, bool kInverse>
void dit(const Domain<F>& domain, std::span<F> data, const PassPlan& plan) {
  const unsigned log_n = domain.log_size();
  const auto passes = plan_passes(log_n, plan);
  for (std::size_t i = passes.size(); i-- > 0;) {
    const auto [s0, g] = passes[i];
    if (i + 1 == passes.size()) {
      const auto tw = block_twiddles(domain, g);
      run_pass<F, true, kInverse>(data.data(), data.size(), g, tw.data(), 0, g, plan.column_log,
                                  /*last=*/i == 0);
    } else {
      run_pass<F, true, kInverse>(data.data(), data.size(), log_n, domain.twiddles().data(), s0, g, plan.column_log,
                                  /*last=*/i == 0);
    }
  }
}

}  // namespace detail

/// Permutes data (size 2^k) into bit-reversed index order.
template <class F>
void bit_reverse(std::span<F> data) {
  const std::size_t n = data.size();
  if (n <= 2) return;
  const unsigned bits = static_cast<unsigned>(__builtin_ctzll(n));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 12), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      const std::size_t j = detail::reverse_bits(i, bits);
      if (i < j) std::swap(data[i], data[j]);
    }
  });
}

/// data[j] *= factor * base^e(j), with e(j) = j, or e(j) = bitreverse(j) when the data is stored in
/// bit-reversed order (so coefficient i, wherever it sits, is multiplied by factor * base^i). Two
/// multiplications per element: the power comes from two small tables (2^ceil(k/2) + 2^floor(k/2)
/// elements), not from a running product, so it parallelises freely.
template <class F>
void scale_by_powers(std::span<F> data, const F& base, const F& factor, bool bit_reversed) {
  const std::size_t n = data.size();
  if (n == 0) return;
  const unsigned bits = static_cast<unsigned>(__builtin_ctzll(n));
  const unsigned lo_bits = (bits + 1) / 2;
  const unsigned hi_bits = bits - lo_bits;
  // Index j = hi 2^lo_bits + lo. Natural: e = hi 2^lo_bits + lo.
  // Bit-reversed: e = rev(lo) 2^hi_bits + rev(hi).
  const std::size_t lo_n = std::size_t{1} << lo_bits, hi_n = std::size_t{1} << hi_bits;
  std::vector<F> lo_pow(lo_n), hi_pow(hi_n);
  {
    // lo table: natural base^lo; bit-reversed base^(rev(lo) 2^hi_bits).
    std::vector<F> p(lo_n);
    const F step = bit_reversed ? base.pow(static_cast<std::uint64_t>(hi_n)) : base;
    F w = F::one();
    for (std::size_t i = 0; i < lo_n; ++i, w = w * step) p[i] = w;
    for (std::size_t i = 0; i < lo_n; ++i) lo_pow[i] = bit_reversed ? p[detail::reverse_bits(i, lo_bits)] : p[i];
  }
  {
    // hi table (times factor): natural base^(hi 2^lo_bits); bit-reversed base^rev(hi).
    std::vector<F> p(hi_n);
    const F step = bit_reversed ? base : base.pow(static_cast<std::uint64_t>(lo_n));
    F w = factor;
    for (std::size_t i = 0; i < hi_n; ++i, w = w * step) p[i] = w;
    for (std::size_t i = 0; i < hi_n; ++i) hi_pow[i] = bit_reversed ? p[detail::reverse_bits(i, hi_bits)] : p[i];
  }
  [[maybe_unused]] const bool ifma = detail::use_ifma<F>();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, hi_n), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t hi = r.begin(); hi != r.end(); ++hi) {
      F* row = data.data() + hi * lo_n;
      const F& h = hi_pow[hi];
      std::size_t lo = 0;
#ifdef ZK_HAVE_IFMA
      if (ifma) {
        field::ifma::mul_scaled_arrays(row, lo_pow.data(), h, lo_n);
        lo = lo_n - lo_n % 8;
      }
#endif
      for (; lo < lo_n; ++lo) row[lo] = row[lo] * (lo_pow[lo] * h);
    }
  });
}

/// data[j] *= factor for all j.
template <class F>
void scale(std::span<F> data, const F& factor) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, data.size(), 1 << 12),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i != r.end(); ++i) data[i] = data[i] * factor;
                    });
}

/// Coefficients -> evaluations at omega^i. data.size() must equal domain.size().
template <class F>
void forward(const Domain<F>& domain, std::span<F> data, Order order, const PassPlan& plan = {}) {
  if (order == Order::kRN) {
    detail::dit<F, false>(domain, data, plan);
  } else {
    detail::dif<F, false>(domain, data, plan);
    if (order == Order::kNN) bit_reverse(data);
  }
}

/// Evaluations at omega^i -> coefficients (scaled by 1/n).
template <class F>
void inverse(const Domain<F>& domain, std::span<F> data, Order order, const PassPlan& plan = {}) {
  if (order == Order::kRN) {
    detail::dit<F, true>(domain, data, plan);
  } else {
    detail::dif<F, true>(domain, data, plan);
    if (order == Order::kNN) bit_reverse(data);
  }
  scale(data, domain.size_inv());
}

/// Coefficients -> evaluations on the coset g<omega> (g = domain.coset_generator()).
template <class F>
void coset_forward(const Domain<F>& domain, std::span<F> data, Order order, const PassPlan& plan = {}) {
  scale_by_powers(data, domain.coset_generator(), F::one(), order == Order::kRN);
  forward(domain, data, order, plan);
}

/// Evaluations on the coset g<omega> -> coefficients.
template <class F>
void coset_inverse(const Domain<F>& domain, std::span<F> data, Order order, const PassPlan& plan = {}) {
  if (order == Order::kRN) {
    detail::dit<F, true>(domain, data, plan);
  } else {
    detail::dif<F, true>(domain, data, plan);
    if (order == Order::kNN) bit_reverse(data);
  }
  scale_by_powers(data, domain.coset_generator_inv(), domain.size_inv(), order == Order::kNR);
}

}  // namespace zk::ntt
