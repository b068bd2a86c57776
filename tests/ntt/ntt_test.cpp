// NTT tests, written once for the scalar fields of both curves: transforms against a naive DFT,
// round trips in every order, cosets, every pass structure, and determinism across thread counts.

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <vector>

#include "field/fields.hpp"
#include "naive_poly.hpp"
#include "ntt/ntt.hpp"
#include "test_util.hpp"

namespace zk::ntt {
namespace {

using test_support::naive_eval;
using test_support::random_vector;

template <class F>
std::vector<F> bit_reversed(std::vector<F> v) {
  bit_reverse(std::span<F>(v));
  return v;
}

template <class F>
Domain<F> make_domain(unsigned log_n, DomainConfig config = DomainConfig::bellman()) {
  auto d = Domain<F>::create(log_n, config);
  EXPECT_TRUE(d.ok()) << d.status().to_string();
  return std::move(d).value();
}

template <class F>
class NttTest : public ::testing::Test {};
using Fields = ::testing::Types<field::Bls12_381Fr, field::Bn254Fr>;
TYPED_TEST_SUITE(NttTest, Fields);

TYPED_TEST(NttTest, DomainRejectsSizesBeyondTheTwoAdicityAndResidueGenerators) {
  using F = TypeParam;
  EXPECT_FALSE(Domain<F>::create(F::Params::kTwoAdicity + 1, DomainConfig::bellman()).ok());
  EXPECT_FALSE(Domain<F>::create(4, {.root_generator = 4, .coset_generator = 7}).ok());  // 4 is a square
  EXPECT_FALSE(Domain<F>::create(4, {.root_generator = 7, .coset_generator = 0}).ok());
  EXPECT_FALSE(Domain<F>::create(4, {.root_generator = 7, .coset_generator = 1}).ok());  // 1 lies in <omega>
}

TYPED_TEST(NttTest, TwiddlesArePowersOfOmegaEndingInMinusOne) {
  using F = TypeParam;
  for (unsigned log_n : {0u, 1u, 2u, 7u}) {
    const auto d = make_domain<F>(log_n);
    ASSERT_EQ(d.twiddles().size(), d.size() / 2 + 1);
    F w = F::one();
    for (std::size_t j = 0; j <= d.size() / 2; ++j, w = w * d.omega()) EXPECT_EQ(d.twiddles()[j], w) << j;
    if (log_n > 0) {
      EXPECT_EQ(d.twiddles().back(), -F::one());
    }
    EXPECT_EQ(d.omega() * d.omega_inv(), F::one());
    EXPECT_EQ(d.size_inv() * F::from_u64(d.size()), F::one());
  }
}

TYPED_TEST(NttTest, ForwardMatchesNaiveDftInEveryOrder) {
  using F = TypeParam;
  auto rng = test::rng(1);
  for (const DomainConfig config : {DomainConfig::bellman(), DomainConfig::snarkjs()}) {
    for (unsigned log_n = 0; log_n <= 7; ++log_n) {
      const auto d = make_domain<F>(log_n, config);
      const auto coeffs = random_vector<F>(d.size(), rng);
      const auto expect = naive_eval(coeffs, d.omega(), F::one());

      auto nn = coeffs;
      forward(d, std::span<F>(nn), Order::kNN);
      EXPECT_EQ(nn, expect) << "NN, log_n " << log_n;
      auto nr = coeffs;
      forward(d, std::span<F>(nr), Order::kNR);
      EXPECT_EQ(nr, bit_reversed(expect)) << "NR, log_n " << log_n;
      auto rn = bit_reversed(coeffs);
      forward(d, std::span<F>(rn), Order::kRN);
      EXPECT_EQ(rn, expect) << "RN, log_n " << log_n;
    }
  }
}

TYPED_TEST(NttTest, LargestInputsMatchNaiveDft) {
  // The butterflies keep values below 2p inside a transform (lazy reduction); inputs of p - 1 and
  // p - 2 drive the sums and products to the top of that range, zeros to the bottom.
  using F = TypeParam;
  for (unsigned log_n = 1; log_n <= 9; ++log_n) {
    const auto d = make_domain<F>(log_n);
    for (int pattern = 0; pattern < 3; ++pattern) {
      std::vector<F> coeffs(d.size());
      for (std::size_t i = 0; i < coeffs.size(); ++i) {
        const F top = -F::from_u64(1 + i % 2);
        coeffs[i] = pattern == 0 ? top : (pattern == 1 ? (i % 3 == 0 ? F::zero() : top) : (i < d.size() / 2 ? top : F::zero()));
      }
      const auto expect = naive_eval(coeffs, d.omega(), F::one());
      // The default plan, narrow columns, and 8-wide columns (the IFMA butterflies' strided runs).
      for (const PassPlan plan :
           {PassPlan{}, PassPlan{.block_log = 2, .column_log = 1}, PassPlan{.block_log = 4, .column_log = 3}}) {
        auto nr = coeffs;
        forward(d, std::span<F>(nr), Order::kNR, plan);
        EXPECT_EQ(nr, bit_reversed(expect)) << "NR, log_n " << log_n << " pattern " << pattern;
        auto rn = bit_reversed(coeffs);
        forward(d, std::span<F>(rn), Order::kRN, plan);
        EXPECT_EQ(rn, expect) << "RN, log_n " << log_n << " pattern " << pattern;
        inverse(d, std::span<F>(rn), Order::kNN, plan);
        EXPECT_EQ(rn, coeffs) << "inverse, log_n " << log_n << " pattern " << pattern;
      }
    }
  }
}

TYPED_TEST(NttTest, InverseUndoesForwardInEveryOrder) {
  using F = TypeParam;
  auto rng = test::rng(2);
  for (unsigned log_n : {0u, 1u, 2u, 3u, 5u, 10u, 13u}) {
    const auto d = make_domain<F>(log_n);
    const auto coeffs = random_vector<F>(d.size(), rng);
    auto x = coeffs;
    forward(d, std::span<F>(x), Order::kNR);
    inverse(d, std::span<F>(x), Order::kRN);
    EXPECT_EQ(x, coeffs) << "NR then RN, log_n " << log_n;
    forward(d, std::span<F>(x), Order::kNN);
    inverse(d, std::span<F>(x), Order::kNN);
    EXPECT_EQ(x, coeffs) << "NN, log_n " << log_n;
    // The inverse on natural evaluations gives bit-reversed coefficients.
    forward(d, std::span<F>(x), Order::kNN);
    inverse(d, std::span<F>(x), Order::kNR);
    EXPECT_EQ(x, bit_reversed(coeffs)) << "inverse NR, log_n " << log_n;
  }
}

TYPED_TEST(NttTest, RoundTripAtTwoToTheTwenty) {
  using F = TypeParam;
  auto rng = test::rng(3);
  const auto d = make_domain<F>(20);
  const auto coeffs = random_vector<F>(d.size(), rng);
  auto x = coeffs;
  forward(d, std::span<F>(x), Order::kNR);
  EXPECT_NE(x, coeffs);
  inverse(d, std::span<F>(x), Order::kRN);
  EXPECT_EQ(x, coeffs);
}

TYPED_TEST(NttTest, EveryPassStructureGivesTheSameTransform) {
  using F = TypeParam;
  auto rng = test::rng(4);
  const auto d = make_domain<F>(11);
  const auto coeffs = random_vector<F>(d.size(), rng);
  auto reference = coeffs;
  forward(d, std::span<F>(reference), Order::kNR);
  for (unsigned block_log = 1; block_log <= 12; ++block_log) {
    for (unsigned column_log = 0; column_log <= 4; ++column_log) {
      const PassPlan plan{.block_log = block_log, .column_log = column_log};
      auto x = coeffs;
      forward(d, std::span<F>(x), Order::kNR, plan);
      EXPECT_EQ(x, reference) << "DIF block " << block_log << " column " << column_log;
      inverse(d, std::span<F>(x), Order::kRN, plan);
      EXPECT_EQ(x, coeffs) << "DIT block " << block_log << " column " << column_log;
    }
  }
}

TYPED_TEST(NttTest, CosetTransformsEvaluateOnTheShiftedDomain) {
  using F = TypeParam;
  auto rng = test::rng(5);
  for (unsigned log_n : {0u, 1u, 4u, 7u}) {
    const auto d = make_domain<F>(log_n);
    const auto coeffs = random_vector<F>(d.size(), rng);
    const auto expect = naive_eval(coeffs, d.omega(), d.coset_generator());
    for (Order order : {Order::kNN, Order::kNR, Order::kRN}) {
      auto x = order == Order::kRN ? bit_reversed(coeffs) : coeffs;
      coset_forward(d, std::span<F>(x), order);
      EXPECT_EQ(x, order == Order::kNR ? bit_reversed(expect) : expect) << "log_n " << log_n;
      // Back: the coset inverse takes the forward's output order as its input order.
      const Order back = order == Order::kNR ? Order::kRN : order == Order::kRN ? Order::kNR : Order::kNN;
      coset_inverse(d, std::span<F>(x), back);
      EXPECT_EQ(x, order == Order::kRN ? bit_reversed(coeffs) : coeffs) << "log_n " << log_n;
    }
  }
}

TYPED_TEST(NttTest, ScaleByPowersMatchesRunningProduct) {
  using F = TypeParam;
  auto rng = test::rng(6);
  for (unsigned log_n : {0u, 1u, 2u, 5u, 9u}) {
    const std::size_t n = std::size_t{1} << log_n;
    const auto v = random_vector<F>(n, rng);
    const F base = F::random(rng), factor = F::random(rng);
    for (bool rev : {false, true}) {
      auto x = v;
      scale_by_powers(std::span<F>(x), base, factor, rev);
      F p = factor;
      for (std::size_t i = 0; i < n; ++i, p = p * base) {
        const std::size_t j = rev ? detail::reverse_bits(i, log_n) : i;
        EXPECT_EQ(x[j], v[j] * p) << i;
      }
    }
  }
}

TYPED_TEST(NttTest, OneThreadAndManyThreadsGiveIdenticalResults) {
  using F = TypeParam;
  auto rng = test::rng(7);
  const auto d = make_domain<F>(16);
  const auto coeffs = random_vector<F>(d.size(), rng);
  auto run = [&](int threads) {
    auto x = coeffs;
    tbb::task_arena arena(threads);
    arena.execute([&] {
      coset_forward(d, std::span<F>(x), Order::kNR, PassPlan{.block_log = 6, .column_log = 2});
      inverse(d, std::span<F>(x), Order::kRN);
    });
    return x;
  };
  const auto one = run(1);
  EXPECT_EQ(one, run(2));
  EXPECT_EQ(one, run(4));
}

}  // namespace
}  // namespace zk::ntt
