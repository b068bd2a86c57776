// The CUDA kernels against the CPU implementation, on a real device. CTest label `gpu`: CI skips
// the label, and without CUDA or a device every test reports itself skipped (with the reason).
// Run by hand (or by scripts/gpu-check.sh): ctest --test-dir build/release -L gpu.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "curve/bls12_381.hpp"
#include "curve/bn254.hpp"
#include "gpu/gpu.hpp"
#include "gpu/pool.hpp"
#include "groth16/gpu_backend.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs.hpp"
#include "groth16/verifier.hpp"
#include "circuits/synthetic.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "ntt/quotient.hpp"
#include "msm/gpu_msm.hpp"
#include "msm/pippenger.hpp"
#include "ntt/gpu_ntt.hpp"
#include "ntt/ntt.hpp"
#include "test_util.hpp"

namespace zk::gpu {
namespace {

#define ZK_REQUIRE_GPU()                                               \
  do {                                                                 \
    if (Status s = require_device(); !s.ok()) GTEST_SKIP() << s.message(); \
  } while (0)

template <class F>
class GpuNtt : public ::testing::Test {};
using Scalars = ::testing::Types<field::Bls12_381Fr, field::Bn254Fr>;
TYPED_TEST_SUITE(GpuNtt, Scalars);

TYPED_TEST(GpuNtt, ForwardInverseAndCosetsEqualTheCpu) {
  ZK_REQUIRE_GPU();
  using F = TypeParam;
  auto rng = test::rng(401);
  for (unsigned log_n : {1u, 2u, 3u, 8u, 13u, 16u, 20u}) {
    auto d = ntt::Domain<F>::create(log_n, ntt::DomainConfig::bellman());
    ASSERT_TRUE(d.ok());
    std::vector<F> a(d->size());
    for (auto& x : a) x = F::random(rng);
    a[0] = F::zero();
    auto ref = a, got = a;
    ntt::forward(*d, std::span<F>(ref), ntt::Order::kNN);
    ASSERT_TRUE(ntt::gpu::forward(*d, std::span<F>(got)).ok());
    EXPECT_EQ(got, ref) << "forward 2^" << log_n;
    ASSERT_TRUE(ntt::gpu::inverse(*d, std::span<F>(got)).ok());
    EXPECT_EQ(got, a) << "inverse 2^" << log_n;
    const F g = F::from_u64(7);
    auto cref = a, cgot = a;
    for (std::size_t i = 0; i < cref.size(); ++i) cref[i] = cref[i] * g.pow(i);
    ntt::forward(*d, std::span<F>(cref), ntt::Order::kNN);
    ASSERT_TRUE(ntt::gpu::coset_forward(*d, std::span<F>(cgot), g).ok());
    EXPECT_EQ(cgot, cref) << "coset 2^" << log_n;
    ASSERT_TRUE(ntt::gpu::coset_inverse(*d, std::span<F>(cgot), g).ok());
    EXPECT_EQ(cgot, a) << "coset inverse 2^" << log_n;
  }
}

template <class C>
class GpuMsm : public ::testing::Test {};
// BLS12-381's G2: B_G2 of Filecoin's proofs (the same kernels over Fq2 coordinates).
using Curves = ::testing::Types<curve::Bls12_381G1, curve::Bn254G1, curve::Bls12_381G2>;
TYPED_TEST_SUITE(GpuMsm, Curves);

TYPED_TEST(GpuMsm, EqualsTheCpuMsm) {
  ZK_REQUIRE_GPU();
  using C = TypeParam;
  using Fr = typename C::Scalar;
  auto rng = test::rng(402);
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{100}, std::size_t{4097}, std::size_t{1} << 16}) {
    std::vector<curve::Affine<C>> bases(n);
    std::vector<Fr> k(n);
    const auto g = curve::Jacobian<C>::generator();
    auto p = g * Fr::random(rng);
    for (std::size_t i = 0; i < n; ++i) {
      bases[i] = p.to_affine();
      p = p + g;
      k[i] = i % 3 == 0 ? Fr::from_u64(i % 2) : Fr::random(rng);  // zeros and ones among full scalars
    }
    if (n > 1) bases[n / 2] = curve::Affine<C>::identity();
    auto cpu = msm::msm<C>(bases, k);
    auto gpu_r = msm::gpu::msm_points<C>(bases, k);
    ASSERT_TRUE(gpu_r.ok()) << gpu_r.status().to_string();
    EXPECT_EQ(*gpu_r, *cpu) << n;
  }
}

