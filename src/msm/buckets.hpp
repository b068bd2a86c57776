#pragma once

// Bucket accumulators for Pippenger's method: each window keeps 2^(c-1) buckets, every point with a
// non-zero digit d is added (negated when d < 0) to bucket |d| - 1, and the buckets are folded into
// sum_k (k + 1) bucket_k by a running sum from the top (AffineBuckets with 512 buckets or more: by
// segments of it advancing together, in batched affine additions; see reduce()).
//
//  - XyzzBuckets: buckets in XYZZ coordinates, one mixed addition (8M + 2S) per point. No batching,
//    so it suits small MSMs.
//  - AffineBuckets: affine buckets updated in batches that share one field inversion (Montgomery's
//    trick): an affine addition costs 1S + 2M for the point and 3M of the batch inversion, about
//    half of the XYZZ mixed addition. A batch never holds two additions to the same bucket (the
//    second one waits in a queue for the next batch); doublings and cancellations, which only
//    repeated bases produce, take a slow exact path. The queue is bounded by the batch size: when
//    it is full (a skewed digit distribution, such as the top window, which only reaches a few
//    buckets, or many equal scalars), a conflicting point goes to a lazily allocated XYZZ overflow
//    bucket instead, so the work per point stays bounded whatever the scalars.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "curve/point.hpp"
#include "msm/digits.hpp"
#include "msm/ifma_batch_add.hpp"

namespace zk::msm {

/// An MSM base's coordinates, whichever layout it has: Affine<C> (read in place) or PackedAffine<C>
/// (a mapped zkey's, copied out). Only points that are not the identity are added to buckets.
namespace detail {
template <curve::CurveConfig C>
const typename C::Field& base_x(const curve::Affine<C>& p) {
  return p.x;
}
template <curve::CurveConfig C>
typename C::Field base_x(const curve::PackedAffine<C>& p) {
  return p.x();
}
template <curve::CurveConfig C>
const typename C::Field& base_y(const curve::Affine<C>& p) {
  return p.y;
}
template <curve::CurveConfig C>
typename C::Field base_y(const curve::PackedAffine<C>& p) {
  return p.y();
}
template <curve::CurveConfig C>
const curve::Affine<C>& base_affine(const curve::Affine<C>& p) {
  return p;
}
template <curve::CurveConfig C>
curve::Affine<C> base_affine(const curve::PackedAffine<C>& p) {
  return p.to_affine();
}
}  // namespace detail

template <curve::CurveConfig C>
class XyzzBuckets {
 public:
  using Affine = curve::Affine<C>;
  using Xyzz = curve::Xyzz<C>;

  explicit XyzzBuckets(std::size_t count) : buckets_(count, Xyzz::identity()) {}

  template <class Base>
  void add(std::uint32_t bucket, const Base& base, bool negate) {
    const auto& p = detail::base_affine(base);
    Xyzz& b = buckets_[bucket];
    b = b.add_mixed(negate ? p.neg() : p);
  }
  void finish() {}

  /// sum_k (k + 1) bucket_k.
  curve::Jacobian<C> reduce() const {
    Xyzz running = Xyzz::identity(), total = Xyzz::identity();
    for (std::size_t k = buckets_.size(); k-- > 0;) {
      running = running + buckets_[k];
      total = total + running;
    }
    return total.to_jacobian();
  }

  static std::size_t bytes(std::size_t count, std::size_t /*batch*/) { return count * sizeof(Xyzz); }

 private:
  std::vector<Xyzz> buckets_;
};

/// Whether group C's batch-affine additions run eight at a time where the CPU has AVX-512 IFMA
/// (field::ifma::available()): a 4-limb base field with 4p < 2^256 or its Fq2, i.e. BN254's G1 and G2.
template <curve::CurveConfig C>
inline constexpr bool kIfmaBatchAdditions = [] {
  if constexpr (requires { C::Field::kLimbs; }) {
    return C::Field::kLimbs == 4 && C::Field::kQuarterModulus;
  } else if constexpr (requires { typename C::Field::Base; }) {
    return C::Field::Base::kLimbs == 4 && C::Field::Base::kQuarterModulus;
  } else {
    return false;
  }
}();

/// Base: the layout of the points added (Affine<C> or PackedAffine<C>); the pending additions
/// point at them, so they must stay put until finish().
template <curve::CurveConfig C, class Base = curve::Affine<C>>
class AffineBuckets {
 public:
  using Affine = curve::Affine<C>;
  using Xyzz = curve::Xyzz<C>;
  using Field = typename C::Field;

