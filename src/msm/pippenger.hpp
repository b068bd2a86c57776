#pragma once

// Multi-scalar multiplication sum_i k_i P_i by Pippenger's bucket method (signed windows, see
// digits.hpp; accumulators, see buckets.hpp), multi-threaded with oneTBB in the caller's arena.
//
// Structure. Points are processed in chunks of MsmConfig::chunk_points: the chunk's scalars are
// converted out of Montgomery form and recoded into W signed digits each (parallel over points),
// then W x S tasks (window x point-split) add the chunk's points to their own buckets (parallel over
// tasks). After the last chunk every task folds its buckets; windows are combined with c doublings
// each. Scalars 0 are skipped outright and scalars 1 cost one bucket addition (their only non-zero
// digit is the first; those unit digits are spread over sub-buckets so they batch well), which
// matters because Groth16 witnesses are mostly bits.
//
// GLV (G1 and G2 of both curves, curve/glv.hpp): each scalar k is split as k1 + k2 lambda with
// |k1|, |k2| about sqrt(r), and the chunk becomes 2 x len points with half-length scalars: P_j with
// digits of +-k1 and phi(P_j) = (beta x, y) with digits of +-k2 (signs ride on the digits, negation
// is free). phi(P_j) is computed into a per-chunk buffer during recoding, only for scalars whose k2
// is non-zero (one Fq product each on G1, two on G2). Half the windows, twice the points per
// window: the point additions stay the same, the bucket reductions halve, and the window choice
// sees 2n points of kBits bits. Because bucket batches hold pointers to the points, every task drains its batches
// at the end of a chunk before the buffer is overwritten.
//
// Memory (docs/msm.md): no copy of the bases or scalars. Scratch = chunk_points x W x 4 B of digits
// + W x S bucket sets (2^(c-1) buckets each, plus a batch) + S spreads of 2 x batch unit-digit
// buckets + for filtered MSMs one 8-byte prefix count per 64 density bits; with GLV the digits are
// 2 x chunk_points x W x 4 B and the phi buffer chunk_points affine points. scratch_bytes() computes it.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include "base/status.hpp"
#include "curve/bls12_381.hpp"
#include "curve/bn254.hpp"
#include "curve/glv.hpp"
#include "curve/point.hpp"
#include "msm/buckets.hpp"
#include "msm/compact_column.hpp"
#include "msm/density.hpp"
#include "msm/digits.hpp"

