// Commitments as hex or Filecoin CIDs. Independent vector: the comm_d of an empty 32 GiB sector
// (30 levels of SHA-256 over zero nodes, computed here) is the well-known piece CID
// baga6ea4seaqao7s73y24kcutaosvacpdjgfe5pw76ooefnyqw4ynr3d2y6x2mpq (Lotus' zero piece commitment;
// the "empty 32 GiB piece" test case of the data-segment RFC implementations).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "circuits/filecoin/commitment.hpp"
#include "gadgets/merkle.hpp"

namespace zk::circuits::filecoin {
namespace {

TEST(Commitment, TheEmpty32GibSectorsCommDIsLotussZeroPieceCid) {
  gadgets::Fr32 node{};
  for (int level = 0; level < 30; ++level) node = gadgets::sha256_node(node, node);
  EXPECT_EQ(commitment_cid(node, CommitmentKind::kUnsealed),
            "baga6ea4seaqao7s73y24kcutaosvacpdjgfe5pw76ooefnyqw4ynr3d2y6x2mpq");
  auto back = parse_commitment("baga6ea4seaqao7s73y24kcutaosvacpdjgfe5pw76ooefnyqw4ynr3d2y6x2mpq", CommitmentKind::kUnsealed);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, node);
}

TEST(Commitment, HexAndCidsOfBothKindsRoundTripAndTheWrongKindIsRefused) {
  std::array<std::uint8_t, 32> c{};
  for (std::size_t i = 0; i < 32; ++i) c[i] = static_cast<std::uint8_t>(7 * i + 1);
  const std::string sealed = commitment_cid(c, CommitmentKind::kSealed);
  EXPECT_EQ(sealed.rfind("bagboea4b5abc", 0), 0u);
  EXPECT_EQ(*parse_commitment(sealed, CommitmentKind::kSealed), c);
  EXPECT_FALSE(parse_commitment("0x0108", CommitmentKind::kSealed).ok());
  std::string hex;
  for (auto b : c) {
    const char* d = "0123456789abcdef";
    hex += d[b >> 4];
    hex += d[b & 15];
  }
  EXPECT_EQ(*parse_commitment(hex, CommitmentKind::kUnsealed), c);
  EXPECT_EQ(*parse_commitment("0x" + hex, CommitmentKind::kSealed), c);
  const auto wrong = parse_commitment(sealed, CommitmentKind::kUnsealed);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("other commitment"), std::string::npos);
  std::string upper = sealed;
  upper[0] = 'B';
  const std::vector<std::string> bads = {"", "zz", "b", "bafy", sealed.substr(0, sealed.size() - 3), sealed + "aa",
                                        hex + "0", upper};
  for (const auto& bad : bads) {
    EXPECT_FALSE(parse_commitment(bad, CommitmentKind::kSealed).ok()) << bad;
  }
}

}  // namespace
}  // namespace zk::circuits::filecoin
