// The CUDA kernels' arithmetic and per-thread bodies, compiled as plain C++ and run on the CPU
// against zkpipe's CPU implementation (the reference): device field arithmetic for all four fields,
// G1 XYZZ formulas for both curves, the NTT's permutation / butterfly / inverse / coset bodies
// emulating the grid, and the MSM's key / sort / bucket / window-chunk pipeline. This runs where
// no GPU is present; tests labelled `gpu` run the kernels themselves.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "curve/bls12_381.hpp"
#include "curve/bn254.hpp"
#include "curve/cuda/dev_point.hpp"
#include "field/cuda/carry_chain.hpp"
#include "field/cuda/dev_field.hpp"
#include "field/fields.hpp"
#include "msm/compact_column.hpp"
#include "msm/cuda/msm_body.hpp"
#include "msm/density.hpp"
#include "msm/cuda/msm_raw.hpp"
#include "msm/pippenger.hpp"
#include "ntt/cuda/ntt_body.hpp"
#include "ntt/gpu_ntt.hpp"
#include "ntt/ntt.hpp"
#include "ntt/quotient.hpp"
#include "test_util.hpp"

namespace zk::gpu {
namespace {

template <class F>
DevField<typename F::Params> dev(const F& x) {
  return DevField<typename F::Params>::from_raw(x.mont().data());
}
template <class F>
F host(const DevField<typename F::Params>& d) {
  typename F::Repr r{};
  std::memcpy(r.data(), d.v, sizeof(d.v));
  return F::from_mont(r);
}

template <class F>
class DevFieldTest : public ::testing::Test {};
using Fields = ::testing::Types<field::Bls12_381Fr, field::Bls12_381Fq, field::Bn254Fr, field::Bn254Fq>;
TYPED_TEST_SUITE(DevFieldTest, Fields);

TYPED_TEST(DevFieldTest, MatchesTheCpuField) {
  using F = TypeParam;
  auto rng = test::rng(301);
  std::vector<F> xs = {F::zero(), F::one(), -F::one(), F::from_u64(2), -F::from_u64(2)};
  for (int i = 0; i < 200; ++i) xs.push_back(F::random(rng));
  for (const auto& a : xs) {
    for (const auto& b : {xs[static_cast<std::size_t>(rng() % xs.size())], xs[1], xs[2], a}) {
      EXPECT_EQ(host<F>(dev(a) + dev(b)), a + b);
      EXPECT_EQ(host<F>(dev(a) - dev(b)), a - b);
      EXPECT_EQ(host<F>(dev(a) * dev(b)), a * b);
    }
    EXPECT_EQ(host<F>(dev(a).square()), a.square());
    EXPECT_EQ(host<F>(-dev(a)), -a);
    EXPECT_EQ(host<F>(dev(a).pow(12345)), a.pow(12345));
    EXPECT_EQ(dev(a).is_zero(), a.is_zero());
    // to_canonical gives the canonical limbs.
    const auto c = dev(a).to_canonical();
    const auto ref = a.to_canonical();
    EXPECT_TRUE(std::equal(ref.begin(), ref.end(), c.v));
  }
  EXPECT_EQ(host<F>(DevField<typename F::Params>::one()), F::one());
}

// Operands whose 32-bit limbs make every carry chain of the product and the square run long: Montgomery limbs
// p - 1, p - 2, all-ones halves just below p, powers of two at each 32-bit boundary, and their
// neighbours.
template <class F>
std::vector<F> edge_operands() {
  using Repr = typename F::Repr;
  const Repr p = F::Params::kModulus;
  std::vector<Repr> raw;
  for (std::uint64_t d : {1ull, 2ull, 3ull, 1ull << 32, (1ull << 32) + 1}) {
    Repr r = p;
    r[0] -= d;  // p's lowest limb is above 2^33 for all four fields
    raw.push_back(r);
  }
  for (std::size_t bit = 0; bit + 1 < 64 * F::kLimbs - 1; bit += 32) {
    Repr r{};
    r[bit / 64] = std::uint64_t{1} << (bit % 64);
    raw.push_back(r);
    Repr below{};  // 2^bit - 1: all ones under the boundary
    for (std::size_t k = 0; k < bit / 64; ++k) below[k] = ~std::uint64_t{0};
    if (bit % 64 != 0) below[bit / 64] = (std::uint64_t{1} << (bit % 64)) - 1;
    raw.push_back(below);
  }
  Repr halves = p;  // p with every 32-bit half but the top one set to all ones, if still below p
  for (std::size_t k = 0; k + 1 < F::kLimbs; ++k) halves[k] = ~std::uint64_t{0};
  halves[F::kLimbs - 1] -= 1;
  raw.push_back(halves);
  std::vector<F> xs;
  for (const Repr& r : raw) {
    if (field::cmp_limbs(r, p) < 0) xs.push_back(F::from_mont(r));
  }
  return xs;
}

// Each edge operand against all the others.
TYPED_TEST(DevFieldTest, MatchesTheCpuFieldAtTheCarryEdges) {
  using F = TypeParam;
  const std::vector<F> xs = edge_operands<F>();
  ASSERT_GT(xs.size(), 10u);
  for (const F& a : xs) {
    EXPECT_EQ(host<F>(dev(a).square()), a.square());  // the square's own chains (cross products, SOS)
    for (const F& b : xs) {
      EXPECT_EQ(host<F>(dev(a) * dev(b)), a * b);
      EXPECT_EQ(host<F>(dev(a) + dev(b)), a + b);
      EXPECT_EQ(host<F>(dev(a) - dev(b)), a - b);
    }
  }
}

// The host emulation of the PTX steps: carries and borrows in and out of each step.
TEST(CarryChain, StepsCarryAndBorrowAsPtxDefinesThem) {
  CarryChain cc;
  constexpr std::uint32_t kMax = 0xffffffffu;
  EXPECT_EQ(cc.add_cc(kMax, 1), 0u);
  EXPECT_EQ(cc.cf, 1u);
  EXPECT_EQ(cc.addc_cc(kMax, 0), 0u);  // kMax + 0 + carry
  EXPECT_EQ(cc.cf, 1u);
  EXPECT_EQ(cc.addc(5, 6), 12u);
  EXPECT_EQ(cc.add_cc(1, 2), 3u);
  EXPECT_EQ(cc.cf, 0u);
  EXPECT_EQ(cc.sub_cc(0, 1), kMax);
  EXPECT_EQ(cc.cf, 1u);  // borrow
  EXPECT_EQ(cc.subc_cc(5, 5), kMax);  // 5 - 5 - borrow
  EXPECT_EQ(cc.cf, 1u);
  EXPECT_EQ(cc.subc(0, 0), kMax);  // the all-ones mask of a borrow
  EXPECT_EQ(cc.sub_cc(7, 7), 0u);
  EXPECT_EQ(cc.cf, 0u);
  EXPECT_EQ(cc.subc(0, 0), 0u);
  // (2^32 - 1)^2 = 2^64 - 2^33 + 1: lo 1, hi 2^32 - 2.
  EXPECT_EQ(cc.mad_lo_cc(kMax, kMax, kMax), 0u);  // 1 + kMax
  EXPECT_EQ(cc.cf, 1u);
  EXPECT_EQ(cc.madc_hi_cc(kMax, kMax, 0), kMax);  // 2^32 - 2 + 0 + carry
  EXPECT_EQ(cc.cf, 0u);
  EXPECT_EQ(cc.mad_hi_cc(kMax, kMax, 2), 0u);  // 2^32 - 2 + 2
  EXPECT_EQ(cc.cf, 1u);
  EXPECT_EQ(cc.madc_lo_cc(3, 4, kMax - 12), 0u);  // 12 + (2^32 - 13) + 1
  EXPECT_EQ(cc.cf, 1u);
  EXPECT_EQ(cc.madc_hi(kMax, kMax, 0), kMax);  // 2^32 - 2 + carry
  EXPECT_EQ(mul_lo(kMax, kMax), 1u);
  EXPECT_EQ(mul_hi(kMax, kMax), kMax - 1);
}

// The device's formation of an MSM's scalars from a compact witness column (msm_gpu.cu's
// expand_compact_kernel, one thread per row): every row, or the rows a density bitmap selects,
// equal CompactColumn::get in order; rows past the column are 0.
TEST(CompactScalars, DeviceExpansionEqualsTheColumn) {
  using F = field::Bls12_381Fr;
  using FP = F::Params;
  auto rng = test::rng(311);
  for (std::size_t rows : {std::size_t{1}, std::size_t{64}, std::size_t{1000}, std::size_t{70000}}) {
    msm::CompactColumn<F> column;
    msm::DensityBitmap density(rows);
    std::vector<F> all, selected;
    for (std::size_t i = 0; i < rows; ++i) {
      const auto r = rng() % 10;
      const F x = r < 5 ? F::zero() : r < 8 ? F::one() : F::random(rng);  // several chunks at 70000
      column.push_back(x);
      all.push_back(x);
      if (rng() % 3 != 0 || i + 1 == rows) {
        density.set(i);
        selected.push_back(x);
      }
    }
    std::vector<msm_body::CompactGroup> groups(column.groups().size());
    std::memcpy(static_cast<void*>(groups.data()), column.groups().data(), groups.size() * sizeof(groups[0]));
    std::vector<DevField<FP>> others;
    for (std::size_t c = 0; c < column.chunk_count(); ++c) {
      for (const auto& x : column.chunk(c)) others.push_back(dev(x));
    }
    std::vector<std::uint32_t> before;
    std::uint32_t acc = 0;
    for (auto w : density.words()) before.push_back(acc), acc += static_cast<std::uint32_t>(__builtin_popcountll(w));
    // Every row, padded by 5 rows.
    std::vector<DevField<FP>> dense(rows + 5, DevField<FP>::one());
    for (std::size_t i = 0; i < dense.size(); ++i) {
      msm_body::expand_compact_row(groups.data(), others.data(), rows, nullptr, nullptr, i, dense.data());
    }
    for (std::size_t i = 0; i < rows; ++i) ASSERT_EQ(host<F>(dense[i]), all[i]) << rows << " " << i;
    for (std::size_t i = rows; i < dense.size(); ++i) EXPECT_TRUE(dense[i].is_zero());
    // The selected rows, in order.
    std::vector<DevField<FP>> filtered(selected.size(), DevField<FP>::one());
    for (std::size_t i = 0; i < rows; ++i) {
      msm_body::expand_compact_row(groups.data(), others.data(), rows, density.words().data(), before.data(), i,
                                   filtered.data());
    }
    for (std::size_t j = 0; j < selected.size(); ++j) ASSERT_EQ(host<F>(filtered[j]), selected[j]) << rows << " " << j;
  }
}

// Fq2 on the device (field/cuda/dev_fq2.hpp) against field::Fp2, both curves' extensions: the
// layout (the device reads host Fp2 arrays as they are) and every operation, on random elements and
// on the edges of the base field's carry chains in each coordinate.
template <class F2>
class DevFq2Test : public ::testing::Test {};
using Fq2s = ::testing::Types<field::Fp2<field::Bls12_381Fq>, field::Fp2<field::Bn254Fq>>;
TYPED_TEST_SUITE(DevFq2Test, Fq2s);

template <class F2>
DevFq2<typename F2::Base::Params> dev2(const F2& x) {
  return {dev(x.c0), dev(x.c1)};
}
template <class F2>
F2 host2(const DevFq2<typename F2::Base::Params>& d) {
  return {host<typename F2::Base>(d.c0), host<typename F2::Base>(d.c1)};
}

TYPED_TEST(DevFq2Test, MatchesTheCpuExtension) {
  using F2 = TypeParam;
  using F = typename F2::Base;
  static_assert(sizeof(DevFq2<typename F::Params>) == sizeof(F2));
  auto rng = test::rng(305);
  std::vector<F> base = {F::zero(), F::one(), -F::one(), F::from_u64(2)};
  for (const auto& e : edge_operands<F>()) base.push_back(e);
  std::vector<F2> xs = {F2::zero(), F2::one()};
  for (std::size_t i = 0; i < base.size(); ++i) xs.push_back({base[i], base[(i * 7 + 3) % base.size()]});
  for (int i = 0; i < 24; ++i) xs.push_back(F2::random(rng));
  for (const auto& a : xs) {
    EXPECT_EQ(host2<F2>(dev2(a).square()), a.square());
    EXPECT_EQ(host2<F2>(-dev2(a)), -a);
    EXPECT_EQ(host2<F2>(dev2(a).dbl()), a + a);
    EXPECT_EQ(dev2(a).is_zero(), a.is_zero());
    const auto c = dev2(a).to_canonical();
    EXPECT_EQ(std::memcmp(c.c0.v, a.c0.to_canonical().data(), sizeof(c.c0.v)), 0);
    EXPECT_EQ(std::memcmp(c.c1.v, a.c1.to_canonical().data(), sizeof(c.c1.v)), 0);
    for (int k = 0; k < 6; ++k) {
      const F2& b = xs[static_cast<std::size_t>(rng() % xs.size())];
      EXPECT_EQ(host2<F2>(dev2(a) * dev2(b)), a * b);
      EXPECT_EQ(host2<F2>(dev2(a) + dev2(b)), a + b);
      EXPECT_EQ(host2<F2>(dev2(a) - dev2(b)), a - b);
      EXPECT_EQ(dev2(a) == dev2(b), a == b);
    }
  }
}

template <class C>
using DA = DevAffine<DeviceTag<typename C::Field>>;
template <class C>
using DX = DevXyzz<DeviceTag<typename C::Field>>;

template <class C>
DA<C> dev_affine(const curve::Affine<C>& p) {
  static_assert(sizeof(DA<C>) == sizeof(curve::Affine<C>));
  DA<C> d;
  std::memcpy(static_cast<void*>(&d), &p, sizeof(d));
  return d;
}
template <class C>
curve::Jacobian<C> host_point(const DX<C>& d) {
  static_assert(sizeof(DX<C>) == sizeof(curve::Xyzz<C>));
  curve::Xyzz<C> x;
  std::memcpy(static_cast<void*>(&x), &d, sizeof(d));
  return x.to_jacobian();
}

// The device's XYZZ formulas on every group, G2 (over DevFq2) included.
template <class C>
class DevCurveTest : public ::testing::Test {};
using AllGroups = ::testing::Types<curve::Bls12_381G1, curve::Bn254G1, curve::Bls12_381G2, curve::Bn254G2>;
TYPED_TEST_SUITE(DevCurveTest, AllGroups);

TYPED_TEST(DevCurveTest, MatchesTheCpuCurve) {
  using C = TypeParam;
  using J = curve::Jacobian<C>;
  auto rng = test::rng(302);
  const J g = J::generator();
  std::vector<curve::Affine<C>> pts = {curve::Affine<C>::identity(), g.to_affine()};
  for (int i = 0; i < 20; ++i) pts.push_back((g * C::Scalar::random(rng)).to_affine());
  for (const auto& p : pts) {
    for (const auto& q : {pts[static_cast<std::size_t>(rng() % pts.size())], p, p.neg(), pts[0]}) {
      const auto dp = DX<C>::from_affine(dev_affine(p));
      EXPECT_EQ(host_point<C>(dp.add_mixed(dev_affine(q))), p.to_jacobian() + q.to_jacobian());
      EXPECT_EQ(host_point<C>(dp + DX<C>::from_affine(dev_affine(q))), p.to_jacobian() + q.to_jacobian());
    }
    EXPECT_EQ(host_point<C>(DX<C>::from_affine(dev_affine(p)).dbl()), p.to_jacobian().dbl());
    for (std::uint64_t k : {0ull, 1ull, 2ull, 3ull, 65535ull, 1ull << 40}) {
      EXPECT_EQ(host_point<C>(DX<C>::from_affine(dev_affine(p)).mul_small(k)),
                p.to_jacobian() * C::Scalar::from_u64(k));
    }
  }
}

// The G1 kernels' bodies.
template <class C>
class DevPointTest : public ::testing::Test {};
using Curves = ::testing::Types<curve::Bls12_381G1, curve::Bn254G1>;
TYPED_TEST_SUITE(DevPointTest, Curves);

// A .zkey's packed bases unpacked by the device's kernel body (msm_body::unpack_base) equal the
// host's PackedAffine::to_affine: coordinates as stored, the identity (all zero) flagged, a point
// with x = 0 (only y tells it from the identity) not.
TYPED_TEST(DevPointTest, PackedBasesUnpackAsTheHostDoes) {
  using C = TypeParam;
  using J = curve::Jacobian<C>;
  using Fq = typename C::Field;
  auto rng = test::rng(303);
  std::vector<curve::Affine<C>> pts = {curve::Affine<C>::identity(), J::generator().to_affine(),
                                       curve::Affine<C>::from_xy(Fq::zero(), Fq::from_u64(2))};
  for (int i = 0; i < 8; ++i) pts.push_back((J::generator() * C::Scalar::random(rng)).to_affine());
  for (const auto& p : pts) {
    const auto packed = curve::PackedAffine<C>::from_affine(p);
    std::uint64_t words[2 * Fq::kLimbs];  // as the device reads them: aligned words
    static_assert(sizeof(words) == sizeof(packed.bytes));
    std::memcpy(words, packed.bytes, sizeof(words));
    const auto d = gpu::msm_body::unpack_base<typename Fq::Params>(words);
    const auto host = packed.to_affine();
    EXPECT_EQ(d.infinity, host.infinity);
    EXPECT_EQ(std::memcmp(&d.x, &host.x, sizeof(Fq)), 0);
    EXPECT_EQ(std::memcmp(&d.y, &host.y, sizeof(Fq)), 0);
  }
}

/// A host power table's device view.
template <class F>
ntt_body::PowerTable<typename F::Params> view(const ntt::gpu::PowerTables<F>& t) {
  using FP = typename F::Params;
  return {reinterpret_cast<const DevField<FP>*>(t.hi.data()), reinterpret_cast<const DevField<FP>*>(t.lo.data()),
          t.lo_bits};
}

/// ntt_gpu.cu's run_passes on the CPU: the butterfly passes, each tile copied to a local array
/// (shared memory), its twiddles made and its stages run, by decimation in time (with
/// `load_scale`: element i first times load_scale(rev(i)), in the first pass) or in frequency
/// (`dif`: passes and stages from the top down), with the twiddle table `tw`.
template <class F>
void emulate_passes(std::vector<F>& a, unsigned log_n, const ntt::gpu::PowerTables<F>& tw_tables, bool dif,
                    const ntt::gpu::PowerTables<F>* load_scale, unsigned max_tile_log = ntt_body::kMaxTileLog) {
  using FP = typename F::Params;
  auto* data = reinterpret_cast<DevField<FP>*>(a.data());
  const std::size_t n = a.size();
  const auto tw = view(tw_tables);
  const unsigned passes = ntt_body::pass_count(log_n, max_tile_log);
  for (unsigned q = 0; q < passes; ++q) {
    const unsigned p = dif ? passes - 1 - q : q;
    unsigned s0 = 0, k = 0;
    ntt_body::pass_range(log_n, max_tile_log, p, &s0, &k);
    std::vector<DevField<FP>> tile(std::size_t{1} << k), twiddles(tile.size());  // shared memory
    for (std::size_t t = 0; t < (n >> k); ++t) {  // one thread block per tile
      const std::size_t low = t & ((std::size_t{1} << s0) - 1);
      for (std::uint32_t e = 0; e < tile.size(); ++e) {
        const std::size_t i = ntt_body::tile_element(t, e, s0, k);
        tile[e] = data[i];
        if (load_scale != nullptr && !dif && p == 0) {
          tile[e] = tile[e] * ntt_body::table_power(view(*load_scale),
                                                    ntt_body::bit_reverse(static_cast<std::uint32_t>(i), log_n));
        }
        if (e != 0) twiddles[e] = ntt_body::tile_twiddle(e, low, s0, log_n, tw);
      }
      for (unsigned step = 0; step < k; ++step) {
        const unsigned j = dif ? k - 1 - step : step;
        for (std::uint32_t b = 0; b < tile.size() / 2; ++b) {
          if (dif) {
            ntt_body::tile_butterfly_dif(tile.data(), twiddles.data(), b, j);
          } else {
            ntt_body::tile_butterfly(tile.data(), twiddles.data(), b, j);
          }
        }
      }
      for (std::size_t e = 0; e < tile.size(); ++e) data[ntt_body::tile_element(t, e, s0, k)] = tile[e];
    }
  }
}

/// ntt_gpu.cu's run_transform on the CPU: the permutation (with a forward coset's scaling), the
/// passes by decimation in time (emulate_passes), then the inverse's fix-up (with 1/n or the inverse
/// coset's scaling). `shift`: g^i (forward) or g^-i / n (inverse).
template <class F>
void emulate_transform(std::vector<F>& a, const ntt::Domain<F>& d, bool inverse,
                       const ntt::gpu::PowerTables<F>* shift, unsigned max_tile_log = ntt_body::kMaxTileLog) {
  using FP = typename F::Params;
  auto* data = reinterpret_cast<DevField<FP>*>(a.data());
  const unsigned log_n = d.log_size();
  const std::size_t n = a.size();
  const auto tw_tables = ntt::gpu::detail::twiddle_tables(d);
  const auto sh = shift != nullptr ? view(*shift) : view(tw_tables);
  for (std::uint32_t i = 0; i < n; ++i) ntt_body::permute(data, i, log_n, shift != nullptr && !inverse ? &sh : nullptr);
  emulate_passes<F>(a, log_n, tw_tables, false, nullptr, max_tile_log);
  if (inverse) {
    for (std::size_t i = 0; i <= n / 2; ++i)
      ntt_body::inverse_fixup(data, i, n, dev(d.size_inv()), shift != nullptr ? &sh : nullptr);
  }
}

/// ntt_gpu.cu's compute_h schedule on the CPU, with the tables gpu_ntt.hpp uploads: each of a, b, c
/// interpolated by decimation in frequency, scaled by g_n(i) = g^i / n and evaluated on the coset by
/// decimation in time; (a b - c) z_inv; with `g_inv_n`, back by decimation in frequency and the
/// permutation scaled by g^-i / n.
template <class F>
void emulate_quotient(std::vector<F>& a, std::vector<F> b, std::vector<F> c, const ntt::Domain<F>& d,
                      const ntt::gpu::PowerTables<F>& g_n, const ntt::gpu::PowerTables<F>* g_inv_n, const F& z_inv,
                      unsigned max_tile_log) {
  using FP = typename F::Params;
  const unsigned log_n = d.log_size();
  const auto tw = ntt::gpu::detail::twiddle_tables(d), tw_inv = ntt::gpu::detail::inverse_twiddle_tables(d);
  for (auto* x : {&a, &b, &c}) {
    emulate_passes<F>(*x, log_n, tw_inv, true, nullptr, max_tile_log);
    emulate_passes<F>(*x, log_n, tw, false, &g_n, max_tile_log);
  }
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = (a[i] * b[i] - c[i]) * z_inv;
  if (g_inv_n != nullptr) {
    emulate_passes<F>(a, log_n, tw_inv, true, nullptr, max_tile_log);
    auto* data = reinterpret_cast<DevField<FP>*>(a.data());
    for (std::uint32_t i = 0; i < a.size(); ++i) ntt_body::permute_scaled_after(data, i, log_n, view(*g_inv_n));
  }
}

template <class F>
class DevNttTest : public ::testing::Test {};
using Scalars = ::testing::Types<field::Bls12_381Fr, field::Bn254Fr>;
TYPED_TEST_SUITE(DevNttTest, Scalars);

TEST(NttPasses, CoverEveryStageOnceInBalancedPasses) {
  for (unsigned max_tile : {1u, 2u, 3u, 10u}) {
    for (unsigned log_n = 1; log_n <= 28; ++log_n) {
      const unsigned passes = ntt_body::pass_count(log_n, max_tile);
      unsigned next = 0, smallest = 99, largest = 0;
      for (unsigned p = 0; p < passes; ++p) {
        unsigned first = 0, count = 0;
        ntt_body::pass_range(log_n, max_tile, p, &first, &count);
        EXPECT_EQ(first, next);
        EXPECT_LE(count, max_tile);
        next = first + count;
        smallest = std::min(smallest, count), largest = std::max(largest, count);
      }
      EXPECT_EQ(next, log_n) << log_n;
      EXPECT_LE(largest - smallest, 1u);
    }
  }
  EXPECT_EQ(ntt_body::pass_count(26, ntt_body::kMaxTileLog), 3u);
}

TYPED_TEST(DevNttTest, PowerTablesGiveThePowers) {
  using F = TypeParam;
  // The GPU path's domain has no host twiddle table; its tables come from omega alone.
  {
    auto full = ntt::Domain<F>::create(12, ntt::DomainConfig::bellman());
    auto bare = ntt::Domain<F>::create(12, ntt::DomainConfig::bellman(), false);
    ASSERT_TRUE(full.ok() && bare.ok());
    EXPECT_TRUE(full->has_twiddles());
    EXPECT_FALSE(bare->has_twiddles());
    const auto t = ntt::gpu::detail::twiddle_tables(*bare);
    for (std::size_t x = 0; x < full->size() / 2; x += 37) {
      EXPECT_EQ(host<F>(ntt_body::unit_table_power(view(t), x)), full->twiddles()[x]);
    }
  }
  const F g = F::from_u64(7), factor = F::from_u64(11);
  for (unsigned log_count : {0u, 1u, 4u, 7u}) {
    const auto t = ntt::gpu::PowerTables<F>::make(g, log_count, factor);
    const auto unit = ntt::gpu::PowerTables<F>::make(g, log_count);
    for (std::size_t x = 0; x < (std::size_t{1} << log_count); ++x) {
      EXPECT_EQ(host<F>(ntt_body::table_power(view(t), x)), factor * g.pow(x));
      EXPECT_EQ(host<F>(ntt_body::unit_table_power(view(unit), x)), g.pow(x));
    }
  }
}

TYPED_TEST(DevNttTest, KernelScheduleMatchesTheCpuNtt) {
  using F = TypeParam;
  auto rng = test::rng(303);
  // Sizes with one pass, and small tiles to force several passes (as 2^26 takes with 2^10 tiles).
  for (auto [log_n, max_tile] : {std::pair{1u, 10u}, std::pair{2u, 10u}, std::pair{5u, 10u}, std::pair{10u, 10u},
                                 std::pair{13u, 10u}, std::pair{5u, 2u}, std::pair{7u, 3u}, std::pair{9u, 1u}}) {
    auto d = ntt::Domain<F>::create(log_n, ntt::DomainConfig::bellman());
    ASSERT_TRUE(d.ok());
    std::vector<F> a(d->size());
    for (auto& x : a) x = F::random(rng);
    auto ref = a, got = a;
    ntt::forward(*d, std::span<F>(ref), ntt::Order::kNN);
    emulate_transform<F>(got, *d, false, nullptr, max_tile);
    EXPECT_EQ(got, ref) << "forward 2^" << log_n << " tiles 2^" << max_tile;
    auto inv = ref;
    emulate_transform<F>(inv, *d, true, nullptr, max_tile);
    EXPECT_EQ(inv, a) << "inverse 2^" << log_n;
    // Cosets: forward with g^i, inverse with g^-i / n.
    const F g = F::from_u64(7);
    const auto gt = ntt::gpu::PowerTables<F>::make(g, log_n);
    const auto git = ntt::gpu::PowerTables<F>::make(g.inverse(), log_n, d->size_inv());
    auto coset = a, coset_ref = a;
    emulate_transform<F>(coset, *d, false, &gt, max_tile);
    for (std::size_t i = 0; i < a.size(); ++i) coset_ref[i] = a[i] * g.pow(i);
    ntt::forward(*d, std::span<F>(coset_ref), ntt::Order::kNN);
    EXPECT_EQ(coset, coset_ref) << "coset forward 2^" << log_n;
    emulate_transform<F>(coset, *d, true, &git, max_tile);
    EXPECT_EQ(coset, a) << "coset inverse 2^" << log_n;
  }
}

TYPED_TEST(DevNttTest, QuotientScheduleMatchesTheCpu) {
  using F = TypeParam;
  auto rng = test::rng(305);
  for (auto [log_n, max_tile] : {std::pair{1u, 10u}, std::pair{3u, 10u}, std::pair{9u, 10u}, std::pair{9u, 4u}, std::pair{10u, 3u}, std::pair{7u, 1u}}) {
    auto d = ntt::Domain<F>::create(log_n, ntt::DomainConfig::bellman());
    ASSERT_TRUE(d.ok());
    std::vector<F> a(d->size()), b(d->size()), c(d->size());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = F::random(rng), b[i] = F::random(rng), c[i] = a[i] * b[i];
    // The tables gpu_ntt.hpp's compute_h uploads, and ntt_gpu.cu's compute_h schedule.
    const auto g_n = ntt::gpu::PowerTables<F>::make(d->coset_generator(), log_n, d->size_inv());
    const auto g_inv_n = ntt::gpu::PowerTables<F>::make(d->coset_generator_inv(), log_n, d->size_inv());
    auto ea = a;
    emulate_quotient<F>(ea, b, c, *d, g_n, &g_inv_n, d->vanishing_on_coset_inv(), max_tile);
    ASSERT_TRUE(ntt::compute_h(*d, std::span<F>(a), std::span<F>(b), std::span<F>(c)).ok());
    EXPECT_EQ(ea, a) << "2^" << log_n;
  }
}

// snarkjs's quotient as ntt_gpu.cu's compute_h runs it with g = the 2n-th root of unity, z_inv = 1
// and no way back from the coset, against ntt::compute_h_odd_coset.
TYPED_TEST(DevNttTest, OddCosetQuotientScheduleMatchesTheCpu) {
  using F = TypeParam;
  auto rng = test::rng(306);
  for (auto [log_n, max_tile] : {std::pair{1u, 10u}, std::pair{4u, 10u}, std::pair{8u, 3u}, std::pair{9u, 2u}}) {
    auto d = ntt::Domain<F>::create(log_n, ntt::DomainConfig::snarkjs());
    ASSERT_TRUE(d.ok());
    std::vector<F> a(d->size()), b(d->size()), c(d->size());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = F::random(rng), b[i] = F::random(rng), c[i] = a[i] * b[i];
    auto omega_2n = field::root_of_unity<F>(d->config().root_generator, log_n + 1);
    ASSERT_TRUE(omega_2n.ok());
    const auto shift = ntt::gpu::PowerTables<F>::make(*omega_2n, log_n, d->size_inv());
    auto ea = a;
    emulate_quotient<F>(ea, b, c, *d, shift, nullptr, F::one(), max_tile);
    ASSERT_TRUE(ntt::compute_h_odd_coset(*d, std::span<F>(a), std::span<F>(b), std::span<F>(c)).ok());
    EXPECT_EQ(ea, a) << "2^" << log_n;
  }
}

/// The GPU MSM's pipeline run on the CPU (std::stable_sort for the radix sort), in passes of at most
/// `per_pass` points as msm_gpu.cu runs them; `levels` gets the deepest reduction.
template <class C>
curve::Jacobian<C> emulate_msm(std::span<const curve::Affine<C>> bases, std::span<const typename C::Scalar> k,
                               std::size_t per_pass = 0, unsigned* levels_out = nullptr, unsigned window_bits = 0,
                               std::size_t* units_total = nullptr) {
  using FqP = DeviceTag<typename C::Field>;
  using FrP = typename C::Scalar::Params;
  auto plan = msm::gpu::raw::make_plan(bases.size(), C::Scalar::kBits);
  if (window_bits != 0) {  // another window size, the windows as make_plan covers the scalar
    plan.window_bits = window_bits;
    plan.windows = (C::Scalar::kBits + window_bits) / window_bits;
  }
  const unsigned c = plan.window_bits, W = plan.windows;
  const std::size_t buckets = static_cast<std::size_t>(W) * msm_body::window_buckets(c);
  if (per_pass == 0) per_pass = bases.size();
  std::vector<DevXyzz<FqP>> partials(static_cast<std::size_t>(W) * plan.chunks, DevXyzz<FqP>::identity());
  unsigned deepest = 0;
  std::size_t units_out = 0;
  for (std::size_t p0 = 0; p0 < bases.size(); p0 += per_pass) {
    const std::size_t n = std::min(per_pass, bases.size() - p0);
    std::vector<DevAffine<FqP>> db(n);
    std::memcpy(static_cast<void*>(db.data()), bases.data() + p0, n * sizeof(db[0]));
    std::vector<DevField<FrP>> ds(n);
    for (std::size_t i = 0; i < n; ++i) ds[i] = dev(k[p0 + i]).to_canonical();
    // Pairs of non-zero digits: counts (units apart), exclusive scans, fill; the units' go to the
    // front of the sorted arrays, the others are sorted after them.
    std::vector<std::uint32_t> pair_counts(n), at(n), unit_flags(n), unit_at(n);
    for (std::size_t i = 0; i < n; ++i) {
      msm_body::pair_and_unit_count<FrP::kLimbs>(ds[i].v, db[i].infinity, W, c, &pair_counts[i], &unit_flags[i]);
    }
    std::exclusive_scan(pair_counts.begin(), pair_counts.end(), at.begin(), std::uint32_t{0});
    std::exclusive_scan(unit_flags.begin(), unit_flags.end(), unit_at.begin(), std::uint32_t{0});
    const std::size_t to_sort = n == 0 ? 0 : at.back() + pair_counts.back();
    const std::size_t units = n == 0 ? 0 : unit_at.back() + unit_flags.back();
    units_out += units;
    const std::size_t m = units + to_sort;
    if (m == 0) continue;
    std::vector<std::uint32_t> keys(m), points(m), unsorted_keys(to_sort), unsorted_points(to_sort);
    for (std::size_t i = 0; i < n; ++i) {
      if (msm_body::is_unit<FrP::kLimbs>(ds[i].v, db[i].infinity)) {
        msm_body::emit_unit(static_cast<std::uint32_t>(i), unit_at[i], keys.data(), points.data());
      } else {
        msm_body::emit_pairs<FrP::kLimbs>(ds[i].v, db[i].infinity, W, c, static_cast<std::uint32_t>(i), at[i],
                                          unsorted_keys.data(), unsorted_points.data());
      }
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs(to_sort);
    for (std::size_t q = 0; q < to_sort; ++q) {
      EXPECT_LT(unsorted_keys[q], 1u << msm_body::key_bits(W, c));  // the sort looks at these bits only
      pairs[q] = {unsorted_keys[q], unsorted_points[q]};
    }
    std::stable_sort(pairs.begin(), pairs.end(), [](auto a, auto b) { return a.first < b.first; });
    for (std::size_t q = 0; q < to_sort; ++q) keys[units + q] = pairs[q].first, points[units + q] = pairs[q].second;
    // Sorted as a whole: the units' key 0 is the smallest.
    EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
    std::vector<std::uint32_t> start(buckets, 0), end(buckets, 0);
    for (std::size_t q = 0; q < m; ++q) {
      if (q == 0 || keys[q - 1] != keys[q]) start[keys[q]] = static_cast<std::uint32_t>(q);
      if (q + 1 == m || keys[q + 1] != keys[q]) end[keys[q]] = static_cast<std::uint32_t>(q + 1);
    }
    // Sub-runs: counts, exclusive scan, one sum per sub-run; then group levels.
    std::vector<std::uint32_t> counts(buckets), offsets(buckets), next_counts(buckets), next_offsets(buckets);
    for (std::size_t b = 0; b < buckets; ++b) counts[b] = msm_body::subrun_count(start[b], end[b]);
    std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), std::uint32_t{0});
    std::uint32_t total = offsets.back() + counts.back();
    std::vector<DevXyzz<FqP>> level(total);
    for (std::uint32_t j = 0; j < total; ++j) {
      level[j] = msm_body::subrun_sum(db.data(), points.data(), start.data(), end.data(), offsets.data(), buckets, j);
    }
    unsigned levels = 0;
    for (;;) {
      for (std::size_t b = 0; b < buckets; ++b) next_counts[b] = msm_body::group_count(counts[b]);
      std::exclusive_scan(next_counts.begin(), next_counts.end(), next_offsets.begin(), std::uint32_t{0});
      const std::uint32_t next_total = next_offsets.back() + next_counts.back();
      if (next_total == total) break;
      std::vector<DevXyzz<FqP>> next(next_total);
      for (std::uint32_t j = 0; j < next_total; ++j) {
        next[j] = msm_body::group_sum(level.data(), offsets.data(), counts.data(), next_offsets.data(), buckets, j);
      }
      level.swap(next);
      counts.swap(next_counts);
      offsets.swap(next_offsets);
      total = next_total;
      ++levels;
    }
    deepest = std::max(deepest, levels);
    std::vector<DevXyzz<FqP>> sums(buckets);
    for (std::size_t b = 0; b < buckets; ++b) sums[b] = msm_body::bucket_result(level.data(), offsets.data(), counts.data(), b);
    // Sub-chunks (one thread each), folded kSplit at a time into the window's chunk partials.
    const std::uint32_t subchunks = plan.chunks * msm_body::kSplit;
    std::vector<DevXyzz<FqP>> sub(static_cast<std::size_t>(W) * subchunks);
    for (unsigned w = 0; w < W; ++w) {
      for (std::uint32_t k = 0; k < subchunks; ++k) {
        const auto r = msm_body::chunk_range(c, k, subchunks);
        sub[static_cast<std::size_t>(w) * subchunks + k] =
            msm_body::window_chunk(sums.data() + static_cast<std::size_t>(w) * msm_body::window_buckets(c), r.lo, r.hi);
      }
    }
    for (std::size_t t = 0; t < partials.size(); ++t) {
      partials[t] = partials[t] + msm_body::fold_split(sub.data() + t * msm_body::kSplit);
    }
  }
  if (levels_out != nullptr) *levels_out = deepest;
  if (units_total != nullptr) *units_total = units_out;
  curve::Jacobian<C> acc = curve::Jacobian<C>::identity();
  for (unsigned w = W; w-- > 0;) {
    for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
    for (unsigned t = 0; t < plan.chunks; ++t) acc += host_point<C>(partials[static_cast<std::size_t>(w) * plan.chunks + t]);
  }
  return acc;
}

// The same pipeline over G2 (DevFq2 coordinates), as msm_gpu.cu instantiates it for BLS12-381's
// B_G2: a witness's shape (mostly zeros and ones, some full scalars), an identity base, a repeated
// base, and passes.
TEST(DevG2Msm, PipelineMatchesNaive) {
  using C = curve::Bls12_381G2;
  using J = curve::Jacobian<C>;
  using Fr = C::Scalar;
  auto rng = test::rng(306);
  const std::size_t n = 200;
  std::vector<curve::Affine<C>> bases(n);
  std::vector<Fr> k(n);
  for (std::size_t i = 0; i < n; ++i) {
    bases[i] = (J::generator() * Fr::random(rng)).to_affine();
    const auto r = rng() % 16;
    k[i] = r < 7 ? Fr::zero() : r < 14 ? Fr::one() : Fr::random(rng);
  }
  bases[3] = curve::Affine<C>::identity();
  k[3] = Fr::random(rng);
  bases[9] = bases[8];
  k[9] = k[8] = -Fr::one();
  const auto expected = msm::msm_naive<C>(bases, k);
  std::size_t units = 0;
  EXPECT_EQ(emulate_msm<C>(bases, k, 0, nullptr, 0, &units), expected);
  EXPECT_GT(units, n / 3);
  EXPECT_EQ(emulate_msm<C>(bases, k, 64), expected) << "passes of 64 points";
}

TYPED_TEST(DevPointTest, MsmPipelineMatchesNaive) {
  using C = TypeParam;
  using J = curve::Jacobian<C>;
  using Fr = typename C::Scalar;
  auto rng = test::rng(304);
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{37}, std::size_t{300}}) {
    std::vector<curve::Affine<C>> bases(n);
    std::vector<Fr> k(n);
    for (std::size_t i = 0; i < n; ++i) {
      bases[i] = (J::generator() * Fr::random(rng)).to_affine();
      k[i] = Fr::random(rng);
    }
    if (n > 2) {
      bases[1] = curve::Affine<C>::identity();  // identity base
      k[2] = Fr::zero();                        // zero scalar
      k[0] = Fr::one();                         // one
      k[n - 1] = -Fr::one();                    // every window full
      bases[n - 2] = bases[n - 3];              // a repeated base: bucket doublings
      k[n - 2] = k[n - 3];
    }
    EXPECT_EQ(emulate_msm<C>(bases, k), msm::msm_naive<C>(bases, k)) << n;
  }
  // Passes over slices of the points add up to the same sum.
  {
    const std::size_t n = 300;
    std::vector<curve::Affine<C>> bases(n);
    std::vector<Fr> k(n);
    for (std::size_t i = 0; i < n; ++i) {
      bases[i] = (J::generator() * Fr::random(rng)).to_affine();
      k[i] = i % 4 == 0 ? Fr::zero() : Fr::random(rng);
    }
    const auto expected = msm::msm_naive<C>(bases, k);
    for (std::size_t per_pass : {std::size_t{1}, std::size_t{7}, std::size_t{128}, std::size_t{299}}) {
      EXPECT_EQ(emulate_msm<C>(bases, k, per_pass), expected) << per_pass << " points per pass";
    }
    std::vector<Fr> zeros(n, Fr::zero());
    EXPECT_TRUE(emulate_msm<C>(bases, zeros).is_identity());
    // Other window sizes (signed digits with their carries; make_plan picks up to 20 bits).
    k[1] = -Fr::one();
    k[3] = Fr::from_u64(1) - Fr::from_u64(3).pow(200);
    const auto with_edges = msm::msm_naive<C>(bases, k);
    for (unsigned c : {9u, 13u, 16u}) EXPECT_EQ(emulate_msm<C>(bases, k, 0, nullptr, c), with_edges) << "c = " << c;
  }
}

