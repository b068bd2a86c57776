// Merkle trees: native builders (kept levels and streaming), and the SHA-256 and Poseidon-8 path
// gadgets against them, with pinned constraint counts and tampering caught.

#include <gtest/gtest.h>

#include "gadgets/merkle.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/test_cs.hpp"
#include "test_util.hpp"

namespace zk::gadgets {
namespace {

Fr32 random_fr32(Rng& rng) {
  Fr32 x;
  for (auto& b : x) b = static_cast<std::uint8_t>(rng.next());
  x[31] &= 0x3f;
  return x;
}

TEST(Merkle, StreamingRootEqualsTheBuiltTree) {
  auto rng = test::rng(101);
  std::vector<Fr32> leaves(64);
  for (auto& l : leaves) l = random_fr32(rng);
  auto tree = Sha256Tree::build(leaves);
  ASSERT_TRUE(tree.ok());
  auto root = sha256_root_streaming(leaves.size(), [&](std::size_t i) { return leaves[i]; });
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(*root, tree->root());
  EXPECT_EQ(tree->root()[31] & 0xc0, 0);  // Fr32
  EXPECT_FALSE(Sha256Tree::build(std::vector<Fr32>(3)).ok());
  EXPECT_FALSE(PoseidonTree::build(std::vector<Fr>(16)).ok());
}

TEST(Merkle, Sha256PathGadgetComputesTheRootAndCatchesTampering) {
  auto rng = test::rng(102);
  std::vector<Fr32> leaves(8);
  for (auto& l : leaves) l = random_fr32(rng);
  const auto tree = *Sha256Tree::build(leaves);
  for (std::size_t index : {std::size_t{0}, std::size_t{5}}) {
    for (bool tamper : {false, true}) {
      r1cs::TestSystem<Fr> cs;
      auto path = tree.path(index);
      if (tamper) path[1][0] ^= 1;
      const auto leaf_var = cs.alloc([] { return std::string("leaf"); }, [&] { return fr32_to_field(leaves[index]); });
      std::vector<Bit<Fr>> leaf_bits = unpack_fr32(cs, Num<Fr>::of(leaf_var, fr32_to_field(leaves[index])));
      std::vector<Num<Fr>> sibs;
      for (const auto& s : path) {
        const Fr v = fr32_to_field(s);
        sibs.push_back(Num<Fr>::of(cs.alloc([] { return std::string("sibling"); }, [&] { return v; }), v));
      }
      std::vector<Bit<Fr>> idx;
      for (std::size_t l = 0; l < path.size(); ++l) idx.push_back(Bit<Fr>::alloc(cs, ((index >> l) & 1) != 0));
      const std::size_t before = cs.num_constraints();
      const auto root_bits = sha256_merkle_root(cs, leaf_bits, sibs, idx);
      const Num<Fr> root = pack_fr32<Fr>(root_bits);
      if (!tamper) {
        EXPECT_EQ(root.value, fr32_to_field(tree.root()));
        // Per level: 254 booleans + 1 packing + 254 swaps + SHA-256 of 512 bits (two compressions,
        // the second over the constant padding block: its message schedule is free).
        EXPECT_EQ((cs.num_constraints() - before) / 3, 45'367u) << "constraints per level";
      }
      // The public root: a wrong path cannot produce it.
      const auto pub = cs.alloc_input([] { return std::string("root"); }, [&] { return fr32_to_field(tree.root()); });
      cs.enforce([] { return std::string("root matches"); }, root.lc,
                 r1cs::LinearCombination<Fr>(r1cs::Variable::one()), r1cs::LinearCombination<Fr>(pub));
      EXPECT_EQ(cs.is_satisfied(), !tamper) << index;
    }
  }
}

TEST(Merkle, PoseidonPathGadgetPlacesTheNodeByItsIndexBits) {
  auto rng = test::rng(103);
  std::vector<Fr> leaves(64);
  for (auto& l : leaves) l = Fr::random(rng);
  const auto tree = *PoseidonTree::build(leaves);
  for (std::size_t index : {std::size_t{0}, std::size_t{13}, std::size_t{63}}) {
    for (bool tamper : {false, true}) {
      r1cs::TestSystem<Fr> cs;
      const std::size_t claimed = tamper ? index ^ 1 : index;  // a wrong position
      const Fr leaf = leaves[index];
      const auto leaf_var = cs.alloc([] { return std::string("leaf"); }, [&] { return leaf; });
      std::vector<std::array<Num<Fr>, 7>> sibs;
      for (const auto& level : tree.path(index)) {
        std::array<Num<Fr>, 7> row;
        for (int k = 0; k < 7; ++k) {
          const Fr v = level[k];
          row[k] = Num<Fr>::of(cs.alloc([] { return std::string("sibling"); }, [&] { return v; }), v);
        }
        sibs.push_back(row);
      }
      std::vector<Bit<Fr>> idx;
      for (std::size_t b = 0; b < 6; ++b) idx.push_back(Bit<Fr>::alloc(cs, ((claimed >> b) & 1) != 0));
      const std::size_t before = cs.num_constraints();
      auto root = poseidon8_merkle_root(cs, Num<Fr>::of(leaf_var, leaf), sibs, idx);
      ASSERT_TRUE(root.ok());
      if (!tamper) {
        EXPECT_EQ(root->value, tree.root());
        EXPECT_EQ((cs.num_constraints() - before) / 2, 539u) << "constraints per level";
      }
      const auto pub = cs.alloc_input([] { return std::string("root"); }, [&] { return tree.root(); });
      cs.enforce([] { return std::string("root matches"); }, root->lc,
                 r1cs::LinearCombination<Fr>(r1cs::Variable::one()), r1cs::LinearCombination<Fr>(pub));
      EXPECT_EQ(cs.is_satisfied(), !tamper) << index;
    }
  }
}

}  // namespace
}  // namespace zk::gadgets
