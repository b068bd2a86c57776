// Poseidon (neptune): the four published hashes, the MerkleTree tag, the gadget against the native
// function, pinned constraint counts, and a wrong witness caught by the test system.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gadgets/poseidon.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/test_cs.hpp"
#include "test_util.hpp"

namespace zk::gadgets {
namespace {

using F = PoseidonFr;

std::string be_hex(const F& x) {
  const auto b = x.to_bytes(field::Endian::kBig);
  static const char* d = "0123456789abcdef";
  std::string s;
  for (auto c : b) s += std::string{d[c >> 4], d[c & 15]};
  return s;
}

// Copied from docs/formats.md (neptune's poseidon.rs tests); the shared testdata has the same.
const std::map<unsigned, std::string> kNeptune = {
    {2, "396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff"},
    {4, "58a54b10a9e5848a00db3c6579229399fb6b4605bf1327ec019814ff6662075d"},
    {8, "2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6"},
    {11, "0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163"},
};

TEST(Poseidon, MatchesNeptuneOnZeroToArityMinusOne) {
  for (const auto& [arity, expect] : kNeptune) {
    std::vector<F> in;
    for (unsigned i = 0; i < arity; ++i) in.push_back(F::from_u64(i));
    auto h = poseidon_hash(in);
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(be_hex(*h), expect) << "arity " << arity;
  }
  EXPECT_EQ((*poseidon_params(8))->domain_tag, F::from_u64(0xff));
  EXPECT_FALSE(poseidon_hash(std::vector<F>(3)).ok());
}

TEST(Poseidon, TheOptimizedPermutationEqualsTheReferenceOnRandomStates) {
  auto rng = zk::test::rng(61);
  for (unsigned arity : {2u, 4u, 8u, 11u}) {
    const auto* p = *poseidon_params(arity);
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<F> a(p->width), b;
      for (auto& x : a) x = F::random(rng);
      b = a;
      poseidon_permute(*p, a);
      poseidon_permute_optimized(*p, b);
      EXPECT_EQ(a, b) << "arity " << arity;
    }
  }
}

TEST(Poseidon, SharedTestdataAgrees) {
  const auto dir = test::shared_testdata();
  if (dir.empty()) GTEST_SKIP() << "shared testdata not found";
  const auto j = nlohmann::json::parse(test::read_file(dir / "poseidon" / "vectors.json"));
  const auto& v = j["filecoin_neptune_bls12_381"]["hash_of_0_to_arity_minus_1"];
  for (const auto& [arity, expect] : kNeptune) EXPECT_EQ(v[std::to_string(arity)].get<std::string>(), expect);
}

TEST(Poseidon, GadgetMatchesNativeWithPinnedConstraintCounts) {
  auto rng = test::rng(81);
  // neptune's circuit (rust-fil-proofs pins): 31 t + 4 R_P - 2 constraints, as many aux variables.
  const std::map<unsigned, std::size_t> kConstraints = {{2, 311}, {4, 377}, {8, 505}, {11, 598}};
  for (const auto& [arity, count] : kConstraints) {
    std::vector<F> values;
    for (unsigned i = 0; i < arity; ++i) values.push_back(F::random(rng));
    r1cs::TestSystem<F> cs;
    std::vector<Num<F>> in;
    for (unsigned i = 0; i < arity; ++i) {
      const auto v = cs.alloc([] { return std::string("in"); }, [&] { return values[i]; });
      in.push_back(Num<F>::of(v, values[i]));
    }
    auto out = poseidon_gadget(cs, std::span<const Num<F>>(in));
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(out->value, *poseidon_hash(values)) << arity;
    const auto result = cs.alloc_input([] { return std::string("hash"); }, [&] { return out->value; });
    cs.enforce([] { return std::string("output"); }, out->lc, r1cs::LinearCombination<F>(r1cs::Variable::one()),
               r1cs::LinearCombination<F>(result));
    EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
    EXPECT_EQ(cs.num_constraints() - 1, count) << "arity " << arity;
    EXPECT_EQ(cs.num_aux() - arity, count) << "arity " << arity;  // one new variable per constraint
  }
}

TEST(Poseidon, AWrongClaimedHashIsUnsatisfied) {
  r1cs::TestSystem<F> cs;
  std::vector<Num<F>> in;
  for (unsigned i = 0; i < 2; ++i) {
    const auto v = cs.alloc([] { return std::string("in"); }, [&] { return F::from_u64(i); });
    in.push_back(Num<F>::of(v, F::from_u64(i)));
  }
  auto out = poseidon_gadget(cs, std::span<const Num<F>>(in));
  ASSERT_TRUE(out.ok());
  const auto wrong = cs.alloc_input([] { return std::string("hash"); }, [&] { return out->value + F::one(); });
  cs.enforce([] { return std::string("claimed hash"); }, out->lc, r1cs::LinearCombination<F>(r1cs::Variable::one()),
             r1cs::LinearCombination<F>(wrong));
  EXPECT_FALSE(cs.is_satisfied());
  EXPECT_EQ(*cs.which_is_unsatisfied(), "claimed hash");
}

}  // namespace
}  // namespace zk::gadgets