namespace zk::msm {

enum class Accumulation { kAuto, kXyzz, kBatchAffine };
enum class Endomorphism { kAuto, kOff, kOn };

struct MsmConfig {
  /// Window width c; 0 chooses it from the number of points (choose_window).
  unsigned window_bits = 0;
  /// kAuto: the accumulator the cost model picks (batch-affine from a few thousand points on).
  Accumulation accumulation = Accumulation::kAuto;
  /// Points whose digits are held at once (bounds the digit scratch).
  std::size_t chunk_points = std::size_t{1} << 16;
  /// Additions per batch inversion; 0 chooses default_batch(c).
  std::size_t batch_size = 0;
  /// GLV split of the scalars (groups with curve::HasGlv: all four; ignored for any other group).
  /// kAuto: when the cost model says it pays (from 4 points up to about 2^21, measured in
  /// docs/benchmarks.md down to 16 points; beyond, the capped window makes the unsplit path as cheap).
  Endomorphism endomorphism = Endomorphism::kAuto;
};

/// Cost of phi(P) plus the GLV split of one scalar, in choose_window's units (one Fq product and a
/// few dozen 64-bit products: about 40-80 ns, 0.13-0.26 of a ~310 ns batch-affine addition, rounded up).
inline constexpr double kGlvCostPerPoint = 0.3;

/// The plan an MSM of n points runs with; exposed for tests, benchmarks and memory accounting.
struct MsmPlan {
  unsigned window_bits;
  unsigned windows;
  unsigned splits;  // point ranges per window, each with its own buckets
  bool batch_affine;
  std::size_t batch_size;
  std::size_t chunk_points;
  bool glv;              // scalars split by the GLV endomorphism: 2 x chunk_points points per chunk
  unsigned scalar_bits;  // bits of the (split) scalars the digits cover
  double scalar_log2;    // log2 of their typical size (glv_scalar_log2, else scalar_bits): the top window
  /// Tasks that add the unit scalars (1 and -1: a witness's bits) apart from the windows, each over a
  /// slice of the points, in a spread of batch-affine sub-buckets; 0: units are window-0 digits.
  unsigned unit_tasks = 0;
  std::size_t points = 0;  // n
};

/// What an MSM's scalars are (ScalarCensus::of, sampled first): a witness of bits has mostly zeros
/// and ones, which need no window at all.
struct ScalarCensus {
  std::size_t heavy = 0;  // neither 0 nor 1
  std::size_t units = 0;  // 1
};

/// Unit tasks: at most one per thread, per 4096 points and 16 in all; their batch (the spread is twice it).
inline constexpr unsigned kMaxUnitTasks = 16;
inline constexpr std::size_t kPointsPerUnitTask = 4096;
inline constexpr std::size_t kUnitBatch = 512;
inline unsigned max_unit_tasks(std::size_t n) {
  return static_cast<unsigned>(std::min<std::size_t>(kMaxUnitTasks, n / kPointsPerUnitTask));
}

/// The cost model's view of group C (digits.hpp): the bucket sizes of C, and the operation costs
/// measured with `bench_msm --costs` (docs/msm.md). Groups over an extension field (G2) measured on
/// BLS12-381 G2, in units of a G2 batch-affine addition (~2.5 G1 ones): the same ratios as G1 except
/// the inversion, an Fq inversion plus a few Fq products against an addition 2.5 times dearer, and the XYZZ addition.
/// BN254 uses the BLS12-381 ratios of its G1 / G2 (not measured separately).
template <curve::CurveConfig C>
WindowCosts window_costs() {
  WindowCosts costs{.affine_bytes = sizeof(curve::Affine<C>), .xyzz_bytes = sizeof(curve::Xyzz<C>)};
  if constexpr (!requires { C::Field::kLimbs; }) {
    costs.inversion = 2.9;          // 1.99 us against 0.66-0.70 us per G2 addition (lazy Fq2 products)
    costs.xyzz_add = 1.4;           // 0.93-0.99 us (c <= 14)
    costs.per_bucket = 3.7;         // 2.44-2.62 us
    costs.affine_per_bucket = 1.9;  // 1.23-1.38 us
  }
  if constexpr (kIfmaBatchAdditions<C> && requires { C::Field::kLimbs; }) {
    // BN254 G1's batches on IFMA (buckets.hpp): the affine addition 2.6x cheaper, the rest scalar.
    // `bench_msm --costs=bn-g1`, AMD EPYC (Zen 5) guest 2026-12-05: affine additions 46-48 ns (c 12-17,
    // batch 1024), XYZZ 174-240 ns, the serial reduction 464-479 ns and the segmented one 291-310 ns
    // per bucket, the inversion 1.1 us plus 21 products per batch for the lanes.
    if (field::ifma::available()) {
      costs.inversion = 30;
      costs.conflict = 0.3;
      costs.xyzz_add = 4.0;
      costs.per_bucket = 10;
      costs.affine_per_bucket = 6.2;
    }
  }
  if constexpr (kIfmaBatchAdditions<C> && !requires { C::Field::kLimbs; }) {
    // BN254 G2's batches on IFMA (`bench_msm --costs=bn-g2`, the same machine and day): affine
    // additions 126-145 ns against ~300 ns scalar (c 12-17), XYZZ 410-570 ns, the serial reduction
    // 1.06-1.19 us and the segmented one 0.58-0.63 us per bucket, the inversion 1.1 us plus 21 Fq2
    // products per batch.
    if (field::ifma::available()) {
      costs.inversion = 17;
      costs.conflict = 0.1;
      costs.xyzz_add = 3.2;
      costs.per_bucket = 8.1;
      costs.affine_per_bucket = 4.5;
    }
  }
  return costs;
}

namespace detail {
/// |x| of a two's-complement 256-bit integer, as a double.
inline double abs_double(field::Limbs<4> x) {
  if (x[3] >> 63) {  // negative: -x = ~x + 1
    std::uint64_t carry = 1;
    for (auto& limb : x) {
      limb = ~limb + carry;
      carry = carry != 0 && limb == 0 ? 1 : 0;
    }
  }
  return std::ldexp(static_cast<double>(x[0]), 0) + std::ldexp(static_cast<double>(x[1]), 64) +
         std::ldexp(static_cast<double>(x[2]), 128) + std::ldexp(static_cast<double>(x[3]), 192);
}
}  // namespace detail

/// log2 of the size of the GLV halves the window model assumes (uniform below it): Babai rounding to
/// the nearest lattice point leaves |k1| <= (|a1| + |a2|) / 2 and |k2| <= (|b1| + |b2|) / 2 (GLV
/// section 4), half the proven bound kBits uses (the rounding by g_i / 2^256 can exceed it by a hair).
/// BLS12-381 G1: (1 + x^2) / 2 = 2^126.43, where kBits = 128: ignoring this, the model counted a top
/// window that at c = 16 holds no point at all, and at c = 13 one whose digits reach only ~700 of its
/// 2048 buckets, so that its batch of 1024 overflows the queue (measured: 200 000 random splits, max
/// 2^126.57).
template <curve::CurveConfig C>
requires curve::HasGlv<C>
double glv_scalar_log2() {
  using G = curve::GlvParams<C>;
  const double a = detail::abs_double(G::kA1) + detail::abs_double(G::kA2);
  const double b = detail::abs_double(G::kB1) + detail::abs_double(G::kB2);
  return std::log2(std::max(a, b) / 2);
}

/// With a census that counts at least kUnitBatch units (scalars 1 and -1) the units get unit tasks
/// (they reach no window beyond 0) and the windows are chosen for the other scalars alone: a witness
/// of bits gets small windows for its few heavy values, and a dense vector with some ones no longer
/// sends them all to bucket 0 of window 0, where each batch could add only one of them.
template <curve::CurveConfig C>
MsmPlan make_plan(std::size_t n, const MsmConfig& config, int threads, const ScalarCensus* census = nullptr) {
  MsmPlan plan{};
  plan.scalar_bits = C::Scalar::kBits;
  const bool bits = census != nullptr && max_unit_tasks(n) != 0 && census->units >= kUnitBatch;
  plan.points = n;
  if (bits) plan.unit_tasks = std::clamp(static_cast<unsigned>(std::max(threads, 1)), 1u, max_unit_tasks(n));
  const std::size_t windowed = bits ? std::max<std::size_t>(census->heavy, 1) : n;
  const WindowCosts costs = window_costs<C>();
  WindowChoice choice = choose_window(windowed, plan.scalar_bits, costs);
  if constexpr (curve::HasGlv<C>) {
    const WindowChoice split = choose_window(2 * windowed, curve::GlvParams<C>::kBits, costs, glv_scalar_log2<C>());
    plan.glv = config.endomorphism == Endomorphism::kOn ||
               (config.endomorphism == Endomorphism::kAuto &&
                split.cost + kGlvCostPerPoint * static_cast<double>(windowed) < choice.cost);
    if (plan.glv) choice = split, plan.scalar_bits = curve::GlvParams<C>::kBits;
  }
  plan.scalar_log2 = plan.scalar_bits;
  if constexpr (curve::HasGlv<C>) {
    if (plan.glv) plan.scalar_log2 = glv_scalar_log2<C>();
  }
  // (A census plan keeps c >= 8: at most 32 windows of digits, scratch_bytes's bound.)
  plan.window_bits = config.window_bits != 0 ? std::min(config.window_bits, 24u) : bits ? std::max(choice.c, 8u) : choice.c;
  plan.windows = window_count(plan.scalar_bits, plan.window_bits);
  plan.batch_affine = config.accumulation == Accumulation::kBatchAffine ||
                      (config.accumulation == Accumulation::kAuto &&
                       (config.window_bits != 0 ? plan.window_bits >= 9 : choice.batch_affine));
  plan.batch_size = config.batch_size != 0 ? config.batch_size : default_batch(plan.window_bits);
  plan.chunk_points = std::max<std::size_t>(1, std::min(config.chunk_points, std::max<std::size_t>(n, 1)));
  // Enough tasks to keep every thread busy, but each split should still own >= 4096 points.
  const std::size_t want = (2 * static_cast<std::size_t>(std::max(threads, 1)) + plan.windows - 1) / plan.windows;
  const std::size_t chunk_virtual = plan.chunk_points * (plan.glv ? 2 : 1);
  plan.splits = static_cast<unsigned>(std::clamp<std::size_t>(std::min(want, chunk_virtual / 4096), 1, 64));
  return plan;
}

/// Scratch bytes of an MSM of n points under `plan` (filtered MSMs add density.size() / 8 bytes).
template <curve::CurveConfig C>
std::size_t scratch_bytes(const MsmPlan& plan) {
  const std::size_t buckets = std::size_t{1} << (plan.window_bits - 1);
  const std::size_t per_task = plan.batch_affine ? AffineBuckets<C>::bytes(buckets, plan.batch_size)
                                                 : XyzzBuckets<C>::bytes(buckets, plan.batch_size);
  // Unit tasks: the most any plan of this size runs (a plan made without a census has none).
  const std::size_t spread =
      max_unit_tasks(plan.points) * AffineBuckets<C>::bytes_without_overflow(2 * kUnitBatch, kUnitBatch);
  // phi of a chunk, counted even without GLV: a census plan may split where this one does not.
  const std::size_t glv = plan.chunk_points * sizeof(curve::Affine<C>);
  // Digits: a census plan (c >= 8) has at most 32 windows of them per point, whatever this plan has.
  const std::size_t digit_rows = std::max<std::size_t>((plan.glv ? 2 : 1) * plan.windows, 32);
  return plan.chunk_points * digit_rows * sizeof(std::int32_t) +
         std::size_t{plan.windows} * plan.splits * per_task + spread + glv;
}

/// The scalars of an MSM: a dense span, or a CompactColumn (a witness of mostly 0 and 1, whose bits
/// are read without a conversion out of Montgomery form). One runtime branch per scalar, taken the
/// same way for the whole MSM, instead of a second instantiation of every MSM.
template <class F>
class ScalarSource {
 public:
  explicit ScalarSource(std::span<const F> dense) : dense_(dense.data()), size_(dense.size()) {}
  explicit ScalarSource(const CompactColumn<F>& compact) : compact_(&compact), size_(compact.size()) {}
  std::size_t size() const { return size_; }
  /// Scalar s is 0 / is 1 (no conversion out of Montgomery form).
  bool is_zero(std::size_t s) const {
    return compact_ == nullptr ? dense_[s].is_zero() : !compact_->is_other(s) && !compact_->is_one(s);
  }
  bool is_one(std::size_t s) const {
    return compact_ == nullptr ? dense_[s].is_one() : !compact_->is_other(s) && compact_->is_one(s);
  }
  /// Scalar s in canonical (non-Montgomery) form.
  typename F::Repr canonical(std::size_t s) const {
    if (compact_ == nullptr) return dense_[s].to_canonical();
    if (compact_->is_other(s)) return compact_->other_at(s).to_canonical();
    typename F::Repr k{};
    k[0] = compact_->is_one(s) ? 1 : 0;
    return k;
  }

