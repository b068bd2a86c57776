// SnarkPack's SRS file (src/snarkpack/srs.hpp): a development SRS writes and reads back in
// Filecoin's layout, exactly the prefix a proof count needs; Filecoin's lengths give the published
// file's size; short files, oversized lengths, a wrong first point and too few points are refused
// naming them.

#include <gtest/gtest.h>

#include <cstring>

#include "curve/pairing.hpp"
#include "snarkpack/srs.hpp"

namespace zk::snarkpack {
namespace {

ReadAt memory(const std::vector<std::uint8_t>& bytes) {
  return [&bytes](std::uint64_t offset, std::span<std::uint8_t> out) -> Status {
    if (offset > bytes.size() || out.size() > bytes.size() - offset) return Status::invalid_argument("past the end");
    if (!out.empty()) std::memcpy(out.data(), bytes.data() + offset, out.size());
    return {};
  };
}

TEST(SnarkPackSrs, ADevelopmentSrsReadsBackTheProofCountsPrefix) {
  const Srs dev = development_srs(7, 16, 8);
  const auto bytes = write_srs(dev);
  EXPECT_EQ(bytes.size(), 4 * 4 + 2 * 16 * 48 + 2 * 8 * 96u);
  auto h = read_srs_header(memory(bytes), bytes.size());
  ASSERT_TRUE(h.ok()) << h.status().to_string();
  EXPECT_EQ(h->g_alpha, 16u);
  EXPECT_EQ(h->h_beta, 8u);
  auto s = read_srs_prefix(memory(bytes), bytes.size(), 4);
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  ASSERT_EQ(s->g_alpha.size(), 8u);
  ASSERT_EQ(s->h_beta.size(), 4u);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_TRUE(s->g_beta[i] == dev.g_beta[i]);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_TRUE(s->h_alpha[i] == dev.h_alpha[i]);
  // alpha in G1 and G2 is the same secret: e(g_alpha[1], h) = e(g, h_alpha[1]).
  EXPECT_EQ(curve::bls12_381::pairing(s->g_alpha[1], G2Affine::generator()),
            curve::bls12_381::pairing(G1Affine::generator(), s->h_alpha[1]));
  EXPECT_FALSE(read_srs_prefix(memory(bytes), bytes.size(), 9).ok());  // 18 G1 points needed, 16 held
  EXPECT_TRUE(read_srs_prefix(memory(bytes), bytes.size(), 8).ok());
}

TEST(SnarkPackSrs, FilecoinsLengthsMakeThePublishedSize) {
  // Only the four length fields are read: a reader that knows nothing else.
  const std::uint64_t g1 = 48, g2 = 96, n = kMaxSrsPoints;
  const std::uint64_t at[4] = {0, 4 + n * g1, 8 + 2 * n * g1, 12 + 2 * n * g1 + n * g2};
  EXPECT_EQ(at[1], 50331700u);  // the design note's offsets
  EXPECT_EQ(at[2], 100663400u);
  EXPECT_EQ(at[3], 201326796u);
  const ReadAt lengths = [&](std::uint64_t offset, std::span<std::uint8_t> out) -> Status {
    for (auto a : at) {
      if (offset == a && out.size() == 4) {
        out[0] = 0, out[1] = 0x10, out[2] = 0, out[3] = 1;  // 2^20 + 1, big-endian
        return {};
      }
    }
    return Status::invalid_argument("not a length field");
  };
  auto h = read_srs_header(lengths, kFilecoinSrsBytes);
  ASSERT_TRUE(h.ok()) << h.status().to_string();
  EXPECT_EQ(h->bytes, kFilecoinSrsBytes);
  EXPECT_FALSE(read_srs_header(lengths, kFilecoinSrsBytes + 1).ok());
}

TEST(SnarkPackSrs, MalformedFilesAreRefusedNamingWhat) {
  const auto good = write_srs(development_srs(3, 4, 2));
  auto shorter = good;
  shorter.pop_back();
  auto r = read_srs_prefix(memory(shorter), shorter.size(), 2);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("bytes"), std::string::npos) << r.status().message();
  auto huge = good;
  huge[0] = 0x7f;  // g_alpha's length: far above 2^20 + 1
  r = read_srs_prefix(memory(huge), huge.size(), 2);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("g_alpha"), std::string::npos) << r.status().message();
  auto moved = good;
  std::memcpy(moved.data() + 4, good.data() + 4 + 48, 48);  // g_alpha[0] = alpha g, not g
  r = read_srs_prefix(memory(moved), moved.size(), 2);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("generator"), std::string::npos) << r.status().message();
  auto off_curve = good;
  off_curve[4 + 48 + 10] ^= 1;
  EXPECT_FALSE(read_srs_prefix(memory(off_curve), off_curve.size(), 2).ok());
  EXPECT_FALSE(read_srs_header(memory(good), 3).ok());
  EXPECT_FALSE(read_srs_file("/nonexistent/v28-fil-inner-product-v1.srs", 2).ok());
}

}  // namespace
}  // namespace zk::snarkpack
