// Without a usable GPU (no CUDA in this build, or no device), the GPU entry points exist and
// answer UNAVAILABLE with the reason instead of crashing; with one, this test has nothing to check.

#include <gtest/gtest.h>

#include "curve/bn254.hpp"
#include "gpu/gpu.hpp"
#include "msm/gpu_msm.hpp"
#include "ntt/gpu_ntt.hpp"

namespace zk::gpu {
namespace {

TEST(GpuAbsent, EntryPointsSaySoWithoutADevice) {
  if (require_device().ok()) GTEST_SKIP() << "a CUDA device is present (tests labelled gpu cover it)";
  const Status s = require_device();
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_FALSE(s.message().empty());
  EXPECT_TRUE(devices().empty());
  auto d = ntt::Domain<field::Bn254Fr>::create(4, ntt::DomainConfig::snarkjs());
  ASSERT_TRUE(d.ok());
  std::vector<field::Bn254Fr> a(16, field::Bn254Fr::one());
  EXPECT_EQ(ntt::gpu::forward(*d, std::span(a)).code(), StatusCode::kUnavailable);
  std::vector<curve::Affine<curve::Bn254G1>> bases(3, curve::Affine<curve::Bn254G1>::generator());
  std::vector<field::Bn254Fr> k(3, field::Bn254Fr::one());
  auto r = msm::gpu::msm_points<curve::Bn254G1>(bases, k);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(ntt::gpu::compute_h(*d, std::span(a), std::span<const field::Bn254Fr>(a), std::span<const field::Bn254Fr>(a))
                .code(),
            StatusCode::kUnavailable);
  unsigned char bytes[16] = {};
  EXPECT_EQ(copy_to_device(bytes, bytes + 8, 8).code(), StatusCode::kUnavailable);
  EXPECT_EQ(synchronize().code(), StatusCode::kUnavailable);
  EXPECT_EQ(device_alloc(4096).status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(device_available_bytes().status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(device_pool_bytes(0), 0u);
  device_free(nullptr);  // nothing to give back
  std::printf("built with CUDA: %s; %s\n", built_with_cuda() ? "yes" : "no", s.message().c_str());
}

}  // namespace
}  // namespace zk::gpu