 private:
  const F* dense_ = nullptr;
  const CompactColumn<F>* compact_ = nullptr;
  std::size_t size_ = 0;
};

namespace detail {

/// Maps base index -> scalar index: the identity for dense MSMs, the j-th set density bit otherwise.
class ScalarIndex {
 public:
  ScalarIndex() = default;
  explicit ScalarIndex(const DensityBitmap* density) : density_(density) {
    if (density_ == nullptr) return;
    const auto& words = density_->words();
    prefix_.resize(words.size() + 1);
    for (std::size_t i = 0; i < words.size(); ++i) {
      prefix_[i + 1] = prefix_[i] + static_cast<std::size_t>(__builtin_popcountll(words[i]));
    }
  }

  /// Calls f(base_index, scalar_index) for base indices [begin, end).
  template <class Fn>
  void for_range(std::size_t begin, std::size_t end, Fn&& f) const {
    if (density_ == nullptr) {
      for (std::size_t j = begin; j < end; ++j) f(j, j);
      return;
    }
    if (begin >= end) return;
    // The word holding the begin-th set bit.
    std::size_t w =
        static_cast<std::size_t>(std::upper_bound(prefix_.begin(), prefix_.end(), begin) - prefix_.begin()) - 1;
    std::size_t j = prefix_[w];
    const auto& words = density_->words();
    for (; j < end && w < words.size(); ++w) {
      std::uint64_t bits = words[w];
      while (bits != 0 && j < end) {
        const unsigned b = static_cast<unsigned>(__builtin_ctzll(bits));
        bits &= bits - 1;
        if (j >= begin) f(j, w * 64 + b);
        ++j;
      }
    }
  }

