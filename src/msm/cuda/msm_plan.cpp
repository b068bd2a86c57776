#include <algorithm>

#include "msm/cuda/msm_body.hpp"
#include "msm/cuda/msm_raw.hpp"

namespace zk::msm::gpu::raw {

Plan make_plan(std::size_t n, unsigned scalar_bits) {
  // Signed digits (msm_body.hpp): c bits a window, 2^(c-1) buckets, windows covering one bit more
  // than the scalar so the top window needs no carry out. The window size minimises a cost in
  // mixed additions: one per (point, window) pair and kBucketCost per bucket for the reduction
  // (sub-run and group sums, the window's running sums: measured on an H200 at c = 16, 2^22 points,
  // the reduction took ~6 ms against ~68 ms of bucket additions, ~6 additions a bucket). c stays in
  // [8, 20]: at 2^20 buckets per window the bucket arrays alone would take ~8 GB at 2^27 points.
  // The choice for 255-bit scalars: c = 13 at 2^18 points, 16 from 2^20 to 2^23, 19 at 2^24 (14
  // windows), 20 from 2^25 (13 windows instead of 16: 19 % fewer pairs and bucket additions).
  constexpr double kBucketCost = 6;
  Plan p;
  double best = 0;
  for (unsigned c = 8; c <= 20; ++c) {
    const unsigned windows = (scalar_bits + 1 + c - 1) / c;
    const double cost = static_cast<double>(windows) *
                        (static_cast<double>(n) + kBucketCost * static_cast<double>(std::uint64_t{1} << (c - 1)));
    if (p.window_bits == 0 || cost < best) p.window_bits = c, p.windows = windows, best = cost;
  }
  p.chunks = 64;
  return p;
}

PassBytes pass_bytes(const Plan& plan, std::size_t base_bytes, std::size_t scalar_bytes, std::size_t xyzz_bytes) {
  const std::size_t buckets = static_cast<std::size_t>(plan.windows) << (plan.window_bits - 1);
  PassBytes b;
  // Per point: base, scalar, pair count and its scan. Per pair (at most `windows` per point): key
  // and point, their sorted copies, about one more copy of scratch for the radix sort, and a share
  // of the sub-run partial sums (one per kSubRun = 512 pairs, 2 levels alive).
  b.per_point = base_bytes + scalar_bytes + 2 * sizeof(std::uint32_t) +
                plan.windows * (6 * sizeof(std::uint32_t) + 2 * xyzz_bytes / 512 + 1);
  // Per bucket: start, end, and counts and offsets of two levels; one partial sum at each of two
  // levels (every non-empty bucket has one) and the bucket's sum. The window chunks and their sub-chunks; 64 MiB slack
  // for the scans' scratch and alignment.
  b.fixed = buckets * (6 * sizeof(std::uint32_t) + 3 * xyzz_bytes) +
            static_cast<std::size_t>(plan.windows) * plan.chunks * (1 + zk::gpu::msm_body::kSplit) * xyzz_bytes +
            (std::size_t{64} << 20);
  return b;
}

std::size_t fitting_points(const Plan& plan, std::size_t n, std::size_t free_bytes, std::size_t base_bytes,
                           std::size_t scalar_bytes, std::size_t xyzz_bytes) {
  const PassBytes b = pass_bytes(plan, base_bytes, scalar_bytes, xyzz_bytes);
  const std::size_t usable = free_bytes / 4 * 3;
  if (usable <= b.fixed) return 0;
  const std::size_t fit = (usable - b.fixed) / b.per_point;
  if (fit < std::min<std::size_t>(n, 1024)) return 0;  // passes this small would be all overhead
  return std::min(n, fit);
}

}  // namespace zk::msm::gpu::raw
