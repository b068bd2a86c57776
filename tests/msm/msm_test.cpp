// Pippenger against the naive sum, written once for G1 and G2 of both curves: edge sizes, every
// window width, both accumulators, zero/one/extreme scalars, identity and repeated bases, density
// filtering, errors, and thread-count independence.

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "curve/bls12_381.hpp"
#include "curve/bn254.hpp"
#include "msm/pippenger.hpp"
#include "test_util.hpp"

namespace zk::msm {
namespace {

using curve::Affine;
using curve::Jacobian;

template <class C>
std::vector<Affine<C>> random_points(std::size_t n, Rng& rng) {
  std::vector<Jacobian<C>> pts;
  pts.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i < 8) {
      pts.push_back(Jacobian<C>::random(rng));
    } else {  // cheap but unstructured: the previous point plus a random earlier one
      pts.push_back(pts[i - 1] + pts[rng.next() % i]);
    }
  }
  return curve::batch_to_affine<C>(pts);
}

template <class C>
std::vector<typename C::Scalar> random_scalars(std::size_t n, Rng& rng) {
  std::vector<typename C::Scalar> s(n);
  for (auto& x : s) x = C::Scalar::random(rng);
  return s;
}

template <class C>
Jacobian<C> run_msm(const std::vector<Affine<C>>& bases, const std::vector<typename C::Scalar>& scalars,
                    const MsmConfig& config = {}) {
  auto r = msm<C>(bases, scalars, config);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return r.ok() ? *r : Jacobian<C>::identity();
}

template <class C>
class MsmTest : public ::testing::Test {};
using Groups = ::testing::Types<curve::Bls12_381G1, curve::Bls12_381G2, curve::Bn254G1, curve::Bn254G2>;
TYPED_TEST_SUITE(MsmTest, Groups);

TYPED_TEST(MsmTest, MatchesNaiveSumAtEdgeSizes) {
  using C = TypeParam;
  auto rng = test::rng(21);
  for (std::size_t n : {0, 1, 2, 3, 5, 7, 31, 32, 33, 63, 64, 65, 127, 128, 129}) {
    const auto bases = random_points<C>(n, rng);
    const auto scalars = random_scalars<C>(n, rng);
    EXPECT_EQ(run_msm<C>(bases, scalars), msm_naive<C>(bases, scalars)) << "n = " << n;
  }
}

TYPED_TEST(MsmTest, EveryWindowWidthAndBothAccumulatorsAgree) {
  using C = TypeParam;
  auto rng = test::rng(22);
  const std::size_t n = 77;
  const auto bases = random_points<C>(n, rng);
  const auto scalars = random_scalars<C>(n, rng);
  const auto expect = msm_naive<C>(bases, scalars);
  for (unsigned c : {1u, 2u, 3u, 4u, 7u, 8u, 10u, 13u, 16u}) {
    for (Accumulation acc : {Accumulation::kXyzz, Accumulation::kBatchAffine}) {
      // Small batches and chunks force many batch flushes, queued conflicts and several chunks.
      const MsmConfig config{.window_bits = c, .accumulation = acc, .chunk_points = 16, .batch_size = 4};
      EXPECT_EQ(run_msm<C>(bases, scalars, config), expect) << "c = " << c << " acc " << static_cast<int>(acc);
    }
  }
}

TYPED_TEST(MsmTest, ZeroOneAndExtremeScalars) {
  using C = TypeParam;
  using S = typename C::Scalar;
  auto rng = test::rng(23);
  const std::size_t n = 200;
  const auto bases = random_points<C>(n, rng);
  std::vector<S> zeros(n, S::zero());
  EXPECT_TRUE(run_msm<C>(bases, zeros).is_identity());

  // Mostly bits, like a Groth16 witness, plus r - 1 and values with long runs of ones (carries).
  std::vector<S> s(n);
  for (std::size_t i = 0; i < n; ++i) s[i] = (rng.next() % 3 == 0) ? S::one() : S::zero();
  s[5] = -S::one();
  s[6] = -S::from_u64(2);
  s[7] = S::from_u64(~std::uint64_t{0});
  s[8] = S::from_u64(std::uint64_t{1} << 63);
  for (unsigned c : {0u, 5u, 12u}) {
    const MsmConfig config{.window_bits = c, .accumulation = Accumulation::kAuto, .chunk_points = 64, .batch_size = 8};
    EXPECT_EQ(run_msm<C>(bases, s, config), msm_naive<C>(bases, s)) << "c = " << c;
  }
}