 private:
  const DensityBitmap* density_ = nullptr;
  std::vector<std::size_t> prefix_;
};

/// phi(P) in the bases' own layout (the identity stays the identity).
template <curve::CurveConfig C>
curve::Affine<C> glv_base(const curve::Affine<C>& p) {
  return curve::glv_endomorphism(p);
}
template <curve::CurveConfig C>
curve::PackedAffine<C> glv_base(const curve::PackedAffine<C>& p) {
  return curve::PackedAffine<C>::from_affine(curve::glv_endomorphism(p.to_affine()));
}

template <class Buckets>
inline constexpr bool kBatchAffine = false;
template <curve::CurveConfig C, class Base>
inline constexpr bool kBatchAffine<AffineBuckets<C, Base>> = true;

/// Unit task u of `tasks`: its share of a chunk's digit positions in half `half` (the chunk's points
/// [0, len), or with GLV also phi's [len, 2 len)), the same share of each half.
struct UnitShare {
  std::size_t begin, end;
};
constexpr UnitShare unit_share(std::size_t len, std::size_t half, std::size_t u, std::size_t tasks) {
  return {half * len + len * u / tasks, half * len + len * (u + 1) / tasks};
}

/// Base: curve::Affine<C> or curve::PackedAffine<C>.
template <curve::CurveConfig C, class Buckets, bool kGlv, class Base>
curve::Jacobian<C> run(std::span<const Base> bases, const ScalarSource<typename C::Scalar>& scalars,
                       const ScalarIndex& index, const MsmPlan& plan) {
  using Jacobian = curve::Jacobian<C>;
  const std::size_t n = bases.size();
  if (n == 0) return Jacobian::identity();
  const unsigned c = plan.window_bits, windows = plan.windows, splits = plan.splits;
  const std::size_t chunk = plan.chunk_points;
  const std::size_t bucket_count = std::size_t{1} << (c - 1);

  // The top window holds the remaining top_window_bits: fewer buckets, and a batch to match the ones
  // its digits reach (a batch larger than half of those mostly queues conflicts, and one larger than
  // all of them never fills: with GLV on BLS12-381 at c = 13, ~700 of 2048 buckets).
  const unsigned top = top_window_bits(plan.scalar_bits, c);
  const std::size_t top_bucket_count = std::size_t{1} << (top - 1);
  const std::size_t top_batch =
      std::min(plan.batch_size, batch_for_buckets(top_window(plan.scalar_bits, plan.scalar_log2, c).reached));
  std::vector<Buckets> tasks;
  tasks.reserve(std::size_t{windows} * splits);
  for (std::size_t t = 0; t < std::size_t{windows} * splits; ++t) {
    const bool is_top = t / splits == windows - 1;
    if constexpr (kBatchAffine<Buckets>) {
      tasks.emplace_back(is_top ? top_bucket_count : bucket_count, is_top ? top_batch : plan.batch_size);
    } else {
      tasks.emplace_back(is_top ? top_bucket_count : bucket_count);
    }
  }
  // Unit digits of window 0 (every scalar 1 lands there; a witness of bits, as Filecoin's or a range
  // check's, is mostly units) would all hit bucket 0 and serialise the batches, in the one task of
  // window 0 while the other windows' tasks find little to add. With plan.unit_tasks they are tasks
  // of their own instead, each over a slice of the chunk, adding round-robin into a spread of
  // batch-affine sub-buckets that are summed at the end.
  const std::size_t unit_tasks = plan.unit_tasks, spread = 2 * kUnitBatch;
  std::vector<AffineBuckets<C, Base>> ones;
  ones.reserve(unit_tasks);
  for (std::size_t u = 0; u < unit_tasks; ++u) ones.emplace_back(spread, kUnitBatch);
  std::vector<std::size_t> ones_next(unit_tasks, 0);
  // Points per chunk: len, or 2 len with GLV (point j < len is bases[start + j], point len + j is
  // phi[j] = phi(bases[start + j])).
  constexpr std::size_t kFan = kGlv ? 2 : 1;
  std::vector<std::int32_t> digits(std::min(chunk, n) * kFan * windows);
  std::vector<Base> phi(kGlv ? std::min(chunk, n) : 0);

  for (std::size_t start = 0; start < n; start += chunk) {
    const std::size_t len = std::min(chunk, n - start), stride = kFan * len;
    // 1. Recode the chunk's scalars (digits[w * stride + j] is digit w of point j of the chunk).
    std::fill(digits.begin(), digits.end(), 0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, len, 1024), [&](const tbb::blocked_range<std::size_t>& r) {
      index.for_range(start + r.begin(), start + r.end(), [&](std::size_t j, std::size_t s) {
        const auto k = scalars.canonical(s);
        std::int32_t* out = digits.data() + (j - start);
        const bool zero = field::is_zero_limbs(k);
        if (zero || (k[0] == 1 && field::bit_length(k) == 1)) {  // 0 and 1: no recoding, and the
          out[0] = zero ? 0 : 1;                                 // other digits are already zero
        } else if constexpr (kGlv) {
          const curve::GlvSplit split = curve::glv_split<C>(k);
          signed_digits(split.k1, c, windows, out, stride, split.neg1);
          if (!field::is_zero_limbs(split.k2)) {
            signed_digits(split.k2, c, windows, out + len, stride, split.neg2);
            if constexpr (curve::HasGlv<C>) phi[j - start] = glv_base(bases[j]);
          }
        } else {
          signed_digits(k, c, windows, out, stride);
        }
      });
    });
    // 2. Every (window, split) task adds its share of the chunk to its buckets; the unit tasks
    // (after them) add window 0's unit digits.
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, tasks.size() + unit_tasks, 1),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t t = r.begin(); t != r.end(); ++t) {
                          if (t >= tasks.size()) {
                            const std::size_t u = t - tasks.size();
                            // The same share of each of the kFan halves: a scalar 1 is a unit digit of
                            // the first half only (phi's half has a few, from GLV halves of ±1), so
                            // shares of the whole stride would give every unit to the first tasks.
                            std::size_t next = ones_next[u];  // a local: the tasks' counters share a cache line
                            for (std::size_t half = 0; half < kFan; ++half) {
                              const auto [begin, end] = unit_share(len, half, u, unit_tasks);
                              for (std::size_t j = begin; j < end; ++j) {
                                const std::int32_t v = digits[j];
                                if (v != 1 && v != -1) continue;
                                const Base& p = !kGlv || j < len ? bases[start + j] : phi[j - len];
                                if (p.is_identity()) continue;
                                ones[u].add(static_cast<std::uint32_t>(next++ % spread), p, v < 0);
                              }
                            }
                            ones_next[u] = next;
                            if (kGlv && start + chunk < n) ones[u].finish();
                            continue;
                          }
                          const std::size_t w = t / splits, s = t % splits;
                          const std::size_t begin = stride * s / splits, end = stride * (s + 1) / splits;
                          const std::int32_t* d = digits.data() + w * stride;
                          Buckets& buckets = tasks[t];
                          for (std::size_t j = begin; j < end; ++j) {
                            const std::int32_t v = d[j];
                            if (v == 0) continue;
                            const Base& p = !kGlv || j < len ? bases[start + j] : phi[j - len];
                            if (p.is_identity()) continue;
                            if (unit_tasks != 0 && w == 0 && (v == 1 || v == -1)) continue;  // a unit task's
                            buckets.add(static_cast<std::uint32_t>((v < 0 ? -v : v) - 1), p, v < 0);
                          }
                          // Pending additions point into phi, which the next chunk overwrites.
                          if (kGlv && start + chunk < n) buckets.finish();
                        }
                      });
  }

  // 3. Fold every task's buckets (and sum the unit tasks'), then combine: sum_w 2^(c w) window_w.
  std::vector<Jacobian> partial(tasks.size() + unit_tasks);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, partial.size(), 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t t = r.begin(); t != r.end(); ++t) {
      if (t >= tasks.size()) {
        ones[t - tasks.size()].finish();
        partial[t] = ones[t - tasks.size()].sum();
        continue;
      }
      tasks[t].finish();
      partial[t] = tasks[t].reduce();
    }
  });
  Jacobian acc = Jacobian::identity();
  for (std::size_t w = windows; w-- > 0;) {
    for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
    for (unsigned s = 0; s < splits; ++s) acc += partial[w * splits + s];
  }
  for (std::size_t u = 0; u < unit_tasks; ++u) acc += partial[tasks.size() + u];  // window 0's unit digits
  return acc;
}

