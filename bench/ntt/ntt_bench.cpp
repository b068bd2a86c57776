// NTT and quotient benchmarks over BLS12-381 Fr (and the forward transform over BN254 Fr, circom's
// field, where the lazy butterfly needs one correction fewer), one and two threads (a task arena per run).
// Counters: ns_per_butterfly = wall time / (n/2 log n); compare with BM_mul_throughput (independent
// multiplications over an array, the cost one butterfly cannot beat) and bench_field's latency BM_mul.

#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <vector>

#include "field/fields.hpp"
#include "ntt/quotient.hpp"

namespace zk::ntt {
namespace {

using Fr = field::Bls12_381Fr;

template <class F = Fr>
std::vector<F> random_vector(std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<F> v(n);
  for (auto& x : v) x = F::random(rng);
  return v;
}

template <class F = Fr>
const Domain<F>& domain(unsigned log_n) {
  static std::vector<std::unique_ptr<Domain<F>>> cache(33);
  if (!cache[log_n]) cache[log_n] = std::make_unique<Domain<F>>(*Domain<F>::create(log_n, DomainConfig::bellman()));
  return *cache[log_n];
}

void BM_mul_throughput(benchmark::State& state) {
  auto v = random_vector(1 << 12, 1);
  const Fr y = v[7];
  for (auto _ : state) {
    for (auto& x : v) x = x * y;
    benchmark::DoNotOptimize(v.data());
  }
  state.counters["ns_per_mul"] = benchmark::Counter(static_cast<double>(v.size()) * state.iterations(),
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_mul_throughput);

// Args: log_n, threads, block_log (0 = default plan).
template <class F>
void forward_bench(benchmark::State& state) {
  const unsigned log_n = static_cast<unsigned>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  PassPlan plan;
  if (state.range(2) != 0) plan.block_log = static_cast<unsigned>(state.range(2));
  const auto& d = domain<F>(log_n);
  auto v = random_vector<F>(d.size(), 2);
  tbb::task_arena arena(threads);
  for (auto _ : state) {
    arena.execute([&] { forward(d, std::span<F>(v), Order::kNR, plan); });
    benchmark::DoNotOptimize(v.data());
  }
  const double butterflies = static_cast<double>(d.size() / 2) * log_n;
  state.counters["ns_per_butterfly"] =
      benchmark::Counter(butterflies * state.iterations(), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
void BM_ntt_forward(benchmark::State& state) { forward_bench<Fr>(state); }
BENCHMARK(BM_ntt_forward)
    ->ArgsProduct({{10, 12, 16, 18, 20, 22}, {1, 2}, {0}})
    ->ArgsProduct({{20}, {1}, {8, 10, 11, 13, 14, 15}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
void BM_ntt_forward_bn254(benchmark::State& state) { forward_bench<field::Bn254Fr>(state); }
BENCHMARK(BM_ntt_forward_bn254)->ArgsProduct({{12, 18, 20}, {1, 2}, {0}})->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ntt_inverse(benchmark::State& state) {
  const unsigned log_n = static_cast<unsigned>(state.range(0));
  const auto& d = domain(log_n);
  auto v = random_vector(d.size(), 3);
  tbb::task_arena arena(static_cast<int>(state.range(1)));
  for (auto _ : state) {
    arena.execute([&] { inverse(d, std::span<Fr>(v), Order::kRN); });
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_ntt_inverse)->ArgsProduct({{16, 20}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_compute_h(benchmark::State& state) {
  const unsigned log_n = static_cast<unsigned>(state.range(0));
  const auto& d = domain(log_n);
  const auto a0 = random_vector(d.size(), 4), b0 = random_vector(d.size(), 5), c0 = random_vector(d.size(), 6);
  auto a = a0, b = b0, c = c0;
  tbb::task_arena arena(static_cast<int>(state.range(1)));
  for (auto _ : state) {
    state.PauseTiming();
    a = a0, b = b0, c = c0;
    state.ResumeTiming();
    arena.execute([&] { (void)compute_h(d, std::span<Fr>(a), std::span<Fr>(b), std::span<Fr>(c)); });
    benchmark::DoNotOptimize(a.data());
  }
}
BENCHMARK(BM_compute_h)->ArgsProduct({{16, 20}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace zk::ntt

BENCHMARK_MAIN();
