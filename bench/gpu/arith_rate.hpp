#pragma once

// Arithmetic rates of the device (issue 42, `scripts/gpu-check.sh run`): the 32-bit multiply-add
// issue rate, which pins the floor of every field product, and the rates of the device field
// products themselves (DevField, field/cuda/dev_field.hpp). Each kernel runs long chains in enough
// threads to fill every multiprocessor; times come from CUDA events around the kernel alone.
// Without CUDA every call is UNAVAILABLE.

#include <cstdint>

#include "base/status.hpp"

namespace zk::bench_gpu {

struct Rate {
  double per_s = 0;               // operations per second on the whole device
  double per_sm_per_clock = 0;    // the same per multiprocessor and SM clock cycle
  double kernel_ms = 0;
};

/// `mad.lo.u32` (IMAD) in independent chains: Hopper issues 64 per SM per clock (half the FP32 rate).
Result<Rate> imad_rate();
/// Montgomery products of BLS12-381 Fq (`fq`) or Fr, dependent chains, one per thread.
Result<Rate> field_product_rate(bool fq);

}  // namespace zk::bench_gpu