// The scalars formed on the device from a compact witness column (the L, A and B_G1 MSMs of
// prove_start): every row, and the rows a density bitmap selects, whole and in 3 passes, equal the
// CPU's MSM over the same scalars.
TYPED_TEST(GpuMsm, CompactScalarsEqualTheCpu) {
  ZK_REQUIRE_GPU();
  using C = TypeParam;
  using Fr = typename C::Scalar;
  auto rng = test::rng(406);
  const std::size_t rows = (std::size_t{1} << 17) + 77;  // two chunks of other values, a partial group
  msm::CompactColumn<Fr> column;
  msm::DensityBitmap density(rows);
  std::vector<Fr> all, selected;
  for (std::size_t i = 0; i < rows; ++i) {
    const auto r = rng() % 10;
    const Fr x = r < 5 ? Fr::zero() : r < 8 ? Fr::one() : Fr::random(rng);
    column.push_back(x);
    all.push_back(x);
    if (rng() % 4 != 0) density.set(i), selected.push_back(x);
  }
  const auto bases = curve::consecutive_points<C>(rows, rng);
  const auto cpu_all = msm::msm<C>(bases, all);
  const auto cpu_selected = msm::msm<C>(std::span(bases).first(selected.size()), selected);
  for (std::size_t per_pass : {std::size_t{0}, rows / 3 + 1}) {
    auto whole = msm::gpu::msm_points_compact<C>(bases, column, nullptr, {.points_per_pass = per_pass});
    ASSERT_TRUE(whole.ok()) << whole.status().to_string();
    EXPECT_EQ(*whole, *cpu_all) << per_pass;
    auto filtered = msm::gpu::msm_points_compact<C>(std::span(bases).first(selected.size()), column, &density,
                                                 {.points_per_pass = per_pass});
    ASSERT_TRUE(filtered.ok()) << filtered.status().to_string();
    EXPECT_EQ(*filtered, *cpu_selected) << per_pass;
  }
  EXPECT_EQ(msm::gpu::msm_points_compact<C>(std::span(bases).first(5), column, &density).status().code(),
            StatusCode::kInvalidArgument);
}

