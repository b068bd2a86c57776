// SnarkPack aggregation and verification at Filecoin's counts: 16 (an NI-PoRep sector), 128, 1024
// and 8192 proofs (819 interactive 32 GiB sectors of 10 partitions, padded), on 1 and 2 threads.
// The proofs are random group points, not Groth16 proofs (making 8192 valid ones would dominate the
// run): aggregation does the same work for any points, and verification computes every equation
// (the verdict is false), from the aggregate's bytes (reading checks every point and GT element).
// The verifying key has 328 public inputs per proof (a 32 GiB PoRep
// partition) with random values; the SRS is a DEVELOPMENT SRS. One iteration per aggregation (the
// large ones take seconds), ten per verification. Phases of the prover are reported as counters (seconds).
//
//   bench_snarkpack --benchmark_filter='aggregate/8192/2'   (under /usr/bin/time -v for peak RSS)

#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <map>

#include "curve/point.hpp"
#include "snarkpack/prove.hpp"
#include "snarkpack/verify.hpp"

namespace {

using namespace zk;
using namespace zk::snarkpack;

constexpr std::size_t kInputs = 328;

struct Fixture {
  Srs srs;
  std::vector<Groth16Proof> proofs;
  Groth16VerifyingKey vk;
  std::vector<std::vector<Fr>> inputs;
  std::vector<std::uint8_t> aggregate;  // its bytes
};

const Fixture& fixture(std::size_t n) {
  static std::map<std::size_t, Fixture> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  Rng rng(n);
  Fixture f;
  f.srs = development_srs(n, 2 * n, n);
  const auto a = curve::consecutive_points<curve::Bls12_381G1>(2 * n, rng);
  const auto b = curve::consecutive_points<curve::Bls12_381G2>(n + 3, rng);
  for (std::size_t j = 0; j < n; ++j) f.proofs.push_back({a[j], b[j], a[n + j]});
  const auto ic = curve::consecutive_points<curve::Bls12_381G1>(kInputs + 3, rng);
  f.vk.alpha_g1 = ic[kInputs + 1];
  f.vk.beta_g1 = ic[kInputs + 2];
  f.vk.delta_g1 = ic[kInputs + 2];
  f.vk.beta_g2 = b[n];
  f.vk.gamma_g2 = b[n + 1];
  f.vk.delta_g2 = b[n + 2];
  f.vk.ic.assign(ic.begin(), ic.begin() + kInputs + 1);
  f.inputs.assign(n, std::vector<Fr>(kInputs));
  for (auto& v : f.inputs) {
    for (auto& x : v) x = Fr::random(rng);
  }
  const std::vector<std::uint8_t> include(32, 7);
  auto p = aggregate(f.srs, f.proofs, include, Version::kV2);
  if (!p.ok()) std::abort();
  auto bytes = write_aggregate_proof(*p);
  if (!bytes.ok()) std::abort();
  f.aggregate = std::move(*bytes);
  return cache.emplace(n, std::move(f)).first->second;
}

void BM_aggregate(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const Fixture& f = fixture(n);
  tbb::task_arena arena(static_cast<int>(state.range(1)));
  const std::vector<std::uint8_t> include(32, 7);
  AggregateTimings t;
  for (auto _ : state) {
    arena.execute([&] {
      auto p = aggregate(f.srs, f.proofs, include, Version::kV2, &t);
      if (!p.ok()) std::abort();
      benchmark::DoNotOptimize(p->ip_ab);
    });
  }
  state.counters["commit_s"] = t.commitments;
  state.counters["gipa_s"] = t.gipa;
  state.counters["kzg_s"] = t.openings;
}

void BM_verify(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const Fixture& f = fixture(n);
  tbb::task_arena arena(static_cast<int>(state.range(1)));
  const std::vector<std::uint8_t> include(32, 7);
  const auto vs = verifier_srs(f.srs);
  if (!vs.ok()) std::abort();
  for (auto _ : state) {
    arena.execute([&] {
      auto p = read_aggregate_proof(f.aggregate);  // the GT and point checks are part of verifying
      if (!p.ok()) std::abort();
      auto v = verify_aggregate(*vs, f.vk, f.inputs, *p, include, Version::kV2);
      if (!v.ok()) std::abort();
      benchmark::DoNotOptimize(v->groth16);
    });
  }
}

void counts(benchmark::internal::Benchmark* b) {
  for (long n : {16, 128, 1024, 8192}) {
    for (long t : {1, 2}) b->Args({n, t});
  }
  b->ArgNames({"", ""})->Unit(benchmark::kMillisecond)->UseRealTime();
}

}  // namespace

BENCHMARK(BM_aggregate)->Name("aggregate")->Apply(counts)->Iterations(1);
BENCHMARK(BM_verify)->Name("verify")->Apply(counts)->Iterations(10);
BENCHMARK_MAIN();
