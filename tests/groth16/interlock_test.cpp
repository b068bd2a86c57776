// The dual-worker interlock (gpu/gate.hpp, groth16/gpu_backend.hpp) without a GPU: DeviceBackend
// runs over CPU-emulated device calls, so the gate's rules and the backend's split between
// CPU preparation (outside a turn) and device work (inside) are checked in CI. The kernels
// themselves are checked by gpu_device_code_test (emulated) and gpu_test (on a device).

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "gpu/gate.hpp"
#include "gpu/resident.hpp"
#include "groth16/gpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "msm/compact_column.hpp"
#include "msm/density.hpp"
#include "groth16/snarkjs.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "test_circuits.hpp"
#include "test_util.hpp"

namespace zk::groth16 {
namespace {

using namespace std::chrono_literals;

// Waits (polling) until `pred` holds; false after `limit` (a deadlock detector, not a timing check).
template <class Pred>
bool eventually(Pred pred, std::chrono::seconds limit = 60s) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

TEST(DeviceGate, TurnsAreServedInArrivalOrderAndAReturningHolderQueues) {
  gpu::DeviceGate gate;
  std::mutex m;
  std::vector<char> order;
  auto a = std::make_unique<gpu::DeviceGate::Turn>(gate.enter());
  EXPECT_TRUE(gate.stats().held);
  std::thread tb([&] {
    auto t = gate.enter();
    std::lock_guard l(m);
    order.push_back('b');
  });
  ASSERT_TRUE(eventually([&] { return gate.stats().waiting == 1; }));
  std::thread tc([&] {
    auto t = gate.enter();
    std::lock_guard l(m);
    order.push_back('c');
  });
  ASSERT_TRUE(eventually([&] { return gate.stats().waiting == 2; }));
  // The holder releases and asks again at once: it queues behind b and c.
  std::thread ta([&] {
    a.reset();
    auto t = gate.enter();
    std::lock_guard l(m);
    order.push_back('a');
  });
  ta.join();
  tb.join();
  tc.join();
  EXPECT_EQ(order, (std::vector<char>{'b', 'c', 'a'}));
  const auto s = gate.stats();
  EXPECT_EQ(s.turns, 4u);
  EXPECT_EQ(s.waiting, 0u);
  EXPECT_FALSE(s.held);
}

TEST(DeviceGate, MovedTurnReleasesOnce) {
  gpu::DeviceGate gate;
  {
    auto t = gate.enter();
    auto moved = std::move(t);
    EXPECT_TRUE(gate.stats().held);
  }
  EXPECT_FALSE(gate.stats().held);
  { auto t = gate.enter(); }  // would block forever if the gate had been left held
  EXPECT_EQ(gate.stats().turns, 2u);
}

// What the emulated device saw.
struct DeviceLog {
  gpu::DeviceGate* gate = nullptr;
  std::atomic<int> inside{0}, max_inside{0}, calls{0};
  std::atomic<bool> first{true}, other_worker_prepared_meanwhile{false};
  std::atomic<int> resident_calls{0}, resident_mismatches{0};
};

// The device calls on the CPU. The very first call holds its turn until another worker is waiting
// at the gate: that worker got through its CPU preparation (padding a, b, c) while the device was
// taken, which is the point of the interlock.
struct EmulatedOps {
  static constexpr bool kHostTwiddles = true;  // the CPU transforms need the table
  DeviceLog* log;
  void enter() const {
    const int now = ++log->inside;
    int seen = log->max_inside.load();
    while (now > seen && !log->max_inside.compare_exchange_weak(seen, now)) {
    }
    ++log->calls;
    if (log->first.exchange(false)) {
      log->other_worker_prepared_meanwhile = eventually([&] { return log->gate->stats().waiting >= 1; });
    }
  }
  void leave() const { --log->inside; }
  template <class Fn>
  auto on_device(Fn&& fn) const {
    enter();
    auto result = fn();
    leave();
    return result;
  }
  /// The quotient and the H MSM as prover.hpp's CpuBackend does them (one device call here).
  template <class C, class F>
  Result<curve::Jacobian<C>> quotient_and_h(const ntt::Domain<F>& d, base::UninitVector<F>& a, base::UninitVector<F>& b,
                                            bool odd_coset, std::span<const curve::Affine<C>> h_bases,
                                            const void* device_bases, ProveTimings& t) const {
    enter();
    base::UninitVector<F> c(a.size());
    ntt::hadamard_product(std::span<const F>(a), std::span<const F>(b), std::span<F>(c));
    const Status s = odd_coset ? ntt::compute_h_odd_coset(d, std::span<F>(a), std::span<F>(b), std::span<F>(c))
                               : ntt::compute_h(d, std::span<F>(a), std::span<F>(b), std::span<F>(c));
    leave();
    if (!s.ok()) return s;
    t.quotient = 1;
    t.msm_h = 1;
    return msm<C>(h_bases, std::span<const F>(a).first(h_bases.size()), device_bases, /*counted=*/false);
  }
  /// `device_bases`: the resident copy (here a host copy made by the test's upload function); when
  /// given it must hold exactly these bases, and the MSM reads it instead of `bases`.
  template <class C>
  Result<curve::Jacobian<C>> msm(std::span<const curve::Affine<C>> bases, std::span<const typename C::Scalar> scalars,
                                 const void* device_bases, bool counted = true) const {
    if (device_bases != nullptr) {
      ++log->resident_calls;
      if (std::memcmp(device_bases, bases.data(), bases.size_bytes()) != 0) ++log->resident_mismatches;
      bases = std::span(static_cast<const curve::Affine<C>*>(device_bases), bases.size());
    }
    if (!counted) return msm::msm<C>(bases, scalars);  // the second half of a device call
    return on_device([&] { return msm::msm<C>(bases, scalars); });
  }
};

/// A random circuit, its key (shared, as the engine holds keys) and fresh partitions of it.
template <class E>
struct KeyedCircuit {
  using Fr = typename E::Fr;
  test::RandomCircuit<Fr> circuit;
  std::shared_ptr<const ProvingKey<E>> pk;
  KeyedCircuit(Rng& rng, std::size_t pub, std::size_t aux, std::size_t constraints)
      : circuit(test::RandomCircuit<Fr>::make(rng, pub, aux, constraints)) {
    r1cs::ShapeRecorder<Fr> rec;
    EXPECT_TRUE(circuit.synthesize(rec).ok());
    auto made = generate_parameters<E>(rec.shape(), Trapdoor<E>::random(rng));
    EXPECT_TRUE(made.ok());
    if (made.ok()) pk = std::make_shared<const ProvingKey<E>>(std::move(*made));
  }
  r1cs::Partition<Fr> partition() const {
    r1cs::ProvingSystem<Fr> cs;
    EXPECT_TRUE(circuit.synthesize(cs).ok());
    return std::move(cs).finish();
  }
};

template <class E>
class InterlockTest : public ::testing::Test {};
using Engines = ::testing::Types<Bls12_381, Bn254>;
TYPED_TEST_SUITE(InterlockTest, Engines);

TYPED_TEST(InterlockTest, TwoWorkersShareTheDeviceOneTurnAtATimeAndProveWhatTheCpuProves) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  auto rng = test::rng(77);
  const KeyedCircuit<E> keyed(rng, 3, 6, 200);
  ASSERT_TRUE(keyed.pk);
  const auto& pk = keyed.pk;
  const auto& circuit = keyed.circuit;
  auto partition = [&] { return keyed.partition(); };
  const Fr r[2] = {Fr::random(rng), Fr::random(rng)}, s[2] = {Fr::random(rng), Fr::random(rng)};