// Bases and scalars streamed in passes (as when they do not fit in device memory) give the same
// sum; a witness of bits piles 2^18 points into one bucket (several reduction levels); all-zero
// scalars and all-identity bases give the identity.
TYPED_TEST(GpuMsm, PassesBitsAndZerosEqualTheCpu) {
  ZK_REQUIRE_GPU();
  using C = TypeParam;
  using Fr = typename C::Scalar;
  auto rng = test::rng(404);
  const std::size_t n = std::size_t{1} << 18;
  const auto bases = curve::consecutive_points<C>(n, rng);
  std::vector<Fr> k(n);
  for (std::size_t i = 0; i < n; ++i) k[i] = i % 101 == 0 ? Fr::random(rng) : Fr::from_u64(i % 5 == 0 ? 0 : 1);
  const auto cpu = msm::msm<C>(bases, k);
  msm::gpu::raw::Stats one{}, many{};
  auto whole = msm::gpu::msm_points<C>(bases, k, {}, &one);
  auto passes = msm::gpu::msm_points<C>(bases, k, {.points_per_pass = 50'000}, &many);
  ASSERT_TRUE(whole.ok()) << whole.status().to_string();
  ASSERT_TRUE(passes.ok()) << passes.status().to_string();
  EXPECT_EQ(*whole, *cpu);
  EXPECT_EQ(*passes, *cpu);
  EXPECT_EQ(one.passes, 1u);
  EXPECT_EQ(many.passes, 6u);
  EXPECT_GE(one.levels, 2u);  // ~2^18 points in bucket 1: 410 sub-runs, then 13 groups, then 1
  EXPECT_LT(one.pairs, 2 * n);  // zeros emit nothing, ones one pair
  const auto ones = static_cast<std::uint64_t>(std::count(k.begin(), k.end(), Fr::one()));
  EXPECT_EQ(one.units, ones);  // placed in front of the sorted pairs, not sorted
  EXPECT_EQ(many.units, ones);
  std::printf("bits witness: %llu pairs (%llu units), %u levels\n", static_cast<unsigned long long>(one.pairs),
              static_cast<unsigned long long>(one.units), one.levels);

  std::vector<Fr> zeros(1000, Fr::zero());
  auto z = msm::gpu::msm_points<C>(std::span(bases).first(1000), zeros);
  ASSERT_TRUE(z.ok());
  EXPECT_TRUE(z->is_identity());
  std::vector<curve::Affine<C>> ids(1000, curve::Affine<C>::identity());
  auto zi = msm::gpu::msm_points<C>(ids, std::span<const Fr>(k).first(1000));
  ASSERT_TRUE(zi.ok());
  EXPECT_TRUE(zi->is_identity());
}

TYPED_TEST(GpuNtt, QuotientEqualsTheCpu) {
  ZK_REQUIRE_GPU();
  using F = TypeParam;
  auto rng = test::rng(403);
  for (unsigned log_n : {1u, 4u, 12u, 18u}) {
    auto d = ntt::Domain<F>::create(log_n, ntt::DomainConfig::bellman());
    ASSERT_TRUE(d.ok());
    std::vector<F> a(d->size()), b(d->size()), c(d->size());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = F::random(rng), b[i] = F::random(rng), c[i] = a[i] * b[i];
    auto ga = a;
    ASSERT_TRUE(ntt::gpu::compute_h(*d, std::span<F>(ga), std::span<const F>(b), std::span<const F>(c)).ok());
    ASSERT_TRUE(ntt::compute_h(*d, std::span<F>(a), std::span<F>(b), std::span<F>(c)).ok());
    EXPECT_EQ(ga, a) << "2^" << log_n;
  }
}

TYPED_TEST(GpuNtt, OddCosetQuotientEqualsTheCpu) {
  ZK_REQUIRE_GPU();
  using F = TypeParam;
  auto rng = test::rng(405);
  for (unsigned log_n : {1u, 5u, 11u, 17u}) {
    auto d = ntt::Domain<F>::create(log_n, ntt::DomainConfig::snarkjs());
    ASSERT_TRUE(d.ok());
    std::vector<F> a(d->size()), b(d->size()), c(d->size());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = F::random(rng), b[i] = F::random(rng), c[i] = a[i] * b[i];
    auto ga = a;
    ASSERT_TRUE(ntt::gpu::compute_h_odd_coset(*d, std::span<F>(ga), std::span<const F>(b), std::span<const F>(c)).ok());
    ASSERT_TRUE(ntt::compute_h_odd_coset(*d, std::span<F>(a), std::span<F>(b), std::span<F>(c)).ok());
    EXPECT_EQ(ga, a) << "2^" << log_n;
  }
}

// A proof whose prove_start ran on the GPU equals the CPU's for the same r and s, and verifies.
template <class E>
void gpu_proof_equals_cpu() {
  using Fr = typename E::Fr;
  circuits::SyntheticCircuit<Fr> circuit(3000, 9);
  r1cs::ShapeRecorder<Fr> rec;
  ASSERT_TRUE(circuit.synthesize(rec).ok());
  Rng rng(3);
  auto pk = groth16::generate_parameters<E>(rec.shape(), groth16::Trapdoor<E>::random(rng));
  ASSERT_TRUE(pk.ok());
  auto partition = [&] {
    r1cs::ProvingSystem<Fr> cs({.inputs = pk->vk.ic.size(), .aux = pk->l.size(), .constraints = 3000});
    EXPECT_TRUE(circuit.synthesize(cs).ok());
    return std::move(cs).finish();
  };
  const Fr r = Fr::random(rng), s = Fr::random(rng);
  auto cpu_pending = groth16::prove_start<E, groth16::CpuBackend>(*pk, partition(), r, s);
  DevicePool gpus({});
  auto gpu_pending = groth16::prove_start<E, groth16::GpuBackend>(*pk, partition(), r, s, nullptr, groth16::GpuBackend(gpus));
  ASSERT_TRUE(cpu_pending.ok());
  ASSERT_TRUE(gpu_pending.ok()) << gpu_pending.status().to_string();
  auto cpu = groth16::prove_finish(*pk, std::move(*cpu_pending));
  auto gpu = groth16::prove_finish(*pk, std::move(*gpu_pending));
  ASSERT_TRUE(cpu.ok() && gpu.ok());
  EXPECT_TRUE(*cpu == *gpu);
  EXPECT_TRUE(*groth16::verify(groth16::prepare_verifying_key(pk->vk), *gpu, circuit.public_inputs()));
}
TEST(GpuGroth16, ProofEqualsTheCpuProofBls12_381) {
  ZK_REQUIRE_GPU();
  gpu_proof_equals_cpu<groth16::Bls12_381>();
}
TEST(GpuGroth16, ProofEqualsTheCpuProofBn254) {
  ZK_REQUIRE_GPU();
  gpu_proof_equals_cpu<groth16::Bn254>();
}

// The zkey (snarkjs) prover with prove_start on the GPU: the proof equals the CPU's for the same
// r and s (snarkjs's chain circuit from tests/data), on both curves: bases converted on the host
// for each proof, then kept resident (unpacked on the device once, found by the next proof).
template <class E>
void gpu_zkey_proof_equals_cpu(const char* curve_dir) {
  using Fr = typename E::Fr;
  namespace sj = groth16::snarkjs;
  const auto dir = test::data_dir() / "snarkjs" / curve_dir;
  auto read = sj::read_zkey<E>(test::read_file(dir / "chain.zkey"));
  auto w = sj::read_wtns<E>(test::read_file(dir / "chain-witness.wtns"));
  ASSERT_TRUE(read.ok() && w.ok());
  const auto zk = std::make_shared<const sj::Zkey<E>>(std::move(*read));
  Rng rng(5);
  DevicePool plain({}), resident({.resident_bytes = std::size_t{1} << 30});
  const std::vector<std::pair<DevicePool*, std::shared_ptr<const void>>> runs = {
      {&plain, nullptr}, {&resident, zk}, {&resident, zk}};
  for (const auto& [gpus, owner] : runs) {
    const Fr r = Fr::random(rng), s = Fr::random(rng);
    auto gpu_p = sj::prove_start<E, groth16::GpuBackend>(*zk, *w, *sj::evaluate_rows<E>(*zk, *w), r, s, nullptr,
                                                         groth16::GpuBackend(*gpus, {}, owner));
    auto cpu_p = sj::prove_start<E>(*zk, *w, *sj::evaluate_rows<E>(*zk, *w), r, s);
    ASSERT_TRUE(gpu_p.ok()) << gpu_p.status().to_string();
    ASSERT_TRUE(cpu_p.ok());
    EXPECT_TRUE(sj::prove_finish(*zk, *w, *gpu_p) == sj::prove_finish(*zk, *w, *cpu_p));
  }
  const auto kept = resident.status().front().resident;
  EXPECT_EQ(kept.misses, 4u);  // H, C, A, B1 unpacked once
  EXPECT_EQ(kept.hits, 4u);
}
TEST(GpuGroth16, ZkeyProofEqualsTheCpuProofBn254) {
  ZK_REQUIRE_GPU();
  gpu_zkey_proof_equals_cpu<groth16::Bn254>("bn128");
}
TEST(GpuGroth16, ZkeyProofEqualsTheCpuProofBls12_381) {
  ZK_REQUIRE_GPU();
  gpu_zkey_proof_equals_cpu<groth16::Bls12_381>("bls12381");
}

// Resident bases: two proofs with the key's bases kept on the device (the second finds them all)
// equal the CPU's proofs for the same r and s.
TEST(GpuGroth16, ResidentBasesGiveTheSameProofs) {
  ZK_REQUIRE_GPU();
  using E = groth16::Bls12_381;
  using Fr = E::Fr;
  circuits::SyntheticCircuit<Fr> circuit(5000, 3);
  r1cs::ShapeRecorder<Fr> rec;
  ASSERT_TRUE(circuit.synthesize(rec).ok());
  Rng rng(11);
  auto made = groth16::generate_parameters<E>(rec.shape(), groth16::Trapdoor<E>::random(rng));
  ASSERT_TRUE(made.ok());
  auto pk = std::make_shared<const groth16::ProvingKey<E>>(std::move(*made));
  auto partition = [&] {
    r1cs::ProvingSystem<Fr> cs({.inputs = pk->vk.ic.size(), .aux = pk->l.size(), .constraints = 5000});
    EXPECT_TRUE(circuit.synthesize(cs).ok());
    return std::move(cs).finish();
  };
  DevicePool gpus({.resident_bytes = std::size_t{1} << 30});
  for (int round = 0; round < 2; ++round) {
    const Fr r = Fr::random(rng), s = Fr::random(rng);
    auto gpu_p = groth16::prove_start<E, groth16::GpuBackend>(*pk, partition(), r, s, nullptr,
                                                             groth16::GpuBackend(gpus, {}, pk));
    ASSERT_TRUE(gpu_p.ok()) << gpu_p.status().to_string();
    auto gpu = groth16::prove_finish(*pk, std::move(*gpu_p));
    auto cpu = groth16::prove(*pk, partition(), r, s);
    ASSERT_TRUE(gpu.ok() && cpu.ok());
    EXPECT_TRUE(*gpu == *cpu) << "round " << round;
  }
  const auto resident = gpus.status().front().resident;
  EXPECT_GE(resident.hits, 4u);
  std::printf("resident: %llu hits, %llu misses, %zu bytes\n", static_cast<unsigned long long>(resident.hits),
              static_cast<unsigned long long>(resident.misses), resident.bytes);
}

// Every GPU of the host: four workers prove partitions at once over a pool of all devices; each
// device takes turns, keeps its own resident copy of the key's bases, and every proof equals the
// CPU's for the same r and s.
TEST(Gpu, PartitionsSpreadAcrossEveryDeviceProveWhatTheCpuProves) {
  ZK_REQUIRE_GPU();
  const auto devices = gpu::devices();
  if (devices.size() < 2) GTEST_SKIP() << "one GPU here: the pool's spreading is tested on emulated devices";
  using E = groth16::Bls12_381;
  using Fr = E::Fr;
  Rng rng(7107);
  const circuits::SyntheticCircuit<Fr> circuit(4000, 3);
  r1cs::ShapeRecorder<Fr> rec;
  ASSERT_TRUE(circuit.synthesize(rec).ok());
  auto made = groth16::generate_parameters<E>(rec.shape(), groth16::Trapdoor<E>::random(rng));
  ASSERT_TRUE(made.ok());
  auto pk = std::make_shared<const groth16::ProvingKey<E>>(std::move(*made));
  std::vector<int> all;
  for (const auto& d : devices) all.push_back(d.ordinal);
  DevicePool gpus({.ordinals = all, .resident_bytes = std::size_t{1} << 30});
  constexpr int kWorkers = 4, kRounds = 3;
  std::vector<std::thread> workers;
  std::atomic<int> mismatches{0}, failures{0};
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&, w] {
      Rng wrng(7200 + static_cast<std::uint64_t>(w));
      for (int round = 0; round < kRounds; ++round) {
        const Fr r = Fr::random(wrng), s = Fr::random(wrng);
        auto partition = [&] {
          r1cs::ProvingSystem<Fr> cs({.inputs = pk->vk.ic.size(), .aux = pk->l.size(), .constraints = 4000});
          EXPECT_TRUE(circuit.synthesize(cs).ok());
          return std::move(cs).finish();
        };
        auto p = groth16::prove_start<E, groth16::GpuBackend>(*pk, partition(), r, s, nullptr,
                                                             groth16::GpuBackend(gpus, {}, pk));
        if (!p.ok()) {
          ++failures;
          continue;
        }
        auto gpu = groth16::prove_finish(*pk, std::move(*p));
        auto cpu = groth16::prove(*pk, partition(), r, s);
        if (!gpu.ok() || !cpu.ok() || !(*gpu == *cpu)) ++mismatches;
      }
    });
  }
  for (auto& t : workers) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
  for (const auto& d : gpus.status()) {
    EXPECT_GT(d.gate.turns, 0u) << "device " << d.ordinal << " never proved";
    std::printf("device %d: %llu turns, %llu resident hits\n", d.ordinal, static_cast<unsigned long long>(d.gate.turns),
                static_cast<unsigned long long>(d.resident.hits));
  }
}

