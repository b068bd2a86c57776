// FallbackPoSt's public inputs (WindowPoSt, WinningPoSt) as storage-proofs-post derives them: the
// real 2 KiB WindowPoSt proof of ../shared/testdata/filecoin/polka_2kib_window_post.json verifies
// from (randomness, sector number, comm_r) and fails for any changed value or the API 1.0 rule;
// the input counts of the production partitions match rust-fil-proofs' pins.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>

#include "circuits/filecoin/post/fallback_circuit.hpp"
#include "circuits/filecoin/post/fallback_post.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/test_cs.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "sealed_sector.hpp"
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

TEST(FallbackPoStCircuit, CountsMatchRustFilProofsTestPins) {
  // storage-proofs-post's tests: base trees of 64 leaves, 5 challenges per sector; (3 sectors per
  // partition) with trees 8 / 8-4 / 8-4-2, and 2 sectors per partition with tree 8.
  struct Pin {
    std::vector<unsigned> arities;
    unsigned sectors;
    std::size_t constraints, inputs;
  };
  const Pin pins[] = {{{8, 8}, 3, 16'869, 19}, {{8, 8, 4}, 3, 22'674, 19}, {{8, 8, 4, 2}, 3, 27'384, 19},
                      {{8, 8}, 2, 11'246, 13}};
  for (const auto& p : pins) {
    const FallbackShape s{{gadgets::TreeHasher::kPoseidon, p.arities}, p.sectors, 5};
    r1cs::MetricsSystem<Fr> m;
    ASSERT_TRUE(synthesize_fallback(m, s, FallbackWitness::blank(s)).ok());
    EXPECT_EQ(m.num_constraints(), p.constraints) << p.arities.size() << " levels, " << p.sectors << " sectors";
    EXPECT_EQ(m.num_inputs(), p.inputs);
    EXPECT_EQ(s.num_inputs(), p.inputs);
  }
  // WinningPoSt 32 GiB (circuitinfo): 370,590 constraints, 133 inputs.
  const FallbackShape winning = fallback_shape(*find_registered_post_proof("StackedDrgWinning32GiBV1"));
  r1cs::MetricsSystem<Fr> m;
  ASSERT_TRUE(synthesize_fallback(m, winning, FallbackWitness::blank(winning)).ok());
  EXPECT_EQ(m.num_constraints(), 370'590u);
  EXPECT_EQ(m.num_inputs(), 133u);
}

TEST(FallbackPoStCircuit, ASealedTwoKibSectorSatisfiesItWithTheDerivedInputs) {
  auto rng = zk::test::rng(181);
  const auto sealed = test::seal_random_two_kib(rng, 77);
  ASSERT_TRUE(sealed.sector.has_value());
  const auto proof = *find_registered_post_proof("StackedDrgWindow2KiBV1_2");
  const FallbackShape s = fallback_shape(proof);
  std::array<std::uint8_t, 32> randomness{};
  randomness.fill(5);
  const PoStSector sector{77, sealed.sector->replica.comm_r};
  // Witness: the sector's challenged replica leaves and their paths, the last sector repeated.
  FallbackSectorWitness sw;
  sw.comm_r = *Fr::from_bytes(sealed.sector->replica.comm_r, field::Endian::kLittle);
  sw.comm_c = *Fr::from_bytes(sealed.sector->replica.comm_c, field::Endian::kLittle);
  sw.comm_r_last = sealed.sector->tree_r.root();
  for (std::uint64_t n = 0; n < s.challenges; ++n) {
    const auto leaf = post_leaf_challenge(randomness, 77, n, proof.size.bytes / 32);
    sw.leaves.push_back(*Fr::from_bytes(sealed.sector->replica.replica[leaf], field::Endian::kLittle));
    sw.paths.push_back(sealed.sector->tree_r.path(leaf));
  }
  FallbackWitness w;
  w.sectors.assign(s.sectors, sw);
  r1cs::TestSystem<Fr> cs;
  ASSERT_TRUE(synthesize_fallback(cs, s, w).ok());
  EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
  const std::vector<PoStSector> sectors = {sector};
  auto pub = fallback_post_public_inputs(proof, randomness, sectors, 0);
  ASSERT_TRUE(pub.ok());
  ASSERT_EQ(cs.inputs().size(), pub->size() + 1);
  for (std::size_t i = 0; i < pub->size(); ++i) EXPECT_EQ(cs.inputs()[i + 1], (*pub)[i]) << "input " << i;
  // Groth16 end to end with development keys: the proof verifies with the derived inputs only.
  r1cs::ShapeRecorder<Fr> rec;
  ASSERT_TRUE(synthesize_fallback(rec, s, FallbackWitness::blank(s)).ok());
  auto pk = groth16::generate_parameters<groth16::Bls12_381>(rec.shape(), groth16::Trapdoor<groth16::Bls12_381>::random(rng));
  ASSERT_TRUE(pk.ok());
  r1cs::ProvingSystem<Fr> ps({.inputs = pk->vk.ic.size(), .aux = pk->l.size(), .constraints = 0});
  ASSERT_TRUE(synthesize_fallback(ps, s, w).ok());
  auto groth = groth16::prove(*pk, std::move(ps).finish(), Fr::random(rng), Fr::random(rng));
  ASSERT_TRUE(groth.ok());
  const auto pvk = groth16::prepare_verifying_key(pk->vk);
  EXPECT_TRUE(*groth16::verify(pvk, *groth, *pub));
  auto other = fallback_post_public_inputs(proof, randomness, std::vector<PoStSector>{{78, sector.comm_r}}, 0);
  EXPECT_FALSE(*groth16::verify(pvk, *groth, *other));
  // A wrong leaf breaks it.
  auto bad = w;
  bad.sectors[1].leaves[3] = bad.sectors[1].leaves[3] + Fr::one();
  r1cs::TestSystem<Fr> t;
  ASSERT_TRUE(synthesize_fallback(t, s, bad).ok());
  EXPECT_FALSE(t.is_satisfied());
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

TEST(FallbackPoSt, TheSectorsNamedDecideThePartitionsAVerifierNeeds) {
  std::array<std::uint8_t, 32> randomness{};
  randomness.fill(9);
  const auto window = *find_registered_post_proof("StackedDrgWindow2KiBV1_2");  // 2 sectors per partition
  const auto window10 = *find_registered_post_proof("StackedDrgWindow2KiBV1");  // API 1.0
  const auto winning = *find_registered_post_proof("StackedDrgWinning2KiBV1");
  std::vector<PoStSector> sectors;
  for (std::uint64_t id : {40, 41, 42}) sectors.push_back({id, bytes32(std::string(62, '0') + "0" + std::to_string(id % 10))});
  auto all = post_partitions(window, randomness, sectors);
  ASSERT_TRUE(all.ok()) << all.status().to_string();
  ASSERT_EQ(all->size(), 2u);  // ceil(3 / 2)
  EXPECT_EQ((*all)[0].index, 0u);
  EXPECT_EQ((*all)[0].sectors, 2u);
  EXPECT_EQ((*all)[1].first_sector, 2u);
  EXPECT_EQ((*all)[1].sectors, 1u);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ((*all)[k].inputs, *fallback_post_public_inputs(window, randomness, sectors, k)) << k;
  }
  // One partition alone: the same inputs as in the whole list (API 1.0 counts positions).
  for (const auto& p : {window, window10}) {
    auto whole = post_partitions(p, randomness, sectors);
    auto one = post_partitions(p, randomness, sectors, 1);
    ASSERT_TRUE(whole.ok() && one.ok());
    ASSERT_EQ(one->size(), 1u);
    EXPECT_EQ((*one)[0].index, 1u);
    EXPECT_EQ((*one)[0].inputs, (*whole)[1].inputs);
  }
  auto past = post_partitions(window, randomness, sectors, 2);
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.status().message().find("partition 2 does not exist"), std::string::npos) << past.status().message();
  // A sector named twice, anywhere: refused, both places named.
  auto twice = sectors;
  twice.push_back(sectors[0]);
  auto dup = post_partitions(window, randomness, twice);
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.status().message().find("sector 40 is named twice (sectors 1 and 4)"), std::string::npos)
      << dup.status().message();
  EXPECT_FALSE(post_partitions(window, randomness, std::vector<PoStSector>{}).ok());
  // WinningPoSt: exactly one sector, one partition.
  auto w1 = post_partitions(winning, randomness, std::span(sectors).first(1));
  ASSERT_TRUE(w1.ok());
  EXPECT_EQ(w1->size(), 1u);
  EXPECT_EQ((*w1)[0].inputs, *fallback_post_public_inputs(winning, randomness, std::span(sectors).first(1), 0));
  EXPECT_FALSE(post_partitions(winning, randomness, sectors).ok());
  EXPECT_FALSE(post_partitions(winning, randomness, std::span(sectors).first(1), 1).ok());
}

TEST(FallbackPoSt, ASectorIsNamedStrictly) {
  const std::string comm(64, '0');
  auto ok = parse_post_sector("77:" + comm);
  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
  EXPECT_EQ(ok->id, 77u);
  for (const std::string bad : {"-18446744073709551615", "+77", " 77", "77 ", "0x4d", "", "18446744073709551616"}) {
    auto v = parse_post_sector(bad + ":" + comm);
    ASSERT_FALSE(v.ok()) << "'" << bad << "' read as " << v->id;
    EXPECT_NE(v.status().message().find("sector number"), std::string::npos) << v.status().message();
  }
  EXPECT_FALSE(parse_post_sector("77").ok());
  EXPECT_FALSE(parse_post_sector("77:zz").ok());
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
