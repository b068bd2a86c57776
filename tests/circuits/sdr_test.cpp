// SDR against rust-fil-proofs' own reference values (docs/porep-spec.md, "Test vectors"): the
// production parent-cache digests of the 2 KiB graphs (V1_0 and V1_1) and the four last-layer
// labels of its test_create_labels; plus challenge values from an independent Python port.

#include <gtest/gtest.h>

#include <openssl/sha.h>

#include "circuits/sdr.hpp"

namespace zk::circuits::sdr {
namespace {

std::string hex(const std::uint8_t* b, std::size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += std::string{d[b[i] >> 4], d[b[i] & 15]};
  return s;
}

std::string parent_cache_digest(const ParentGraph& g) {
  std::vector<std::uint8_t> bytes;
  for (std::uint64_t i = 0; i < g.nodes(); ++i) {
    std::vector<std::uint64_t> ps;
    for (auto p : g.base_parents(i)) ps.push_back(p);
    for (auto p : g.expander_parents(i)) ps.push_back(p);
    for (auto p : ps) {
      for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<std::uint8_t>(p >> (8 * b)));
    }
  }
  std::uint8_t d[32];
  SHA256(bytes.data(), bytes.size(), d);
  return hex(d, 32);
}

TEST(Sdr, ParentGraphsMatchFilecoinsParentCacheDigests) {
  auto v1_0 = ParentGraph::create(64, porep_id(0), /*legacy_v1_0=*/true);
  auto v1_1 = ParentGraph::create(64, porep_id(5), /*legacy_v1_0=*/false);
  ASSERT_TRUE(v1_0.ok() && v1_1.ok());
  EXPECT_EQ(parent_cache_digest(*v1_0), "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d");
  EXPECT_EQ(parent_cache_digest(*v1_1), "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97");
  using B = std::vector<std::uint64_t>;
  using X = std::vector<std::uint64_t>;
  EXPECT_EQ(v1_0->base_parents(63), (B{62, 61, 56, 62, 37, 62}));
  EXPECT_EQ(v1_0->expander_parents(63), (X{49, 37, 35, 41, 52, 50, 54, 5}));
  EXPECT_EQ(v1_1->base_parents(2), (B{1, 1, 1, 0, 1, 0}));
  EXPECT_EQ(v1_1->expander_parents(2), (X{30, 28, 55, 63, 63, 36, 37, 36}));
  EXPECT_EQ(v1_1->base_parents(0), (B(6, 0)));
}

std::string limbs_hex(const Bytes32& label) {
  // Four u64 limbs, little-endian, printed most significant hex digit first per limb.
  std::string out;
  for (int k = 0; k < 4; ++k) {
    std::uint64_t v = 0;
    for (int b = 7; b >= 0; --b) v = (v << 8) | label[static_cast<std::size_t>(8 * k + b)];
    char buf[17];
    std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
    if (k > 0) out += ' ';
    out += buf;
  }
  return out;
}

TEST(Sdr, LabelsMatchRustFilProofsTestCreateLabels) {
  Bytes32 replica;
  replica.fill(0x09);
  struct Case {
    std::uint64_t nodes;
    std::uint8_t porep_byte;
    bool legacy;
    const char* expect;
  };
  const Case cases[] = {
      {64, 0x00, true, "d3faa96b9a0fba04 ea81a283d106485e e3d51b9afa5ac2b3 0462f4f4f1a68d37"},
      {128, 0x00, true, "7e191e52c4a8da86 5ae8a1c9e6fac148 ce239f3b88a894b8 234c00d1dc1d53be"},
      {64, 0x7b, false, "abb3f38bb70defcf 777a2e4d7769119f 3448959d495490bc 06021188c7a71cb5"},
      {128, 0x7b, false, "22ab81cf68c4676d 7a77a82fc7c9c189 c6c03d32c1e42d23 0f777c18cc2c55bd"},
  };
  for (const auto& c : cases) {
    Bytes32 pid;
    pid.fill(c.porep_byte);
    auto g = ParentGraph::create(c.nodes, pid, c.legacy);
    ASSERT_TRUE(g.ok());
    const auto layers = label_layers(*g, replica, 11);
    EXPECT_EQ(limbs_hex(layers.back().back()), c.expect) << c.nodes << " nodes";
  }
}

// rust-fil-proofs' own vector (storage-proofs-porep/src/stacked/vanilla/challenges.rs,
// test_synth_challenges_against_hardcoded, commit 87348a74): 1024 nodes, replica_id = Fr(55),
// comm_r = Fr(101), a set of 21, seed [1; 32], 10 challenges of partition 0 (one drawn twice).
TEST(Sdr, SyntheticChallengesMatchRustFilProofsHardcodedVector) {
  Bytes32 replica{}, comm_r{}, seed;
  replica[0] = 55, comm_r[0] = 101;
  seed.fill(1);
  auto synth = SyntheticChallenges::create(replica, comm_r, 1024, 21);
  ASSERT_TRUE(synth.ok()) << synth.status().to_string();
  const std::vector<std::uint64_t> set = {178, 297, 869, 211, 875, 477, 94, 781, 124, 332, 856,
                                          801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
  for (std::uint64_t i = 0; i < set.size(); ++i) EXPECT_EQ(synth->at(i), set[i]) << i;
  auto picked = synth->select(seed, 0, 10);
  ASSERT_TRUE(picked.ok());
  EXPECT_EQ(*picked, (std::vector<std::uint64_t>{176, 781, 801, 986, 290, 211, 692, 856, 986, 332}));
  // Partition k continues the selection stream: partitions of 5 give the same 10.
  auto first = synth->select(seed, 0, 5), second = synth->select(seed, 1, 5);
  ASSERT_TRUE(first.ok() && second.ok());
  first->insert(first->end(), second->begin(), second->end());
  EXPECT_EQ(*first, *picked);
  // Filecoin's set size: min(nodes, 2^18).
  EXPECT_EQ(SyntheticChallenges::create(replica, comm_r, 64)->count(), 64u);
  EXPECT_EQ(SyntheticChallenges::create(replica, comm_r, std::uint64_t{1} << 30)->count(), std::uint64_t{1} << 18);
}

TEST(Sdr, NonInteractiveChallengesComeFromCommRNotTheSeed) {
  Bytes32 replica, comm_r;
  replica.fill(3), comm_r.fill(4);
  const auto a = ni_challenges(replica, comm_r, std::uint64_t{1} << 30, 0, 36);
  ASSERT_EQ(a.size(), 36u);
  for (auto c : a) EXPECT_TRUE(c >= 1 && c < (std::uint64_t{1} << 30));
  // Partitions are consecutive slices of one stream.
  auto b = ni_challenges(replica, comm_r, std::uint64_t{1} << 30, 0, 18);
  const auto c = ni_challenges(replica, comm_r, std::uint64_t{1} << 30, 1, 18);
  b.insert(b.end(), c.begin(), c.end());
  EXPECT_EQ(a, b);
  comm_r[0] ^= 1;
  EXPECT_NE(ni_challenges(replica, comm_r, std::uint64_t{1} << 30, 0, 36), a);
  // Not the interactive derivation under any seed-like reading of comm_r.
  EXPECT_NE(challenges(replica, comm_r, std::uint64_t{1} << 30, 0, 36), a);
}

TEST(Sdr, ChallengesNeverHitNodeZero) {
  Bytes32 replica, seed;
  replica.fill(0x09);
  seed.fill(0x01);
  // Values from an independent Python port of rust-fil-proofs' derivation (no Rust reference exists).
  EXPECT_EQ(challenges(replica, seed, std::uint64_t{1} << 30, 0, 18)[0], 73073991u);
  EXPECT_EQ(challenges(replica, seed, std::uint64_t{1} << 30, 0, 18)[1], 260525585u);
  EXPECT_EQ(challenges(replica, seed, std::uint64_t{1} << 30, 1, 18)[0], 377806601u);
  for (auto c : challenges(replica, seed, 64, 0, 200)) {
    EXPECT_GE(c, 1u);
    EXPECT_LT(c, 64u);
  }
}

}  // namespace
}  // namespace zk::circuits::sdr
