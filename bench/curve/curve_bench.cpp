// Curve and pairing kernels, single thread, latency-bound; see docs/benchmarks.md.

#include <benchmark/benchmark.h>

#include "curve/pairing.hpp"

namespace zk::curve {
namespace {

template <class C>
void BM_add(benchmark::State& state) {
  Rng rng(1);
  auto x = Jacobian<C>::random(rng);
  const auto y = Jacobian<C>::random(rng);
  for (auto _ : state) {
    x = x + y;
    benchmark::DoNotOptimize(x);
  }
}

template <class C>
void BM_add_mixed(benchmark::State& state) {
  Rng rng(2);
  auto x = Jacobian<C>::random(rng);
  const auto y = Jacobian<C>::random(rng).to_affine();
  for (auto _ : state) {
    x = x.add_mixed(y);
    benchmark::DoNotOptimize(x);
  }
}

template <class C>
void BM_xyzz_add_mixed(benchmark::State& state) {
  Rng rng(2);
  auto x = Xyzz<C>::from_affine(Jacobian<C>::random(rng).to_affine()).dbl();
  const auto y = Jacobian<C>::random(rng).to_affine();
  for (auto _ : state) {
    x = x.add_mixed(y);
    benchmark::DoNotOptimize(x);
  }
}

template <class C>
void BM_double(benchmark::State& state) {
  Rng rng(3);
  auto x = Jacobian<C>::random(rng);
  for (auto _ : state) {
    x = x.dbl();
    benchmark::DoNotOptimize(x);
  }
}

template <class C>
void BM_scalar_mul(benchmark::State& state) {
  Rng rng(4);
  auto x = Jacobian<C>::random(rng);
  const auto k = C::Scalar::random(rng);
  for (auto _ : state) {
    x = x * k;
    benchmark::DoNotOptimize(x);
  }
}

template <class C>
void BM_subgroup_check(benchmark::State& state) {
  Rng rng(5);
  const auto x = Jacobian<C>::random(rng);
  for (auto _ : state) {
    bool in = false;
    if constexpr (std::is_same_v<C, Bls12_381G1> || std::is_same_v<C, Bls12_381G2>) {
      in = bls12_381::is_in_subgroup(x);
    } else {
      in = bn254::is_in_subgroup(x);
    }
    benchmark::DoNotOptimize(in);
  }
}

template <class Ns>
void BM_pairing(benchmark::State& state);

template <>
void BM_pairing<Bls12_381G1>(benchmark::State& state) {
  using namespace bls12_381;
  Rng rng(6);
  const auto p = G1::random(rng).to_affine();
  const auto q = G2::random(rng).to_affine();
  for (auto _ : state) benchmark::DoNotOptimize(pairing(p, q));
}

template <>
void BM_pairing<Bn254G1>(benchmark::State& state) {
  using namespace bn254;
  Rng rng(6);
  const auto p = G1::random(rng).to_affine();
  const auto q = G2::random(rng).to_affine();
  for (auto _ : state) benchmark::DoNotOptimize(pairing(p, q));
}

void BM_bls_miller_loop(benchmark::State& state) {
  using namespace bls12_381;
  Rng rng(7);
  const auto p = G1::random(rng).to_affine();
  const auto prep = prepare(G2::random(rng).to_affine());
  const G2Prepared* qs[] = {&prep};
  for (auto _ : state) benchmark::DoNotOptimize(multi_miller_loop(std::span(&p, 1), qs));
}

void BM_bls_prepare(benchmark::State& state) {
  using namespace bls12_381;
  Rng rng(7);
  const auto q = G2::random(rng).to_affine();
  for (auto _ : state) benchmark::DoNotOptimize(prepare(q));
}

void BM_bls_final_exp(benchmark::State& state) {
  using namespace bls12_381;
  Rng rng(8);
  Fq12 f = Fq12::random(rng);
  for (auto _ : state) {
    f = final_exponentiation(f);
    benchmark::DoNotOptimize(f);
  }
}

BENCHMARK(BM_add<Bls12_381G1>)->Name("bls12_381/g1_add");
BENCHMARK(BM_add_mixed<Bls12_381G1>)->Name("bls12_381/g1_add_mixed");
BENCHMARK(BM_xyzz_add_mixed<Bls12_381G1>)->Name("bls12_381/g1_xyzz_add_mixed");
BENCHMARK(BM_double<Bls12_381G1>)->Name("bls12_381/g1_double");
BENCHMARK(BM_scalar_mul<Bls12_381G1>)->Name("bls12_381/g1_scalar_mul");
BENCHMARK(BM_subgroup_check<Bls12_381G1>)->Name("bls12_381/g1_subgroup_check");
BENCHMARK(BM_add<Bls12_381G2>)->Name("bls12_381/g2_add");
BENCHMARK(BM_add_mixed<Bls12_381G2>)->Name("bls12_381/g2_add_mixed");
BENCHMARK(BM_double<Bls12_381G2>)->Name("bls12_381/g2_double");
BENCHMARK(BM_scalar_mul<Bls12_381G2>)->Name("bls12_381/g2_scalar_mul");
BENCHMARK(BM_subgroup_check<Bls12_381G2>)->Name("bls12_381/g2_subgroup_check");
BENCHMARK(BM_bls_prepare)->Name("bls12_381/prepare");
BENCHMARK(BM_bls_miller_loop)->Name("bls12_381/miller_loop");
BENCHMARK(BM_bls_final_exp)->Name("bls12_381/final_exponentiation");
BENCHMARK(BM_pairing<Bls12_381G1>)->Name("bls12_381/pairing");
BENCHMARK(BM_add<Bn254G1>)->Name("bn254/g1_add");
BENCHMARK(BM_add_mixed<Bn254G1>)->Name("bn254/g1_add_mixed");
BENCHMARK(BM_double<Bn254G1>)->Name("bn254/g1_double");
BENCHMARK(BM_scalar_mul<Bn254G1>)->Name("bn254/g1_scalar_mul");
BENCHMARK(BM_add<Bn254G2>)->Name("bn254/g2_add");
BENCHMARK(BM_scalar_mul<Bn254G2>)->Name("bn254/g2_scalar_mul");
BENCHMARK(BM_subgroup_check<Bn254G2>)->Name("bn254/g2_subgroup_check");
BENCHMARK(BM_pairing<Bn254G1>)->Name("bn254/pairing");

}  // namespace
}  // namespace zk::curve

BENCHMARK_MAIN();
