// Constraint systems: linear-combination normalisation, one synthesize() under every system, the
// shape hash, bellperson's densities and input rows, lazy names, and the test system's report.

#include <gtest/gtest.h>

#include "../groth16/test_circuits.hpp"
#include "field/fields.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/test_cs.hpp"
#include "test_util.hpp"

namespace zk::r1cs {
namespace {

using Fr = field::Bls12_381Fr;
using LC = LinearCombination<Fr>;

static_assert(ConstraintSystem<ShapeRecorder<Fr>>);
static_assert(ConstraintSystem<ProvingSystem<Fr>>);
static_assert(ConstraintSystem<TestSystem<Fr>>);
static_assert(ConstraintSystem<MetricsSystem<Fr>>);

TEST(LinearCombination, NormalizedMergesTermsAndDropsZeros) {
  const auto x = Variable::aux(3), y = Variable::aux(1), one = Variable::one(), in = Variable::input(2);
  LC lc;
  lc.add(Fr::from_u64(2), x).add(Fr::from_u64(5), y).add(-Fr::from_u64(2), x).add(Fr::one(), in).add(Fr::one(), one);
  lc.add(Fr::from_u64(4), y).add(Fr::zero(), Variable::aux(9));
  const auto n = lc.normalized();
  ASSERT_EQ(n.terms().size(), 3u);  // x cancelled, aux 9 had a zero coefficient
  EXPECT_EQ(n.terms()[0].var, one);
  EXPECT_EQ(n.terms()[1].var, in);
  EXPECT_EQ(n.terms()[2].var, y);
  EXPECT_EQ(n.terms()[2].coeff, Fr::from_u64(9));
  const std::vector<Fr> inputs{Fr::one(), Fr::from_u64(10), Fr::from_u64(20)};
  std::vector<Fr> aux(10, Fr::from_u64(7));
  EXPECT_EQ(lc.evaluate(inputs, aux), n.evaluate(inputs, aux));
}

// add_normalized is normalized(this + o * k) whatever the inputs: the merge when both are in
// increasing order (with cancellations, ±1 and zero scale factors, inline and spilled sizes), the
// fallback otherwise (unsorted, repeats, aliasing).
TEST(LinearCombination, AddNormalizedEqualsAddThenNormalize) {
  auto rng = test::rng(7);
  auto var = [&](std::uint64_t r) {
    return r % 7 == 0 ? Variable::one() : (r % 5 == 0 ? Variable::input(static_cast<std::uint32_t>(r % 4))
                                                      : Variable::aux(static_cast<std::uint32_t>(r % 40)));
  };
  auto coeff = [&](std::uint64_t r) {
    switch (r % 5) {
      case 0: return Fr::one();
      case 1: return -Fr::one();
      case 2: return Fr::from_u64(r % 3);  // zero sometimes
      default: return Fr::random(rng);
    }
  };
  auto random_lc = [&](bool sorted) {
    LC lc;
    const std::size_t n = rng() % 12;
    for (std::size_t i = 0; i < n; ++i) lc.add(coeff(rng()), var(rng()));
    return sorted ? lc.normalized() : lc;
  };
  for (int round = 0; round < 3000; ++round) {
    const bool sa = round % 4 != 3, sb = round % 5 != 4;
    LC a = random_lc(sa), b = random_lc(sb);
    Fr k = round % 7 == 0 ? Fr::zero() : coeff(rng());
    if (round % 3 == 0) {  // a - b cancels every term
      b = b.normalized();
      a = b;
      k = -Fr::one();
    }
    LC want = a;
    want.add_scaled(b, k);
    want = want.normalized();
    LC got = a;
    got.add_normalized(b, k);
    ASSERT_EQ(got.size(), want.size()) << "round " << round;
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got.terms()[i].var, want.terms()[i].var) << "round " << round;
      ASSERT_EQ(got.terms()[i].coeff, want.terms()[i].coeff) << "round " << round;
    }
    if (round % 3 == 0) {
      EXPECT_TRUE(got.empty());
      LC self = b;
      self.add_normalized(self, Fr::one());  // aliasing: 2 b
      ASSERT_EQ(self.size(), b.size());
    }
  }
}

// A circuit whose only use of `ghost` cancels: density must not count it (docs/formats.md pitfall).
struct CancellingCircuit {
  template <class CS>
  Status synthesize(CS& cs) const {
    const auto x = cs.alloc([] { return "x"; }, [] { return Fr::from_u64(3); });
    const auto ghost = cs.alloc([] { return "ghost"; }, [] { return Fr::from_u64(9); });
    const auto out = cs.alloc_input([] { return "out"; }, [] { return Fr::from_u64(9); });
    cs.enforce([] { return "square"; }, LC(x) + ghost - ghost, LC(x) + Variable::one() - Variable::one(), LC(out));
    cs.enforce([] { return "ghost is used in C"; }, LC(Variable::one()), LC(ghost), LC(out));
    return {};
  }
};

