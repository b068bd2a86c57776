// Field kernels, single thread, latency-bound (each result feeds the next operation), in the same
// shape as the side-by-side blst harness described in docs/benchmarks.md.

#include <benchmark/benchmark.h>

#include "field/fields.hpp"
#include "field/fp12.hpp"

namespace zk::field {
namespace {

template <class F>
void mul_chain(benchmark::State& state) {
  Rng rng(1);
  F x = F::random(rng);
  const F y = F::random(rng);
  for (auto _ : state) {
    x = x * y;
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void BM_mul(benchmark::State& state) {
  mul_chain<F>(state);
}

// The same chain with the product inlined, as the hot loops have it (the NTT's butterflies and the
// MSM's batch additions use MontField's always-inline lazy products). In this file GCC calls the
// 4-limb BLS12-381 Fr and BN254 Fq products out of line (its inlining budget for a large unit), and
// the call costs a third: ~20.7 against ~14.1 ns on Zen 5 — what made "Fr 1.35x blst" (issue 46).
// Forcing every 4-limb product inline was measured and not kept: no gain in the NTT or the quotient,
// and BN254's G1 MSM 12% slower without IFMA.
template <class F>
[[gnu::flatten]] void BM_mul_inlined(benchmark::State& state) {
  mul_chain<F>(state);
}

template <class F>
void BM_mul_portable(benchmark::State& state) {
  Rng rng(1);
  auto x = F::random(rng).mont();
  const auto y = F::random(rng).mont();
  for (auto _ : state) {
    x = F::mul_raw_portable(x, y);
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void BM_square(benchmark::State& state) {
  Rng rng(2);
  F x = F::random(rng);
  for (auto _ : state) {
    x = x.square();
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void BM_add(benchmark::State& state) {
  Rng rng(3);
  F x = F::random(rng);
  const F y = F::random(rng);
  for (auto _ : state) {
    x = x + y;
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void BM_inverse(benchmark::State& state) {
  Rng rng(4);
  F x = F::random(rng);
  for (auto _ : state) {
    x = x.inverse();
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void BM_sqrt(benchmark::State& state) {
  Rng rng(5);
  F x = F::random(rng).square();
  for (auto _ : state) {
    auto r = x.sqrt();
    benchmark::DoNotOptimize(r);
  }
}

using BlsFq12 = Fp12<Bls12_381Fq, params::Bls12_381Tower>;
using BnFq12 = Fp12<Bn254Fq, params::Bn254Tower>;

BENCHMARK(BM_mul<Bls12_381Fr>)->Name("bls12_381/fr_mul");
BENCHMARK(BM_mul_inlined<Bls12_381Fr>)->Name("bls12_381/fr_mul_inlined");
BENCHMARK(BM_mul_portable<Bls12_381Fr>)->Name("bls12_381/fr_mul_portable");
BENCHMARK(BM_square<Bls12_381Fr>)->Name("bls12_381/fr_square");
BENCHMARK(BM_add<Bls12_381Fr>)->Name("bls12_381/fr_add");
BENCHMARK(BM_inverse<Bls12_381Fr>)->Name("bls12_381/fr_inverse");
BENCHMARK(BM_sqrt<Bls12_381Fr>)->Name("bls12_381/fr_sqrt");
BENCHMARK(BM_mul<Bls12_381Fq>)->Name("bls12_381/fq_mul");
BENCHMARK(BM_mul_portable<Bls12_381Fq>)->Name("bls12_381/fq_mul_portable");
BENCHMARK(BM_square<Bls12_381Fq>)->Name("bls12_381/fq_square");
BENCHMARK(BM_add<Bls12_381Fq>)->Name("bls12_381/fq_add");
BENCHMARK(BM_inverse<Bls12_381Fq>)->Name("bls12_381/fq_inverse");
BENCHMARK(BM_mul<Fp2<Bls12_381Fq>>)->Name("bls12_381/fq2_mul");
BENCHMARK(BM_square<Fp2<Bls12_381Fq>>)->Name("bls12_381/fq2_square");
BENCHMARK(BM_mul<BlsFq12>)->Name("bls12_381/fq12_mul");
BENCHMARK(BM_square<BlsFq12>)->Name("bls12_381/fq12_square");
BENCHMARK(BM_mul<Bn254Fr>)->Name("bn254/fr_mul");
BENCHMARK(BM_mul_portable<Bn254Fr>)->Name("bn254/fr_mul_portable");
BENCHMARK(BM_square<Bn254Fr>)->Name("bn254/fr_square");
BENCHMARK(BM_inverse<Bn254Fr>)->Name("bn254/fr_inverse");
BENCHMARK(BM_mul<Bn254Fq>)->Name("bn254/fq_mul");
BENCHMARK(BM_mul_inlined<Bn254Fq>)->Name("bn254/fq_mul_inlined");
BENCHMARK(BM_square<Bn254Fq>)->Name("bn254/fq_square");
BENCHMARK(BM_inverse<Bn254Fq>)->Name("bn254/fq_inverse");
BENCHMARK(BM_mul<Fp2<Bn254Fq>>)->Name("bn254/fq2_mul");
BENCHMARK(BM_square<Fp2<Bn254Fq>>)->Name("bn254/fq2_square");
BENCHMARK(BM_mul<BnFq12>)->Name("bn254/fq12_mul");

}  // namespace
}  // namespace zk::field

BENCHMARK_MAIN();