// A witness of bits: about 19,900 points land in bucket 1 of window 0 (39 sub-runs), which takes two group
// levels above the 512-point sub-runs.
TYPED_TEST(DevPointTest, MsmPipelineReducesABitsHeavyBucketInLevels) {
  using C = TypeParam;
  using Fr = typename C::Scalar;
  auto rng = test::rng(305);
  const std::size_t n = 40 * msm_body::kSubRun + 17;
  auto bases = curve::consecutive_points<C>(n, rng);
  std::vector<Fr> k(n);
  for (std::size_t i = 0; i < n; ++i) k[i] = i % 97 == 0 ? Fr::random(rng) : Fr::from_u64(i % 61 == 0 ? 0 : 1);
  bases[5] = curve::Affine<C>::identity();  // a scalar of 1 on the identity: no unit, no pair
  unsigned levels = 0;
  std::size_t units = 0;
  EXPECT_EQ(emulate_msm<C>(bases, k, 0, &levels, 0, &units), *msm::msm<C>(bases, k));
  EXPECT_EQ(levels, 2u);
  // The units (placed in front of the sorted pairs, not sorted) are the points with scalar 1.
  EXPECT_EQ(units, static_cast<std::size_t>(std::count(k.begin(), k.end(), Fr::one())) - 1);
  // In passes, and with a unit at a pass's first and last point.
  for (std::size_t per_pass : {std::size_t{1000}, std::size_t{4097}}) {
    EXPECT_EQ(emulate_msm<C>(bases, k, per_pass, nullptr, 0, &units), *msm::msm<C>(bases, k)) << per_pass;
  }
}