TYPED_TEST(MsmTest, IdentityAndRepeatedBases) {
  using C = TypeParam;
  auto rng = test::rng(24);
  const std::size_t n = 150;
  auto bases = random_points<C>(n, rng);
  for (std::size_t i = 0; i < n; i += 7) bases[i] = Affine<C>::identity();
  for (std::size_t i = 1; i < n; i += 5) bases[i] = bases[3];         // repeats: doublings in buckets
  for (std::size_t i = 2; i < n; i += 11) bases[i] = bases[3].neg();  // negations: cancellations
  auto scalars = random_scalars<C>(n, rng);
  for (std::size_t i = 4; i < n; i += 13) scalars[i] = scalars[1];  // same base, same scalar
  const auto expect = msm_naive<C>(bases, scalars);
  for (Accumulation acc : {Accumulation::kXyzz, Accumulation::kBatchAffine}) {
    for (unsigned c : {3u, 10u}) {
      const MsmConfig config{.window_bits = c, .accumulation = acc, .chunk_points = 1 << 16, .batch_size = 16};
      EXPECT_EQ(run_msm<C>(bases, scalars, config), expect) << "c = " << c;
    }
  }
  // All bases equal and all scalars equal: k n P.
  const std::vector<Affine<C>> same(40, bases[3]);
  const std::vector<typename C::Scalar> k(40, scalars[0]);
  const MsmConfig ba{
      .window_bits = 10, .accumulation = Accumulation::kBatchAffine, .chunk_points = 1 << 16, .batch_size = 8};
  EXPECT_EQ(run_msm<C>(same, k, ba), bases[3].to_jacobian() * (scalars[0] * C::Scalar::from_u64(40)));
}

// Bases in a zkey's layout (curve::PackedAffine: no flag, the identity as (0, 0)) stored at an
// address that is not 8-byte aligned, as half of a mapped zkey's sections are: the same sums as the
// Affine bases, with identities, repeats and negations, mostly-unit and random scalars, GLV on and
// off, both accumulators and several chunks (the GLV phi buffer is in the packed layout too).
TYPED_TEST(MsmTest, PackedUnalignedBasesGiveTheSameSums) {
  using C = TypeParam;
  using S = typename C::Scalar;
  using Packed = curve::PackedAffine<C>;
  auto rng = test::rng(31);
  const std::size_t n = 5000;
  auto bases = random_points<C>(n, rng);
  for (std::size_t i = 0; i < n; i += 7) bases[i] = Affine<C>::identity();
  for (std::size_t i = 1; i < n; i += 50) bases[i] = bases[3];
  for (std::size_t i = 2; i < n; i += 61) bases[i] = bases[3].neg();
  std::vector<unsigned char> storage(4 + n * sizeof(Packed));
  for (std::size_t i = 0; i < n; ++i) {
    const Packed p = Packed::from_affine(bases[i]);
    std::memcpy(storage.data() + 4 + i * sizeof(Packed), &p, sizeof(Packed));
  }
  const std::span<const Packed> packed(reinterpret_cast<const Packed*>(storage.data() + 4), n);
  ASSERT_NE(reinterpret_cast<std::uintptr_t>(packed.data()) % 8, 0u);
  EXPECT_TRUE(packed[0].is_identity());
  EXPECT_FALSE(packed[3].is_identity());
  EXPECT_EQ(packed[3].to_affine(), bases[3]);
  auto random = random_scalars<C>(n, rng);
  std::vector<S> bits(n);
  for (std::size_t i = 0; i < n; ++i) bits[i] = i % 97 == 0 ? random[i] : (rng.next() % 2 == 0 ? S::one() : S::zero());
  for (const auto* scalars : {&random, &bits}) {
    const auto expect = run_msm<C>(bases, *scalars);
    for (Endomorphism glv : {Endomorphism::kOff, Endomorphism::kOn}) {
      for (Accumulation acc : {Accumulation::kXyzz, Accumulation::kBatchAffine}) {
        const MsmConfig config{.accumulation = acc, .chunk_points = 1024, .batch_size = 32, .endomorphism = glv};
        auto r = msm<C>(packed, std::span<const S>(*scalars), config);
        ASSERT_TRUE(r.ok());
        EXPECT_EQ(*r, expect) << "glv " << static_cast<int>(glv) << " acc " << static_cast<int>(acc);
      }
    }
    auto r = msm<C>(packed, std::span<const S>(*scalars));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(*r, expect);
  }
  auto short_scalars = msm<C>(packed.first(n - 1), std::span<const S>(random));
  EXPECT_FALSE(short_scalars.ok());
}

