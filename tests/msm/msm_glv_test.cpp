// The GLV path of the MSM (curve/glv.hpp in msm/pippenger.hpp) against the path without it and the
// naive sum, for every group (all four have the endomorphism): edge sizes, window widths and
// accumulators with tiny batches and chunks (pending additions drained at chunk ends), edge scalars
// (0, 1, r - 1, lambda and its neighbours, 2^128, values whose split halves are negative),
// identity / repeated / negated bases, filtered MSMs and thread counts.

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <vector>

#include "curve/bls12_381.hpp"
#include "curve/bn254.hpp"
#include "curve/glv.hpp"
#include "msm/pippenger.hpp"
#include "test_util.hpp"

namespace zk::msm {
namespace {

using curve::Affine;
using curve::Jacobian;

template <class C>
std::vector<Affine<C>> points(std::size_t n, Rng& rng) {
  std::vector<Jacobian<C>> pts;
  for (std::size_t i = 0; i < n; ++i)
    pts.push_back(i < 8 ? Jacobian<C>::random(rng) : pts[i - 1] + pts[rng.next() % i]);
  return curve::batch_to_affine<C>(pts);
}

/// Random scalars with every edge scalar of the split mixed in.
template <class C>
std::vector<typename C::Scalar> edge_scalars(std::size_t n, Rng& rng) {
  using S = typename C::Scalar;
  std::vector<S> s(n);
  for (auto& x : s) x = S::random(rng);
  std::vector<S> edges = {S::zero(),
                          S::one(),
                          -S::one(),
                          -S::from_u64(2),
                          S::from_u64(2),
                          S::from_canonical_unchecked({0, 0, 1, 0}) /* 2^128 */,
                          S::from_canonical_unchecked({~0ull, ~0ull, 0, 0}) /* 2^128 - 1 */};
  if constexpr (curve::HasGlv<C>) {
    const S lambda = S::from_canonical_unchecked(curve::GlvParams<C>::kLambda);
    for (const S& e :
         {lambda, -lambda, lambda + S::one(), lambda - S::one(), lambda * lambda, S::from_u64(3) * lambda}) {
      edges.push_back(e);
    }
  }
  for (std::size_t i = 0; i < edges.size() && 3 * i < n; ++i) s[3 * i] = edges[i];
  return s;
}

template <class C>
Jacobian<C> run(const std::vector<Affine<C>>& bases, const std::vector<typename C::Scalar>& scalars, MsmConfig config,
                Endomorphism e) {
  config.endomorphism = e;
  auto r = msm<C>(bases, scalars, config);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return r.ok() ? *r : Jacobian<C>::identity();
}

template <class C>
class MsmGlvTest : public ::testing::Test {};
using Groups = ::testing::Types<curve::Bls12_381G1, curve::Bls12_381G2, curve::Bn254G1, curve::Bn254G2>;
TYPED_TEST_SUITE(MsmGlvTest, Groups);

TYPED_TEST(MsmGlvTest, PlanUsesTheSplitOnlyWhereTheGroupHasIt) {
  using C = TypeParam;
  const MsmPlan on = make_plan<C>(1000, {.endomorphism = Endomorphism::kOn}, 1);
  const MsmPlan off = make_plan<C>(1000, {.endomorphism = Endomorphism::kOff}, 1);
  EXPECT_EQ(on.glv, curve::HasGlv<C>);
  EXPECT_FALSE(off.glv);
  if constexpr (curve::HasGlv<C>) {
    EXPECT_EQ(on.scalar_bits, curve::GlvParams<C>::kBits);
    EXPECT_TRUE(make_plan<C>(std::size_t{1} << 16, {}, 1).glv);  // the default from mid sizes on
  }
}

// The window model takes the split halves as uniform below 2^glv_scalar_log2 (Babai's bound); check
// that against real splits: few above it (the approximate rounding), none half a bit above, and most
// within a bit below (so the model's top-window reach is neither too small nor far too large).
TYPED_TEST(MsmGlvTest, WindowModelsScalarSizeMatchesRealSplits) {
  using C = TypeParam;
  if constexpr (curve::HasGlv<C>) {
    const double log2 = glv_scalar_log2<C>();
    EXPECT_LE(log2, curve::GlvParams<C>::kBits);
    Rng rng = test::rng(22);
    int above = 0, within_a_bit = 0;
    constexpr int kSplits = 4000;
    for (int i = 0; i < kSplits; ++i) {
      const curve::GlvSplit split = curve::glv_split<C>(C::Scalar::random(rng).to_canonical());
      for (const auto& k : {split.k1, split.k2}) {
        const double v = std::ldexp(static_cast<double>(k[1]), 64) + static_cast<double>(k[0]);
        const double bits = v > 0 ? std::log2(v) : 0;
        EXPECT_LT(bits, log2 + 0.5);
        above += bits > log2 ? 1 : 0;
        within_a_bit += bits > log2 - 1 ? 1 : 0;
      }
    }
    EXPECT_LT(above, 2 * kSplits / 20) << "more than 5 % above 2^" << log2;
    EXPECT_GT(within_a_bit, 2 * kSplits / 3) << "the halves are much smaller than 2^" << log2;
  }
}

TYPED_TEST(MsmGlvTest, SplitAndUnsplitPathsAndTheNaiveSumAgreeAtEdgeSizesAndScalars) {
  using C = TypeParam;
  auto rng = test::rng(2210);
  for (std::size_t n : {1, 2, 3, 17, 40, 129, 300}) {
    const auto bases = points<C>(n, rng);
    const auto scalars = edge_scalars<C>(n, rng);
    const auto expect = msm_naive<C>(bases, scalars);
    EXPECT_EQ(run<C>(bases, scalars, {}, Endomorphism::kOn), expect) << "n = " << n;
    EXPECT_EQ(run<C>(bases, scalars, {}, Endomorphism::kOff), expect) << "n = " << n;
  }
}

TYPED_TEST(MsmGlvTest, EveryWindowAccumulatorBatchAndChunkAgree) {
  using C = TypeParam;
  auto rng = test::rng(2211);
  const std::size_t n = 150;
  const auto bases = points<C>(n, rng);
  const auto scalars = edge_scalars<C>(n, rng);
  const auto expect = msm_naive<C>(bases, scalars);
  for (unsigned c : {1u, 2u, 5u, 8u, 11u, 13u, 16u}) {
    for (Accumulation acc : {Accumulation::kXyzz, Accumulation::kBatchAffine}) {
      for (std::size_t chunk : {std::size_t{16}, std::size_t{1} << 16}) {
        // Small batches force queued conflicts, which must be drained before the next chunk
        // overwrites the phi buffer.
        const MsmConfig config{.window_bits = c, .accumulation = acc, .chunk_points = chunk, .batch_size = 4};
        EXPECT_EQ(run<C>(bases, scalars, config, Endomorphism::kOn), expect)
            << "c = " << c << " acc " << static_cast<int>(acc) << " chunk " << chunk;
      }
    }
  }
}

TYPED_TEST(MsmGlvTest, MostlyBitsIdentityRepeatedAndNegatedBases) {
  using C = TypeParam;
  using S = typename C::Scalar;
  auto rng = test::rng(2212);
  const std::size_t n = 200;
  auto bases = points<C>(n, rng);
  for (std::size_t i = 0; i < n; i += 7) bases[i] = Affine<C>::identity();
  for (std::size_t i = 1; i < n; i += 5) bases[i] = bases[3];
  for (std::size_t i = 2; i < n; i += 11) bases[i] = bases[3].neg();
  auto scalars = edge_scalars<C>(n, rng);
  for (std::size_t i = 4; i < n; i += 13) scalars[i] = scalars[1];
  for (std::size_t i = 9; i < n; i += 4) scalars[i] = (rng.next() & 1) ? S::one() : S::zero();
  const auto expect = msm_naive<C>(bases, scalars);
  for (Accumulation acc : {Accumulation::kXyzz, Accumulation::kBatchAffine}) {
    for (unsigned c : {3u, 10u}) {
      const MsmConfig config{.window_bits = c, .accumulation = acc, .chunk_points = 64, .batch_size = 8};
      EXPECT_EQ(run<C>(bases, scalars, config, Endomorphism::kOn), expect) << "c = " << c;
      EXPECT_EQ(run<C>(bases, scalars, config, Endomorphism::kOff), expect) << "c = " << c;
    }
  }
}

TYPED_TEST(MsmGlvTest, FilteredMsmWithTheSplit) {
  using C = TypeParam;
  auto rng = test::rng(2213);
  const std::size_t vars = 400;
  const auto scalars = edge_scalars<C>(vars, rng);
  DensityBitmap density(vars);
  for (std::size_t i = 0; i < vars; ++i) density.set(i, rng.next() % 3 != 0);
  const auto bases = points<C>(density.popcount(), rng);
  std::vector<typename C::Scalar> selected;
  for (std::size_t i = 0; i < vars; ++i) {
    if (density.test(i)) selected.push_back(scalars[i]);
  }
  const auto expect = msm_naive<C>(bases, selected);
  for (std::size_t chunk : {std::size_t{7}, std::size_t{1} << 16}) {
    auto r = msm_filtered<C>(bases, scalars, density, {.chunk_points = chunk, .endomorphism = Endomorphism::kOn});
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(*r, expect) << "chunk " << chunk;
  }
}

TYPED_TEST(MsmGlvTest, OneTwoAndEightThreadsAgreeWithAndWithoutTheSplit) {
  using C = TypeParam;
  auto rng = test::rng(2214);
  const std::size_t n = 5000;  // several splits per window and, with chunks of 1500, several chunks
  const auto bases = points<C>(n, rng);
  const auto scalars = edge_scalars<C>(n, rng);
  auto at = [&](int threads, Endomorphism e) {
    tbb::task_arena arena(threads);
    Jacobian<C> out;
    arena.execute([&] { out = run<C>(bases, scalars, {.chunk_points = 1500}, e); });
    return out;
  };
  const auto expect = at(1, Endomorphism::kOff);
  for (int threads : {1, 2, 8}) {
    EXPECT_EQ(at(threads, Endomorphism::kOn), expect) << threads << " threads";
    EXPECT_EQ(at(threads, Endomorphism::kOff), expect) << threads << " threads";
  }
}

}  // namespace
}  // namespace zk::msm