TEST(GpuPlan, PassesFitTheFreeMemory) {
  const auto plan = msm::gpu::raw::make_plan(std::size_t{1} << 24, 255);
  const std::size_t base = 104, scalar = 32, xyzz = 192;  // BLS12-381 G1
  const auto b = msm::gpu::raw::pass_bytes(plan, base, scalar, xyzz);
  EXPECT_GT(b.per_point, base + scalar + plan.windows * 16);
  const std::size_t n = std::size_t{1} << 24;
  EXPECT_EQ(msm::gpu::raw::fitting_points(plan, n, std::size_t{140} << 30, base, scalar, xyzz), n);  // H200: one pass
  const std::size_t small = msm::gpu::raw::fitting_points(plan, n, std::size_t{4} << 30, base, scalar, xyzz);
  EXPECT_GT(small, 0u);
  EXPECT_LT(small, n);
  EXPECT_LE(b.fixed + small * b.per_point, (std::size_t{4} << 30) / 4 * 3);
  EXPECT_EQ(msm::gpu::raw::fitting_points(plan, n, b.fixed, base, scalar, xyzz), 0u);  // nothing fits
  // Resident bases and device scalars take no pass memory: more points a pass.
  const std::size_t resident = msm::gpu::raw::fitting_points(plan, n, std::size_t{4} << 30, 0, 0, xyzz);
  EXPECT_GT(resident, small);
  const auto rb = msm::gpu::raw::pass_bytes(plan, 0, 0, xyzz);
  EXPECT_EQ(rb.per_point + base + scalar, b.per_point);
  EXPECT_LE(rb.fixed + resident * rb.per_point, (std::size_t{4} << 30) / 4 * 3);
}