  AffineBuckets(std::size_t count, std::size_t batch)
      : buckets_(count, Affine::identity()), busy_(count, 0), batch_limit_(batch) {
    batch_.reserve(batch);
    prefix_.resize(batch);
  }

  void add(std::uint32_t bucket, const Base& p, bool negate) {
    enqueue({bucket, negate, &p});
    while (batch_.size() >= batch_limit_) flush_and_requeue();
  }

  /// Adds everything pending. Queued points go through further (small) batches rather than the XYZZ
  /// overflow: with GLV every chunk ends with a finish(), and spilling its few queued points used to
  /// allocate a whole overflow array in every task (6 MiB each for BLS12-381 G1 at c = 16).
  void finish() {
    while (!batch_.empty() || !queue_.empty()) flush_and_requeue();
  }

  /// sum_k (k + 1) bucket_k. The running sum is serial, so it is cut into S segments of L buckets
  /// (bucket k = sL + j) whose running sums advance together, in affine coordinates, one batch of S
  /// additions per step and one inversion per batch (2 affine additions per bucket, against an XYZZ
  /// mixed and a full addition serially):
  ///   R_s = sum_j B_{sL+j},  T_s = sum_j (j + 1) B_{sL+j},  result = sum_s T_s + L sum_s s R_s,
  /// the last sum a running sum over the segments. S ~ sqrt(4 count) balances the inversions
  /// (2 count / S of them) against the 3 S additions of the combination. Few buckets, or an XYZZ
  /// overflow in use, take the serial sum.
  curve::Jacobian<C> reduce() const {
    const std::size_t count = buckets_.size();
    if (count < kSegmentedReduceMin || !overflow_.empty()) return reduce_serial();
    const unsigned log_len = static_cast<unsigned>(std::bit_width(count) - 1) / 2 - 1;
    const std::size_t len = std::size_t{1} << log_len, segments = (count + len - 1) / len;
    std::vector<Affine> running(segments), total(segments);
    std::vector<std::uint8_t> flags;
    std::vector<Field> prefix;
    const Affine identity = Affine::identity();
    for (std::size_t j = len; j-- > 0;) {
      curve::add_affine_pairwise<C>(std::span(running), [&](std::size_t s) -> const Affine& {
        const std::size_t k = s * len + j;
        return k < count ? buckets_[k] : identity;
      }, flags, prefix);
      curve::add_affine_pairwise<C>(std::span(total), [&](std::size_t s) -> const Affine& { return running[s]; }, flags,
                                    prefix);
    }
    Xyzz sum_r = Xyzz::identity(), weighted = Xyzz::identity(), sum_t = Xyzz::identity();
    for (std::size_t s = segments; s-- > 1;) {
      sum_r = sum_r.add_mixed(running[s]);
      weighted = weighted + sum_r;
    }
    for (unsigned i = 0; i < log_len; ++i) weighted = weighted.dbl();
    for (std::size_t s = 0; s < segments; ++s) sum_t = sum_t.add_mixed(total[s]);
    return (sum_t + weighted).to_jacobian();
  }
  /// The serial running sum (the reference the segmented one is tested against).
  curve::Jacobian<C> reduce_serial() const {
    Xyzz running = Xyzz::identity(), total = Xyzz::identity();
    for (std::size_t k = buckets_.size(); k-- > 0;) {
      if (!buckets_[k].infinity) running = running.add_mixed(buckets_[k]);
      if (!overflow_.empty() && !overflow_[k].is_identity()) running = running + overflow_[k];
      total = total + running;
    }
    return total.to_jacobian();
  }