// The segmented bucket reduction (affine, batched across segments) against the serial running sum,
// on bucket patterns that reach every case of add_affine_pairwise: empty buckets (copies, skips), an
// empty bucket right after a segment's first one (total = running: a doubling), a bucket that
// cancels the running sum above it, and a partial last segment.
TYPED_TEST(MsmTest, SegmentedBucketReductionEqualsTheSerialOne) {
  using C = TypeParam;
  auto rng = test::rng(31);
  const auto pts = random_points<C>(64, rng);
  for (const std::size_t count : {std::size_t{512}, std::size_t{1000}, std::size_t{4096}}) {
    AffineBuckets<C> buckets(count, 64);
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t r = rng.next() % 8;
      if (r == 0) continue;                     // empty
      if (r == 1 && k % 3 == 0) continue;       // more empties
      buckets.add(static_cast<std::uint32_t>(k), pts[rng.next() % pts.size()], rng.next() % 2 == 0);
      if (r == 2) buckets.add(static_cast<std::uint32_t>(k), pts[k % pts.size()], false);
    }
    // Bucket 40 cancels bucket 41 (= P): the running sum of their segment returns to the identity.
    AffineBuckets<C> cancel(count, 64);
    cancel.add(41, pts[5], false);
    cancel.add(40, pts[5], true);
    cancel.add(7, pts[6], false);
    // Sparse: a segment's first bucket followed by empty ones (total = running: doublings).
    AffineBuckets<C> sparse(count, 64);
    for (std::size_t k = 3; k < count; k += 37) sparse.add(static_cast<std::uint32_t>(k), pts[k % pts.size()], false);
    for (AffineBuckets<C>* b : {&buckets, &cancel, &sparse}) {
      b->finish();
      EXPECT_EQ(b->reduce(), b->reduce_serial()) << "count = " << count;
    }
  }
}

TYPED_TEST(MsmTest, LargerRandomMsmUsesTheDefaultPlan) {
  using C = TypeParam;
  auto rng = test::rng(25);
  const std::size_t n = (std::size_t{1} << 10) + 1;
  const auto bases = random_points<C>(n, rng);
  const auto scalars = random_scalars<C>(n, rng);
  const auto expect = msm_naive<C>(bases, scalars);
  EXPECT_EQ(run_msm<C>(bases, scalars), expect);
  EXPECT_EQ(run_msm<C>(bases, scalars, {.window_bits = 11, .accumulation = Accumulation::kBatchAffine}), expect);
}

TYPED_TEST(MsmTest, DensityFilteredMsmUsesOnlyTheSetPositions) {
  using C = TypeParam;
  auto rng = test::rng(26);
  const std::size_t vars = 300;
  const auto scalars = random_scalars<C>(vars, rng);
  DensityBitmap density(vars);
  for (std::size_t i = 0; i < vars; ++i) density.set(i, rng.next() % 4 != 0 || i == 0 || i == 64);
  const auto bases = random_points<C>(density.popcount(), rng);
  std::vector<typename C::Scalar> selected;
  for (std::size_t i = 0; i < vars; ++i) {
    if (density.test(i)) selected.push_back(scalars[i]);
  }
  const auto expect = msm_naive<C>(bases, selected);
  for (std::size_t chunk : {std::size_t{7}, std::size_t{64}, std::size_t{1} << 16}) {
    auto r = msm_filtered<C>(bases, scalars, density, {.chunk_points = chunk});
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(*r, expect) << "chunk " << chunk;
  }
  // Empty and full densities.
  DensityBitmap none(vars);
  auto r0 = msm_filtered<C>(std::span<const Affine<C>>(), scalars, none);
  ASSERT_TRUE(r0.ok());
  EXPECT_TRUE(r0->is_identity());
  DensityBitmap all(5, true);
  const auto b5 = random_points<C>(5, rng);
  auto r5 = msm_filtered<C>(b5, std::span<const typename C::Scalar>(scalars).first(5), all);
  ASSERT_TRUE(r5.ok());
  EXPECT_EQ(*r5, msm_naive<C>(b5, std::vector<typename C::Scalar>(scalars.begin(), scalars.begin() + 5)));
}

