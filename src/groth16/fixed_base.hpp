#pragma once

// Fixed-base scalar multiplication for the development setup (docs/groth16.md, "Development
// setup"). A table holds j 2^(w i) G for every window i and j = 1 .. 2^(w-1) (w = 13: 20 windows of
// 4096 affine points, ~7.9 MiB for G1); a scalar is written in signed digits of w bits, so k G is
// about 20 additions of table points or their negations.
//
// mul_many, the setup's bulk (one point per variable, per QAP row for H: ~11 M G1 points for the
// 2 KiB PoRep circuit), adds in affine coordinates over a chunk of scalars at once: the chunk's
// window-w additions share one field inversion (Montgomery's trick), so an addition costs ~6 field
// multiplications instead of ~10 for a mixed XYZZ addition, and the results need no conversion to
// affine. An addition of ±acc (a doubling, or the identity) would need a partial sum congruent to a
// window's term modulo the group order, which the signed digits of a canonical scalar never give
// (the partial sums are below half the next window's unit); should it happen, the scalar goes to
// mul(), which handles every case.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "curve/point.hpp"
#include "field/bigint.hpp"
#include "msm/digits.hpp"

namespace zk::groth16 {

template <curve::CurveConfig C>
class FixedBaseTable {
 public:
  static constexpr unsigned kWindow = 13;
  static constexpr std::size_t kPerWindow = std::size_t{1} << (kWindow - 1);  // digits 1 .. 2^(w-1)

  explicit FixedBaseTable(const curve::Jacobian<C>& base) : windows_(msm::window_count(C::Scalar::kBits, kWindow)) {
    std::vector<curve::Jacobian<C>> jac(windows_ * kPerWindow);
    tbb::parallel_for(std::size_t{0}, std::size_t{windows_}, [&](std::size_t w) {
      curve::Jacobian<C> g = base;
      for (unsigned i = 0; i < w * kWindow; ++i) g = g.dbl();
      curve::Jacobian<C> acc = g;
      for (std::size_t j = 0; j < kPerWindow; ++j) {
        jac[w * kPerWindow + j] = acc;  // (j + 1) 2^(w kWindow) base
        acc += g;
      }
    });
    table_ = curve::batch_to_affine<C>(jac);
  }

  /// k G (any scalar, every case handled).
  curve::Jacobian<C> mul(const typename C::Scalar& k) const {
    std::int32_t digits[kMaxWindows];
    msm::signed_digits(k.to_canonical(), kWindow, windows_, digits, 1);
    curve::Xyzz<C> acc = curve::Xyzz<C>::identity();
    for (unsigned w = 0; w < windows_; ++w) {
      if (digits[w] != 0) acc = acc.add_mixed(entry(w, digits[w]));
    }
    return acc.to_jacobian();
  }

  /// out[i] = scalars[i] G, in affine form.
  std::vector<curve::Affine<C>> mul_many(std::span<const typename C::Scalar> scalars) const {
    std::vector<curve::Affine<C>> out(scalars.size());
    constexpr std::size_t kChunk = 1024;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, scalars.size(), kChunk),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        mul_chunk(scalars.subspan(r.begin(), r.size()),
                                  std::span<curve::Affine<C>>(out).subspan(r.begin(), r.size()));
                      });
    return out;
  }

 private:
  using Field = typename C::Field;
  static constexpr unsigned kMaxWindows = 64;
  static_assert((C::Scalar::kBits + 1 + kWindow - 1) / kWindow <= kMaxWindows);

  /// d 2^(w kWindow) G for a non-zero digit |d| <= 2^(kWindow-1).
  curve::Affine<C> entry(unsigned w, std::int32_t d) const {
    const curve::Affine<C>& t = table_[w * kPerWindow + static_cast<std::size_t>(d < 0 ? -d : d) - 1];
    return d < 0 ? t.neg() : t;
  }

  /// Batch-affine accumulation of one chunk, window by window.
  void mul_chunk(std::span<const typename C::Scalar> scalars, std::span<curve::Affine<C>> out) const {
    const std::size_t m = scalars.size();
    std::vector<std::int32_t> digits(m * windows_);
    for (std::size_t i = 0; i < m; ++i) {
      msm::signed_digits(scalars[i].to_canonical(), kWindow, windows_, &digits[i * windows_], 1);
    }
    std::vector<std::uint8_t> slow(m, 0);
    std::vector<curve::Affine<C>> addend(m);
    std::vector<Field> dx(m), prefix(m);
    std::vector<std::uint32_t> pending;
    pending.reserve(m);
    for (std::size_t i = 0; i < m; ++i) out[i] = curve::Affine<C>::identity();
    for (unsigned w = 0; w < windows_; ++w) {
      pending.clear();
      Field run = Field::one();
      for (std::size_t i = 0; i < m; ++i) {
        const std::int32_t d = digits[i * windows_ + w];
        if (d == 0 || slow[i] != 0) continue;
        const curve::Affine<C> t = entry(w, d);
        if (out[i].is_identity()) {
          out[i] = t;
          continue;
        }
        const Field diff = t.x - out[i].x;
        if (diff.is_zero()) {  // t = ±acc: a doubling or the identity; mul() does this scalar
          slow[i] = 1;
          continue;
        }
        const std::size_t p = pending.size();
        addend[p] = t;
        dx[p] = diff;
        prefix[p] = run;
        run = run * diff;
        pending.push_back(static_cast<std::uint32_t>(i));
      }
      if (pending.empty()) continue;
      Field inv = run.inverse();
      for (std::size_t p = pending.size(); p-- > 0;) {
        curve::Affine<C>& acc = out[pending[p]];
        const curve::Affine<C>& t = addend[p];
        const Field dx_inv = inv * prefix[p];
        inv = inv * dx[p];
        const Field lambda = (t.y - acc.y) * dx_inv;
        const Field x3 = lambda.square() - acc.x - t.x;
        acc.y = lambda * (acc.x - x3) - acc.y;
        acc.x = x3;
      }
    }
    for (std::size_t i = 0; i < m; ++i) {
      if (slow[i] != 0) out[i] = mul(scalars[i]).to_affine();
    }
  }

  unsigned windows_;
  std::vector<curve::Affine<C>> table_;
};

}  // namespace zk::groth16
