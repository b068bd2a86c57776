#pragma once

// Multi-scalar multiplication on the GPU (msm/cuda/msm_gpu.cu) over G1 or G2 (BLS12-381's G2: its
// coordinates are DevFq2 on the device, field/cuda/dev_fq2.hpp), equal to msm::msm's result for
// the same bases and scalars (identity bases and zero scalars allowed). The device sorts the
// (point, window) pairs of non-zero digits by bucket (zeros cost nothing, ones one pair), sums
// every bucket's run in bounded pieces, and reduces each window in chunks; the host adds the chunks
// and combines the windows. Bases and scalars that do not fit in device memory go in passes.
// Without CUDA, or without a device: UNAVAILABLE.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "curve/point.hpp"
#include "field/cuda/dev_fq2.hpp"
#include "msm/compact_column.hpp"
#include "msm/cuda/msm_raw.hpp"
#include "msm/density.hpp"

namespace zk::msm::gpu {

struct Options {
  /// Points per pass (bases and scalars go to the device a slice at a time); 0: as many as fit in
  /// free device memory.
  std::size_t points_per_pass = 0;
  /// The bases already in device memory, same layout (gpu::ResidentCache): only scalars upload.
  const void* device_bases = nullptr;
  /// The scalars already in device memory (at least as many as the bases; the quotient's result):
  /// read there instead of `scalars` (whose size still gives the count) and CONSUMED.
  void* device_scalars = nullptr;
};

namespace detail {
/// The windows' value from the device's partial sums (windows x chunks): Horner over the windows.
template <curve::CurveConfig C>
curve::Jacobian<C> combine(const raw::Plan& plan, const std::vector<curve::Xyzz<C>>& partials) {
  curve::Jacobian<C> acc = curve::Jacobian<C>::identity();
  for (unsigned w = plan.windows; w-- > 0;) {
    for (unsigned i = 0; i < plan.window_bits; ++i) acc = acc.dbl();
    curve::Xyzz<C> sum = curve::Xyzz<C>::identity();
    for (unsigned k = 0; k < plan.chunks; ++k) sum = sum + partials[static_cast<std::size_t>(w) * plan.chunks + k];
    acc += sum.to_jacobian();
  }
  return acc;
}
/// A compact column's raw layout (and the density's per-word prefix counts) for the device.
template <class F>
raw::CompactScalars compact_scalars(const CompactColumn<F>& column, const DensityBitmap* density) {
  using Group = typename CompactColumn<F>::Group;
  static_assert(sizeof(Group) == 24 && offsetof(Group, others) == 8 && offsetof(Group, rank) == 16,
                "CompactColumn's group layout the kernels expect (msm_body::CompactGroup)");
  raw::CompactScalars k;
  k.groups = column.groups().data();
  k.rows = column.size();
  for (std::size_t c = 0; c < column.chunk_count(); ++c) {
    k.chunks.push_back(column.chunk(c).data());
    k.chunk_values.push_back(column.chunk(c).size());
  }
  if (density != nullptr) {
    k.density = density->words().data();
    k.before.resize(density->words().size());
    std::uint32_t before = 0;
    for (std::size_t w = 0; w < k.before.size(); ++w) {
      k.before[w] = before;
      before += static_cast<std::uint32_t>(__builtin_popcountll(density->words()[w]));
    }
  }
  return k;
}
template <curve::CurveConfig C>
void check_layouts() {
  static_assert(sizeof(curve::Affine<C>) == 2 * sizeof(typename C::Field) + 8, "Affine layout the kernels expect");
  static_assert(sizeof(curve::Xyzz<C>) == 4 * sizeof(typename C::Field), "Xyzz layout the kernels expect");
}
}  // namespace detail

template <curve::CurveConfig C>
Result<curve::Jacobian<C>> msm_points(std::span<const curve::Affine<C>> bases, std::span<const typename C::Scalar> scalars,
                                  const Options& options = {}, raw::Stats* stats = nullptr) {
  using FqP = zk::gpu::DeviceTag<typename C::Field>;
  using FrP = typename C::Scalar::Params;
  detail::check_layouts<C>();
  if (bases.size() != scalars.size()) {
    return Status::invalid_argument("gpu msm: " + std::to_string(bases.size()) + " bases but " +
                                    std::to_string(scalars.size()) + " scalars");
  }
  if (bases.empty()) return curve::Jacobian<C>::identity();
  raw::Plan plan = raw::make_plan(bases.size(), C::Scalar::kBits);
  plan.points_per_pass = options.points_per_pass;
  std::vector<curve::Xyzz<C>> partials(static_cast<std::size_t>(plan.windows) * plan.chunks);
  if (Status s = raw::msm_points<FqP, FrP>(bases.data(), reinterpret_cast<const std::uint64_t*>(scalars.data()),
                                        bases.size(), plan, partials.data(), stats,
                                        options.device_bases, options.device_scalars);
      !s.ok()) {
    return s;
  }
  return detail::combine<C>(plan, partials);
}

/// msm_points with the scalars a compact witness column holds — every row, or the rows `density`
/// selects (bases.size() of them) — formed on the device (raw::CompactScalars): the host neither
/// gathers nor uploads dense scalars. `options.device_scalars` is not used.
template <curve::CurveConfig C>
Result<curve::Jacobian<C>> msm_points_compact(std::span<const curve::Affine<C>> bases,
                                          const CompactColumn<typename C::Scalar>& column,
                                          const DensityBitmap* density, const Options& options = {},
                                          raw::Stats* stats = nullptr) {
  using FqP = zk::gpu::DeviceTag<typename C::Field>;
  using FrP = typename C::Scalar::Params;
  detail::check_layouts<C>();
  const std::size_t selected = density != nullptr ? density->popcount() : column.size();
  if ((density != nullptr && density->size() != column.size()) || selected != bases.size()) {
    return Status::invalid_argument("gpu msm: the compact column's " + std::string(density ? "selected " : "") +
                                    "rows (" + std::to_string(selected) + ") do not match the " +
                                    std::to_string(bases.size()) + " bases");
  }
  if (bases.empty()) return curve::Jacobian<C>::identity();
  const raw::CompactScalars k = detail::compact_scalars(column, density);
  raw::Plan plan = raw::make_plan(bases.size(), C::Scalar::kBits);
  plan.points_per_pass = options.points_per_pass;
  std::vector<curve::Xyzz<C>> partials(static_cast<std::size_t>(plan.windows) * plan.chunks);
  if (Status s = raw::msm_points_compact<FqP, FrP>(bases.data(), k, bases.size(), plan, partials.data(), stats,
                                                options.device_bases);
      !s.ok()) {
    return s;
  }
  return detail::combine<C>(plan, partials);
}

/// A .zkey's bases (curve::PackedAffine) in the kernels' layout (curve::Affine) in device memory,
/// uploaded packed and unpacked there (raw::unpack_bases): bases.size() points from
/// gpu::device_alloc, the caller's. For bases kept resident (gpu::ResidentCache): no host pass
/// converts them and they upload 8-11 % smaller.
template <curve::CurveConfig C>
Result<void*> unpack_on_device(std::span<const curve::PackedAffine<C>> bases) {
  static_assert(sizeof(curve::PackedAffine<C>) == 2 * sizeof(typename C::Field), "the packed layout the kernel reads");
  detail::check_layouts<C>();
  void* out = nullptr;
  if (bases.empty()) return out;
  if (Status s = raw::unpack_bases<typename C::Field::Params>(bases.data(), bases.size(), &out); !s.ok()) return s;
  return out;
}

/// A compact column's values, zero-padded to n >= column.size(), formed in device memory: n field
/// elements from gpu::device_alloc, the caller's (raw::expand_compact). For the quotient's a and b
/// (ntt::gpu::quotient_on_device takes them over), uploaded compact instead of dense.
template <class F>
Result<void*> expand_on_device(const CompactColumn<F>& column, std::size_t n) {
  if (column.size() > n) return Status::invalid_argument("gpu expand: a column longer than its destination");
  void* out = nullptr;
  if (Status s = raw::expand_compact<typename F::Params>(detail::compact_scalars(column, nullptr), n, &out); !s.ok()) {
    return s;
  }
  return out;
}

}  // namespace zk::msm::gpu