/// How many of the n scalars (through index) are heavy and how many are 1. A sample of 256 first: when
/// most of it is heavy (random scalars, the H query's) the census is estimated from it, without a scan.
template <class F>
ScalarCensus census_of(const ScalarSource<F>& scalars, const ScalarIndex& index, std::size_t n) {
  if (n == 0) return {};
  constexpr std::size_t kSample = 256;
  std::size_t sampled_heavy = 0, sampled_units = 0, sampled = 0;
  for (std::size_t k = 0; k < kSample && k < n; ++k) {
    const std::size_t j = n <= kSample ? k : k * (n / kSample);
    index.for_range(j, j + 1, [&](std::size_t, std::size_t s) {
      ++sampled;
      if (scalars.is_one(s)) {
        ++sampled_units;
      } else if (!scalars.is_zero(s)) {
        ++sampled_heavy;
      }
    });
  }
  if (4 * sampled_heavy > 3 * sampled) {
    // Mostly heavy: the sample's share of ones stands for the whole (a dense vector with some ones
    // still gets unit tasks for them); the rest, zeros included, counts as heavy.
    const std::size_t units = sampled == 0 ? 0 : sampled_units * n / sampled;
    return {.heavy = n - units, .units = units};
  }
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n, std::size_t{1} << 14), ScalarCensus{},
      [&](const tbb::blocked_range<std::size_t>& r, ScalarCensus c) {
        index.for_range(r.begin(), r.end(), [&](std::size_t, std::size_t s) {
          if (scalars.is_one(s)) {
            ++c.units;
          } else if (!scalars.is_zero(s)) {
            ++c.heavy;
          }
        });
        return c;
      },
      [](ScalarCensus a, const ScalarCensus& b) { return ScalarCensus{a.heavy + b.heavy, a.units + b.units}; });
}