TEST(ProvingSystem, DensitiesFollowBellpersonAndInputRowsAreAppended) {
  ProvingSystem<Fr> cs;
  ASSERT_TRUE(CancellingCircuit{}.synthesize(cs).ok());
  const auto p = std::move(cs).finish();
  ASSERT_EQ(p.inputs.size(), 2u);
  ASSERT_EQ(p.aux.size(), 2u);
  ASSERT_EQ(p.num_rows(), 2u + 2u);  // two constraints, two input rows
  const auto a = p.a.expand(p.num_rows()), b = p.b.expand(p.num_rows());
  EXPECT_EQ(a[0], Fr::from_u64(3));
  EXPECT_EQ(b[0], Fr::from_u64(3));
  EXPECT_EQ(a[2], Fr::one());        // input row of ONE
  EXPECT_EQ(a[3], Fr::from_u64(9));  // input row of out
  EXPECT_TRUE(b[3].is_zero());
  EXPECT_TRUE(p.a_aux.test(0));
  EXPECT_FALSE(p.a_aux.test(1));    // ghost cancelled in A
  EXPECT_TRUE(p.b_aux.test(0));     // B of row 0 is x + ONE - ONE = x
  EXPECT_FALSE(p.b_input.test(0));  // ... so ONE is not in B (it cancelled)
  EXPECT_FALSE(p.b_input.test(1));
  EXPECT_TRUE(p.b_aux.test(1));
}

TEST(ShapeRecorder, RecordsNormalisedRowsAndHashesStably) {
  ShapeRecorder<Fr> rec;
  ASSERT_TRUE(CancellingCircuit{}.synthesize(rec).ok());
  const auto& shape = rec.shape();
  EXPECT_EQ(shape.num_inputs, 2u);
  EXPECT_EQ(shape.num_aux, 2u);
  EXPECT_EQ(shape.num_constraints(), 2u);
  EXPECT_EQ(shape.qap_rows(), 4u);
  EXPECT_EQ(shape.a.entries(), 2u);  // x; ONE
  EXPECT_EQ(shape.b.entries(), 2u);  // x; ghost
  ShapeRecorder<Fr> rec2;
  ASSERT_TRUE(CancellingCircuit{}.synthesize(rec2).ok());
  EXPECT_EQ(shape_hash(rec.shape()), shape_hash(rec2.shape()));
  ShapeRecorder<Fr> rec3;
  const test::ToyCircuit<Fr> toy{Fr::one(), Fr::one(), Fr::one(), Fr::one()};
  ASSERT_TRUE(toy.synthesize(rec3).ok());
  EXPECT_NE(shape_hash(rec.shape()), shape_hash(rec3.shape()));
}

TEST(TestSystem, ReportsTheNamespacePathOfTheFirstFailure) {
  TestSystem<Fr> ok_cs;
  ASSERT_TRUE(CancellingCircuit{}.synthesize(ok_cs).ok());
  EXPECT_TRUE(ok_cs.is_satisfied());
  EXPECT_EQ(ok_cs.num_constraints(), 2u);

  TestSystem<Fr> cs;
  const auto x = cs.alloc([] { return "x"; }, [] { return Fr::from_u64(3); });
  {
    Namespace outer(cs, [] { return std::string("outer"); });
    cs.enforce([] { return "fine"; }, LC(x), LC(Variable::one()), LC(x));
    Namespace inner(cs, [] { return std::string("inner"); });
    cs.enforce([] { return "bad"; }, LC(x), LC(x), LC(x));            // 9 != 3
    cs.enforce([] { return "also bad"; }, LC(x), LC(x), LC::zero());  // only the first is reported
  }
  EXPECT_FALSE(cs.is_satisfied());
  EXPECT_EQ(*cs.which_is_unsatisfied(), "outer/inner/bad");
  EXPECT_EQ(cs.num_constraints(), 3u);
}

TEST(Names, AreNeverEvaluatedByRecordingOrProvingSystems) {
  int calls = 0;
  auto name = [&] {
    ++calls;
    return std::string("n");
  };
  ShapeRecorder<Fr> rec;
  ProvingSystem<Fr> prover;
  MetricsSystem<Fr> metrics;
  auto run = [&](auto& cs) {
    const auto x = cs.alloc(name, [] { return Fr::from_u64(2); });
    Namespace ns(cs, name);
    cs.enforce(name, LC(x), LC(x), LC(x) + x);
  };
  run(rec);
  run(prover);
  run(metrics);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(metrics.num_constraints(), 1u);
  EXPECT_EQ(metrics.num_aux(), 1u);
  TestSystem<Fr> t;
  run(t);
  EXPECT_TRUE(t.is_satisfied());  // 2 * 2 = 2 + 2
  EXPECT_EQ(calls, 0);            // satisfied: still no name needed
}

}  // namespace
}  // namespace zk::r1cs
