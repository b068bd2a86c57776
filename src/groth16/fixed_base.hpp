#pragma once

// Fixed-base scalar multiplication for the development setup: a table of j 2^(w i) G for every
// window i and digit j (w = 12: 22 windows of 4096 affine points, ~9 MiB for G1), so k G costs about
// 22 mixed additions. Many scalars are multiplied in parallel (oneTBB, caller's arena) and
// normalised to affine with one inversion per chunk.

#include <cstddef>
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
  static constexpr unsigned kWindow = 12;

  explicit FixedBaseTable(const curve::Jacobian<C>& base) {
    constexpr unsigned bits = C::Scalar::kBits;
    windows_ = (bits + kWindow - 1) / kWindow;
    const std::size_t per = std::size_t{1} << kWindow;
    std::vector<curve::Jacobian<C>> jac(windows_ * per);
    tbb::parallel_for(std::size_t{0}, std::size_t{windows_}, [&](std::size_t w) {
      curve::Jacobian<C> g = base;
      for (unsigned i = 0; i < w * kWindow; ++i) g = g.dbl();
      curve::Jacobian<C> acc = curve::Jacobian<C>::identity();
      for (std::size_t j = 0; j < per; ++j) {
        jac[w * per + j] = acc;
        acc += g;
      }
    });
    table_ = curve::batch_to_affine<C>(jac);
  }

  curve::Jacobian<C> mul(const typename C::Scalar& k) const {
    const auto limbs = k.to_canonical();
    const std::size_t per = std::size_t{1} << kWindow;
    curve::Xyzz<C> acc = curve::Xyzz<C>::identity();
    for (unsigned w = 0; w < windows_; ++w) {
      const std::uint32_t d = msm::window_bits(limbs, w * kWindow, kWindow);
      if (d != 0) acc = acc.add_mixed(table_[w * per + d]);
    }
    return acc.to_jacobian();
  }

  /// out[i] = scalars[i] G, in affine form.
  std::vector<curve::Affine<C>> mul_many(std::span<const typename C::Scalar> scalars) const {
    std::vector<curve::Affine<C>> out(scalars.size());
    constexpr std::size_t kChunk = 1024;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, scalars.size(), kChunk),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        std::vector<curve::Jacobian<C>> jac(r.size());
                        for (std::size_t i = r.begin(); i != r.end(); ++i) jac[i - r.begin()] = mul(scalars[i]);
                        const auto aff = curve::batch_to_affine<C>(jac);
                        std::copy(aff.begin(), aff.end(), out.begin() + static_cast<std::ptrdiff_t>(r.begin()));
                      });
    return out;
  }

 private:
  unsigned windows_ = 0;
  std::vector<curve::Affine<C>> table_;
};

}  // namespace zk::groth16
