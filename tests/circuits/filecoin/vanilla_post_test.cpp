// A real 32 GiB WindowPoSt vanilla proof (Curio's golden fixture, tests/data/filecoin/README.md):
// parsed from its bincode bytes and written back byte for byte, its comm_r equal to the sector's
// CID, checked natively against the challenges its randomness derives, and its witness satisfying
// the FallbackPoSt circuit (one sector of the 2,349 of a production partition) with the inputs of
// the public values. Damage is refused with the field named.

#include <gtest/gtest.h>

#include "circuits/filecoin/commitment.hpp"
#include "circuits/filecoin/post/vanilla_post.hpp"
#include "r1cs/test_cs.hpp"
#include "test_util.hpp"

namespace zk::circuits::filecoin {
namespace {

std::vector<std::uint8_t> fixture() { return zk::test::read_file(zk::test::data_dir() / "filecoin" / "curio-post-32gib.vproof"); }

TEST(PostVanilla, CuriosGoldenProofParsesAndWritesBackUnchanged) {
  const auto bytes = fixture();
  ASSERT_EQ(bytes.size(), 24'960u);
  auto p = parse_post_sector_proof(bytes);
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  EXPECT_EQ(p->sector_id, 1u);
  ASSERT_EQ(p->inclusion_proofs.size(), 10u);
  EXPECT_EQ(p->inclusion_proofs[0].kind, MerkleProof::Kind::kSub);
  EXPECT_EQ(p->inclusion_proofs[0].base.size(), 9u);
  EXPECT_EQ(post_sector_proof_bytes(*p), bytes);
  // comm_r is the sector's sealed CID from the companion postpub.json.
  auto cid = parse_commitment("bagboea4b5abcbx3jccdohrttzfneleehcpkmle4oltwuh4q3rcf5tpdodaoj6mtl", CommitmentKind::kSealed);
  ASSERT_TRUE(cid.ok());
  EXPECT_EQ(*cid, p->comm_r);
}

TEST(PostVanilla, CuriosGoldenProofChecksAgainstItsRandomnessAndSatisfiesTheCircuit) {
  auto p = parse_post_sector_proof(fixture());
  ASSERT_TRUE(p.ok());
  const auto window_v1 = *find_registered_post_proof("8");
  ASSERT_EQ(window_v1.name, "StackedDrgWindow32GiBV1");
  const std::array<std::uint8_t, 32> zeros{};
  ASSERT_TRUE(verify_post_sector_proof(window_v1, zeros, *p, 0).ok())
      << verify_post_sector_proof(window_v1, zeros, *p, 0).to_string();
  // Another randomness, or the same sector at position 1 under API 1.0, challenges other leaves.
  auto other = zeros;
  other[0] = 1;
  const Status bad_randomness = verify_post_sector_proof(window_v1, other, *p, 0);
  EXPECT_NE(bad_randomness.message().find("the randomness challenges leaf"), std::string::npos) << bad_randomness.to_string();
  EXPECT_FALSE(verify_post_sector_proof(window_v1, zeros, *p, 1).ok());
  // The witness satisfies the circuit reduced to this one sector; its inputs are the first 11 of
  // the production partition's (2,349 sectors, the last one repeated).
  auto w = post_sector_witness(window_v1, *p);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  FallbackShape one = fallback_shape(window_v1);
  one.sectors = 1;
  FallbackWitness fw;
  fw.sectors.push_back(*w);
  r1cs::TestSystem<Fr> cs;
  ASSERT_TRUE(synthesize_fallback(cs, one, fw).ok());
  EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
  EXPECT_EQ(cs.num_constraints(), 53'333u);  // 125,279,217 / 2,349 sectors
  const std::vector<PoStSector> sectors = {{p->sector_id, p->comm_r}};
  auto pub = fallback_post_public_inputs(window_v1, zeros, sectors, 0);
  ASSERT_TRUE(pub.ok());
  ASSERT_EQ(cs.inputs().size(), 12u);
  for (std::size_t i = 0; i < 11; ++i) EXPECT_EQ(cs.inputs()[i + 1], (*pub)[i]) << "input " << i;
}

TEST(PostVanilla, DamageIsRefusedWithTheFieldNamed) {
  const auto bytes = fixture();
  const auto window_v1 = *find_registered_post_proof("8");
  const std::array<std::uint8_t, 32> zeros{};
  auto check = [&](std::vector<std::uint8_t> b) -> Status {
    auto p = parse_post_sector_proof(b);
    if (!p.ok()) return p.status();
    return verify_post_sector_proof(window_v1, zeros, *p, 0);
  };
  // A sibling hash of inclusion proof 3 (base level 2): 56 + 3 * 2484 + 4 + 8 + 2 * 240 + 8.
  auto b = bytes;
  b[56 + 3 * 2484 + 4 + 8 + 2 * 240 + 8 + 5] ^= 1;
  Status st = check(b);
  EXPECT_NE(st.message().find("inclusion_proofs[3]"), std::string::npos) << st.to_string();
  // comm_c.
  b = bytes;
  b[bytes.size() - 64] ^= 1;
  st = check(b);
  EXPECT_NE(st.message().find("comm_r is not Poseidon"), std::string::npos) << st.to_string();
  // A trailing byte, an impossible length, an unknown variant, every truncation.
  b = bytes;
  b.push_back(0);
  EXPECT_NE(check(b).message().find("after the proof"), std::string::npos);
  b = bytes;
  b[48 + 7] = 0x7f;  // inclusion_proofs length
  EXPECT_NE(check(b).message().find("more than the input can hold"), std::string::npos);
  b = bytes;
  b[56] = 9;
  EXPECT_NE(check(b).message().find("unknown proof variant"), std::string::npos);
  for (std::size_t cut = 0; cut < bytes.size(); cut += 97) {
    EXPECT_FALSE(parse_post_sector_proof(std::span(bytes).first(cut)).ok()) << cut;
  }
}

}  // namespace
}  // namespace zk::circuits::filecoin