  /// sum_k bucket_k (unweighted): for the spread accumulator of unit digits.
  curve::Jacobian<C> sum() const {
    Xyzz total = Xyzz::identity();
    for (std::size_t k = 0; k < buckets_.size(); ++k) {
      if (!buckets_[k].infinity) total = total.add_mixed(buckets_[k]);
      if (!overflow_.empty() && !overflow_[k].is_identity()) total = total + overflow_[k];
    }
    return total.to_jacobian();
  }

  /// Upper bound of the heap bytes (the overflow buckets are counted although they are allocated
  /// only when a window's digits are skewed).
  static std::size_t bytes(std::size_t count, std::size_t batch) {
    return count * sizeof(Xyzz) + bytes_without_overflow(count, batch);
  }
  /// Buckets that are only ever added to round-robin over twice the batch (the unit digits' spread)
  /// never meet a busy bucket, so their queue and overflow stay unallocated.
  static std::size_t bytes_without_overflow(std::size_t count, std::size_t batch) {
    return count * (sizeof(Affine) + 1) + batch * (3 * sizeof(Pending) + sizeof(Field) + 10 * sizeof(Field) / 8);
  }

 private:
  struct Pending {
    std::uint32_t bucket;
    bool negate;
    const Base* point;
  };

  void enqueue(const Pending& e) {
    if (busy_[e.bucket]) {
      if (queue_.size() < batch_limit_) {
        queue_.push_back(e);
      } else {
        spill(e);
      }
      return;
    }
    Affine& b = buckets_[e.bucket];
    if (b.infinity) {
      const auto& p = detail::base_affine(*e.point);
      b = e.negate ? p.neg() : p;
      return;
    }
    if (b.x == detail::base_x(*e.point)) {  // doubling or cancellation: exact slow path (repeated bases only)
      const auto& p = detail::base_affine(*e.point);
      curve::Jacobian<C> sum = curve::Jacobian<C>::from_affine(b).add_mixed(e.negate ? p.neg() : p);
      b = sum.to_affine();
      return;
    }
    busy_[e.bucket] = 1;
    batch_.push_back(e);
  }

  void spill(const Pending& e) {
    if (overflow_.empty()) overflow_.assign(buckets_.size(), Xyzz::identity());
    const auto& p = detail::base_affine(*e.point);
    overflow_[e.bucket] = overflow_[e.bucket].add_mixed(e.negate ? p.neg() : p);
  }

  void flush_and_requeue() {
    flush();
    waiting_.clear();
    waiting_.swap(queue_);  // queue_ takes waiting_'s (empty) buffer
    for (const Pending& e : waiting_) enqueue(e);
  }

  // G1: flatten, or GCC calls the 6-limb product and the subtraction out of line here (measured:
  // the G1 MSM 20% slower). G2: no flattening (inlining every Fq2 product made it 2x slower). The
  // inversion always stays out of line.
  [[gnu::noinline]] static Field invert(const Field& x) { return x.inverse(); }
  static constexpr bool kFlatten = requires { Field::kLimbs; };
  void flush() {
    if constexpr (kFlatten) {
      flush_flat();
    } else {
      flush_body();
    }
  }
  [[gnu::flatten]] void flush_flat() { flush_body(); }

  // BN254's G1 on an AVX-512 IFMA CPU: the batch eight additions at a time (msm/ifma_batch_add.hpp),
  // from 16 pending additions on (below that the lanes' inversion is most of the work).
  static constexpr bool kIfmaBatches = kIfmaBatchAdditions<C>;
  static constexpr std::size_t kIfmaMinBatch = 16;
#ifdef ZK_HAVE_IFMA
  [[gnu::noinline]] void flush_ifma() {
    if constexpr (kIfmaBatches) {
      static_assert(offsetof(Affine, x) == 0 && offsetof(Affine, y) == sizeof(Field), "x, y where the lanes read them");
      auto* buckets = reinterpret_cast<unsigned char*>(buckets_.data());
      if constexpr (requires { typename Field::Base; }) {
        ifma_batch::add_batch_fq2<Field>(batch_.data(), batch_.size(), buckets, sizeof(Affine), lanes_);
      } else {
        ifma_batch::add_batch<Field>(batch_.data(), batch_.size(), buckets, sizeof(Affine), lanes_);
      }
      for (const Pending& e : batch_) busy_[e.bucket] = 0;
      batch_.clear();
    }
  }
#endif

