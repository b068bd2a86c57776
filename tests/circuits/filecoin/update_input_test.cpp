// A SnapDeals job's input (update_input.hpp): a sealed 2 KiB sector updated in memory gives the
// JSON of its one partition, which round-trips, checks natively, and whose witness satisfies the
// EmptySectorUpdate circuit with update_input_public_inputs; wrong counts, commitments and
// tampered proofs are refused naming the field.

#include <gtest/gtest.h>

#include <string>

#include "base/base64.hpp"
#include "circuits/filecoin/update/update_input.hpp"
#include "r1cs/test_cs.hpp"
#include "sealed_sector.hpp"
#include "test_util.hpp"

namespace zk::circuits::filecoin {
namespace {

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

TEST(RegisteredUpdateProof, FilecoinProofsApiNumbering) {
  EXPECT_EQ(find_registered_update_proof("0")->size.bytes, 2048u);
  EXPECT_EQ(find_registered_update_proof("stackeddrg32gibv1")->id, 3u);
  EXPECT_EQ(find_registered_update_proof("4")->name, "StackedDrg64GiBV1");
  EXPECT_FALSE(find_registered_update_proof("5").ok());
}

class TwoKibUpdateInput : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto rng = zk::test::rng(2207);
    const auto sealed = test::seal_random_two_kib(rng, 44);
    ASSERT_TRUE(sealed.sector.has_value());
    std::vector<Fr> replica_old;
    for (const auto& node : sealed.sector->replica.replica) replica_old.push_back(*Fr::from_bytes(node, field::Endian::kLittle));
    const Fr comm_c = *Fr::from_bytes(sealed.sector->replica.comm_c, field::Endian::kLittle);
    auto proof = find_registered_update_proof("StackedDrg2KiBV1");
    ASSERT_TRUE(proof.ok());
    auto s = update_shape(proof->size.bytes);
    ASSERT_TRUE(s.ok());
    auto u = update_in_memory(*s, update_h_default(*s), comm_c, replica_old, random_fr32(rng, s->nodes));
    ASSERT_TRUE(u.ok()) << u.status().to_string();
    auto* in = new UpdateInput{*proof, *s, u->comm_r_old, u->comm_d_new, u->comm_r_new, {}};
    for (unsigned k = 0; k < s->partitions; ++k) {
      auto p = make_update_partition_proof(*s, *u, k);
      ASSERT_TRUE(p.ok()) << p.status().to_string();
      in->partitions.push_back(std::move(*p));
    }
    input_ = in;
  }
  static void TearDownTestSuite() {
    delete input_;
    input_ = nullptr;
  }
  static inline UpdateInput* input_ = nullptr;

  static std::string refusal(const std::string& json) {
    auto in = parse_update_input(json);
    if (!in.ok()) return in.status().to_string();
    const Status st = check_update_input(*in);
    return st.ok() ? "" : st.to_string();
  }
  static std::string replace(std::string s, const std::string& from, const std::string& to) {
    const auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? s : s.replace(at, from.size(), to);
  }
};

TEST_F(TwoKibUpdateInput, RoundTripsChecksAndEachPartitionSatisfiesTheCircuit) {
  ASSERT_NE(input_, nullptr);
  const std::string json = update_input_json(*input_);
  auto in = parse_update_input(json);
  ASSERT_TRUE(in.ok()) << in.status().to_string();
  EXPECT_EQ(update_input_json(*in), json);
  EXPECT_EQ(in->partitions.size(), 1u);
  ASSERT_TRUE(check_update_input(*in).ok()) << check_update_input(*in).to_string();
  for (unsigned k = 0; k < in->shape.partitions; ++k) {
    auto w = update_input_witness(*in, k);
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    r1cs::TestSystem<Fr> cs;
    const Status st = synthesize_update(cs, in->shape, *w);
    ASSERT_TRUE(st.ok()) << st.to_string();
    EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
    auto pub = update_input_public_inputs(*in, k);
    ASSERT_TRUE(pub.ok());
    ASSERT_EQ(cs.inputs().size(), pub->size() + 1);
    for (std::size_t i = 0; i < pub->size(); ++i) EXPECT_EQ(cs.inputs()[i + 1], (*pub)[i]) << "input " << i;
  }
  // Names and CIDs work as well as numbers and hex.
  const std::string named = replace(json, "\"registered_proof\":0", "\"registered_proof\":\"StackedDrg2KiBV1\"");
  EXPECT_EQ(refusal(named), "");
}

TEST_F(TwoKibUpdateInput, MalformedOrWrongInputsAreRefusedNamingTheField) {
  ASSERT_NE(input_, nullptr);
  const std::string json = update_input_json(*input_);
  const auto hex_of = [](const Fr& c) {
    static const char* d = "0123456789abcdef";
    std::string s;
    for (auto x : update_commitment_bytes(c)) s += d[x >> 4], s += d[x & 15];
    return s;
  };
  // Another sector's comm_r_new: the native check refuses the partition.
  EXPECT_NE(refusal(replace(json, hex_of(input_->comm_r_new), hex_of(input_->comm_r_old))).find("vanilla_proofs[0]"),
            std::string::npos);
  EXPECT_NE(refusal(replace(json, hex_of(input_->comm_d_new), "12")).find("comm_d_new"), std::string::npos);
  EXPECT_NE(refusal(replace(json, "\"registered_proof\":0", "\"registered_proof\":3")).find("vanilla_proofs"),
            std::string::npos);  // a 32 GiB update has 16 partitions
  EXPECT_NE(refusal(replace(json, "\"registered_proof\":0", "\"registered_proof\":9")).find("registered_proof"),
            std::string::npos);
  EXPECT_NE(refusal(replace(json, "\"comm_r_old\"", "\"comm_r_oldx\"")).find("comm_r_old is missing"), std::string::npos);
  EXPECT_NE(refusal(replace(json, "{", "{\"comm_d_new\":\"00\",")).find("duplicate"), std::string::npos);
  // A flipped byte inside the partition proof.
  auto bytes = update_partition_proof_bytes(input_->partitions[0]);
  bytes[100] ^= 1;
  const std::string tampered =
      replace(json, base64_encode(update_partition_proof_bytes(input_->partitions[0])), base64_encode(bytes));
  EXPECT_NE(refusal(tampered).find("vanilla_proofs[0]"), std::string::npos) << refusal(tampered);
  // Two partitions' worth for a one-partition size.
  const std::string b64 = base64_encode(update_partition_proof_bytes(input_->partitions[0]));
  EXPECT_NE(refusal(replace(json, "\"" + b64 + "\"", "\"" + b64 + "\",\"" + b64 + "\"")).find("partition(s), not 2"),
            std::string::npos);
}

}  // namespace
}  // namespace zk::circuits::filecoin
