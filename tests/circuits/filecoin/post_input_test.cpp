// A PoSt partition to prove (post_input.hpp): vanilla proofs made from 2 KiB sectors sealed here,
// written as zkpipe's PoSt input JSON and read back; checked natively; their witness satisfies the
// exact FallbackPoSt circuit with the partition's public inputs (WindowPoSt under API 1.0 and 1.2,
// one sector short of a full partition and full; WinningPoSt). Another randomness, another
// partition index under API 1.0, a repeated sector, too many sectors and malformed JSON are refused
// with the field named.

#include <gtest/gtest.h>

#include "base/base64.hpp"
#include "circuits/filecoin/post/post_input.hpp"
#include "r1cs/test_cs.hpp"
#include "sealed_sector.hpp"
#include "test_util.hpp"

namespace zk::circuits::filecoin {
namespace {

struct Sectors {
  test::SealedTwoKib a, b;
};

const Sectors& sectors() {
  static const Sectors s = [] {
    auto rng = zk::test::rng(181);
    return Sectors{test::seal_random_two_kib(rng, 11), test::seal_random_two_kib(rng, 12)};
  }();
  return s;
}

std::array<std::uint8_t, 32> randomness(std::uint8_t v) {
  std::array<std::uint8_t, 32> r{};
  r.fill(v);
  r[31] &= 0x3f;
  return r;
}

PostInput make_input(const std::string& proof_name, std::uint64_t partition, bool both, std::uint8_t rand = 5) {
  PostInput in;
  in.proof = *find_registered_post_proof(proof_name);
  in.randomness = randomness(rand);
  in.partition = partition;
  const auto& s = sectors();
  std::vector<const test::SealedTwoKib*> list{&s.a};
  if (both) list.push_back(&s.b);
  for (std::size_t i = 0; i < list.size(); ++i) {
    auto p = make_post_sector_proof(in.proof, in.randomness, list[i]->in.sector_id, list[i]->shape, *list[i]->sector,
                                    static_cast<std::size_t>(partition * in.proof.sector_count + i));
    EXPECT_TRUE(p.ok()) << p.status().to_string();
    in.sectors.push_back(std::move(*p));
  }
  return in;
}

void expect_satisfied(const PostInput& in) {
  ASSERT_TRUE(check_post_input(in).ok()) << check_post_input(in).to_string();
  auto w = post_witness(in);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  r1cs::TestSystem<Fr> cs;
  ASSERT_TRUE(synthesize_fallback(cs, fallback_shape(in.proof), *w).ok());
  EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
  auto pub = post_public_inputs(in);
  ASSERT_TRUE(pub.ok()) << pub.status().to_string();
  ASSERT_EQ(cs.inputs().size(), pub->size() + 1);
  ASSERT_EQ(pub->size() + 1, fallback_shape(in.proof).num_inputs());
  for (std::size_t i = 0; i < pub->size(); ++i) EXPECT_EQ(cs.inputs()[i + 1], (*pub)[i]) << "input " << i;
}

TEST(PostInput, JsonRoundTripsExactly) {
  const auto in = make_input("StackedDrgWindow2KiBV1_2", 0, true);
  const std::string json = post_input_json(in);
  auto back = parse_post_input(json);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(post_input_json(*back), json);
  EXPECT_EQ(back->proof.id, 10u);
  // Names, keys in another order, unknown keys: all as serde would take them.
  const std::string reordered = "{\"vanilla_proofs\":[\"" + base64_encode(post_sector_proof_bytes(in.sectors[0])) +
                                "\"],\"note\":{\"x\":[1,2]},\"partition\":0,\"randomness\":\"" +
                                json.substr(json.find("\"randomness\":\"") + 14, 64) +
                                "\",\"registered_proof\":\"StackedDRGWindow2KiBV1P1\"}";
  auto r = parse_post_input(reordered);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(r->proof.id, 10u);
  EXPECT_EQ(r->sectors.size(), 1u);
}

TEST(PostInput, WindowPostPartitionsSatisfyTheCircuit) {
  expect_satisfied(make_input("StackedDrgWindow2KiBV1_2", 0, true));   // API 1.2, full partition
  expect_satisfied(make_input("StackedDrgWindow2KiBV1_2", 3, false));  // API 1.2, short, partition 3
  expect_satisfied(make_input("StackedDrgWindow2KiBV1", 2, true));     // API 1.0: indices from the partition
}

TEST(PostInput, WinningPostSatisfiesTheCircuit) {
  const auto in = make_input("StackedDrgWinning2KiBV1", 0, false);
  ASSERT_EQ(in.sectors.front().inclusion_proofs.size(), 66u);
  expect_satisfied(in);
}

TEST(PostInput, WrongValuesAreRefusedNamingTheSector) {
  // Proofs made for one randomness do not pass under another.
  auto in = make_input("StackedDrgWindow2KiBV1_2", 0, true);
  in.randomness = randomness(6);
  Status st = check_post_input(in);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("vanilla_proofs[0]: sector 11"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("randomness challenges leaf"), std::string::npos) << st.message();
  // Under API 1.0 the partition index is part of the challenge.
  auto v1 = make_input("StackedDrgWindow2KiBV1", 2, true);
  v1.partition = 1;
  EXPECT_FALSE(check_post_input(v1).ok());
  // The same sector twice; a winning proof with a partition index.
  auto twice = make_input("StackedDrgWindow2KiBV1_2", 0, true);
  twice.sectors[1] = twice.sectors[0];
  EXPECT_NE(check_post_input(twice).message().find("appears twice"), std::string::npos);
  auto winning = make_input("StackedDrgWinning2KiBV1", 0, false);
  winning.partition = 1;
  EXPECT_FALSE(check_post_input(winning).ok());
  // Randomness that is no field element, as filecoin-proofs' as_safe_commitment refuses it.
  auto unsafe = make_input("StackedDrgWindow2KiBV1_2", 0, false);
  unsafe.randomness.fill(0xff);
  EXPECT_NE(check_post_input(unsafe).message().find("randomness is not a field element"), std::string::npos);
}

TEST(PostInput, MalformedJsonIsRefusedNamingTheField) {
  const auto in = make_input("StackedDrgWindow2KiBV1_2", 0, true);
  const std::string good = post_input_json(in);
  auto err = [](const std::string& text) { return parse_post_input(text).status().message(); };
  EXPECT_NE(err("[]").find("JSON object"), std::string::npos);
  EXPECT_NE(err("{\"randomness\":\"00\"}").find("randomness"), std::string::npos);
  EXPECT_NE(err("{\"registered_proof\":99}").find("registered_proof"), std::string::npos);
  std::string no_proofs = good.substr(0, good.find(",\"vanilla_proofs\"")) + "}";
  EXPECT_NE(err(no_proofs).find("vanilla_proofs is missing"), std::string::npos);
  std::string bad_b64 = good;
  bad_b64.replace(bad_b64.find("[\"") + 2, 4, "!!!!");
  EXPECT_NE(err(bad_b64).find("vanilla_proofs[0]"), std::string::npos);
  // Three sectors for a two-sector partition.
  const std::string one = base64_encode(post_sector_proof_bytes(in.sectors[0]));
  std::string three = good.substr(0, good.find("[\"")) + "[\"" + one + "\",\"" + one + "\",\"" + one + "\"]}";
  EXPECT_NE(err(three).find("1 to 2"), std::string::npos) << err(three);
  std::string dup = good;
  dup.insert(1, "\"partition\":1,");
  EXPECT_NE(err(dup).find("duplicate key"), std::string::npos);
}

}  // namespace
}  // namespace zk::circuits::filecoin
