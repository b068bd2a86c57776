// Groth16 verification on BLS12-381 at the size of a Filecoin PoRep partition proof (328 public
// inputs): one proof, and a batch of 10 under one key (verify_batch). One thread, like a verifier
// beside a busy prover; the proofs come from a random satisfiable circuit (tests/groth16) under a
// random setup, so every verification succeeds and does all its work.

#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "test_circuits.hpp"

namespace {

using namespace zk;
using E = groth16::Bls12_381;
using Fr = E::Fr;

constexpr std::size_t kInputs = 328;
constexpr std::size_t kBatch = 10;

struct Fixture {
  groth16::PreparedVerifyingKey<E> pvk;
  std::vector<groth16::Proof<E>> proofs;
  std::vector<std::vector<Fr>> inputs;
};

const Fixture& fixture() {
  static const Fixture f = [] {
    Rng rng(328);
    Fixture out;
    const auto circuit = test::RandomCircuit<Fr>::make(rng, kInputs, 4, kInputs + 8);
    r1cs::ShapeRecorder<Fr> rec;
    if (!circuit.synthesize(rec).ok()) std::abort();
    auto pk = groth16::generate_parameters<E>(rec.shape(), groth16::Trapdoor<E>::random(rng));
    if (!pk.ok()) std::abort();
    out.pvk = groth16::prepare_verifying_key(pk->vk);
    for (std::size_t j = 0; j < kBatch; ++j) {
      r1cs::ProvingSystem<Fr> cs;
      if (!circuit.synthesize(cs).ok()) std::abort();
      auto proof = groth16::prove(*pk, std::move(cs).finish(), Fr::random(rng), Fr::random(rng));
      if (!proof.ok()) std::abort();
      out.proofs.push_back(*proof);
      out.inputs.push_back(circuit.public_inputs());
    }
    if (!*groth16::verify(out.pvk, out.proofs[0], out.inputs[0])) std::abort();
    return out;
  }();
  return f;
}

void BM_verify(benchmark::State& state) {
  const Fixture& f = fixture();
  tbb::task_arena arena(1);
  for (auto _ : state) {
    bool ok = false;
    arena.execute([&] { ok = *groth16::verify(f.pvk, f.proofs[0], f.inputs[0]); });
    if (!ok) state.SkipWithError("verification failed");
  }
}
BENCHMARK(BM_verify)->Name("bls12_381/verify/328")->Unit(benchmark::kMicrosecond);

void BM_verify_batch(benchmark::State& state) {
  const Fixture& f = fixture();
  tbb::task_arena arena(1);
  Rng rng(7);
  for (auto _ : state) {
    bool ok = false;
    arena.execute([&] { ok = *groth16::verify_batch<E>(f.pvk, f.proofs, f.inputs, rng); });
    if (!ok) state.SkipWithError("batch verification failed");
  }
}
BENCHMARK(BM_verify_batch)->Name("bls12_381/verify_batch/328/10")->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
