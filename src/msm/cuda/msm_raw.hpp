#pragma once

// The GPU MSM's raw entry point (no host curve types), shared by msm/gpu_msm.hpp and the kernels.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/status.hpp"

namespace zk::msm::gpu::raw {

/// How the device splits the work.
struct Plan {
  unsigned window_bits = 0;  // c (signed digits: 2^(c-1) buckets a window)
  unsigned windows = 0;      // ceil((scalar bits + 1) / c)
  unsigned chunks = 0;       // per window, for the bucket reduction
  /// Points per pass: the bases and scalars go to the device a slice at a time when the whole MSM
  /// does not fit; the passes' window sums add up. 0: as many as fit in free device memory.
  std::size_t points_per_pass = 0;
};
Plan make_plan(std::size_t n, unsigned scalar_bits);

/// Device bytes one pass needs: `per_point` for each of its points (worst case: every window's
/// digit non-zero) plus `fixed` (buckets, partial sums).
struct PassBytes {
  std::size_t per_point = 0, fixed = 0;
};
PassBytes pass_bytes(const Plan& plan, std::size_t base_bytes, std::size_t scalar_bytes, std::size_t xyzz_bytes);
/// Points per pass that fit in `free_bytes` (keeping a quarter free for the sort's scratch and
/// other users); 0 when not even one small pass fits. `base_bytes` / `scalar_bytes`: 0 for bases
/// resident on the device and scalars already there (a pass allocates no copy of them).
std::size_t fitting_points(const Plan& plan, std::size_t n, std::size_t free_bytes, std::size_t base_bytes,
                           std::size_t scalar_bytes, std::size_t xyzz_bytes);

/// What a call did (for benchmarks and tests).
struct Stats {
  unsigned passes = 0;
  std::uint64_t pairs = 0;  // (point, window) pairs, over all passes (units included)
  std::uint64_t units = 0;  // of which units' (scalar 1), placed without the sort
  unsigned levels = 0;      // reduction levels above the sub-runs, deepest pass
};

/// MSM over `n` affine bases (curve::Affine layout: x, y limbs then an infinity flag; FqP the
/// coordinates' tag: a prime field's parameters for G1, gpu::Fq2Of<P> for G2) and
/// Montgomery scalars of Fr (FrP): writes windows x chunks XYZZ partial sums (curve::Xyzz layout)
/// to `partials`; window w's value is the sum of its chunks. `device_bases` (optional): the same
/// bases already in device memory (gpu/resident.hpp); then only the scalars are uploaded.
/// `device_scalars` (optional): the scalars already in device memory (the quotient's result), read
/// instead of `scalars` and CONSUMED (converted to canonical form in place).
template <class FqP, class FrP>
Status msm_points(const void* bases, const std::uint64_t* scalars, std::size_t n, const Plan& plan, void* partials,
              Stats* stats, const void* device_bases = nullptr, void* device_scalars = nullptr);

/// An MSM's scalars as a compact witness column (msm::CompactColumn's raw layout) and, optionally,
/// the density bitmap choosing its rows: the device forms the dense scalars itself, so the host
/// neither gathers nor uploads them (a 2^27-row column is ~0.1 GB compact, 4 GiB dense).
struct CompactScalars {
  const void* groups = nullptr;  // body::CompactGroup per 64 rows
  std::size_t rows = 0;
  std::vector<const void*> chunks;        // the other values, in order
  std::vector<std::size_t> chunk_values;  // values per chunk
  const std::uint64_t* density = nullptr;  // null: every row, in order
  std::vector<std::uint32_t> before;       // with a density: per word, the set bits before it
};

/// The dense values of `scalars` formed in device memory: n elements (the rows the density selects,
/// or every row padded with zeros to n) from gpu::device_alloc, now the caller's (`*out`).
template <class FrP>
Status expand_compact(const CompactScalars& scalars, std::size_t n, void** out);

/// `n` bases in a .zkey's packed layout (curve::PackedAffine, `packed` on the host) in the kernels'
/// layout (curve::Affine) in device memory: uploaded packed, a slice at a time, and unpacked there
/// (no host pass over the points). The memory is from gpu::device_alloc, now the caller's (`*out`).
template <class FqP>
Status unpack_bases(const void* packed, std::size_t n, void** out);

/// msm_points over `n` bases with the scalars formed on the device from `scalars` (n: the rows the
/// density selects, or every row).
template <class FqP, class FrP>
Status msm_points_compact(const void* bases, const CompactScalars& scalars, std::size_t n, const Plan& plan, void* partials,
                      Stats* stats, const void* device_bases = nullptr);

/// The instantiations msm_gpu.cu (and, without CUDA, msm_gpu_stub.cpp) provide: G1 and G2 (tag
/// gpu::Fq2Of<P>: DevFq2 coordinates) of both curves.
#define ZK_MSM_GPU_POINTS(FQ, FR)                                                                          \
  template Status msm_points<FQ, FR>(const void*, const std::uint64_t*, std::size_t, const Plan&, void*, Stats*, \
                                     const void*, void*);                                                  \
  template Status msm_points_compact<FQ, FR>(const void*, const CompactScalars&, std::size_t, const Plan&, void*, \
                                             Stats*, const void*);
#define ZK_MSM_GPU_INSTANCES                                                                                \
  template Status unpack_bases<field::params::Bls12_381Fq>(const void*, std::size_t, void**);               \
  template Status unpack_bases<field::params::Bn254Fq>(const void*, std::size_t, void**);                   \
  template Status expand_compact<field::params::Bls12_381Fr>(const CompactScalars&, std::size_t, void**);   \
  template Status expand_compact<field::params::Bn254Fr>(const CompactScalars&, std::size_t, void**);       \
  ZK_MSM_GPU_POINTS(field::params::Bls12_381Fq, field::params::Bls12_381Fr)                                 \
  ZK_MSM_GPU_POINTS(field::params::Bn254Fq, field::params::Bn254Fr)                                         \
  ZK_MSM_GPU_POINTS(zk::gpu::Fq2Of<field::params::Bls12_381Fq>, field::params::Bls12_381Fr)                 \
  ZK_MSM_GPU_POINTS(zk::gpu::Fq2Of<field::params::Bn254Fq>, field::params::Bn254Fr)

}  // namespace zk::msm::gpu::raw