template <curve::CurveConfig C, class Base>
curve::Jacobian<C> dispatch(std::span<const Base> bases, const ScalarSource<typename C::Scalar>& scalars,
                            const ScalarIndex& index, const MsmConfig& config) {
  const ScalarCensus census = census_of(scalars, index, bases.size());
  const MsmPlan plan = make_plan<C>(bases.size(), config, tbb::this_task_arena::max_concurrency(), &census);
  using Batched = AffineBuckets<C, Base>;
  if constexpr (curve::HasGlv<C>) {
    if (plan.glv) {
      return plan.batch_affine ? run<C, Batched, true, Base>(bases, scalars, index, plan)
                               : run<C, XyzzBuckets<C>, true, Base>(bases, scalars, index, plan);
    }
  }
  return plan.batch_affine ? run<C, Batched, false, Base>(bases, scalars, index, plan)
                           : run<C, XyzzBuckets<C>, false, Base>(bases, scalars, index, plan);
}

// The MSM of each group over both kinds of bases is instantiated once, in pippenger.cpp: every
// other translation unit only calls it (each instantiation is tens of seconds of compiler time).
#define ZK_MSM_INSTANCES(X, C)                                                                                  \
  X template curve::Jacobian<C> dispatch<C, curve::Affine<C>>(std::span<const curve::Affine<C>>,                \
                                                              const ScalarSource<C::Scalar>&, const ScalarIndex&, \
                                                              const MsmConfig&);                                \
  X template curve::Jacobian<C> dispatch<C, curve::PackedAffine<C>>(                                            \
      std::span<const curve::PackedAffine<C>>, const ScalarSource<C::Scalar>&, const ScalarIndex&, const MsmConfig&);
