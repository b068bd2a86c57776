#include <algorithm>

#include "msm/cuda/msm_body.hpp"
#include "msm/cuda/msm_raw.hpp"

namespace zk::msm::gpu::raw {

Plan make_plan(std::size_t n, unsigned scalar_bits) {
  unsigned log_n = 0;
  while ((std::size_t{1} << log_n) < n) ++log_n;
  // Buckets per window ~ n / 16 (at least 2^8, at most 2^16: the bucket threads then outnumber a
  // large GPU's cores while every bucket still averages about 16 points).
  Plan p;
  p.window_bits = log_n < 12 ? 8 : (log_n > 20 ? 16 : log_n - 4);
  p.windows = (scalar_bits + p.window_bits - 1) / p.window_bits;
  p.chunks = 64;
  return p;
}

PassBytes pass_bytes(const Plan& plan, std::size_t base_bytes, std::size_t scalar_bytes, std::size_t xyzz_bytes) {
  const std::size_t buckets = static_cast<std::size_t>(plan.windows) << plan.window_bits;
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