TYPED_TEST(MsmTest, MostlyUnitScalarsGetUnitTasksAndTheSameSum) {
  // A witness of bits: 1s, 0s, some -1s and a few full values, over a few identity bases. The plan
  // from its census windows only the heavy scalars and adds the units in unit tasks (per thread,
  // over slices of every chunk); dense and compact scalars, several chunk sizes and thread counts
  // all give the naive sum.
  using C = TypeParam;
  using S = typename C::Scalar;
  auto rng = test::rng(30);
  const std::size_t n = 3 * kPointsPerUnitTask + 17;  // room for 3 unit tasks
  auto bases = random_points<C>(n, rng);
  for (std::size_t i = 5; i < n; i += 401) bases[i] = Affine<C>::identity();
  std::vector<S> dense(n);
  CompactColumn<S> compact;
  for (std::size_t i = 0; i < n; ++i) {
    const auto r = rng.next() % 40;
    dense[i] = r < 20 ? S::one() : r < 37 ? S::zero() : r < 39 ? -S::one() : S::random(rng);
    compact.push_back(dense[i]);
  }
  const auto expect = msm_naive<C>(bases, dense);
  const detail::ScalarIndex all;
  const ScalarCensus census = detail::census_of(ScalarSource<S>(std::span<const S>(dense)), all, n);
  EXPECT_GT(census.units, n / 3);
  EXPECT_LT(census.heavy, n / 10);
  const MsmPlan plain = make_plan<C>(n, {}, 3), planned = make_plan<C>(n, {}, 3, &census);
  EXPECT_EQ(plain.unit_tasks, 0u);
  EXPECT_EQ(planned.unit_tasks, 3u);
  EXPECT_LE(planned.window_bits, plain.window_bits) << "windows for the heavy scalars alone";
  EXPECT_LE(scratch_bytes<C>(planned), scratch_bytes<C>(plain)) << "the bound without a census covers it";
  for (int threads : {1, 2, 3}) {
    tbb::task_arena arena(threads);
    arena.execute([&] {
      for (std::size_t chunk : {std::size_t{333}, std::size_t{1} << 16}) {
        auto d = msm<C>(bases, dense, {.chunk_points = chunk});
        auto k = msm<C>(bases, compact, {.chunk_points = chunk});
        ASSERT_TRUE(d.ok() && k.ok());
        EXPECT_EQ(*d, expect) << threads << " threads, chunk " << chunk;
        EXPECT_EQ(*k, expect) << threads << " threads, chunk " << chunk << " (compact)";
      }
    });
  }
}

// The unit tasks' shares of a chunk: every task gets the same share of the chunk's own points (where
// every scalar 1 is a digit) and of phi's half with GLV, and together they cover both halves once.
// Shares of the whole GLV stride gave every unit to the first half of the tasks (one of two threads
// added them all: a 2-thread MSM of ones took as long as a 1-thread one).
TEST(MsmUnitShares, EveryTaskGetsItsShareOfEachHalf) {
  for (std::size_t len : {std::size_t{1}, std::size_t{333}, std::size_t{1} << 16}) {
    for (std::size_t tasks : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{16}}) {
      for (std::size_t fan : {std::size_t{1}, std::size_t{2}}) {
        std::vector<int> covered(fan * len, 0);
        for (std::size_t u = 0; u < tasks; ++u) {
          for (std::size_t half = 0; half < fan; ++half) {
            const auto [begin, end] = detail::unit_share(len, half, u, tasks);
            ASSERT_LE(begin, end);
            ASSERT_LE(end, fan * len);
            EXPECT_GE(begin, half * len) << "the share stays in its half";
            EXPECT_LE(end, (half + 1) * len) << "the share stays in its half";
            EXPECT_LE(end - begin, len / tasks + 1) << len << " points, " << tasks << " tasks, task " << u;
            EXPECT_GE(end - begin, len / tasks) << len << " points, " << tasks << " tasks, task " << u;
            for (std::size_t j = begin; j < end; ++j) ++covered[j];
          }
        }
        EXPECT_EQ(std::count(covered.begin(), covered.end(), 1), static_cast<long>(fan * len)) << len << " " << tasks;
      }
    }
  }
}