ZK_MSM_INSTANCES(extern, curve::Bls12_381G1)
ZK_MSM_INSTANCES(extern, curve::Bls12_381G2)
ZK_MSM_INSTANCES(extern, curve::Bn254G1)
ZK_MSM_INSTANCES(extern, curve::Bn254G2)

}  // namespace detail

namespace detail {
template <curve::CurveConfig C, class Base>
Result<curve::Jacobian<C>> msm_checked(std::span<const Base> bases, const ScalarSource<typename C::Scalar>& scalars,
                                       const MsmConfig& config) {
  if (bases.size() != scalars.size()) {
    return Status::invalid_argument("msm: " + std::to_string(bases.size()) + " bases but " +
                                    std::to_string(scalars.size()) + " scalars");
  }
  return dispatch<C, Base>(bases, scalars, ScalarIndex(), config);
}
}  // namespace detail

/// sum_i scalars[i] bases[i] over either kind of scalars (the overloads below build the source).
template <curve::CurveConfig C>
Result<curve::Jacobian<C>> msm(std::span<const curve::Affine<C>> bases, const ScalarSource<typename C::Scalar>& scalars,
                               const MsmConfig& config = {}) {
  return detail::msm_checked<C>(bases, scalars, config);
}

/// The same over bases as a mapped .zkey holds them (read where they lie: no decoded copy).
template <curve::CurveConfig C>
Result<curve::Jacobian<C>> msm(std::span<const curve::PackedAffine<C>> bases,
                               const ScalarSource<typename C::Scalar>& scalars, const MsmConfig& config = {}) {
  return detail::msm_checked<C>(bases, scalars, config);
}
template <curve::CurveConfig C>
Result<curve::Jacobian<C>> msm(std::span<const curve::PackedAffine<C>> bases,
                               std::span<const typename C::Scalar> scalars, const MsmConfig& config = {}) {
  return detail::msm_checked<C>(bases, ScalarSource(scalars), config);
}

