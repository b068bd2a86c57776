// The variable-time divsteps inversion (field/inverse.hpp) against Fermat's a^(p-2), for the four
// prime fields: random elements and the inputs where a binary gcd goes wrong first (tiny values,
// powers of two and their neighbours, p - 2^k, long runs of trailing zeros, alternating bits). The
// gcd sees the Montgomery representation, so the edge values are set as raw representations as well
// as canonical values. No asm in the gcd: the portable_path_field_suite run covers the other path of
// the Fermat reference.

#include <gtest/gtest.h>

#include <vector>

#include "field/fields.hpp"
#include "field/inverse.hpp"
#include "test_util.hpp"

namespace zk::field {
namespace {

template <class F>
class InverseTest : public ::testing::Test {};

using PrimeFields = ::testing::Types<Bls12_381Fq, Bls12_381Fr, Bn254Fq, Bn254Fr>;
TYPED_TEST_SUITE(InverseTest, PrimeFields);

template <class F>
typename F::Repr pow2(unsigned k) {
  typename F::Repr r{};
  r[k / 64] = std::uint64_t{1} << (k % 64);
  return r;
}

template <class F>
bool below_p(const typename F::Repr& r) {
  return cmp_limbs(r, F::Params::kModulus) < 0;
}

/// Raw representations (each below p) that stress the gcd: as Montgomery forms and as canonical values.
template <class F>
std::vector<F> edge_elements(Rng& rng) {
  using Repr = typename F::Repr;
  const Repr p = F::Params::kModulus;
  std::vector<Repr> raw;
  for (std::uint64_t s = 1; s <= 17; ++s) raw.push_back(Repr{s});
  for (std::uint64_t s = 1; s <= 4; ++s) {  // p - 1 .. p - 4
    Repr t{};
    sub_limbs(t, p, Repr{s});
    raw.push_back(t);
  }
  Repr half = p;  // (p - 1) / 2 and (p + 1) / 2
  shr1(half);
  raw.push_back(half);
  Repr half1{};
  add_limbs(half1, half, Repr{1});
  raw.push_back(half1);
  for (unsigned k = 0; k < F::kBits; ++k) {
    const Repr two_k = pow2<F>(k);
    Repr t{};
    if (below_p<F>(two_k)) raw.push_back(two_k);
    sub_limbs(t, two_k, Repr{1});
    if (k > 0 && below_p<F>(t)) raw.push_back(t);  // 2^k - 1
    add_limbs(t, two_k, Repr{1});
    if (below_p<F>(t)) raw.push_back(t);  // 2^k + 1
    if (below_p<F>(two_k)) {
      sub_limbs(t, p, two_k);  // p - 2^k
      raw.push_back(t);
      Repr r = F::random(rng).mont();  // random high bits, k trailing zeros
      for (unsigned i = 0; i < k; ++i) r[i / 64] &= ~(std::uint64_t{1} << (i % 64));
      if (!is_zero_limbs(r)) raw.push_back(r);
    }
  }
  for (std::uint64_t pattern : {0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull, ~0ull, 0x8000000000000001ull}) {
    Repr r{};
    for (auto& l : r) l = pattern;
    for (std::size_t i = F::kLimbs; i-- > 0 && !below_p<F>(r);) r[i] >>= 1;  // shave the top until below p
    if (below_p<F>(r) && !is_zero_limbs(r)) raw.push_back(r);
  }
  std::vector<F> out;
  for (const Repr& r : raw) {
    out.push_back(F::from_mont(r));
    out.push_back(F::from_canonical_unchecked(r));
  }
  out.push_back(F::one());
  out.push_back(-F::one());
  return out;
}

TYPED_TEST(InverseTest, MatchesFermatOnRandomElements) {
  using F = TypeParam;
  Rng rng = test::rng(0x1a7);
  for (int i = 0; i < 4000; ++i) {
    const F a = F::random(rng);
    if (a.is_zero()) continue;
    const F inv = a.inverse();
    ASSERT_EQ(inv, a.inverse_fermat()) << "a = " << a.to_hex() << " (seed " << test::seed() << ")";
    ASSERT_EQ(a * inv, F::one()) << "a = " << a.to_hex();
  }
}

TYPED_TEST(InverseTest, MatchesFermatOnEdgeValues) {
  using F = TypeParam;
  Rng rng = test::rng(0x1a8);
  const auto xs = edge_elements<F>(rng);
  ASSERT_GT(xs.size(), 4 * static_cast<std::size_t>(F::kBits));
  for (const F& a : xs) {
    ASSERT_FALSE(a.is_zero());
    ASSERT_EQ(a.inverse(), a.inverse_fermat())
        << "a = " << a.to_hex() << " (mont " << F::from_canonical_unchecked(a.mont()).to_hex() << ")";
  }
}

TYPED_TEST(InverseTest, InverseIsAnInvolutionAndKeepsZero) {
  using F = TypeParam;
  EXPECT_TRUE(F::zero().inverse().is_zero());
  EXPECT_EQ(F::one().inverse(), F::one());
  EXPECT_EQ((-F::one()).inverse(), -F::one());
  EXPECT_EQ(F::from_u64(2).inverse(), F::one().halve());
  Rng rng = test::rng(0x1a9);
  for (int i = 0; i < 200; ++i) {
    const F a = F::random(rng);
    EXPECT_EQ(a.inverse().inverse(), a);
  }
}

TYPED_TEST(InverseTest, WorksInConstantEvaluation) {
  using F = TypeParam;
  constexpr F third = F::from_u64(3).inverse();
  static_assert(third * F::from_u64(3) == F::one());
  EXPECT_EQ(third, F::from_u64(3).inverse_fermat());
}

TYPED_TEST(InverseTest, Signed62LimbsRoundTrip) {
  using F = TypeParam;
  constexpr std::size_t L = safegcd::limbs62(F::kBits);
  Rng rng = test::rng(0x1aa);
  for (int i = 0; i < 100; ++i) {
    const auto r = F::random(rng).mont();
    EXPECT_EQ((safegcd::from_signed62<F::kLimbs>(safegcd::to_signed62<L>(r))), r);
  }
}

}  // namespace
}  // namespace zk::field
