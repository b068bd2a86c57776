// Point encodings: the zkcrypto/bls12_381 known-answer files (k*G for k = 0..999 in the four ZCash
// encodings), every flag rule of the format, and the BN254 big-endian encoding.

#include <gtest/gtest.h>

#include "curve/serialize.hpp"
#include "test_util.hpp"

namespace zk::curve {
namespace {

using namespace bls12_381;

template <std::size_t kSize, class Decode, class Encode, class G>
void check_vector_file(const char* file, Decode decode, Encode encode, const G& generator) {
  const auto bytes = test::read_file(test::data_dir() / "zcash_points" / file);
  ASSERT_EQ(bytes.size(), 1000 * kSize) << file;
  G expected = G::identity();
  for (std::size_t k = 0; k < 1000; ++k) {
    const std::span<const std::uint8_t> enc(bytes.data() + k * kSize, kSize);
    auto p = decode(enc, Check::kChecked);
    ASSERT_TRUE(p.ok()) << file << " k = " << k << ": " << p.status().to_string();
    ASSERT_EQ(p->to_jacobian(), expected) << file << " k = " << k;
    const auto again = encode(*p);
    ASSERT_TRUE(std::equal(again.begin(), again.end(), enc.begin())) << file << " re-encoding differs at k = " << k;
    auto unchecked = decode(enc, Check::kUnchecked);
    ASSERT_TRUE(unchecked.ok());
    ASSERT_EQ(*unchecked, *p);
    expected = expected + generator;
  }
}

TEST(ZcashVectors, G1CompressedDecodesToMultiplesOfTheGenerator) {
  check_vector_file<48>(
      "g1_compressed_valid_test_vectors.dat", g1_from_compressed, [](const G1Affine& p) { return to_compressed(p); },
      G1::generator());
}
TEST(ZcashVectors, G1UncompressedDecodesToMultiplesOfTheGenerator) {
  check_vector_file<96>(
      "g1_uncompressed_valid_test_vectors.dat", g1_from_uncompressed,
      [](const G1Affine& p) { return to_uncompressed(p); }, G1::generator());
}
TEST(ZcashVectors, G2CompressedDecodesToMultiplesOfTheGenerator) {
  check_vector_file<96>(
      "g2_compressed_valid_test_vectors.dat", g2_from_compressed, [](const G2Affine& p) { return to_compressed(p); },
      G2::generator());
}
TEST(ZcashVectors, G2UncompressedDecodesToMultiplesOfTheGenerator) {
  check_vector_file<192>(
      "g2_uncompressed_valid_test_vectors.dat", g2_from_uncompressed,
      [](const G2Affine& p) { return to_uncompressed(p); }, G2::generator());
}

std::string error_of(const Result<G1Affine>& r) { return r.ok() ? "" : r.status().message(); }
std::string error_of(const Result<G2Affine>& r) { return r.ok() ? "" : r.status().message(); }

TEST(ZcashEncoding, RejectsEveryFlagViolation) {
  const auto gen_c = to_compressed(G1Affine::generator());
  const auto gen_u = to_uncompressed(G1Affine::generator());
  // Compression flag mismatch.
  auto c_as_u = gen_u;
  c_as_u[0] |= 0x80;
  EXPECT_NE(error_of(g1_from_uncompressed(c_as_u)).find("compression flag"), std::string::npos);
  auto u_as_c = gen_c;
  u_as_c[0] &= 0x7f;
  EXPECT_NE(error_of(g1_from_compressed(u_as_c)).find("compression flag"), std::string::npos);
  // Infinity with non-zero coordinates.
  auto inf_dirty = gen_c;
  inf_dirty[0] |= 0x40;
  EXPECT_NE(error_of(g1_from_compressed(inf_dirty)).find("infinity flag"), std::string::npos);
  // Infinity with the sign flag.
  std::array<std::uint8_t, 48> inf_sorted{};
  inf_sorted[0] = 0xe0;
  EXPECT_NE(error_of(g1_from_compressed(inf_sorted)).find("sign flag"), std::string::npos);
  // Sign flag in an uncompressed encoding.
  auto u_sorted = gen_u;
  u_sorted[0] |= 0x20;
  EXPECT_NE(error_of(g1_from_uncompressed(u_sorted)).find("sign flag"), std::string::npos);
  // All-zero uncompressed is not infinity (0x40 is): it is (0, 0), which is off the curve.
  std::array<std::uint8_t, 96> zeros{};
  EXPECT_NE(error_of(g1_from_uncompressed(zeros)).find("not on the curve"), std::string::npos);
  // Wrong lengths.
  EXPECT_NE(error_of(g1_from_compressed(std::span(gen_c).first(47))).find("expected 48 bytes"), std::string::npos);
  EXPECT_NE(error_of(g2_from_compressed(std::span(gen_u).first(95))).find("expected 96 bytes"), std::string::npos);
  // The proper infinity encodings decode.
  std::array<std::uint8_t, 48> inf_c{};
  inf_c[0] = 0xc0;
  EXPECT_TRUE(g1_from_compressed(inf_c)->infinity);
  std::array<std::uint8_t, 192> inf_u2{};
  inf_u2[0] = 0x40;
  EXPECT_TRUE(g2_from_uncompressed(inf_u2)->infinity);
}

TEST(ZcashEncoding, RejectsNonCanonicalAndOffCurveCoordinates) {
  // x = p (non-canonical) in a compressed encoding.
  std::array<std::uint8_t, 48> xp{};
  Fq::from_u64(0).to_bytes(xp, field::Endian::kBig);
  for (std::size_t i = 0; i < 48; ++i)
    xp[47 - i] = static_cast<std::uint8_t>(Fq::Params::kModulus[i / 8] >> (8 * (i % 8)));
  xp[0] |= 0x80;
  EXPECT_NE(error_of(g1_from_compressed(xp)).find("not a canonical"), std::string::npos);
  // An x with no curve point: find one.
  Rng rng = test::rng(31);
  for (;;) {
    const Fq x = Fq::random(rng);
    if ((x.square() * x + Bls12_381G1::kB).sqrt()) continue;
    std::array<std::uint8_t, 48> enc{};
    x.to_bytes(enc, field::Endian::kBig);
    enc[0] |= 0x80;
    EXPECT_NE(error_of(g1_from_compressed(enc)).find("abscissa"), std::string::npos);
    break;
  }
  // Uncompressed with y perturbed: off the curve, refused even unchecked (unchecked skips only the
  // subgroup test; a corrupted parameter file must not decode).
  auto gen_u = to_uncompressed(G1Affine::generator());
  gen_u[95] ^= 1;
  EXPECT_NE(error_of(g1_from_uncompressed(gen_u)).find("not on the curve"), std::string::npos);
  EXPECT_NE(error_of(g1_from_uncompressed(gen_u, Check::kUnchecked)).find("not on the curve"), std::string::npos);
}

TEST(ZcashEncoding, RejectsPointsOutsideTheSubgroupUnlessUnchecked) {
  Rng rng = test::rng(32);
  // A curve point of G1 outside the subgroup.
  for (;;) {
    const Fq x = Fq::random(rng);
    auto y = (x.square() * x + Bls12_381G1::kB).sqrt();
    if (!y) continue;
    const auto enc = to_compressed(G1Affine::from_xy(x, *y));
    EXPECT_NE(error_of(g1_from_compressed(enc)).find("subgroup"), std::string::npos);
    EXPECT_TRUE(g1_from_compressed(enc, Check::kUnchecked).ok());
    break;
  }
  for (;;) {
    const Fq2 x = Fq2::random(rng);
    auto y = (x.square() * x + Bls12_381G2::kB).sqrt();
    if (!y) continue;
    const auto enc = to_uncompressed(G2Affine::from_xy(x, *y));
    EXPECT_NE(error_of(g2_from_uncompressed(enc)).find("subgroup"), std::string::npos);
    break;
  }
}

TEST(Bn254Encoding, RoundTripsAndUsesZerosForInfinity) {
  using bn254::g1_from_bytes;
  using bn254::g2_from_bytes;
  using bn254::to_bytes;
  using G1 = bn254::G1;
  using G2 = bn254::G2;
  using G1Affine = bn254::G1Affine;
  using G2Affine = bn254::G2Affine;
  using Fq2 = bn254::Fq2;
  Rng rng = test::rng(33);
  for (int i = 0; i < 10; ++i) {
    const G1Affine p = G1::random(rng).to_affine();
    EXPECT_EQ(*g1_from_bytes(to_bytes(p)), p);
    const G2Affine q = G2::random(rng).to_affine();
    EXPECT_EQ(*g2_from_bytes(to_bytes(q)), q);
  }
  const auto inf = to_bytes(G1Affine::identity());
  EXPECT_TRUE(std::all_of(inf.begin(), inf.end(), [](std::uint8_t b) { return b == 0; }));
  EXPECT_TRUE(g1_from_bytes(inf)->infinity);
  EXPECT_TRUE(g2_from_bytes(to_bytes(G2Affine::identity()))->infinity);
  // The generator (1, 2): x = 1 in the last byte of the first 32.
  const auto g = to_bytes(G1Affine::generator());
  EXPECT_EQ(g[31], 1);
  EXPECT_EQ(g[63], 2);
  // G2 generator: x.c1 first (EIP-197 order).
  const auto g2 = to_bytes(G2Affine::generator());
  EXPECT_EQ(g2[0], 0x19);   // x.c1 = 0x198e93...
  EXPECT_EQ(g2[32], 0x18);  // x.c0 = 0x1800de...
  // Errors.
  auto bad = to_bytes(G1Affine::generator());
  bad[63] = 3;
  EXPECT_FALSE(g1_from_bytes(bad).ok());
  EXPECT_FALSE(g1_from_bytes(std::span(bad).first(63)).ok());
  std::array<std::uint8_t, 64> ff{};
  ff.fill(0xff);
  auto r = g1_from_bytes(ff);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a canonical"), std::string::npos);
  // A G2 point on the twist but outside G2.
  for (;;) {
    const Fq2 x = Fq2::random(rng);
    auto y = (x.square() * x + Bn254G2::kB).sqrt();
    if (!y) continue;
    auto e = g2_from_bytes(to_bytes(G2Affine::from_xy(x, *y)));
    ASSERT_FALSE(e.ok());
    EXPECT_NE(e.status().message().find("subgroup"), std::string::npos);
    break;
  }
}

}  // namespace
}  // namespace zk::curve
