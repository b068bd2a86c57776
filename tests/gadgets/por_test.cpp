// storage-proofs-core's insertion and PoR gadgets against the rust-fil-proofs pins (insertion.rs
// tests: insert 2 / 8 / 22 / n(n-1), select n - 1; tests/por_circuit.rs: Poseidon base 2 / 4 / 8
// = 1,887 / 1,164 / 1,063, SHA-256 base 2 / 4 / 8 = 272,295 / 216,258 / 250,987 constraints, 3
// inputs), with real trees: the system is satisfied, the public inputs are [index, root], and a
// wrong sibling or index breaks it. Also filecoin-hashers' node hash against its native twin.

#include <gtest/gtest.h>

#include "gadgets/multipack.hpp"
#include "gadgets/por.hpp"
#include "r1cs/test_cs.hpp"
#include "test_util.hpp"

namespace zk::gadgets {
namespace {

std::vector<Num<Fr>> alloc_nums(r1cs::TestSystem<Fr>& cs, const std::vector<Fr>& v) {
  std::vector<Num<Fr>> out;
  for (const auto& x : v) out.push_back(Num<Fr>::alloc(cs, [] { return std::string("n"); }, x));
  return out;
}

std::vector<Bit<Fr>> alloc_index(r1cs::TestSystem<Fr>& cs, unsigned index, unsigned nbits) {
  std::vector<Bit<Fr>> bits;
  for (unsigned t = 0; t < nbits; ++t) bits.push_back(Bit<Fr>::alloc(cs, ((index >> t) & 1) != 0));
  return bits;
}

TEST(Insertion, InsertAndSelectMatchThePinnedCountsAndPlaceTheNode) {
  auto rng = test::rng(101);
  for (unsigned log_size = 1; log_size <= 4; ++log_size) {
    const unsigned n = 1u << log_size;
    for (unsigned index = 0; index < n; ++index) {
      std::vector<Fr> sib;
      for (unsigned i = 0; i + 1 < n; ++i) sib.push_back(Fr::random(rng));
      const Fr cur = Fr::random(rng);
      r1cs::TestSystem<Fr> cs;
      const auto sibs = alloc_nums(cs, sib);
      const auto c = alloc_nums(cs, {cur})[0];
      const auto bits = alloc_index(cs, index, log_size);
      const std::size_t before = cs.num_constraints();
      auto out = insert<Fr>(cs, c, std::span<const Bit<Fr>>(bits), std::span<const Num<Fr>>(sibs));
      ASSERT_TRUE(out.ok());
      const std::size_t expect = n == 8 ? 22 : n == 4 ? 8 : n * (n - 1);
      EXPECT_EQ(cs.num_constraints() - before, expect) << "insert into " << n;
      std::vector<Fr> want = sib;
      want.insert(want.begin() + index, cur);
      for (unsigned i = 0; i < n; ++i) EXPECT_EQ((*out)[i].value, want[i]) << n << " " << index << " " << i;
      EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
      // select
      const std::size_t before_select = cs.num_constraints();
      const auto all = alloc_nums(cs, want);
      const Num<Fr> s = select<Fr>(cs, std::span<const Num<Fr>>(all), std::span<const Bit<Fr>>(bits));
      EXPECT_EQ(cs.num_constraints() - before_select, n - 1);
      EXPECT_EQ(s.value, cur);
      EXPECT_TRUE(cs.is_satisfied());
    }
  }
}

TEST(TreeNodeHash, GadgetEqualsNativeForBothHashers) {
  auto rng = test::rng(102);
  for (auto hasher : {TreeHasher::kSha256, TreeHasher::kPoseidon}) {
    for (unsigned arity : {2u, 4u, 8u}) {
      std::vector<Fr> v;
      for (unsigned i = 0; i < arity; ++i) v.push_back(Fr::random(rng));
      r1cs::TestSystem<Fr> cs;
      const auto nums = alloc_nums(cs, v);
      const std::size_t before = cs.num_constraints();
      auto h = tree_node_gadget(cs, hasher, std::span<const Num<Fr>>(nums));
      ASSERT_TRUE(h.ok());
      EXPECT_EQ(h->value, tree_node_hash(hasher, v));
      EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
      if (hasher == TreeHasher::kSha256) {
        // filecoin-hashers from field elements: two constant pad bits per 512-bit block save 8.
        const std::size_t expect = arity == 2 ? 45'379 : arity == 4 ? 72'075 : 125'467;
        EXPECT_EQ(cs.num_constraints() - before, expect) << arity;
      }
    }
  }
}

struct PorPin {
  TreeHasher hasher;
  unsigned arity, levels;
  std::size_t constraints;
};

TEST(Por, CircuitsMatchRustFilProofsPinsWithRealTrees) {
  auto rng = test::rng(103);
  for (const PorPin p : {PorPin{TreeHasher::kPoseidon, 2, 6, 1'887}, PorPin{TreeHasher::kPoseidon, 4, 3, 1'164},
                         PorPin{TreeHasher::kPoseidon, 8, 2, 1'063}, PorPin{TreeHasher::kSha256, 2, 6, 272'295},
                         PorPin{TreeHasher::kSha256, 4, 3, 216'258}, PorPin{TreeHasher::kSha256, 8, 2, 250'987}}) {
    TreeShape shape{p.hasher, std::vector<unsigned>(p.levels, p.arity)};
    std::vector<Fr> leaves;
    for (std::size_t i = 0; i < shape.leaves(); ++i) {
      // SHA-256 tree leaves are Fr32 data (below 2^254), as in a sector.
      leaves.push_back(p.hasher == TreeHasher::kSha256 ? fr32_to_field(field_to_fr32(Fr::random(rng)))
                                                       : Fr::random(rng));
    }
    auto tree = FilecoinTree::build(shape, leaves);
    ASSERT_TRUE(tree.ok()) << tree.status().to_string();
    const bool sha = p.hasher == TreeHasher::kSha256;
    for (std::size_t c : sha ? std::vector<std::size_t>{0, 37} : std::vector<std::size_t>{0, 1, 13, 63}) {
      const auto path = tree->path(c);
      r1cs::TestSystem<Fr> cs;
      ASSERT_TRUE(por_circuit(cs, shape, leaves[c], path, tree->root(), false).ok());
      EXPECT_EQ(cs.num_constraints(), p.constraints) << p.arity << (sha ? " sha" : " poseidon");
      ASSERT_EQ(cs.num_inputs(), 3u);
      EXPECT_EQ(cs.inputs()[1], Fr::from_u64(c));
      EXPECT_EQ(cs.inputs()[2], tree->root());
      EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
      if (sha && c != 0) continue;
      // A private root drops the root input and its constraint.
      r1cs::TestSystem<Fr> priv;
      ASSERT_TRUE(por_circuit(priv, shape, leaves[c], path, tree->root(), true).ok());
      EXPECT_EQ(priv.num_constraints(), p.constraints - 1);
      EXPECT_EQ(priv.num_inputs(), 2u);
      // A wrong sibling, or the leaf claimed at another index, does not reach the root.
      auto bad = path;
      bad[0].siblings[0] = bad[0].siblings[0] + Fr::one();
      r1cs::TestSystem<Fr> t1;
      ASSERT_TRUE(por_circuit(t1, shape, leaves[c], bad, tree->root(), false).ok());
      EXPECT_FALSE(t1.is_satisfied());
      auto moved = path;
      moved[0].index = (moved[0].index + 1) % p.arity;
      r1cs::TestSystem<Fr> t2;
      ASSERT_TRUE(por_circuit(t2, shape, leaves[c], moved, tree->root(), false).ok());
      EXPECT_FALSE(t2.is_satisfied());
    }
  }
}

TEST(Multipack, ToBitsInputizeAndPacking) {
  auto rng = test::rng(104);
  const Fr x = Fr::random(rng);
  r1cs::TestSystem<Fr> cs;
  const Num<Fr> n = Num<Fr>::alloc(cs, [] { return std::string("x"); }, x);
  const auto bits = to_bits_le<Fr>(cs, n);
  EXPECT_EQ(bits.size(), 255u);
  EXPECT_EQ(cs.num_constraints(), 256u);  // 255 booleanity + 1 unpacking
  EXPECT_EQ(cs.num_aux(), 256u);
  const Num<Fr> in = inputize<Fr>(cs, n);
  EXPECT_EQ(cs.inputs()[1], x);
  EXPECT_EQ(in.value, x);
  const auto packed = pack_into_inputs<Fr>(cs, std::span<const Bit<Fr>>(bits));
  ASSERT_EQ(packed.size(), 2u);  // 254 + 1 bits
  EXPECT_TRUE(cs.is_satisfied());
  const auto rev = reverse_bit_numbering<Fr>(bits);
  ASSERT_EQ(rev.size(), 256u);
  EXPECT_TRUE(rev[248].is_constant());  // the pad bit: the top of byte 31
}

}  // namespace
}  // namespace zk::gadgets