TYPED_TEST(MsmTest, DenseScalarsWithSomeOnesGetUnitTasksFromTheSample) {
  // Random scalars with ~15 % ones: the census takes its sampling shortcut (mostly heavy) and still
  // estimates the ones, so they get unit tasks instead of all landing in bucket 0 of window 0; the
  // sum is the naive one. Without ones the plan has no unit tasks.
  using C = TypeParam;
  using S = typename C::Scalar;
  auto rng = test::rng(31);
  const std::size_t n = 3 * kPointsPerUnitTask + 5;
  const auto bases = random_points<C>(n, rng);
  std::vector<S> scalars(n), heavy(n);
  for (std::size_t i = 0; i < n; ++i) {
    heavy[i] = S::random(rng);
    scalars[i] = rng.next() % 100 < 15 ? S::one() : heavy[i];
  }
  const detail::ScalarIndex all;
  const ScalarCensus census = detail::census_of(ScalarSource<S>(std::span<const S>(scalars)), all, n);
  EXPECT_GT(census.units, n / 20);
  EXPECT_LT(census.units, n / 4);
  EXPECT_EQ(census.units + census.heavy, n);
  EXPECT_EQ(make_plan<C>(n, {}, 3, &census).unit_tasks, 3u);
  const ScalarCensus none = detail::census_of(ScalarSource<S>(std::span<const S>(heavy)), all, n);
  EXPECT_EQ(none.units, 0u);
  EXPECT_EQ(make_plan<C>(n, {}, 3, &none).unit_tasks, 0u);
  const auto expect = msm_naive<C>(bases, scalars);
  for (int threads : {1, 3}) {
    tbb::task_arena arena(threads);
    arena.execute([&] {
      auto r = msm<C>(bases, scalars);
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(*r, expect) << threads << " threads";
    });
  }
}

TYPED_TEST(MsmTest, CompactScalarsGiveTheSameSumAsTheirDenseValues) {
  // A witness-like mix (mostly 0 and 1, some small and full values) as a CompactColumn: the whole
  // MSM and the density-filtered one equal the dense vector's, across chunks and rank words.
  using C = TypeParam;
  using S = typename C::Scalar;
  auto rng = test::rng(29);
  const std::size_t vars = 1000;
  std::vector<S> dense(vars);
  CompactColumn<S> compact;
  for (std::size_t i = 0; i < vars; ++i) {
    const auto r = rng.next() % 16;
    dense[i] = r < 7 ? S::zero() : r < 14 ? S::one() : r == 14 ? S::from_u64(2 + rng.next() % 1000) : S::random(rng);
    compact.push_back(dense[i]);
  }
  ASSERT_GT(compact.others(), 0u);
  const auto bases = random_points<C>(vars, rng);
  for (std::size_t chunk : {std::size_t{7}, std::size_t{100}, std::size_t{1} << 16}) {
    auto r = msm<C>(bases, compact, {.chunk_points = chunk});
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(*r, msm_naive<C>(bases, dense)) << "chunk " << chunk;
  }
  DensityBitmap density(vars);
  for (std::size_t i = 0; i < vars; ++i) density.set(i, rng.next() % 3 != 0);
  const auto fbases = random_points<C>(density.popcount(), rng);
  auto want = msm_filtered<C>(fbases, dense, density);
  auto got = msm_filtered<C>(fbases, compact, density, {.chunk_points = 64});
  ASSERT_TRUE(want.ok() && got.ok());
  EXPECT_EQ(*got, *want);
  EXPECT_EQ(msm<C>(std::span(bases).first(vars - 1), compact).status().code(), StatusCode::kInvalidArgument);
}

TYPED_TEST(MsmTest, MismatchedSizesAreRejected) {
  using C = TypeParam;
  auto rng = test::rng(27);
  const auto bases = random_points<C>(3, rng);
  const auto scalars = random_scalars<C>(4, rng);
  EXPECT_EQ(msm<C>(bases, scalars).status().code(), StatusCode::kInvalidArgument);
  DensityBitmap density(4);
  density.set(0);
  EXPECT_EQ(msm_filtered<C>(bases, scalars, density).status().code(), StatusCode::kInvalidArgument);
  DensityBitmap short_density(3, true);
  EXPECT_EQ(msm_filtered<C>(bases, scalars, short_density).status().code(), StatusCode::kInvalidArgument);
}