  // lambda_k = (y_k - y_bucket) / (x_k - x_bucket) for the whole batch with one inversion.
  [[gnu::always_inline]] void flush_body() {
    const std::size_t m = batch_.size();
    if (m == 0) return;
#ifdef ZK_HAVE_IFMA
    if constexpr (kIfmaBatches) {
      if (m >= kIfmaMinBatch && field::ifma::available()) return flush_ifma();
    }
#endif
    if (prefix_.size() < m) prefix_.resize(m);
    if constexpr (field::kLazyProducts<Field>) {  // both G1 base fields
      flush_lazy(m);
    } else {
      flush_reduced(m);
    }
  }

  [[gnu::always_inline]] void flush_reduced(std::size_t m) {
    Field acc = Field::one();
    for (std::size_t k = 0; k < m; ++k) {
      prefix_[k] = acc;
      acc = acc * (detail::base_x(*batch_[k].point) - buckets_[batch_[k].bucket].x);
    }
    Field inv = invert(acc);
    for (std::size_t k = m; k-- > 0;) {
      const Pending& e = batch_[k];
      Affine& b = buckets_[e.bucket];
      const Field px = detail::base_x(*e.point), pyy = detail::base_y(*e.point);
      const Field dx = px - b.x;
      const Field dx_inv = inv * prefix_[k];
      inv = inv * dx;
      const Field py = e.negate ? -pyy : pyy;
      const Field lambda = (py - b.y) * dx_inv;
      const Field x3 = lambda.square() - b.x - px;
      b.y = lambda * (b.x - x3) - b.y;
      b.x = x3;
      busy_[e.bucket] = 0;
    }
    batch_.clear();
  }

  // flush_body's additions with every intermediate below 2p and only the stored coordinates made
  // canonical (4 corrections per addition instead of about 14; the bucket coordinates must be
  // canonical: enqueue compares x for equality). The differences x - x_bucket are non-zero mod p
  // (enqueue sends equal x to the slow path), so the product inverted is non-zero.
  [[gnu::always_inline]] void flush_lazy(std::size_t m) {
    using Repr = typename Field::Repr;
    Repr acc = Field::one().mont();
    for (std::size_t k = 0; k < m; ++k) {
      prefix_[k] = Field::from_mont(acc);  // lazy: below 2p
      acc = Field::mul_lazy_both(acc, Field::sub_plus_p(detail::base_x(*batch_[k].point), buckets_[batch_[k].bucket].x));
    }
    Repr inv = invert(Field::from_lazy(acc)).mont();
    for (std::size_t k = m; k-- > 0;) {
      const Pending& e = batch_[k];
      Affine& b = buckets_[e.bucket];
      const auto& px = detail::base_x(*e.point);
      const auto& pyy = detail::base_y(*e.point);
      const Repr dx_inv = Field::mul_lazy_both(inv, prefix_[k].mont());
      inv = Field::mul_lazy_both(inv, Field::sub_plus_p(px, b.x));
      const Field py = e.negate ? -pyy : pyy;
      const Repr lambda = Field::mul_lazy_both(Field::sub_plus_p(py, b.y), dx_inv);
      const Repr sum_x = Field::add_unreduced(b.x, px);
      const Field x3 = Field::from_lazy(Field::sub_lazy(Field::mul_lazy_both(lambda, lambda), sum_x));
      const Repr y3 = Field::mul_lazy_both(lambda, Field::sub_plus_p(b.x, x3));
      b.y = Field::from_lazy(Field::sub_lazy(y3, b.y.mont()));
      b.x = x3;
      busy_[e.bucket] = 0;
    }
    batch_.clear();
  }

  std::vector<Affine> buckets_;
  std::vector<Xyzz> overflow_;  // empty until first needed
  std::vector<std::uint8_t> busy_;
  std::vector<Pending> batch_, queue_, waiting_;
  std::vector<Field> prefix_;
  std::vector<long long> lanes_;  // flush_ifma's prefix products, 40 words per group of eight (Fq2: 80)
  std::size_t batch_limit_;
};

}  // namespace zk::msm