/// msm_filtered (below) over either kind of scalars.
template <curve::CurveConfig C>
Result<curve::Jacobian<C>> msm_filtered(std::span<const curve::Affine<C>> bases,
                                        const ScalarSource<typename C::Scalar>& scalars, const DensityBitmap& density,
                                        const MsmConfig& config = {}) {
  if (density.size() != scalars.size()) {
    return Status::invalid_argument("msm: density covers " + std::to_string(density.size()) + " variables but " +
                                    std::to_string(scalars.size()) + " scalars were given");
  }
  if (density.popcount() != bases.size()) {
    return Status::invalid_argument("msm: density has " + std::to_string(density.popcount()) + " set bits but " +
                                    std::to_string(bases.size()) + " bases were given");
  }
  return detail::dispatch<C, curve::Affine<C>>(bases, scalars, detail::ScalarIndex(&density), config);
}

/// sum_i scalars[i] bases[i]. Identity bases are allowed (they contribute nothing).
template <curve::CurveConfig C>
Result<curve::Jacobian<C>> msm(std::span<const curve::Affine<C>> bases, std::span<const typename C::Scalar> scalars,
                               const MsmConfig& config = {}) {
  return msm<C>(bases, ScalarSource(scalars), config);
}

/// The same over a compact vector of scalars (a Groth16 witness: its 0s and 1s are read as bits).
template <curve::CurveConfig C>
Result<curve::Jacobian<C>> msm(std::span<const curve::Affine<C>> bases, const CompactColumn<typename C::Scalar>& scalars,
                               const MsmConfig& config = {}) {
  return msm<C>(bases, ScalarSource(scalars), config);
}

/// sum over the set bits i of `density` of scalars[i] times the next base: bases[j] belongs to the
/// j-th set bit (bellperson's DensityTracker semantics, used for Groth16's A and B queries).
template <curve::CurveConfig C>
Result<curve::Jacobian<C>> msm_filtered(std::span<const curve::Affine<C>> bases,
                                        std::span<const typename C::Scalar> scalars, const DensityBitmap& density,
                                        const MsmConfig& config = {}) {
  return msm_filtered<C>(bases, ScalarSource(scalars), density, config);
}

/// msm_filtered over a compact vector of scalars.
template <curve::CurveConfig C>
Result<curve::Jacobian<C>> msm_filtered(std::span<const curve::Affine<C>> bases,
                                        const CompactColumn<typename C::Scalar>& scalars, const DensityBitmap& density,
                                        const MsmConfig& config = {}) {
  return msm_filtered<C>(bases, ScalarSource(scalars), density, config);
}

/// The reference: one scalar multiplication per point, summed. For tests.
template <curve::CurveConfig C>
curve::Jacobian<C> msm_naive(std::span<const curve::Affine<C>> bases, std::span<const typename C::Scalar> scalars) {
  curve::Jacobian<C> acc = curve::Jacobian<C>::identity();
  for (std::size_t i = 0; i < bases.size() && i < scalars.size(); ++i) acc += bases[i].to_jacobian() * scalars[i];
  return acc;
}

}  // namespace zk::msm