TEST(GpuPlan, WindowsCoverTheScalar) {
  for (std::size_t n : {std::size_t{1}, std::size_t{1} << 12, std::size_t{1} << 20, std::size_t{1} << 26}) {
    const auto p = msm::gpu::raw::make_plan(n, 255);
    EXPECT_GE(p.window_bits * p.windows, 256u);  // a bit more than the scalar: no carry out of the top
    EXPECT_LT(p.window_bits * (p.windows - 1), 256u);
    EXPECT_GE(p.window_bits, 8u);
    EXPECT_LE(p.window_bits, 20u);
    EXPECT_GE(p.chunks, 1u);
  }
  // The cost model: 16-bit windows for the mid sizes, 20 (13 windows instead of 16) from 2^25.
  EXPECT_EQ(msm::gpu::raw::make_plan(std::size_t{1} << 20, 255).window_bits, 16u);
  EXPECT_EQ(msm::gpu::raw::make_plan(std::size_t{1} << 27, 255).window_bits, 20u);
  EXPECT_EQ(msm::gpu::raw::make_plan(std::size_t{1} << 27, 255).windows, 13u);
}

// Signed digits: sum_w d_w 2^(c w) is the scalar, |d_w| <= 2^(c-1), one pair per non-zero digit with
// its bucket |d| - 1 and its sign, for every window size the plan can choose.
template <class Fr>
void check_signed_digits(const Fr& k) {
  const auto canonical = dev(k).to_canonical();
  for (unsigned c = 8; c <= 20; ++c) {
    const unsigned windows = (Fr::kBits + c) / c;
    Fr sum = Fr::zero();
    std::uint32_t nonzero = 0;
    msm_body::signed_digits<Fr::kLimbs>(canonical.v, windows, c, [&](unsigned w, std::int32_t d) {
      EXPECT_LE(d < 0 ? -d : d, 1 << (c - 1));
      const Fr magnitude = Fr::from_u64(static_cast<std::uint64_t>(d < 0 ? -d : d)) * Fr::from_u64(2).pow(c * w);
      sum = d < 0 ? sum - magnitude : sum + magnitude;
      ++nonzero;
    });
    EXPECT_EQ(sum, k) << "c = " << c;
    ASSERT_EQ(msm_body::pair_count<Fr::kLimbs>(canonical.v, false, windows, c), nonzero);
    EXPECT_EQ(msm_body::pair_count<Fr::kLimbs>(canonical.v, true, windows, c), 0u);  // identity base
    std::vector<std::uint32_t> keys(nonzero), points(nonzero);
    msm_body::emit_pairs<Fr::kLimbs>(canonical.v, false, windows, c, 5, 0, keys.data(), points.data());
    for (std::uint32_t q = 0; q < nonzero; ++q) {
      EXPECT_LT(keys[q], std::uint32_t{1} << msm_body::key_bits(windows, c));
      EXPECT_EQ(points[q] & ~msm_body::kNegated, 5u);
    }
  }
}

TEST(GpuPlan, SignedDigitsRebuildTheScalar) {
  auto rng = test::rng(307);
  for (int i = 0; i < 20; ++i) {
    check_signed_digits(field::Bls12_381Fr::random(rng));
    check_signed_digits(field::Bn254Fr::random(rng));
  }
  for (std::uint64_t v : {0ull, 1ull, 2ull, 127ull, 128ull, 129ull, 255ull, 256ull, 0xffffffffull}) {
    check_signed_digits(field::Bls12_381Fr::from_u64(v));
    check_signed_digits(field::Bn254Fr::from_u64(v));
  }
  check_signed_digits(-field::Bls12_381Fr::one());  // r - 1: the top window's largest digit
  check_signed_digits(-field::Bn254Fr::one());
  // 2^k - 1 (carries through every window) and 2^k (a lone top digit).
  for (unsigned bits : {64u, 200u, 250u, 253u, 254u}) {
    const auto two_k = field::Bls12_381Fr::from_u64(2).pow(bits);
    check_signed_digits(two_k - field::Bls12_381Fr::one());
    check_signed_digits(two_k);
  }
}

}  // namespace
}  // namespace zk::gpu
