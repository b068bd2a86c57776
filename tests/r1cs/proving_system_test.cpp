// The proving system against the plainest reference (reference_partition.hpp) on random circuits
// built to hit every path of the fast evaluation: terms that repeat, cancel, or have coefficient
// zero, one, minus one or a power of two; values zero, one and random; inputs (ONE included) in A,
// B and C; linear combinations short enough to live inline and long enough to spill, built by
// every LinearCombination operation (add, +=, -=, +, -, * k, copies and moves).

#include <gtest/gtest.h>

#include <vector>

#include "field/fields.hpp"
#include "r1cs/prover_cs.hpp"
#include "reference_partition.hpp"
#include "test_util.hpp"

namespace zk::r1cs {
namespace {

using Fr = field::Bls12_381Fr;
using LC = LinearCombination<Fr>;

/// A random circuit: `inputs` inputs and `aux` aux variables with values drawn from {0, 1, -1,
/// random}, then `constraints` rows of random linear combinations. Not satisfiable, and it does
/// not need to be: a proving system only evaluates.
struct RandomCircuit {
  std::uint64_t seed;
  std::size_t inputs, aux, constraints;
  std::size_t max_terms;  // per combination, before the operations that add more
  std::size_t far = 0;    // > 0: half the variables come from a window this far from the row's

