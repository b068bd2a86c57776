#pragma once

// The GPU MSM's raw entry point (no host curve types), shared by msm/gpu_msm.hpp and the kernels.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/status.hpp"

namespace zk::msm::gpu::raw {

/// How the device splits the work.
struct Plan {
  unsigned window_bits = 0;  // c
  unsigned windows = 0;      // ceil(scalar bits / c)
  unsigned chunks = 0;       // per window, for the bucket reduction
};
Plan make_plan(std::size_t n, unsigned scalar_bits);

/// G1 MSM over `n` affine bases (curve::Affine layout: x, y limbs then an infinity flag) and
/// Montgomery scalars of Fr (FrP): writes windows x chunks XYZZ partial sums (curve::Xyzz layout)
/// to `partials`; window w's value is the sum of its chunks.
template <class FqP, class FrP>
Status msm_g1(const void* bases, const std::uint64_t* scalars, std::size_t n, const Plan& plan, void* partials);

}  // namespace zk::msm::gpu::raw