  gpu::DeviceGate gate;
  DeviceLog log;
  log.gate = &gate;
  const DeviceBackend<EmulatedOps> backend(gate, EmulatedOps{&log});
  std::vector<Result<PendingProof<E>>> pending(2, Status::internal("not run"));
  std::vector<std::thread> workers;
  for (int w = 0; w < 2; ++w) {
    workers.emplace_back([&, w] { pending[w] = prove_start<E>(*pk, partition(), r[w], s[w], nullptr, backend); });
  }
  for (auto& t : workers) t.join();

  EXPECT_EQ(log.max_inside.load(), 1) << "two workers were on the device at once";
  EXPECT_TRUE(log.other_worker_prepared_meanwhile)
      << "the second worker never reached the gate while the first held it";
  // One turn per partition for its device calls: the quotient with the H MSM, then L, A inputs,
  // A aux, B_G1 inputs, B_G1 aux.
  EXPECT_EQ(log.calls.load(), 12);
  EXPECT_EQ(gate.stats().turns, 2u);
  const auto pvk = prepare_verifying_key(pk->vk);
  for (int w = 0; w < 2; ++w) {
    ASSERT_TRUE(pending[w].ok()) << pending[w].status().to_string();
    auto proof = prove_finish(*pk, std::move(*pending[w]));
    auto cpu = prove(*pk, partition(), r[w], s[w]);
    ASSERT_TRUE(proof.ok() && cpu.ok());
    EXPECT_EQ(*proof, *cpu) << "worker " << w;
    EXPECT_TRUE(*verify(pvk, *proof, circuit.public_inputs()));
  }
}

// The zkey (snarkjs) prover on a device backend: its quotient with the H MSM and three G1 MSMs in one turn
// and the proof equals the CPU's for the same r and s (snarkjs's chain circuit, tests/data).
TYPED_TEST(InterlockTest, ZkeyProverOnADeviceBackendProvesWhatTheCpuProves) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const auto dir = test::data_dir() / "snarkjs" / (std::is_same_v<E, Bn254> ? "bn128" : "bls12381");
  auto zk = snarkjs::read_zkey<E>(test::read_file(dir / "chain.zkey"));
  auto w = snarkjs::read_wtns<E>(test::read_file(dir / "chain-witness.wtns"));
  ASSERT_TRUE(zk.ok() && w.ok());
  auto rng = test::rng(78);
  const Fr r = Fr::random(rng), s = Fr::random(rng);
  gpu::DeviceGate gate;
  DeviceLog log;
  log.gate = &gate;
  log.first = false;
  const DeviceBackend<EmulatedOps> backend(gate, EmulatedOps{&log});
  auto rows_dev = snarkjs::evaluate_rows<E>(*zk, *w);
  auto rows_cpu = snarkjs::evaluate_rows<E>(*zk, *w);
  ASSERT_TRUE(rows_dev.ok() && rows_cpu.ok());
  auto dev = snarkjs::prove_start<E>(*zk, *w, std::move(*rows_dev), r, s, nullptr, backend);
  auto cpu = snarkjs::prove_start<E>(*zk, *w, std::move(*rows_cpu), r, s);
  ASSERT_TRUE(dev.ok()) << dev.status().to_string();
  ASSERT_TRUE(cpu.ok());
  EXPECT_EQ(gate.stats().turns, 1u);  // one turn: quotient with H, C, A, B1
  EXPECT_EQ(log.calls.load(), 4);
  EXPECT_EQ(log.max_inside.load(), 1);
  EXPECT_TRUE(snarkjs::prove_finish(*zk, *w, *dev) == snarkjs::prove_finish(*zk, *w, *cpu));
}