  template <class CS>
  Status synthesize(CS& cs) const {
    Rng rng(seed);
    auto value = [&] {
      switch (rng.next() % 4) {
        case 0:
          return Fr::zero();
        case 1:
          return Fr::one();
        case 2:
          return -Fr::one();
        default:
          return Fr::from_u64(rng.next()) * Fr::from_u64(rng.next());
      }
    };
    std::vector<Variable> vars{Variable::one()};
    for (std::size_t i = 0; i < inputs; ++i) {
      const Fr v = value();
      vars.push_back(cs.alloc_input([] { return "in"; }, [&] { return v; }));
    }
    for (std::size_t i = 0; i < aux; ++i) {
      const Fr v = value();
      vars.push_back(cs.alloc([] { return "aux"; }, [&] { return v; }));
    }
    auto coeff = [&] {
      switch (rng.next() % 6) {
        case 0:
          return Fr::one();
        case 1:
          return -Fr::one();
        case 2:
          return Fr::zero();
        case 3:
          return Fr::from_u64(std::uint64_t{1} << (rng.next() % 64));
        default:
          return Fr::from_u64(rng.next());
      }
    };
    // Few distinct variables per row, so repeats and cancellations are common.
    auto var = [&](std::size_t window_start) {
      if (rng.next() % 8 == 0) return Variable::one();
      const std::size_t offset = far != 0 && rng.next() % 2 == 0 ? far : 0;
      return vars[(window_start + offset + rng.next() % 6) % vars.size()];
    };
    auto make = [&] {
      const std::size_t start = rng.next() % vars.size();
      LC lc = (rng.next() % 3 == 0) ? LC(var(start)) : LC();
      const std::size_t n = rng.next() % (max_terms + 1);
      for (std::size_t i = 0; i < n; ++i) {
        const Variable v = var(start);
        switch (rng.next() % 5) {
          case 0:
            lc += v;
            break;
          case 1:
            lc -= v;
            break;
          case 2: {  // a term and its cancellation
            const Fr k = coeff();
            lc.add(k, v).add(-k, v);
            break;
          }
          default:
            lc.add(coeff(), v);
            break;
        }
      }
      if (rng.next() % 4 == 0) lc = lc * coeff();
      return lc;
    };
    for (std::size_t r = 0; r < constraints; ++r) {
      LC a = make(), b = make(), c = make();
      switch (rng.next() % 6) {
        case 0:
          a += b;
          break;
        case 1:
          b -= c;
          break;
        case 2:
          c = a + b - c;
          break;
        case 3:
          a = a - a;
          break;  // everything cancels
        default:
          break;
      }
      const LC b_copy = b;  // copies of inline and spilled storage
      LC moved = std::move(c);
      cs.enforce([] { return "row"; }, a, b_copy, moved);
    }
    return {};
  }
};

void check(const RandomCircuit& circuit) {
  ProvingSystem<Fr> fast;
  ASSERT_TRUE(circuit.synthesize(fast).ok());
  test::ReferenceSystem<Fr> ref;
  ASSERT_TRUE(circuit.synthesize(ref).ok());
  test::expect_same_partition(std::move(fast).finish(), std::move(ref).finish());
}

TEST(ProvingSystemVsReference, ShortRowsWithRepeatsAndCancellations) {
  const auto base = zk::test::seed();
  for (std::uint64_t i = 0; i < 40; ++i) {
    SCOPED_TRACE("circuit " + std::to_string(i));
    // Many variables, few rows: most variables occur in one row or none, so a cancellation decides
    // their density bit.
    check({.seed = base + i, .inputs = 1 + i % 5, .aux = 30 + 20 * i, .constraints = 60, .max_terms = 4});
  }
}

TEST(ProvingSystemVsReference, LongRowsThatSpillOutOfInlineStorage) {
  const auto base = zk::test::seed() * 31;
  for (std::uint64_t i = 0; i < 20; ++i) {
    SCOPED_TRACE("circuit " + std::to_string(i));
    check({.seed = base + i, .inputs = 3, .aux = 40 + i, .constraints = 30, .max_terms = 300});
  }
}

// Rows whose variables lie more than merge_repeats' 2^16-variable window apart, and inputs past its
// 1024 input slots: the hash-table path.
TEST(ProvingSystemVsReference, RowsSpanningMoreThanTheMergeWindow) {
  const auto base = zk::test::seed() * 17;
  for (std::uint64_t i = 0; i < 3; ++i) {
    SCOPED_TRACE("circuit " + std::to_string(i));
    check({.seed = base + i, .inputs = 1100, .aux = 70000 + 1000 * i, .constraints = 400, .max_terms = 40,
           .far = 67000});
  }
}

TEST(ProvingSystemVsReference, EmptyCircuitGivesOnlyTheOneRow) {
  check({.seed = 1, .inputs = 0, .aux = 0, .constraints = 0, .max_terms = 0});
}

// Pinned cases the random ones may miss: a variable whose only terms cancel (in A, in B), ONE
// cancelling in B, an input present in B only through a repeat, and sorted / unsorted long rows.
struct EdgeCircuit {
  template <class CS>
  Status synthesize(CS& cs) const {
    const auto in = cs.alloc_input([] { return "in"; }, [] { return Fr::from_u64(5); });
    std::vector<Variable> x;
    for (int i = 0; i < 80; ++i) {
      x.push_back(cs.alloc([] { return "x"; }, [i] { return i % 3 == 0 ? Fr::one() : Fr::from_u64(i); }));
    }
    const Fr two = Fr::from_u64(2);
    cs.enforce([] { return "cancel in A and B"; }, LC(x[1]) + x[2] - x[1], LC(x[3]).add(two, x[4]).add(-two, x[4]),
               LC(x[5]));
    cs.enforce([] { return "ONE cancels in B"; }, LC(x[6]), LC(Variable::one()) + x[7] - Variable::one(), LC());
    cs.enforce([] { return "input twice in B"; }, LC(), LC(in) + in, LC(in) - in);
    LC ascending, descending;
    for (int i = 10; i < 80; ++i) ascending.add(Fr::from_u64(std::uint64_t{1} << (i % 60)), x[i]);
    for (int i = 79; i >= 10; --i) descending.add(-Fr::one(), x[i]);
    cs.enforce([] { return "long sorted"; }, ascending, descending, ascending + descending);
    cs.enforce([] { return "long, all cancels"; }, ascending - ascending, descending + ascending, LC(x[9]));
    return {};
  }
};

TEST(ProvingSystemVsReference, PinnedCancellationsAndRepeats) {
  ProvingSystem<Fr> fast;
  ASSERT_TRUE(EdgeCircuit{}.synthesize(fast).ok());
  test::ReferenceSystem<Fr> ref;
  ASSERT_TRUE(EdgeCircuit{}.synthesize(ref).ok());
  const auto p = std::move(fast).finish();
  test::expect_same_partition(p, std::move(ref).finish());
  // Spelled out, so the reference itself is checked too.
  EXPECT_FALSE(p.a_aux.test(1));  // x[1] - x[1]
  EXPECT_TRUE(p.a_aux.test(2));
  EXPECT_TRUE(p.b_aux.test(3));
  EXPECT_FALSE(p.b_aux.test(4));    // 2 x[4] - 2 x[4]
  EXPECT_FALSE(p.b_input.test(0));  // ONE - ONE
  EXPECT_TRUE(p.b_input.test(1));   // in + in
  EXPECT_FALSE(p.a_aux.test(5));    // only in C
  EXPECT_EQ(p.b.expand(p.num_rows())[2], Fr::from_u64(10));
}

}  // namespace
}  // namespace zk::r1cs
