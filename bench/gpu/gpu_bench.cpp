// GPU kernels against the CPU on the same inputs (Google Benchmark, real time; host<->device
// copies included, since the prover pays them): G1 MSM at 2^20, 2^22, 2^24 (random scalars, and a
// Groth16-like witness of mostly 0s and 1s; and with the bases already on the device, as a
// prover's resident key); NTT at 2^24, 2^26 (counters: the kernels' and the
// copies' share, from CUDA events); the quotient H at 2^20 and 2^24; prove_start of a 2^20
// synthetic partition on each backend.
// Without a device every GPU benchmark reports the reason and skips. scripts/gpu-check.sh runs it.

#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>
#include <type_traits>

#include "arith_rate.hpp"
#include "base/rng.hpp"
#include "circuits/synthetic.hpp"
#include "curve/bls12_381.hpp"
#include "curve/bn254.hpp"
#include "gpu/gpu.hpp"
#include "gpu/pool.hpp"
#include "groth16/gpu_backend.hpp"
#include "groth16/setup.hpp"
#include "msm/gpu_msm.hpp"
#include "msm/pippenger.hpp"
#include "ntt/gpu_ntt.hpp"
#include "ntt/ntt.hpp"
#include "ntt/quotient.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"

namespace zk {
namespace {

bool skip_without_gpu(benchmark::State& state) {
  if (Status s = gpu::require_device(); !s.ok()) {
    state.SkipWithError(s.message().c_str());
    return true;
  }
  static const bool warm = [] {
    // The first kernel call creates the CUDA context (hundreds of ms): not part of any timing.
    const curve::Affine<curve::Bn254G1> g[1] = {curve::Affine<curve::Bn254G1>::generator()};
    const field::Bn254Fr k[1] = {field::Bn254Fr::one()};
    return msm::gpu::msm_points<curve::Bn254G1>(g, k).ok();
  }();
  (void)warm;
  return false;
}

/// The device's 32-bit multiply-add rate (the floor of every field product) and its Fq and Fr
/// product rates: with the products' SASS counts (docs/gpu.md) they say how close the product runs
/// to the issue limit.
template <class Measure>
void run_rate(benchmark::State& state, Measure&& measure, const std::string& what) {
  if (skip_without_gpu(state)) return;
  bench_gpu::Rate r;
  for (auto _ : state) {
    auto x = measure();
    if (!x.ok()) {
      state.SkipWithError(x.status().message().c_str());
      return;
    }
    r = *x;
  }
  state.counters[what + "_per_s"] = r.per_s;
  state.counters[what + "_per_sm_clock"] = r.per_sm_per_clock;
}
void BM_ImadRate(benchmark::State& state) {
  run_rate(state, [] { return bench_gpu::imad_rate(); }, "imad");
}
template <bool kFq>
void BM_FieldProductRate(benchmark::State& state) {
  run_rate(state, [] { return bench_gpu::field_product_rate(kFq); }, "products");
}

/// n bases tiled from 2^16 random points (distinct enough for timing), n random scalars.
template <class C>
struct MsmInput {
  std::vector<curve::Affine<C>> bases;
  std::vector<typename C::Scalar> scalars;
  /// `bits`: 9 in 10 scalars are 0 or 1 (an aux witness), the rest random.
  explicit MsmInput(std::size_t n, bool bits = false) {
    Rng rng(7);
    const std::size_t distinct = std::min<std::size_t>(n, 1 << 16);
    const auto aff = curve::consecutive_points<C>(distinct, rng);
    bases.resize(n);
    scalars.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      bases[i] = aff[i % distinct];
      scalars[i] = bits && i % 10 != 0 ? C::Scalar::from_u64(rng() & 1) : C::Scalar::random(rng);
    }
  }
};

/// kResident: the bases uploaded once before the timing (as a prover's resident key): the time is
/// the scalars' upload and the kernels.
template <class C, bool kGpu, bool kBits = false, bool kResident = false>
void BM_Msm(benchmark::State& state) {
  if (kGpu && skip_without_gpu(state)) return;
  static std::map<std::size_t, std::unique_ptr<MsmInput<C>>> cache;
  const std::size_t n = std::size_t{1} << state.range(0);
  auto& in = cache[n];
  if (!in) in = std::make_unique<MsmInput<C>>(n, kBits);
  gpu::DeviceCopy resident;
  if (kResident) {
    auto copy = gpu::upload_copy(in->bases.data(), in->bases.size() * sizeof(in->bases[0]));
    if (!copy.ok()) {
      state.SkipWithError(copy.status().message().c_str());
      return;
    }
    resident = std::move(*copy);
  }
  msm::gpu::raw::Stats stats{};
  for (auto _ : state) {
    auto r = kGpu ? msm::gpu::msm_points<C>(in->bases, in->scalars, {.device_bases = resident.get()}, &stats)
                  : msm::msm<C>(in->bases, in->scalars);
    if (!r.ok()) {
      state.SkipWithError(r.status().message().c_str());
      return;
    }
    benchmark::DoNotOptimize(*r);
  }
  state.counters["points"] = static_cast<double>(n);
  if (kGpu) {
    state.counters["passes"] = stats.passes;
    state.counters["pairs"] = static_cast<double>(stats.pairs);
    state.counters["units"] = static_cast<double>(stats.units);  // of the pairs, placed without the sort
    state.counters["levels"] = stats.levels;
    const auto plan = msm::gpu::raw::make_plan(n, C::Scalar::kBits);  // the window the MSM ran with
    state.counters["c"] = plan.window_bits;
    state.counters["windows"] = plan.windows;
  }
}

/// A card that cannot hold the key (docs/gpu.md "Cards that cannot hold the key"): an MSM of 2^n
/// random-scalar points in 4 passes with its bases streamed — each pass's upload overlapping the
/// previous pass's kernels — is the time; its parts are measured before the timing, once each:
/// `upload_ms`, the bases' copy alone (staged, as the MSM copies them), and `resident_ms`, the same
/// MSM and passes with the bases already on the device. `k_over_u` = resident_ms / upload_ms says
/// which regime a card is in (transfer-bound below 1: expect time ~ upload + resident / 4;
/// kernel-bound above: ~ upload / 4 + resident), which decides between the remedies docs/gpu.md weighs.
template <class C>
void BM_MsmStreamed(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  static std::map<std::size_t, std::unique_ptr<MsmInput<C>>> cache;
  const std::size_t n = std::size_t{1} << state.range(0);
  auto& in = cache[n];
  if (!in) in = std::make_unique<MsmInput<C>>(n);
  const msm::gpu::Options streamed{.points_per_pass = n / 4};
  using Clock = std::chrono::steady_clock;
  const auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  double upload_ms = 0, resident_ms = 0;
  {
    const std::size_t bytes = n * sizeof(in->bases[0]);
    auto copy = gpu::upload_copy(in->bases.data(), bytes);  // the allocation (and a first copy)
    if (!copy.ok()) {
      state.SkipWithError(copy.status().message().c_str());
      return;
    }
    auto t0 = Clock::now();
    Status s = gpu::copy_to_device(const_cast<void*>(copy->get()), in->bases.data(), bytes);
    if (s.ok()) s = gpu::synchronize();
    upload_ms = ms(t0, Clock::now());
    auto warm = msm::gpu::msm_points<C>(in->bases, in->scalars, {.points_per_pass = n / 4, .device_bases = copy->get()});
    t0 = Clock::now();
    auto r = msm::gpu::msm_points<C>(in->bases, in->scalars, {.points_per_pass = n / 4, .device_bases = copy->get()});
    resident_ms = ms(t0, Clock::now());
    if (!s.ok() || !warm.ok() || !r.ok()) {
      state.SkipWithError((!s.ok() ? s : !warm.ok() ? warm.status() : r.status()).message().c_str());
      return;
    }
  }
  msm::gpu::raw::Stats stats{};
  for (auto _ : state) {
    auto r = msm::gpu::msm_points<C>(in->bases, in->scalars, streamed, &stats);
    if (!r.ok()) {
      state.SkipWithError(r.status().message().c_str());
      return;
    }
    benchmark::DoNotOptimize(*r);
  }
  state.counters["passes"] = stats.passes;
  state.counters["upload_ms"] = upload_ms;
  state.counters["resident_ms"] = resident_ms;
  state.counters["k_over_u"] = upload_ms > 0 ? resident_ms / upload_ms : 0;
}

/// 1 GiB from pageable host memory to the device: the driver's copy against gpu::copy_to_device's
/// staged one.
template <bool kStaged>
void BM_Upload(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const std::size_t bytes = std::size_t{1} << 30;
  std::vector<unsigned char> host(bytes);
  for (std::size_t i = 0; i < bytes; i += 4096) host[i] = static_cast<unsigned char>(i >> 12);
  auto device = gpu::upload_copy(host.data(), bytes);  // the allocation (and a first copy)
  if (!device.ok()) {
    state.SkipWithError(device.status().message().c_str());
    return;
  }
  for (auto _ : state) {
    Status s = gpu::copy_to_device(const_cast<void*>(device->get()), host.data(), bytes, nullptr, kStaged);
    if (s.ok()) s = gpu::synchronize();
    if (!s.ok()) {
      state.SkipWithError(s.message().c_str());
      return;
    }
  }
  state.counters["GB/s"] = benchmark::Counter(static_cast<double>(bytes) * static_cast<double>(state.iterations()),
                                              benchmark::Counter::kIsRate);
}

template <class F, bool kGpu>
void BM_Ntt(benchmark::State& state) {
  if (kGpu && skip_without_gpu(state)) return;
  const unsigned log_n = static_cast<unsigned>(state.range(0));
  auto d = ntt::Domain<F>::create(log_n, ntt::DomainConfig::bellman());
  std::vector<F> a(d->size());
  Rng rng(9);
  for (auto& x : a) x = F::random(rng);
  ntt::gpu::raw::Timing t{}, sum{};
  for (auto _ : state) {
    if (kGpu) {
      if (Status s = ntt::gpu::forward(*d, std::span<F>(a), &t); !s.ok()) {
        state.SkipWithError(s.message().c_str());
        return;
      }
      sum.upload_ms += t.upload_ms, sum.kernels_ms += t.kernels_ms, sum.download_ms += t.download_ms;
    } else {
      ntt::forward(*d, std::span<F>(a), ntt::Order::kNN);
    }
  }
  if (kGpu && state.iterations() > 0) {
    const double it = static_cast<double>(state.iterations());
    state.counters["kernels_ms"] = sum.kernels_ms / it;
    state.counters["upload_ms"] = sum.upload_ms / it;
    state.counters["download_ms"] = sum.download_ms / it;
  }
}

template <class F, bool kGpu>
void BM_Quotient(benchmark::State& state) {
  if (kGpu && skip_without_gpu(state)) return;
  const unsigned log_n = static_cast<unsigned>(state.range(0));
  auto d = ntt::Domain<F>::create(log_n, ntt::DomainConfig::bellman());
  std::vector<F> a(d->size()), b(d->size()), c(d->size());
  Rng rng(10);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = F::random(rng), b[i] = F::random(rng), c[i] = a[i] * b[i];
  for (auto _ : state) {
    state.PauseTiming();
    auto x = a, y = b, z = c;
    state.ResumeTiming();
    Status s = kGpu ? ntt::gpu::compute_h(*d, std::span<F>(x), std::span<const F>(y), std::span<const F>(z))
                    : ntt::compute_h(*d, std::span<F>(x), std::span<F>(y), std::span<F>(z));
    if (!s.ok()) {
      state.SkipWithError(s.message().c_str());
      return;
    }
  }
}

template <class Backend>
Backend make_backend() {
  static gpu::DevicePool gpus({});  // device 0, nothing kept resident
  if constexpr (std::is_same_v<Backend, groth16::CpuBackend>) {
    return {};
  } else {
    return Backend(gpus);
  }
}

template <class Backend>
void BM_ProveStart(benchmark::State& state) {
  using E = groth16::Bls12_381;
  using Fr = E::Fr;
  if (std::string(Backend::kName) == "gpu" && skip_without_gpu(state)) return;
  const std::size_t n = (std::size_t{1} << state.range(0)) - 3;
  circuits::SyntheticCircuit<Fr> circuit(n, 1);
  static std::map<std::size_t, std::unique_ptr<groth16::ProvingKey<E>>> keys;
  auto& pk = keys[n];
  if (!pk) {
    r1cs::ShapeRecorder<Fr> rec;
    (void)circuit.synthesize(rec);
    Rng rng(5);
    pk = std::make_unique<groth16::ProvingKey<E>>(
        *groth16::generate_parameters<E>(rec.shape(), groth16::Trapdoor<E>::random(rng)));
  }
  Rng rng(6);
  for (auto _ : state) {
    state.PauseTiming();
    r1cs::ProvingSystem<Fr> cs({.inputs = pk->vk.ic.size(), .aux = pk->l.size(), .constraints = n});
    (void)circuit.synthesize(cs);
    auto partition = std::move(cs).finish();
    state.ResumeTiming();
    auto p = groth16::prove_start<E, Backend>(*pk, std::move(partition), Fr::random(rng), Fr::random(rng), nullptr,
                                              make_backend<Backend>());
    if (!p.ok()) {
      state.SkipWithError(p.status().message().c_str());
      return;
    }
  }
}

/// A PoRep-shaped partition of domain 2^log_n without a trusted setup (prove_start checks the key's
/// counts, not its points): bases tiled from 2^16 random points, n - 8 aux variables of which 9 in
/// 10 are bits, every aux in A, a quarter in B, random a, b, c rows. The timing is the real work
/// (the proof it starts is meaningless); a real setup at 2^24 and above would take hours here.
struct ShapeKey {
  using E = groth16::Bls12_381;
  using Fr = E::Fr;
  std::shared_ptr<groth16::ProvingKey<E>> pk;
  std::size_t n = 0, aux = 0;
  explicit ShapeKey(unsigned log_n) : pk(std::make_shared<groth16::ProvingKey<E>>()), n(std::size_t{1} << log_n) {
    aux = n - 8;
    const MsmInput<E::G1Config> g1(std::size_t{1} << 16);
    auto tile = [&](groth16::KeyPoints<E::G1Affine>& q, std::size_t count) {
      std::vector<E::G1Affine> v(count);
      for (std::size_t i = 0; i < count; ++i) v[i] = g1.bases[i & 0xffff];
      q = std::move(v);
    };
    pk->vk.ic.assign(2, E::G1Affine::generator());
    tile(pk->h, n - 1);
    tile(pk->l, aux);
    tile(pk->a, 2 + aux);
    const std::size_t nb = 1 + aux / 4;
    tile(pk->b_g1, nb);
    pk->b_g2 = std::vector<E::G2Affine>(nb, E::G2Affine::generator());
  }
  r1cs::Partition<Fr> partition(Rng& rng) const {
    r1cs::Partition<Fr> p;
    p.inputs = {Fr::one(), Fr::random(rng)};
    for (std::size_t i = 0; i < aux; ++i) p.aux.push_back(i % 10 == 0 ? Fr::random(rng) : Fr::from_u64(rng() & 1));
    for (std::size_t i = 0; i < n; ++i) p.a.push_back(Fr::random(rng)), p.b.push_back(Fr::random(rng));
    p.a_aux = msm::DensityBitmap(aux, true);
    p.b_input = msm::DensityBitmap(2);
    p.b_input.set(1);
    p.b_aux = msm::DensityBitmap(aux);
    for (std::size_t i = 0; i < aux; i += 4) p.b_aux.set(i);
    return p;
  }
};

/// The GPU runs keep the key's bases resident (as the daemon does): one untimed warm-up proof
/// uploads them, the timed ones only move a, b, c, the scalars and the results.
template <class Backend>
void BM_ProveStartShape(benchmark::State& state) {
  constexpr bool kGpu = std::is_same_v<Backend, groth16::GpuBackend>;
  if (kGpu && skip_without_gpu(state)) return;
  static std::map<unsigned, std::unique_ptr<ShapeKey>> keys;
  const unsigned log_n = static_cast<unsigned>(state.range(0));
  auto& key = keys[log_n];
  if (!key) key = std::make_unique<ShapeKey>(log_n);
  Rng rng(8);
  // Device 0 keeping the key's bases resident (half its memory, as the daemon).
  static const auto gpus = *gpu::DevicePool::for_devices({0});  // the default capacity: no error
  auto backend = [&] {
    if constexpr (kGpu) {
      return Backend(*gpus, {}, key->pk);
    } else {
      return Backend{};
    }
  };
  auto run = [&](groth16::ProveTimings* t) {
    return groth16::prove_start<ShapeKey::E, Backend>(*key->pk, key->partition(rng), ShapeKey::Fr::one(),
                                                      ShapeKey::Fr::one(), t, backend());
  };
  if constexpr (kGpu) {
    if (auto warm = run(nullptr); !warm.ok()) {
      state.SkipWithError(warm.status().message().c_str());
      return;
    }
  }
  groth16::ProveTimings t{}, sum{};
  for (auto _ : state) {
    state.PauseTiming();
    auto partition = key->partition(rng);
    state.ResumeTiming();
    auto p = groth16::prove_start<ShapeKey::E, Backend>(*key->pk, std::move(partition), ShapeKey::Fr::one(),
                                                        ShapeKey::Fr::one(), &t, backend());
    if (!p.ok()) {
      state.SkipWithError(p.status().message().c_str());
      return;
    }
    sum.quotient += t.quotient, sum.msm_h += t.msm_h, sum.msm_l += t.msm_l, sum.msm_a += t.msm_a;
    sum.msm_b_g1 += t.msm_b_g1;
  }
  const double it = std::max<double>(1, static_cast<double>(state.iterations()));
  state.counters["quotient_ms"] = sum.quotient / it;
  state.counters["msm_h_ms"] = sum.msm_h / it;
  state.counters["msm_l_ms"] = sum.msm_l / it;
  state.counters["msm_a_ms"] = sum.msm_a / it;
  state.counters["msm_b_g1_ms"] = sum.msm_b_g1 / it;
  if constexpr (kGpu) {
    state.counters["resident_hits"] = static_cast<double>(gpus->status().front().resident.hits);
  }
}

using Bls1 = curve::Bls12_381G1;
using Bls2 = curve::Bls12_381G2;
using Bn1 = curve::Bn254G1;
using BlsFr = field::Bls12_381Fr;
BENCHMARK(BM_ImadRate)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_FieldProductRate<true>)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_FieldProductRate<false>)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_Msm<Bls1, true>)->Arg(20)->Arg(22)->Arg(24)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_Msm<Bn1, true>)->Arg(20)->Arg(22)->Arg(24)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_Msm<Bls1, true, true>)->Arg(20)->Arg(24)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_Msm<Bls1, true, false, true>)->Arg(22)->Arg(24)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
// PoRep-32G's sizes (2^27: the H query; 14 GiB of bases resident): the issue-42 table.
BENCHMARK(BM_Msm<Bls1, true, false, true>)->Arg(26)->Arg(27)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK(BM_Msm<Bls1, true, true, true>)->Arg(27)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK(BM_Msm<Bn1, true, false, true>)->Arg(24)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
// B_G2 of a 32 GiB PoRep partition is 33.1M G2 points, its scalars mostly 0 and 1 (docs/gpu.md
// "The CPU's share of a 32 GiB proof"): 2^22 here, 2^25 with the large ones.
BENCHMARK(BM_Msm<Bls2, true, true, true>)->Arg(22)->Arg(25)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK(BM_Msm<Bls1, false>)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_MsmStreamed<Bls1>)->Arg(24)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_Upload<false>)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_Upload<true>)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_Ntt<BlsFr, true>)->Arg(24)->Arg(26)->Arg(27)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_Ntt<BlsFr, false>)->Arg(24)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_Quotient<BlsFr, true>)->Arg(20)->Arg(24)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_Quotient<BlsFr, false>)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_ProveStart<groth16::GpuBackend>)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK(BM_ProveStart<groth16::CpuBackend>)->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
// Larger partitions (GPU; 2^27 is PoRep-32G's domain: about 70 GB of host memory, run it alone).
BENCHMARK(BM_ProveStartShape<groth16::GpuBackend>)
    ->Arg(22)
    ->Arg(24)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);
BENCHMARK(BM_ProveStartShape<groth16::CpuBackend>)
    ->Arg(22)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(BM_ProveStartShape<groth16::GpuBackend>)
    ->Name("BM_ProveStart2p27/gpu")
    ->Arg(27)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace
}  // namespace zk

BENCHMARK_MAIN();
