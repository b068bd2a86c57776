// FallbackPoSt's public inputs (WindowPoSt, WinningPoSt) as storage-proofs-post derives them: the
// real 2 KiB WindowPoSt proof of ../shared/testdata/filecoin/polka_2kib_window_post.json verifies
// from (randomness, sector number, comm_r) and fails for any changed value or the API 1.0 rule;
// the input counts of the production partitions match rust-fil-proofs' pins.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>

#include "circuits/filecoin/post/fallback_post.hpp"
#include "groth16/io.hpp"
#include "groth16/verifier.hpp"
#include "test_util.hpp"

namespace zk::circuits::filecoin {
namespace {

std::array<std::uint8_t, 32> bytes32(const std::string& hex) {
  const auto v = zk::test::from_hex(hex);
  std::array<std::uint8_t, 32> out{};
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

TEST(FallbackPoSt, RegisteredProofsByNumberAndName) {
  EXPECT_EQ(registered_post_proofs().size(), 15u);
  EXPECT_EQ(find_registered_post_proof("StackedDRGWindow2KiBV1P1")->id, 10u);
  EXPECT_EQ(find_registered_post_proof("StackedDrgWindow32GiBV1_2")->id, 13u);
  EXPECT_EQ(find_registered_post_proof("stackeddrgwindow32gibv1_1")->id, 13u);
  EXPECT_EQ(find_registered_post_proof("3")->name, "StackedDrgWinning32GiBV1");
  EXPECT_FALSE(find_registered_post_proof("15").ok());
}

TEST(FallbackPoSt, PartitionInputCountsAreRustFilProofsPins) {
  // WindowPoSt 32 GiB: 25,840 inputs with ONE (2,349 sectors x (comm_r + 10 challenges) + 1);
  // WinningPoSt 32 GiB: 133 (66 x 2 + 1).
  const std::array<std::uint8_t, 32> randomness{};
  const std::vector<PoStSector> one = {{5, {}}};
  auto window = fallback_post_public_inputs(*find_registered_post_proof("StackedDrgWindow32GiBV1_2"), randomness, one, 0);
  ASSERT_TRUE(window.ok());
  EXPECT_EQ(window->size() + 1, 25'840u);
  auto winning = fallback_post_public_inputs(*find_registered_post_proof("StackedDrgWinning32GiBV1"), randomness, one, 0);
  ASSERT_TRUE(winning.ok());
  EXPECT_EQ(winning->size() + 1, 133u);
  // API 1.0: every copy of the winning sector gets its own challenge index.
  EXPECT_NE((*winning)[1], (*winning)[3]);
  EXPECT_FALSE(fallback_post_public_inputs(*find_registered_post_proof("StackedDrgWindow2KiBV1_2"), randomness, one, 1).ok());
}

TEST(FallbackPoSt, TheRealPolkaTwoKibWindowPostVerifiesFromItsPublicValues) {
  const auto dir = zk::test::shared_testdata();
  if (dir.empty()) GTEST_SKIP() << "shared testdata not found (../shared/testdata or ZKPIPE_TESTDATA)";
  const auto j = nlohmann::json::parse(zk::test::read_file(dir / "filecoin" / "polka_2kib_window_post.json"));
  auto vk = groth16::read_verifying_key_compressed(zk::test::from_hex(j["vk_hex"].get<std::string>()));
  ASSERT_TRUE(vk.ok()) << vk.status().to_string();
  ASSERT_EQ(vk->ic.size(), 23u);
  auto proof = groth16::read_proofs<groth16::Bls12_381>(zk::test::from_hex(j["proof_hex"].get<std::string>()));
  ASSERT_TRUE(proof.ok());
  const auto pvk = groth16::prepare_verifying_key(*vk);
  auto registered = find_registered_post_proof(j["registered_post_proof"].get<std::string>());
  ASSERT_TRUE(registered.ok());
  const auto randomness = bytes32(j["randomness_hex"].get<std::string>());
  std::vector<PoStSector> sectors;
  for (const auto& s : j["sectors"]) sectors.push_back({s["sector_number"].get<std::uint64_t>(), bytes32(s["comm_r_hex"])});
  const std::size_t partition = j["partition"].get<std::size_t>();
  auto verify = [&](const RegisteredPoStProof& p, const std::array<std::uint8_t, 32>& r,
                    const std::vector<PoStSector>& s) {
    auto in = fallback_post_public_inputs(p, r, s, partition);
    EXPECT_TRUE(in.ok());
    return in.ok() && *groth16::verify(pvk, (*proof)[0], *in);
  };
  EXPECT_TRUE(verify(*registered, randomness, sectors));
  auto r2 = randomness;
  r2[0] ^= 1;
  EXPECT_FALSE(verify(*registered, r2, sectors));
  auto s2 = sectors;
  s2[0].id += 1;
  EXPECT_FALSE(verify(*registered, randomness, s2));
  auto s3 = sectors;
  s3[0].comm_r[0] ^= 1;
  EXPECT_FALSE(verify(*registered, randomness, s3));
  // For the first sector of partition 0 the API 1.0 rule draws the same indices (0..9); a second
  // sector's would differ (index 10.. under API 1.0), so the rules are not interchangeable.
  EXPECT_TRUE(verify(*find_registered_post_proof("StackedDrgWindow2KiBV1"), randomness, sectors));
  auto two = sectors;
  two.push_back({sectors[0].id + 1, sectors[0].comm_r});
  const auto v12 = fallback_post_public_inputs(*registered, randomness, two, 0);
  const auto v10 = fallback_post_public_inputs(*find_registered_post_proof("StackedDrgWindow2KiBV1"), randomness, two, 0);
  ASSERT_TRUE(v12.ok() && v10.ok());
  EXPECT_TRUE(std::equal(v12->begin(), v12->begin() + 11, v10->begin()));
  EXPECT_FALSE(std::equal(v12->begin() + 11, v12->end(), v10->begin() + 11));
}

}  // namespace
}  // namespace zk::circuits::filecoin