// Resident bases: the first proof uploads each MSM's bases once, the second finds them all (hits),
// the MSMs read the copies, proofs stay equal to the CPU's; when the key goes, its copies are never
// returned again.
TYPED_TEST(InterlockTest, ResidentBasesAreUploadedOnceAndDroppedWithTheirKey) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  auto rng = test::rng(79);
  KeyedCircuit<E> keyed(rng, 2, 5, 150);
  ASSERT_TRUE(keyed.pk);
  auto pk = std::move(keyed.pk);  // this test drops the key at the end
  auto partition = [&] { return keyed.partition(); };
  int uploads = 0;
  gpu::ResidentCache cache(std::size_t{1} << 30, [&](const void* host, std::size_t bytes) -> Result<gpu::DeviceCopy> {
    ++uploads;
    auto copy = std::shared_ptr<std::uint8_t[]>(new std::uint8_t[bytes]);
    std::memcpy(copy.get(), host, bytes);
    return gpu::DeviceCopy(copy, copy.get());
  });
  gpu::DeviceGate gate;
  DeviceLog log;
  log.gate = &gate;
  log.first = false;
  const DeviceBackend<EmulatedOps> backend(gate, &cache, pk, EmulatedOps{&log});
  for (int round = 0; round < 2; ++round) {
    const Fr r = Fr::random(rng), s = Fr::random(rng);
    auto pending = prove_start<E>(*pk, partition(), r, s, nullptr, backend);
    ASSERT_TRUE(pending.ok()) << pending.status().to_string();
    auto proof = prove_finish(*pk, std::move(*pending));
    auto cpu = prove(*pk, partition(), r, s);
    ASSERT_TRUE(proof.ok() && cpu.ok());
    EXPECT_EQ(*proof, *cpu) << "round " << round;
  }
  // Six G1 MSMs per proof (H, L, A inputs/aux, B_G1 inputs/aux); empty ones are not cached.
  const std::size_t ni = pk->vk.ic.size(), nbi = partition().b_input.popcount();
  int msms = 0;
  for (std::size_t size : {pk->h.size(), pk->l.size(), ni, pk->a.size() - ni, nbi, pk->b_g1.size() - nbi}) {
    msms += size > 0;
  }
  EXPECT_GE(msms, 4);
  EXPECT_EQ(log.resident_mismatches.load(), 0);
  EXPECT_EQ(log.resident_calls.load(), 2 * msms);
  EXPECT_EQ(uploads, msms);
  EXPECT_EQ(cache.stats().hits, static_cast<std::uint64_t>(msms));
  // The key goes: its entries are dropped at the next lookup, never handed out.
  std::weak_ptr<const void> owner = pk;
  const void* h = pk->h.data();
  const std::size_t hb = pk->h.size() * sizeof(pk->h[0]);
  pk.reset();
  EXPECT_FALSE(cache.get(h, hb, owner).ok());
  EXPECT_EQ(cache.stats().entries, 0u);
}