// The kernels' buffers come from the device's memory pool and stay there (gpu::device_alloc): a
// second MSM of the same size is cut from memory the first left idle instead of growing the pool,
// the idle memory counts as available for the next pass's sizing, and the result is unchanged.
TEST(Gpu, BuffersAreReusedFromThePool) {
  ZK_REQUIRE_GPU();
  using C = curve::Bls12_381G1;
  using Fr = C::Scalar;
  auto rng = test::rng(409);
  const std::size_t n = std::size_t{1} << 16;
  std::vector<curve::Affine<C>> bases(n);
  std::vector<Fr> k(n);
  auto p = curve::Jacobian<C>::generator() * Fr::random(rng);
  for (std::size_t i = 0; i < n; ++i) {
    bases[i] = p.to_affine();
    p = p + curve::Jacobian<C>::generator();
    k[i] = Fr::random(rng);
  }
  auto first = msm::gpu::msm_points<C>(bases, k);
  ASSERT_TRUE(first.ok()) << first.status().to_string();
  const std::size_t pooled = device_pool_bytes(0);
  if (pooled == 0) GTEST_SKIP() << "this device has no memory pools (cudaMalloc serves the buffers)";
  std::size_t free_b = 0;
  for (const auto& d : devices()) free_b = d.ordinal == 0 ? d.free_bytes : free_b;
  auto available = device_available_bytes();
  ASSERT_TRUE(available.ok());
  EXPECT_GE(*available, free_b + n * sizeof(curve::Affine<C>)) << "the first MSM's buffers are idle in the pool";
  auto second = msm::gpu::msm_points<C>(bases, k);
  ASSERT_TRUE(second.ok()) << second.status().to_string();
  EXPECT_EQ(*second, *first);
  EXPECT_EQ(device_pool_bytes(0), pooled) << "the second MSM must reuse the first one's memory";
  auto bad = device_alloc(std::size_t{1} << 62);
  EXPECT_EQ(bad.status().code(), StatusCode::kResourceExhausted) << bad.status().to_string();
  auto some = device_alloc(4096);
  ASSERT_TRUE(some.ok()) << some.status().to_string();
  device_free(*some);
}

TEST(Gpu, DevicesAreListed) {
  ZK_REQUIRE_GPU();
  const auto d = devices();
  ASSERT_FALSE(d.empty());
  EXPECT_GT(d[0].total_bytes, 0u);
  std::printf("device 0: %s, sm_%d%d, %zu MiB\n", d[0].name.c_str(), d[0].sm_major, d[0].sm_minor,
              d[0].total_bytes >> 20);
}

}  // namespace
}  // namespace zk::gpu
