// The AVX-512 IFMA kernels (field/ifma.hpp) against MontField, on the 4-limb fields, for the lazy
// representations the NTT feeds them (below 2p, and below 4p where 4p < R): the residues must agree
// and the results stay below 2p. Skipped on CPUs without IFMA (the NTT then never calls them).

#include <gtest/gtest.h>

#include <vector>

#include "field/fields.hpp"
#include "field/ifma.hpp"
#include "test_util.hpp"

namespace zk::field {
namespace {

#ifdef ZK_HAVE_IFMA

template <class F>
class IfmaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ifma::available()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU (or ZKPIPE_NO_IFMA / ZKPIPE_NO_ASM set)";
  }
};
using Fields = ::testing::Types<Bn254Fr, Bn254Fq, Bls12_381Fr>;
TYPED_TEST_SUITE(IfmaTest, Fields);

template <class F>
using Repr = typename F::Repr;

template <class F>
Repr<F> plus(const Repr<F>& x, const Repr<F>& y) {
  Repr<F> s{};
  add_limbs(s, x, y);
  return s;
}
template <class F>
Repr<F> two_p() {
  return plus<F>(F::Params::kModulus, F::Params::kModulus);
}
template <class F>
bool below(const Repr<F>& x, const Repr<F>& bound) {
  return cmp_limbs(x, bound) < 0;
}
/// The residue of a representation below 4p (below 2^256).
template <class F>
F residue(Repr<F> x) {
  while (!below<F>(x, F::Params::kModulus)) sub_limbs(x, x, F::Params::kModulus);
  return F::from_mont(x);
}

/// Lazy representations below 2p: canonical values, the same plus p, and the extremes 2p - 1, p, 0.
template <class F>
std::vector<F> lazy_sample(Rng& rng, std::size_t n) {
  std::vector<F> out;
  Repr<F> top = two_p<F>();
  sub_limbs(top, top, Repr<F>{1});
  out.push_back(F::from_mont(top));
  out.push_back(F::from_mont(F::Params::kModulus));
  out.push_back(F::zero());
  out.push_back(F::from_mont(plus<F>((-F::one()).mont(), F::Params::kModulus)));
  while (out.size() < n) {
    const F x = F::random(rng);
    out.push_back(out.size() % 2 == 0 ? x : F::from_mont(plus<F>(x.mont(), F::Params::kModulus)));
  }
  return out;
}

template <class F>
struct Outputs {
  F product[8], sum[8], diff[8], wide_diff[8], wide_product[8], gathered[8], round_trip[8];
};

template <class F>
[[gnu::target("avx512f,avx512ifma")]] void run_kernels(const F* all, const F* x, const F* y, const F* w,
                                                       Outputs<F>& out) {
  namespace v = ifma;
  const v::Modulus md = v::modulus<F>();
  const v::Lanes a = v::load(x), b = v::load(y), t = v::load(w);
  v::store(a, out.round_trip);
  v::store(v::mont_mul(v::shl4(a), t, md), out.product);
  v::store(v::add_lazy(a, b, md), out.sum);
  v::store(v::sub_lazy(a, b, md), out.diff);
  if constexpr (F::kQuarterModulus) {  // below 4p < 2^256: stored as is
    const v::Lanes d = v::sub_plus_2p(a, b, md);
    v::store(d, out.wide_diff);
    v::store(v::mont_mul(v::shl4(d), t, md), out.wide_product);
  }
  v::store(v::gather(all, 14, -2), out.gathered);  // all[14], all[12], .., all[0]
}

TYPED_TEST(IfmaTest, KernelsAgreeWithMontFieldAndStayBelowTwiceP) {
  using F = TypeParam;
  Rng rng = test::rng(11);
  const Repr<F> bound = two_p<F>();
  for (int round = 0; round < 200; ++round) {
    const auto x = lazy_sample<F>(rng, 16), y = lazy_sample<F>(rng, 8);
    std::vector<F> w(8);
    for (auto& e : w) e = F::random(rng);
    if (round == 0) w[0] = -F::one(), w[1] = F::one(), w[2] = F::zero();
    if (round % 2 == 1) std::swap(w[0], w[7]);
    Outputs<F> out{};
    run_kernels<F>(x.data(), x.data() + (round % 2) * 8, y.data(), w.data(), out);
    for (int k = 0; k < 8; ++k) {
      const F& a = x[(round % 2) * 8 + k];
      const F& b = y[k];
      const F av = residue<F>(a.mont()), bv = residue<F>(b.mont());
      EXPECT_EQ(out.round_trip[k].mont(), a.mont());
      EXPECT_EQ(out.gathered[k].mont(), x[14 - 2 * k].mont()) << "lane " << k;
      for (const F* r : {&out.product[k], &out.sum[k], &out.diff[k]}) {
        EXPECT_TRUE(below<F>(r->mont(), bound)) << "round " << round << " lane " << k;
      }
      EXPECT_EQ(residue<F>(out.product[k].mont()), av * w[k]) << "round " << round << " lane " << k;
      EXPECT_EQ(residue<F>(out.sum[k].mont()), av + bv);
      EXPECT_EQ(residue<F>(out.diff[k].mont()), av - bv);
      if constexpr (F::kQuarterModulus) {
        EXPECT_EQ(residue<F>(out.wide_diff[k].mont()), av - bv);
        EXPECT_TRUE(below<F>(out.wide_product[k].mont(), bound));
        EXPECT_EQ(residue<F>(out.wide_product[k].mont()), (av - bv) * w[k]);
      }
    }
  }
}

TYPED_TEST(IfmaTest, ArrayProductsAreMontFieldProducts) {
  // The quotient's element-wise steps (canonical in, canonical out): mul_arrays, mul_sub_arrays,
  // mul_scaled_arrays, on random values and the edges p - 1, p - 2, 0, 1.
  using F = TypeParam;
  Rng rng = test::rng(12);
  constexpr std::size_t n = 64;
  std::vector<F> a(n), b(n), c(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = F::random(rng), b[i] = F::random(rng), c[i] = F::random(rng);
  const F edges[] = {-F::one(), -F::from_u64(2), F::zero(), F::one()};
  for (std::size_t i = 0; i < 4; ++i) {
    a[i] = edges[i], b[i + 4] = edges[i], c[i + 8] = edges[i];
    a[12 + i] = edges[i], b[12 + i] = edges[3 - i], c[12 + i] = edges[i];
  }
  const F t = -F::from_u64(3);
  std::vector<F> product(n), mul_sub = a, scaled = a;
  ifma::mul_arrays(a.data(), b.data(), product.data(), n);
  ifma::mul_sub_arrays(mul_sub.data(), b.data(), c.data(), n);
  ifma::mul_scaled_arrays(scaled.data(), b.data(), t, n);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(product[i], a[i] * b[i]) << i;
    EXPECT_EQ(mul_sub[i], a[i] * b[i] - c[i]) << i;
    EXPECT_EQ(scaled[i], a[i] * (b[i] * t)) << i;
    // Canonical representations (operator== compares representations).
    EXPECT_TRUE(below<F>(product[i].mont(), F::Params::kModulus));
    EXPECT_TRUE(below<F>(mul_sub[i].mont(), F::Params::kModulus));
  }
}

#endif  // ZK_HAVE_IFMA

}  // namespace
}  // namespace zk::field