TEST(ResidentCache, EvictsLeastRecentlyUsedWithinItsCapacity) {
  int uploads = 0;
  gpu::ResidentCache cache(100, [&](const void* host, std::size_t) -> Result<gpu::DeviceCopy> {
    ++uploads;
    return gpu::DeviceCopy(std::make_shared<int>(0), host);
  });
  auto owner = std::make_shared<int>(1);
  const char data[200] = {};
  ASSERT_TRUE(cache.get(data, 40, owner).ok());
  ASSERT_TRUE(cache.get(data + 40, 40, owner).ok());
  ASSERT_TRUE(cache.get(data, 40, owner).ok());       // hit: data is now the most recent
  ASSERT_TRUE(cache.get(data + 80, 40, owner).ok());  // evicts data + 40
  EXPECT_EQ(uploads, 3);
  EXPECT_EQ(cache.stats().evictions, 1u);
  ASSERT_TRUE(cache.get(data, 40, owner).ok());
  EXPECT_EQ(uploads, 3);
  EXPECT_EQ(cache.get(data, 101, owner).status().code(), StatusCode::kResourceExhausted);  // larger than it all
  auto other = std::make_shared<int>(2);  // same address, another key: a separate entry
  ASSERT_TRUE(cache.get(data, 40, other).ok());
  EXPECT_EQ(uploads, 4);
  cache.clear();
  EXPECT_EQ(cache.stats().bytes, 0u);
}

/// A gate and a backend over emulated device calls, for tests that only gather (no first-call hold).
struct GatherOnlyDevice {
  gpu::DeviceGate gate;
  DeviceLog log;
  DeviceBackend<EmulatedOps> backend{gate, EmulatedOps{&log}};
  GatherOnlyDevice() {
    log.gate = &gate;
    log.first = false;
  }
};

TYPED_TEST(InterlockTest, GatherKeepsTheDensityFilteredScalarsInOrder) {  // several parallel blocks
  using E = TypeParam;
  using C = typename E::G1Config;
  using Fr = typename E::Fr;
  GatherOnlyDevice device;
  const auto& backend = device.backend;
  const auto& gate = device.gate;
  auto rng = test::rng(1207);
  const std::size_t n = 3 * DeviceBackend<EmulatedOps>::kGatherBlock + 77;  // a partial last block
  std::vector<Fr> scalars(n);
  msm::CompactColumn<Fr> column;
  msm::DensityBitmap density(n);
  std::vector<Fr> expected;
  for (std::size_t i = 0; i < n; ++i) {
    scalars[i] = i % 3 == 0 ? Fr::random(rng) : Fr::from_u64(rng() & 1);
    column.push_back(scalars[i]);
    if (i < 64 || (i > 5000 && i < 5200) || rng() % 3 == 0) density.set(i);  // runs, gaps, scattered bits
    if (density.test(i)) expected.push_back(scalars[i]);
  }
  EXPECT_EQ(density.count(0, n), expected.size());
  std::vector<curve::Affine<C>> bases(expected.size(), curve::Affine<C>::generator());
  for (int from_column = 0; from_column < 2; ++from_column) {
    auto g = from_column != 0 ? backend.template gather<C>(bases, column, &density)
                              : backend.template gather<C>(bases, std::span<const Fr>(scalars), density);
    ASSERT_TRUE(g.ok()) << g.status().message();
    ASSERT_EQ(g->dense.size(), expected.size());
    for (std::size_t j = 0; j < expected.size(); ++j) ASSERT_EQ(g->dense[j], expected[j]) << j << " " << from_column;
  }
  EXPECT_EQ(gate.stats().turns, 0u);
}

TYPED_TEST(InterlockTest, MismatchedDensityIsAnErrorBeforeTheDevice) {  // found while gathering, on the CPU
  using E = TypeParam;
  using C = typename E::G1Config;
  using Fr = typename E::Fr;
  GatherOnlyDevice device;
  const auto& backend = device.backend;
  const auto& gate = device.gate;
  std::vector<curve::Affine<C>> bases(2, curve::Affine<C>::generator());
  std::vector<Fr> scalars(3, Fr::one());
  msm::DensityBitmap density(3);
  density.set(0);  // one set bit for two bases
  auto res = backend.template gather<C>(bases, scalars, density);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(gate.stats().turns, 0u);
}

}  // namespace
}  // namespace zk::groth16