TYPED_TEST(MsmTest, OneThreadAndManyThreadsAgree) {
  using C = TypeParam;
  auto rng = test::rng(28);
  const std::size_t n = 3000;
  const auto bases = random_points<C>(n, rng);
  const auto scalars = random_scalars<C>(n, rng);
  auto run = [&](int threads) {
    tbb::task_arena arena(threads);
    Jacobian<C> out;
    arena.execute([&] { out = run_msm<C>(bases, scalars, {.chunk_points = 1000}); });
    return out;
  };
  const auto one = run(1);
  EXPECT_EQ(one, run(2));
  EXPECT_EQ(one, run(8));
}

TEST(MsmPlan, WindowGrowsWithSizeAndScratchIsBounded) {
  using C = curve::Bls12_381G1;
  unsigned last = 0;
  for (unsigned log_n = 4; log_n <= 26; log_n += 2) {
    const MsmPlan plan = make_plan<C>(std::size_t{1} << log_n, {}, 2);
    EXPECT_GE(plan.window_bits, last);
    last = plan.window_bits;
    EXPECT_GE(plan.windows * plan.window_bits, plan.scalar_bits + 1);
    EXPECT_EQ(plan.scalar_bits, plan.glv ? curve::GlvParams<C>::kBits : C::Scalar::kBits);
    // Chunking bounds the digit scratch regardless of n.
    EXPECT_LE(scratch_bytes<C>(plan), std::size_t{512} << 20) << log_n;
  }
}

// The window cost model (digits.hpp): properties that follow from its form, not pinned choices.
template <class C>
class WindowModelTest : public ::testing::Test {};
TYPED_TEST_SUITE(WindowModelTest, Groups);

TYPED_TEST(WindowModelTest, ChoiceIsMonotoneInTheNumberOfPoints) {
  using C = TypeParam;
  const WindowCosts costs = window_costs<C>();
  // (bits, log2 of the scalars' size) as make_plan passes them: unsplit, and the GLV halves.
  std::vector<std::pair<unsigned, double>> shapes = {{C::Scalar::kBits, 0}};
  if constexpr (curve::HasGlv<C>) shapes.emplace_back(curve::GlvParams<C>::kBits, glv_scalar_log2<C>());
  for (const auto& [bits, log2] : shapes) {
    unsigned last = 1;
    bool last_affine = false;
    for (double x = 1; x <= 0x1p28; x *= 1.09) {
      const auto n = static_cast<std::size_t>(x);
      const WindowChoice choice = choose_window(n, bits, costs, log2);
      EXPECT_GE(choice.c, last) << "n = " << n << ", " << bits << " bits";
      EXPECT_LE(choice.c, max_window(costs));
      // Once batch-affine buckets win they keep winning: the inversion's share only shrinks with n.
      EXPECT_TRUE(choice.batch_affine || !last_affine) << "n = " << n;
      last = choice.c, last_affine = choice.batch_affine;
    }
  }
}

TYPED_TEST(WindowModelTest, CapKeepsOneWindowsBucketsWithinTheBudget) {
  using C = TypeParam;
  const WindowCosts costs = window_costs<C>();
  const unsigned max_c = max_window(costs);
  EXPECT_LE(std::ldexp(costs.affine_bytes, static_cast<int>(max_c) - 1), costs.max_bucket_bytes);
  EXPECT_GT(std::ldexp(costs.affine_bytes, static_cast<int>(max_c)), costs.max_bucket_bytes);
  // However many points: the cap holds, and the window grows to near it (one below where c - 1
  // divides the bits better, e.g. 16 | 256).
  const unsigned c = choose_window(std::size_t{1} << 34, C::Scalar::kBits, costs).c;
  EXPECT_LE(c, max_c);
  EXPECT_GE(c + 1, max_c);
}

TEST(WindowModel, G2BucketsAreTwiceTheSizeSoItsCapIsOneLower) {
  EXPECT_EQ(max_window(window_costs<curve::Bls12_381G2>()) + 1, max_window(window_costs<curve::Bls12_381G1>()));
}

TEST(WindowModel, ConflictsGrowWithTheBatchAgainstTheBuckets) {
  EXPECT_EQ(conflicts_per_add(1e-12, 4096), 0.0);
  double last = 0;
  for (double batch = 32; batch <= 2048; batch *= 2) {
    const double q = conflicts_per_add(batch, 4096);
    EXPECT_GT(q, last);
    EXPECT_GE(q, batch / 4096 / 2);  // -ln(1 - rho) / rho - 1 >= rho / 2
    last = q;
  }
}

}  // namespace
}  // namespace zk::msm
