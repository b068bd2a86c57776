// Num and word helpers: square, select, conditional swap, equality, packing, and, each with its
// constraint count and a wrong witness caught.

#include <gtest/gtest.h>

#include "field/fields.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"
#include "r1cs/test_cs.hpp"
#include "test_util.hpp"

namespace zk::gadgets {
namespace {

using F = field::Bls12_381Fr;
using LC = r1cs::LinearCombination<F>;

TEST(Num, SquareSelectSwapEqualAndPacking) {
  auto rng = test::rng(111);
  r1cs::TestSystem<F> cs;
  const F x = F::random(rng), y = F::random(rng);
  const auto a = Num<F>::alloc(
      cs, [] { return std::string("a"); }, x);
  const auto b = Num<F>::alloc(
      cs, [] { return std::string("b"); }, y);
  std::size_t n = cs.num_constraints();
  EXPECT_EQ(square(cs, a).value, x * x);
  EXPECT_EQ(cs.num_constraints() - n, 1u);
  for (bool c : {false, true}) {
    const auto bit = Bit<F>::alloc(cs, c);
    n = cs.num_constraints();
    EXPECT_EQ(select(cs, bit.lc(), c, a, b).value, c ? x : y);
    auto [p, q] = conditional_swap(cs, bit.lc(), c, a, b);
    EXPECT_EQ(p.value, c ? y : x);
    EXPECT_EQ(q.value, c ? x : y);
    EXPECT_EQ(cs.num_constraints() - n, 2u);
  }
  n = cs.num_constraints();
  EXPECT_FALSE(equal(cs, a, b).second);
  EXPECT_TRUE(equal(cs, a, a).second);
  EXPECT_EQ(cs.num_constraints() - n, 4u);
  std::vector<LC> bits;
  std::vector<bool> vals;
  const std::uint32_t v = 0xb00b135u;
  Word<F> w = Word<F>::alloc(cs, v);
  for (auto& bit : w.bits) bits.push_back(bit.lc()), vals.push_back(bit.value);
  bool vals_arr[32];
  for (int i = 0; i < 32; ++i) vals_arr[i] = vals[i];
  EXPECT_EQ(pack_bits<F>(bits, vals_arr).value, F::from_u64(v));
  EXPECT_EQ(word_and(cs, w, Word<F>::alloc(cs, 0xff00ff00u)).value(), v & 0xff00ff00u);
  EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
}

TEST(Num, AFalseEqualityClaimIsCaught) {
  r1cs::TestSystem<F> cs;
  const auto a = Num<F>::alloc(
      cs, [] { return std::string("a"); }, F::from_u64(3));
  const auto b = Num<F>::alloc(
      cs, [] { return std::string("b"); }, F::from_u64(4));
  auto [eq, value] = equal(cs, a, b);
  EXPECT_FALSE(value);
  cs.enforce([] { return std::string("claim equal"); }, eq, LC(r1cs::Variable::one()), LC(r1cs::Variable::one()));
  EXPECT_FALSE(cs.is_satisfied());
  EXPECT_EQ(*cs.which_is_unsatisfied(), "claim equal");
}

}  // namespace
}  // namespace zk::gadgets
