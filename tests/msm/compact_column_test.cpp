// CompactColumn: the dense values come back exactly, in row order, whatever the mix of zeros, ones
// and other values, across the expansion's blocks and the storage's chunks, and entry by entry
// through the rank table.

#include <gtest/gtest.h>

#include <vector>

#include "field/fields.hpp"
#include "msm/compact_column.hpp"
#include "test_util.hpp"

namespace zk::msm {
namespace {

using Fr = field::Bls12_381Fr;
using Column = CompactColumn<Fr>;

/// `rows` values: 0, 1, -1, small and random ones in proportions set by `others_per_256`.
std::vector<Fr> values(std::size_t rows, unsigned others_per_256, std::uint64_t salt) {
  auto rng = test::rng(salt);
  std::vector<Fr> v(rows);
  for (auto& x : v) {
    const unsigned r = static_cast<unsigned>(rng() & 255);
    if (r < others_per_256) {
      x = (r & 3) == 0 ? -Fr::one() : (r & 3) == 1 ? Fr::from_u64(2 + (rng() & 0xffff)) : Fr::random(rng);
    } else {
      x = (r & 1) != 0 ? Fr::one() : Fr::zero();
    }
  }
  return v;
}

void expect_round_trip(const std::vector<Fr>& v) {
  Column c;
  c.reserve(v.size());
  std::size_t others = 0;
  for (const Fr& x : v) {
    c.push_back(x);
    others += (!x.is_zero() && !x.is_one()) ? 1 : 0;
  }
  ASSERT_EQ(c.size(), v.size());
  EXPECT_EQ(c.others(), others);
  EXPECT_LE(c.bytes(), Column::max_bytes(v.size())) << "the bound a budget reserves";
  const std::size_t padded = v.size() + 77;
  const auto dense = c.expand(padded);
  ASSERT_EQ(dense.size(), padded);
  for (std::size_t i = 0; i < v.size(); ++i) ASSERT_TRUE(dense[i] == v[i]) << "row " << i;
  for (std::size_t i = v.size(); i < padded; ++i) ASSERT_TRUE(dense[i].is_zero()) << "padding row " << i;
  for (std::size_t k = 0; k < v.size(); ++k) {  // random access, in a scattered order
    const std::size_t j = (k * 7919) % v.size();
    ASSERT_TRUE(c.get(j) == v[j]) << "get row " << j;
    const bool other = !v[j].is_zero() && !v[j].is_one();
    ASSERT_EQ(c.is_other(j), other) << "row " << j;
    if (other) {
      ASSERT_TRUE(c.other_at(j) == v[j]) << "other_at row " << j;
    } else {
      ASSERT_EQ(c.is_one(j), v[j].is_one()) << "row " << j;
    }
  }
  std::size_t i = 0;
  c.for_each([&](const Fr& x) {
    ASSERT_TRUE(x == v[i]) << "for_each row " << i;
    ++i;
  });
  EXPECT_EQ(i, v.size());
}

TEST(CompactColumn, ExpandsToTheSameValuesAcrossBlocksAndChunks) {
  // More rows than one expansion block and more other values than one storage chunk.
  const std::size_t rows = 5 * Column::kBlockRows + 123;
  for (unsigned per_256 : {0u, 3u, 90u, 256u}) {
    SCOPED_TRACE("others per 256: " + std::to_string(per_256));
    expect_round_trip(values(rows, per_256, per_256));
  }
  expect_round_trip(values((std::size_t{1} << Column::kChunkLog) + 5, 256, 9));  // a second chunk
}

TEST(CompactColumn, EmptyAndTinyColumns) {
  expect_round_trip({});
  expect_round_trip({Fr::zero()});
  expect_round_trip({Fr::one(), Fr::from_u64(7), Fr::zero()});
  EXPECT_LE(Column::max_bytes(3), 3 * sizeof(Fr) * 2 + 2 * sizeof(std::uint64_t) * 3 * 2)
      << "a small column's bound is not a whole 2 MiB chunk";
  Column c;
  const auto empty = c.expand(4);  // allocated unwritten, then every row written: all zero
  ASSERT_EQ(empty.size(), 4u);
  for (const Fr& x : empty) EXPECT_TRUE(x.is_zero());
}

TEST(CompactColumn, BitsCostTwoBitsPerRowAndReleaseFreesAll) {
  Column c;
  const std::size_t rows = 1 << 20;
  c.reserve(rows);
  for (std::size_t i = 0; i < rows; ++i) c.push_back(i % 3 == 0 ? Fr::one() : Fr::zero());
  EXPECT_EQ(c.others(), 0u);
  EXPECT_LE(c.bytes(), rows * 3 / 8 + 4096);  // three bits per row (two flags, a rank per 64), no values
  c.release();
  EXPECT_EQ(c.size(), 0u);
  EXPECT_EQ(c.bytes(), 0u);
}

}  // namespace
}  // namespace zk::msm
