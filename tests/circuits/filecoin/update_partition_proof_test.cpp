// SnapDeals' input: the bincode PartitionProof (storage-proofs-update vanilla.rs). A sealed 2 KiB
// sector updated in memory gives a partition proof of the size the layout predicts (15,064 bytes),
// which parses and writes back byte for byte, checks natively, and whose witness satisfies the
// EmptySectorUpdate circuit with the inputs update_public_inputs derives; tampered bytes are
// refused naming the field. 16 KiB (Sub tree R, two partitions) and 32 KiB (Top) proofs too.

#include <gtest/gtest.h>

#include <string>

#include "circuits/filecoin/update/partition_proof.hpp"
#include "r1cs/test_cs.hpp"
#include "sealed_sector.hpp"
#include "test_util.hpp"

namespace zk::circuits::filecoin {
namespace {

constexpr std::uint64_t kKiB = 1024;

UpdateShape shape_of(std::uint64_t bytes) {
  auto s = update_shape(bytes);
  EXPECT_TRUE(s.ok()) << s.status().to_string();
  return *s;
}

std::vector<Fr> random_fr32(Rng& rng, std::size_t n) {
  std::vector<Fr> v;
  for (std::size_t i = 0; i < n; ++i) {
    std::array<std::uint8_t, 32> b{};
    for (auto& x : b) x = static_cast<std::uint8_t>(rng.next());
    b[31] &= 0x3f;
    v.push_back(*Fr::from_bytes(b, field::Endian::kLittle));
  }
  return v;
}

/// The error of parsing `bytes` then verifying them for partition k of `u` ("" when both pass).
std::string refusal(const UpdateShape& s, const UpdatedSector& u, unsigned k, const std::vector<std::uint8_t>& bytes) {
  auto p = parse_update_partition_proof(bytes, s);
  if (!p.ok()) return p.status().to_string();
  const Status st = verify_update_partition_proof(s, k, u.h, u.comm_r_old, u.comm_d_new, u.comm_r_new, *p);
  return st.ok() ? "" : st.to_string();
}

TEST(UpdatePartitionProof, SizesFollowTheLayout) {
  // docs/filecoin-post.md: 2 KiB 15,064 bytes, 32 GiB 561,768 per partition.
  EXPECT_EQ(update_partition_proof_size(shape_of(2 * kKiB)), 15'064u);
  EXPECT_EQ(update_partition_proof_size(shape_of(32 * kKiB * kKiB * kKiB)), 561'768u);
  // By hand from the layout: 4,144 bytes of comm_c, apex leaves and lengths, then per challenge
  // two tree R proofs (4 + 64 + 8 per path part + per level 16 + 32 (arity - 1)) and one tree D
  // proof (76 + 48 per level). 8 MiB: 10 x (2 x 1,516 + 940); 512 MiB: 86 x (2 x 1,996 + 1,228);
  // 64 GiB (8-8-2, a Top proof): 86 x (2 x 2,540 + 1,564).
  EXPECT_EQ(update_partition_proof_size(shape_of(8 * kKiB * kKiB)), 43'864u);
  EXPECT_EQ(update_partition_proof_size(shape_of(512 * kKiB * kKiB)), 453'064u);
  EXPECT_EQ(update_partition_proof_size(shape_of(64 * kKiB * kKiB * kKiB)), 575'528u);
}

class SealedTwoKibUpdate : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto rng = zk::test::rng(1804);
    const auto sealed = test::seal_random_two_kib(rng, 43);
    ASSERT_TRUE(sealed.sector.has_value());
    std::vector<Fr> replica_old;
    for (const auto& node : sealed.sector->replica.replica) replica_old.push_back(*Fr::from_bytes(node, field::Endian::kLittle));
    const Fr comm_c = *Fr::from_bytes(sealed.sector->replica.comm_c, field::Endian::kLittle);
    const UpdateShape s = shape_of(2 * kKiB);
    auto u = update_in_memory(s, update_h_default(s), comm_c, replica_old, random_fr32(rng, s.nodes));
    ASSERT_TRUE(u.ok()) << u.status().to_string();
    ASSERT_EQ(u->comm_r_old, *Fr::from_bytes(sealed.sector->replica.comm_r, field::Endian::kLittle));
    update_ = new UpdatedSector(std::move(*u));
  }
  static void TearDownTestSuite() {
    delete update_;
    update_ = nullptr;
  }
  static inline UpdatedSector* update_ = nullptr;
  const UpdateShape s = shape_of(2 * kKiB);
};

TEST_F(SealedTwoKibUpdate, ProofRoundTripsChecksAndItsWitnessSatisfiesTheCircuit) {
  ASSERT_NE(update_, nullptr);
  const UpdatedSector& u = *update_;
  auto p = make_update_partition_proof(s, u, 0);
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  const auto bytes = update_partition_proof_bytes(*p);
  EXPECT_EQ(bytes.size(), 15'064u);
  auto parsed = parse_update_partition_proof(bytes, s);
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  EXPECT_EQ(update_partition_proof_bytes(*parsed), bytes);
  EXPECT_EQ(refusal(s, u, 0, bytes), "");

  auto w = update_witness_from_proof(s, 0, u.h, u.comm_r_old, u.comm_d_new, u.comm_r_new, *parsed);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  r1cs::TestSystem<Fr> cs;
  const Status st = synthesize_update(cs, s, *w);
  ASSERT_TRUE(st.ok()) << st.to_string();
  EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
  auto pub = update_public_inputs(s, 0, u.h, u.comm_r_old, u.comm_d_new, u.comm_r_new);
  ASSERT_TRUE(pub.ok());
  ASSERT_EQ(cs.inputs().size(), pub->size() + 1);
  for (std::size_t i = 0; i < pub->size(); ++i) EXPECT_EQ(cs.inputs()[i + 1], (*pub)[i]) << "input " << i;
}

TEST_F(SealedTwoKibUpdate, WrongPublicValuesAreRefused) {
  ASSERT_NE(update_, nullptr);
  const UpdatedSector& u = *update_;
  auto p = make_update_partition_proof(s, u, 0);
  ASSERT_TRUE(p.ok());
  const Fr one = Fr::one();
  auto verify = [&](unsigned k, const Fr& r_old, const Fr& d_new, const Fr& r_new) {
    return verify_update_partition_proof(s, k, u.h, r_old, d_new, r_new, *p).to_string();
  };
  EXPECT_NE(verify(0, u.comm_r_old + one, u.comm_d_new, u.comm_r_new).find("comm_r_old is not Poseidon"), std::string::npos);
  EXPECT_NE(verify(0, u.comm_r_old, u.comm_d_new, u.comm_r_new + one).find("comm_r_new"), std::string::npos);
  EXPECT_NE(verify(0, u.comm_r_old, u.comm_d_new + one, u.comm_r_new).find("comm_d_new"), std::string::npos);
  EXPECT_FALSE(verify_update_partition_proof(s, 1, u.h, u.comm_r_old, u.comm_d_new, u.comm_r_new, *p).ok());  // one partition
  EXPECT_FALSE(verify_update_partition_proof(s, 0, 10, u.comm_r_old, u.comm_d_new, u.comm_r_new, *p).ok());  // h not allowed
  // Two challenge proofs of different leaves swapped: the leaf indices no longer match the challenges.
  const auto c = update_challenges(s, u.comm_r_new, 0);
  std::size_t other = 1;
  while (other + 1 < c.size() && c[other] == c[0]) ++other;
  ASSERT_NE(c[other], c[0]);
  auto swapped = *p;
  std::swap(swapped.challenge_proofs[0], swapped.challenge_proofs[other]);
  const std::string e = verify_update_partition_proof(s, 0, u.h, u.comm_r_old, u.comm_d_new, u.comm_r_new, swapped).to_string();
  EXPECT_NE(e.find("challenge_proofs[0].proof_r_old: proves leaf"), std::string::npos) << e;
}

TEST_F(SealedTwoKibUpdate, TamperedBytesAreRefusedNamingTheField) {
  ASSERT_NE(update_, nullptr);
  const UpdatedSector& u = *update_;
  auto p = make_update_partition_proof(s, u, 0);
  ASSERT_TRUE(p.ok());
  const auto good = update_partition_proof_bytes(*p);
  // Offsets: comm_c 0, apex_leafs length 32, leaves 40 + 32 j, challenge_proofs length 296, then
  // 1,476 bytes per challenge: proof_r_old (Single: tag 4, root, leaf, path length, level 0's
  // hash count, its 7 hashes ...; 556 bytes), proof_d_new (364), proof_r_new (556).
  constexpr std::size_t kChallenges = 304, kPerChallenge = 1476, kFirstHash = 4 + 32 + 32 + 8 + 8;
  auto flipped = [&](std::size_t at) {
    auto b = good;
    b[at] ^= 1;  // the low byte: still a canonical field element
    return b;
  };
  auto expect_refused = [&](const std::vector<std::uint8_t>& b, const std::string& field) {
    const std::string e = refusal(s, u, 0, b);
    EXPECT_NE(e.find(field), std::string::npos) << "expected '" << field << "' in: " << e;
  };
  expect_refused(flipped(kChallenges + 2 * kPerChallenge + kFirstHash + 32), "challenge_proofs[2].proof_r_old");
  expect_refused(flipped(kChallenges + 4 * kPerChallenge + 556 + kFirstHash), "challenge_proofs[4].proof_d_new");
  expect_refused(flipped(kChallenges + 9 * kPerChallenge + 556 + 364 + 4 + 32), "challenge_proofs[9].proof_r_new");
  expect_refused(flipped(0), "comm_c");
  expect_refused(flipped(40 + 5 * 32), "apex_leafs");
  // Framing.
  expect_refused(std::vector<std::uint8_t>(good.begin(), good.end() - 1), "challenge_proofs[9].proof_r_new.path");
  expect_refused(std::vector<std::uint8_t>(good.begin(), good.end() - 1),
                 "challenge_proofs[9].proof_r_new.path[1].index: truncated at byte 15056 (8 bytes needed, 7 left)");
  auto longer = good;
  longer.push_back(0);
  expect_refused(longer, "1 bytes after the PartitionProof (at byte 15064)");
  auto tag = good;
  tag[kChallenges + kPerChallenge + 556] = 7;
  expect_refused(tag, "challenge_proofs[1].proof_d_new: unknown proof variant 7");
  auto huge = good;
  huge[32 + 5] = 1;  // apex_leafs length 2^40
  expect_refused(huge, "apex_leafs: length");
  auto nine = good;
  nine[296] = 9;  // 9 challenge proofs
  expect_refused(nine, "challenge_proofs: 9 proofs at byte 296");
  auto sub = good;
  sub[kChallenges] = 1;  // a Sub proof where 2 KiB's tree R has Single
  expect_refused(sub, "challenge_proofs[0].proof_r_old");
}

TEST(UpdatePartitionProof, AReplicaNotEncodedFromTheDataIsRefused) {
  // Every path valid and the apex leaves consistent, but tree D new holds other data than the
  // replica was encoded with: only the encoding check can tell.
  auto rng = zk::test::rng(1806);
  const UpdateShape s = shape_of(2 * kKiB);
  std::vector<Fr> replica_old;
  for (std::size_t i = 0; i < s.nodes; ++i) replica_old.push_back(Fr::random(rng));
  auto u = update_in_memory(s, update_h_default(s), Fr::random(rng), replica_old, random_fr32(rng, s.nodes));
  ASSERT_TRUE(u.ok()) << u.status().to_string();
  u->data_new = random_fr32(rng, s.nodes);
  auto tree_d = gadgets::FilecoinTree::build(s.tree_d, u->data_new);
  ASSERT_TRUE(tree_d.ok());
  u->comm_d_new = tree_d->root();
  u->tree_d_new = std::move(*tree_d);
  auto p = make_update_partition_proof(s, *u, 0);
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  const std::string e = refusal(s, *u, 0, update_partition_proof_bytes(*p));
  EXPECT_NE(e.find("challenge_proofs[0].proof_r_new.leaf: not proof_r_old.leaf + proof_d_new.leaf * rho"), std::string::npos) << e;
}

TEST(UpdatePartitionProof, SubAndTopTreesAndTheSecondPartition) {
  auto rng = zk::test::rng(1805);
  for (const std::uint64_t bytes : {16 * kKiB, 32 * kKiB}) {
    const UpdateShape s = shape_of(bytes);
    ASSERT_EQ(s.partitions, 2u);
    std::vector<Fr> replica_old;
    for (std::size_t i = 0; i < s.nodes; ++i) replica_old.push_back(Fr::random(rng));
    auto u = update_in_memory(s, update_h_default(s), Fr::random(rng), replica_old, random_fr32(rng, s.nodes));
    ASSERT_TRUE(u.ok()) << u.status().to_string();
    for (unsigned k = 0; k < 2; ++k) {
      auto p = make_update_partition_proof(s, *u, k);
      ASSERT_TRUE(p.ok()) << p.status().to_string();
      const auto b = update_partition_proof_bytes(*p);
      EXPECT_EQ(b.size(), update_partition_proof_size(s)) << bytes << " bytes, partition " << k;
      auto parsed = parse_update_partition_proof(b, s);
      ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
      EXPECT_EQ(update_partition_proof_bytes(*parsed), b);
      EXPECT_EQ(refusal(s, *u, k, b), "") << bytes << " bytes, partition " << k;
      EXPECT_NE(refusal(s, *u, 1 - k, b), "") << "partition " << k << "'s proof checked as " << 1 - k << "'s";
      auto w = update_witness_from_proof(s, k, u->h, u->comm_r_old, u->comm_d_new, u->comm_r_new, *parsed);
      ASSERT_TRUE(w.ok()) << w.status().to_string();
    }
  }
}

}  // namespace
}  // namespace zk::circuits::filecoin
