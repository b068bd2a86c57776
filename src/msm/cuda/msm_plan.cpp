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

}  // namespace zk::msm::gpu::raw
