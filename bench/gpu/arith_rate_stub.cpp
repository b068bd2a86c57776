#include "arith_rate.hpp"

#include "gpu/gpu.hpp"

namespace zk::bench_gpu {

Result<Rate> imad_rate() { return gpu::require_device(); }
Result<Rate> field_product_rate(bool) { return gpu::require_device(); }

}  // namespace zk::bench_gpu
