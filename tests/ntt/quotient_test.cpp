// The Groth16 quotient in both conventions: against a naive transcription of bellperson's and
// snarkjs's steps (naive DFTs), and the defining identity A B - C = H Z at a random point.

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <vector>

#include "field/fields.hpp"
#include "naive_poly.hpp"
#include "ntt/quotient.hpp"
#include "test_util.hpp"

namespace zk::ntt {
namespace {

using test_support::naive_eval;
using test_support::random_vector;

template <class F>
std::vector<F> naive_interpolate(const std::vector<F>& values, const F& omega, const F& shift) {
  auto c = naive_eval(values, omega.inverse(), F::one());
  const F n_inv = F::from_u64(values.size()).inverse();
  const F shift_inv = shift.inverse();
  F s = n_inv;
  for (auto& x : c) {
    x = x * s;
    s = s * shift_inv;
  }
  return c;
}

template <class F>
F horner(const std::vector<F>& coeffs, const F& x) {
  F acc = F::zero();
  for (std::size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
  return acc;
}

template <class F>
class QuotientTest : public ::testing::Test {};
using Fields = ::testing::Types<field::Bls12_381Fr, field::Bn254Fr>;
TYPED_TEST_SUITE(QuotientTest, Fields);

TYPED_TEST(QuotientTest, BellmanQuotientMatchesNaiveTranscriptionOfBellperson) {
  using F = TypeParam;
  auto rng = test::rng(11);
  for (unsigned log_n : {0u, 1u, 2u, 3u, 6u}) {
    auto d = Domain<F>::create(log_n, DomainConfig::bellman());
    ASSERT_TRUE(d.ok());
    const std::size_t n = d->size();
    // Not a satisfying assignment, so every coefficient (including the dropped one) is exercised.
    auto a = random_vector<F>(n, rng), b = random_vector<F>(n, rng), c = random_vector<F>(n, rng);
    const F g = d->coset_generator();
    auto ea = naive_eval(naive_interpolate(a, d->omega(), F::one()), d->omega(), g);
    auto eb = naive_eval(naive_interpolate(b, d->omega(), F::one()), d->omega(), g);
    auto ec = naive_eval(naive_interpolate(c, d->omega(), F::one()), d->omega(), g);
    const F z_inv = (g.pow(static_cast<std::uint64_t>(n)) - F::one()).inverse();
    for (std::size_t i = 0; i < n; ++i) ea[i] = (ea[i] * eb[i] - ec[i]) * z_inv;
    const auto expect = naive_interpolate(ea, d->omega(), g);

    ASSERT_TRUE(compute_h(*d, std::span<F>(a), std::span<F>(b), std::span<F>(c)).ok());
    EXPECT_EQ(a, expect) << "log_n " << log_n;
  }
}

TYPED_TEST(QuotientTest, BellmanQuotientSatisfiesABMinusCEqualsHZ) {
  using F = TypeParam;
  auto rng = test::rng(12);
  for (unsigned log_n : {1u, 4u, 10u, 14u}) {
    auto d = Domain<F>::create(log_n, DomainConfig::bellman());
    ASSERT_TRUE(d.ok());
    const std::size_t n = d->size();
    // A satisfying assignment: c = a b on every row.
    auto a = random_vector<F>(n, rng), b = random_vector<F>(n, rng);
    std::vector<F> c(n);
    for (std::size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];
    auto pa = a, pb = b, pc = c;  // interpolants, via the (separately tested) inverse transform
    inverse(*d, std::span<F>(pa), Order::kNN);
    inverse(*d, std::span<F>(pb), Order::kNN);
    inverse(*d, std::span<F>(pc), Order::kNN);

    ASSERT_TRUE(compute_h(*d, std::span<F>(a), std::span<F>(b), std::span<F>(c)).ok());
    EXPECT_TRUE(a[n - 1].is_zero()) << "deg H <= n - 2 for a satisfying assignment";
    for (int trial = 0; trial < 3; ++trial) {
      const F x = F::random(rng);
      const F lhs = horner(pa, x) * horner(pb, x) - horner(pc, x);
      const F rhs = horner(a, x) * (x.pow(static_cast<std::uint64_t>(n)) - F::one());
      EXPECT_EQ(lhs, rhs) << "log_n " << log_n;
    }
  }
}

TYPED_TEST(QuotientTest, OddCosetQuotientMatchesNaiveTranscriptionOfSnarkjs) {
  using F = TypeParam;
  auto rng = test::rng(13);
  for (unsigned log_n : {0u, 1u, 3u, 6u}) {
    auto d = Domain<F>::create(log_n, DomainConfig::snarkjs());
    ASSERT_TRUE(d.ok());
    const std::size_t n = d->size();
    auto a = random_vector<F>(n, rng), b = random_vector<F>(n, rng), c = random_vector<F>(n, rng);
    auto w2n = field::root_of_unity<F>(5, log_n + 1);
    ASSERT_TRUE(w2n.ok());
    // Odd 2n-th roots: omega_2n^(2j+1) = omega_2n * omega^j.
    auto ea = naive_eval(naive_interpolate(a, d->omega(), F::one()), d->omega(), *w2n);
    auto eb = naive_eval(naive_interpolate(b, d->omega(), F::one()), d->omega(), *w2n);
    auto ec = naive_eval(naive_interpolate(c, d->omega(), F::one()), d->omega(), *w2n);
    for (std::size_t i = 0; i < n; ++i) ea[i] = ea[i] * eb[i] - ec[i];

    ASSERT_TRUE(compute_h_odd_coset(*d, std::span<F>(a), std::span<F>(b), std::span<F>(c)).ok());
    EXPECT_EQ(a, ea) << "log_n " << log_n;
  }
}

TYPED_TEST(QuotientTest, RejectsVectorsOfTheWrongSize) {
  using F = TypeParam;
  auto d = Domain<F>::create(3, DomainConfig::bellman());
  ASSERT_TRUE(d.ok());
  std::vector<F> a(8), b(8), c(7);
  const Status s = compute_h(*d, std::span<F>(a), std::span<F>(b), std::span<F>(c));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("domain size 8"), std::string::npos) << s.message();
  EXPECT_FALSE(compute_h_odd_coset(*d, std::span<F>(a), std::span<F>(b), std::span<F>(c)).ok());
}

TYPED_TEST(QuotientTest, OneThreadAndManyThreadsGiveIdenticalQuotients) {
  using F = TypeParam;
  auto rng = test::rng(14);
  auto d = Domain<F>::create(13, DomainConfig::bellman());
  ASSERT_TRUE(d.ok());
  const auto a0 = random_vector<F>(d->size(), rng), b0 = random_vector<F>(d->size(), rng),
             c0 = random_vector<F>(d->size(), rng);
  auto run = [&](int threads) {
    auto a = a0, b = b0, c = c0;
    tbb::task_arena arena(threads);
    arena.execute([&] { EXPECT_TRUE(compute_h(*d, std::span<F>(a), std::span<F>(b), std::span<F>(c)).ok()); });
    return a;
  };
  EXPECT_EQ(run(1), run(2));
}

}  // namespace
}  // namespace zk::ntt
