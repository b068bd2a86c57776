#include "base/uninit_vector.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

namespace zk::base {
namespace {

// Large buffers come from allocate_large: 2 MiB-aligned (the huge pages' granule), usable over their
// whole length, freed through the same path when the vector shrinks, moves or dies; small ones from
// the ordinary allocator.
TEST(UninitVector, LargeBuffersAreHugePageAlignedAndWholeSmallOnesOrdinary) {
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  const std::size_t n = kLargeAllocation / sizeof(std::uint64_t) + 12345;  // not a multiple of 2 MiB
  UninitVector<std::uint64_t> big(n);
  ASSERT_EQ(reinterpret_cast<std::uintptr_t>(big.data()) % kHuge, 0u);
  std::iota(big.begin(), big.end(), std::uint64_t{7});
  EXPECT_EQ(big.front(), 7u);
  EXPECT_EQ(big.back(), 7u + n - 1);
  UninitVector<std::uint64_t> moved = std::move(big);
  EXPECT_EQ(moved[n / 2], 7u + n / 2);
  moved.resize(2 * n);  // reallocates: the old buffer goes back through free_large
  ASSERT_EQ(reinterpret_cast<std::uintptr_t>(moved.data()) % kHuge, 0u);
  EXPECT_EQ(moved[n - 1], 7u + n - 1);
  moved.shrink_to_fit();
  UninitVector<std::uint64_t>().swap(moved);
  UninitVector<std::uint64_t> small(1000);
  std::iota(small.begin(), small.end(), std::uint64_t{0});
  EXPECT_EQ(small[999], 999u);
  EXPECT_THROW(UninitVector<std::uint64_t>(small.max_size() + 1), std::length_error);
}

}  // namespace
}  // namespace zk::base
