// The dual-worker interlock (gpu/gate.hpp, groth16/gpu_backend.hpp) and the pool of every GPU of
// the host (gpu/pool.hpp) without a GPU: DeviceBackend runs over CPU-emulated devices and device
// calls, so the gates' rules, the spreading of partitions across devices and the backend's split
// between CPU preparation (outside a turn) and device work (inside) are checked in CI. The kernels
// themselves are checked by gpu_device_code_test (emulated) and gpu_test (on a device).

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include "gpu/gate.hpp"
#include "gpu/pool.hpp"
#include "groth16/gpu_backend.hpp"
#include "msm/cuda/msm_body.hpp"
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

// Emulated devices: the pool's `select` makes an ordinal this thread's current device, as
// cudaSetDevice does; every device call below is counted on the device current when it runs.
thread_local int emulated_device = -1;
constexpr int kMaxEmulated = 4;

// What the emulated devices saw.
struct DeviceLog {
  gpu::DevicePool* pool = nullptr;
  std::atomic<int> inside[kMaxEmulated] = {}, max_inside[kMaxEmulated] = {}, calls[kMaxEmulated] = {};
  std::atomic<int> any_inside{0}, max_any_inside{0}, outside_a_turn{0};
  std::atomic<bool> first{true}, first_released{false};
  std::atomic<int> resident_calls{0}, resident_mismatches{0}, compact_calls{0}, unpacked{0};
  // The very first device call holds its turn until this holds (default: another worker waits at
  // some device's gate, i.e. it got through its CPU preparation while the device was taken).
  std::function<bool(const DeviceLog&)> release_first = [](const DeviceLog& l) {
    for (const auto& d : l.pool->status()) {
      if (d.gate.waiting >= 1) return true;
    }
    return false;
  };
  int total_calls() const {
    int n = 0;
    for (const auto& c : calls) n += c.load();
    return n;
  }
};

/// A pool of `n` emulated devices (resident copies made by `upload` when given).
gpu::DevicePool emulated_pool(int n, std::size_t resident_bytes = 0, gpu::ResidentCache::Upload upload = nullptr) {
  gpu::DevicePool::Options o;
  o.ordinals.clear();
  for (int i = 0; i < n; ++i) o.ordinals.push_back(i);
  o.resident_bytes = resident_bytes;
  if (upload) o.upload = [upload](int) { return upload; };
  o.select = [](int ordinal) {
    emulated_device = ordinal;
    return Status{};
  };
  return gpu::DevicePool(std::move(o));
}

void raise_to(std::atomic<int>& max, int now) {
  int seen = max.load();
  while (now > seen && !max.compare_exchange_weak(seen, now)) {
  }
}

// The device calls on the CPU, on the emulated device current on the calling thread.
struct EmulatedOps {
  static constexpr bool kHostTwiddles = true;  // the CPU transforms need the table
  DeviceLog* log;
  void enter() const {
    const int d = emulated_device;
    if (d < 0 || d >= kMaxEmulated) {
      ++log->outside_a_turn;
      return;
    }
    raise_to(log->max_inside[d], ++log->inside[d]);
    raise_to(log->max_any_inside, ++log->any_inside);
    ++log->calls[d];
    if (log->first.exchange(false)) {
      log->first_released = eventually([&] { return log->release_first(*log); });
    }
  }
  void leave() const {
    const int d = emulated_device;
    if (d < 0 || d >= kMaxEmulated) return;
    --log->inside[d];
    --log->any_inside;
  }
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
  /// A zkey's packed bases in the kernels' layout, made as the device makes them (one emulated
  /// thread per base through msm_body::unpack_base, from aligned words), into "device" memory.
  template <class C>
  Result<gpu::DeviceCopy> unpack_bases(std::span<const curve::PackedAffine<C>> bases) const {
    using FqP = typename C::Field::Params;
    static_assert(sizeof(gpu::DevAffine<FqP>) == sizeof(curve::Affine<C>));
    ++log->unpacked;
    auto copy = std::shared_ptr<gpu::DevAffine<FqP>[]>(new gpu::DevAffine<FqP>[bases.size()]);
    std::uint64_t words[2 * C::Field::kLimbs];
    for (std::size_t i = 0; i < bases.size(); ++i) {
      std::memcpy(words, bases[i].bytes, sizeof(words));
      copy[i] = gpu::msm_body::unpack_base<FqP>(words);
    }
    return gpu::DeviceCopy(copy, copy.get());
  }
  /// a and b as compact columns: expanded (here on the host), then the quotient and H as above.
  template <class C, class F>
  Result<curve::Jacobian<C>> quotient_and_h_compact(const ntt::Domain<F>& d, const msm::CompactColumn<F>& a,
                                                    const msm::CompactColumn<F>& b, bool odd_coset,
                                                    std::span<const curve::Affine<C>> h_bases,
                                                    const void* device_bases, ProveTimings& t) const {
    ++log->compact_calls;
    auto dense_a = a.expand(d.size()), dense_b = b.expand(d.size());
    return quotient_and_h<C>(d, dense_a, dense_b, odd_coset, h_bases, device_bases, t);
  }
  /// The compact witness column expanded as the device does it: one emulated thread per row,
  /// through the kernel's per-thread body (msm_body::expand_compact_row), then the MSM.
  template <class C>
  Result<curve::Jacobian<C>> msm_compact(std::span<const curve::Affine<C>> bases,
                                         const msm::CompactColumn<typename C::Scalar>& column,
                                         const msm::DensityBitmap* density, const void* device_bases) const {
    using FrP = typename C::Scalar::Params;
    ++log->compact_calls;
    std::vector<gpu::msm_body::CompactGroup> groups(column.groups().size());
    std::memcpy(static_cast<void*>(groups.data()), column.groups().data(), groups.size() * sizeof(groups[0]));
    std::vector<gpu::DevField<FrP>> others;
    for (std::size_t c = 0; c < column.chunk_count(); ++c) {
      for (const auto& x : column.chunk(c)) others.push_back(gpu::DevField<FrP>::from_raw(x.mont().data()));
    }
    std::vector<std::uint32_t> before;
    std::uint32_t acc = 0;
    if (density != nullptr) {
      for (auto w : density->words()) before.push_back(acc), acc += static_cast<std::uint32_t>(__builtin_popcountll(w));
    }
    std::vector<gpu::DevField<FrP>> dense(bases.size(), gpu::DevField<FrP>::zero());
    const std::size_t count = density != nullptr ? column.size() : bases.size();
    for (std::size_t i = 0; i < count; ++i) {
      gpu::msm_body::expand_compact_row(groups.data(), others.data(), column.size(),
                                        density != nullptr ? density->words().data() : nullptr, before.data(), i,
                                        dense.data());
    }
    std::vector<typename C::Scalar> scalars(dense.size());
    std::memcpy(static_cast<void*>(scalars.data()), dense.data(), dense.size() * sizeof(dense[0]));
    return msm<C>(bases, scalars, device_bases);
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

  gpu::DevicePool gpus = emulated_pool(1);
  DeviceLog log;
  log.pool = &gpus;
  const DeviceBackend<EmulatedOps> backend(gpus, EmulatedOps{&log});
  std::vector<Result<PendingProof<E>>> pending(2, Status::internal("not run"));
  std::vector<std::thread> workers;
  for (int w = 0; w < 2; ++w) {
    workers.emplace_back([&, w] { pending[w] = prove_start<E>(*pk, partition(), r[w], s[w], nullptr, backend); });
  }
  for (auto& t : workers) t.join();

  EXPECT_EQ(log.max_inside[0].load(), 1) << "two workers were on the device at once";
  EXPECT_TRUE(log.first_released) << "the second worker never reached the gate while the first held it";
  // One turn per partition for its device calls: the quotient with the H MSM, then L, A inputs,
  // A aux, B_G1 inputs, B_G1 aux, B_G2 aux (G2 on the device: kG2).
  EXPECT_EQ(log.calls[0].load(), 14);
  EXPECT_EQ(log.compact_calls.load(), 10)
      << "a, b (the quotient), L, A aux, B_G1 aux and B_G2 aux from compact columns";
  EXPECT_EQ(log.outside_a_turn.load(), 0);
  EXPECT_EQ(gpus.status()[0].gate.turns, 2u);
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

/// snarkjs's chain circuit (tests/data) on E's curve: its key and its witness.
template <class E>
auto read_chain() {
  const auto dir = test::data_dir() / "snarkjs" / (std::is_same_v<E, Bn254> ? "bn128" : "bls12381");
  return std::make_pair(snarkjs::read_zkey<E>(test::read_file(dir / "chain.zkey")),
                        snarkjs::read_wtns<E>(test::read_file(dir / "chain-witness.wtns")));
}

// The zkey (snarkjs) prover on a device backend: its quotient with the H MSM and three G1 MSMs in one turn
// and the proof equals the CPU's for the same r and s (snarkjs's chain circuit, tests/data).
TYPED_TEST(InterlockTest, ZkeyProverOnADeviceBackendProvesWhatTheCpuProves) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  auto [zk, w] = read_chain<E>();
  ASSERT_TRUE(zk.ok() && w.ok());
  auto rng = test::rng(78);
  const Fr r = Fr::random(rng), s = Fr::random(rng);
  gpu::DevicePool gpus = emulated_pool(1);
  DeviceLog log;
  log.pool = &gpus;
  log.first = false;
  const DeviceBackend<EmulatedOps> backend(gpus, EmulatedOps{&log});
  auto rows_dev = snarkjs::evaluate_rows<E>(*zk, *w);
  auto rows_cpu = snarkjs::evaluate_rows<E>(*zk, *w);
  ASSERT_TRUE(rows_dev.ok() && rows_cpu.ok());
  auto dev = snarkjs::prove_start<E>(*zk, *w, std::move(*rows_dev), r, s, nullptr, backend);
  auto cpu = snarkjs::prove_start<E>(*zk, *w, std::move(*rows_cpu), r, s);
  ASSERT_TRUE(dev.ok()) << dev.status().to_string();
  ASSERT_TRUE(cpu.ok());
  EXPECT_EQ(gpus.status()[0].gate.turns, 1u);  // one turn: quotient with H, C, A, B1
  EXPECT_EQ(log.calls[0].load(), 4);
  EXPECT_EQ(log.max_inside[0].load(), 1);
  EXPECT_EQ(log.outside_a_turn.load(), 0);
  EXPECT_TRUE(snarkjs::prove_finish(*zk, *w, *dev) == snarkjs::prove_finish(*zk, *w, *cpu));
}

// A zkey's bases kept resident: the first proof unpacks each MSM's packed bases on the device
// once (no plain upload, no host conversion), the second finds them all; proofs equal the CPU's.
// Without room for them they are converted on the host as before, with the same proofs.
TYPED_TEST(InterlockTest, ZkeyBasesAreUnpackedOnTheDeviceOnceAndKeptResident) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  auto [read, w] = read_chain<E>();
  ASSERT_TRUE(read.ok() && w.ok());
  const auto zk = std::make_shared<const snarkjs::Zkey<E>>(std::move(*read));
  auto rng = test::rng(80);
  for (const std::size_t capacity : {std::size_t{1} << 30, std::size_t{64}}) {
    int plain_uploads = 0;
    gpu::DevicePool gpus = emulated_pool(1, capacity, [&](const void*, std::size_t) -> Result<gpu::DeviceCopy> {
      ++plain_uploads;
      return Status::internal("a zkey's bases must not be copied as they are");
    });
    DeviceLog log;
    log.pool = &gpus;
    log.first = false;
    const DeviceBackend<EmulatedOps> backend(gpus, EmulatedOps{&log}, zk);
    for (int round = 0; round < 2; ++round) {
      const Fr r = Fr::random(rng), s = Fr::random(rng);
      auto dev = snarkjs::prove_start<E>(*zk, *w, *snarkjs::evaluate_rows<E>(*zk, *w), r, s, nullptr, backend);
      auto cpu = snarkjs::prove_start<E>(*zk, *w, *snarkjs::evaluate_rows<E>(*zk, *w), r, s);
      ASSERT_TRUE(dev.ok()) << dev.status().to_string();
      ASSERT_TRUE(cpu.ok());
      EXPECT_TRUE(snarkjs::prove_finish(*zk, *w, *dev) == snarkjs::prove_finish(*zk, *w, *cpu))
          << "capacity " << capacity << ", round " << round;
    }
    EXPECT_EQ(plain_uploads, 0);
    const auto resident = gpus.status()[0].resident;
    if (capacity > 64) {
      // H, C (the L query), A, B1: unpacked once each, found by the second proof.
      EXPECT_EQ(log.unpacked.load(), 4);
      EXPECT_EQ(log.resident_calls.load(), 8);
      EXPECT_EQ(resident.hits, 4u);
      EXPECT_EQ(resident.entries, 4u);
      std::size_t device_bytes = 0;
      for (std::size_t n : {zk->h.size(), zk->c.size(), zk->a.size(), zk->b1.size()}) {
        device_bytes += n * sizeof(curve::Affine<typename E::G1Config>);
      }
      EXPECT_EQ(resident.bytes, device_bytes);  // counted in the unpacked layout's bytes
    } else {
      EXPECT_EQ(log.unpacked.load(), 0);
      EXPECT_EQ(log.resident_calls.load(), 0);
      EXPECT_EQ(resident.entries, 0u);
    }
  }
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
  gpu::DevicePool gpus =
      emulated_pool(1, std::size_t{1} << 30, [&](const void* host, std::size_t bytes) -> Result<gpu::DeviceCopy> {
        ++uploads;
        auto copy = std::shared_ptr<std::uint8_t[]>(new std::uint8_t[bytes]);
        std::memcpy(copy.get(), host, bytes);
        return gpu::DeviceCopy(copy, copy.get());
      });
  DeviceLog log;
  log.pool = &gpus;
  log.first = false;
  const DeviceBackend<EmulatedOps> backend(gpus, EmulatedOps{&log}, pk);
  for (int round = 0; round < 2; ++round) {
    const Fr r = Fr::random(rng), s = Fr::random(rng);
    auto pending = prove_start<E>(*pk, partition(), r, s, nullptr, backend);
    ASSERT_TRUE(pending.ok()) << pending.status().to_string();
    auto proof = prove_finish(*pk, std::move(*pending));
    auto cpu = prove(*pk, partition(), r, s);
    ASSERT_TRUE(proof.ok() && cpu.ok());
    EXPECT_EQ(*proof, *cpu) << "round " << round;
  }
  // Seven MSMs per proof (H, L, A inputs/aux, B_G1 inputs/aux in G1; B_G2 aux); empty ones are not
  // cached.
  const std::size_t ni = pk->vk.ic.size(), nbi = partition().b_input.popcount();
  int msms = 0;
  for (std::size_t size :
       {pk->h.size(), pk->l.size(), ni, pk->a.size() - ni, nbi, pk->b_g1.size() - nbi, pk->b_g2.size() - nbi}) {
    msms += size > 0;
  }
  EXPECT_GE(msms, 4);
  EXPECT_EQ(log.resident_mismatches.load(), 0);
  EXPECT_EQ(log.resident_calls.load(), 2 * msms);
  EXPECT_EQ(uploads, msms);
  EXPECT_EQ(gpus.status()[0].resident.hits, static_cast<std::uint64_t>(msms));
  // The key goes: its entries are dropped at the next lookup, never handed out.
  std::weak_ptr<const void> owner = pk;
  const void* h = pk->h.data();
  const std::size_t hb = pk->h.size() * sizeof(pk->h[0]);
  pk.reset();
  auto lease = gpus.acquire();
  EXPECT_FALSE(lease.resident().get(h, hb, owner).ok());
  EXPECT_EQ(lease.resident().stats().entries, 0u);
}

// Every GPU of the host (gpu/pool.hpp): four workers prove eight partitions over three emulated
// devices. The first device call holds its turn until a partition is on another device, so the
// devices run at once; no device ever has two partitions in it; every call runs inside a lease
// with its device current; proofs equal the CPU's and verify.
TYPED_TEST(InterlockTest, PartitionsSpreadAcrossDevicesEachOneTurnAtATime) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  auto rng = test::rng(80);
  const KeyedCircuit<E> keyed(rng, 3, 6, 200);
  ASSERT_TRUE(keyed.pk);
  gpu::DevicePool gpus = emulated_pool(3);
  DeviceLog log;
  log.pool = &gpus;
  log.release_first = [](const DeviceLog& l) { return l.inside[1].load() + l.inside[2].load() >= 1; };
  constexpr int kWorkers = 4, kEach = 2;
  std::vector<Fr> r, s;
  for (int i = 0; i < kWorkers * kEach; ++i) r.push_back(Fr::random(rng)), s.push_back(Fr::random(rng));
  std::vector<Result<PendingProof<E>>> pending(kWorkers * kEach, Status::internal("not run"));
  std::vector<std::thread> workers;
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&, w] {
      for (int k = 0; k < kEach; ++k) {
        const int i = w * kEach + k;
        const DeviceBackend<EmulatedOps> backend(gpus, EmulatedOps{&log}, {},
                                                 gpu::WorkLabel{"job-" + std::to_string(i), "test", 0});
        pending[i] = prove_start<E>(*keyed.pk, keyed.partition(), r[i], s[i], nullptr, backend);
      }
    });
  }
  for (auto& t : workers) t.join();
  EXPECT_TRUE(log.first_released) << "no partition ever ran on another device while device 0 was held";
  EXPECT_GE(log.max_any_inside.load(), 2);
  EXPECT_EQ(log.outside_a_turn.load(), 0);
  EXPECT_EQ(log.total_calls(), 7 * kWorkers * kEach);
  std::uint64_t turns = 0;
  for (const auto& d : gpus.status()) {
    EXPECT_LE(log.max_inside[d.ordinal].load(), 1) << "two partitions on device " << d.ordinal;
    EXPECT_FALSE(d.current.has_value());
    turns += d.gate.turns;
  }
  EXPECT_EQ(turns, static_cast<std::uint64_t>(kWorkers * kEach));
  EXPECT_GT(log.calls[0].load(), 0);
  EXPECT_GT(log.calls[1].load() + log.calls[2].load(), 0);
  const auto pvk = prepare_verifying_key(keyed.pk->vk);
  for (int i = 0; i < kWorkers * kEach; ++i) {
    ASSERT_TRUE(pending[i].ok()) << pending[i].status().to_string();
    auto proof = prove_finish(*keyed.pk, std::move(*pending[i]));
    auto cpu = prove(*keyed.pk, keyed.partition(), r[i], s[i]);
    ASSERT_TRUE(proof.ok() && cpu.ok());
    EXPECT_EQ(*proof, *cpu) << "partition " << i;
    EXPECT_TRUE(*verify(pvk, *proof, keyed.circuit.public_inputs()));
  }
}

// Each device keeps its own copies of a key's bases: with two devices, each uploads the key once
// and finds it on its later partitions.
TYPED_TEST(InterlockTest, EachDeviceKeepsItsOwnResidentBases) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  auto rng = test::rng(81);
  const KeyedCircuit<E> keyed(rng, 2, 5, 150);
  ASSERT_TRUE(keyed.pk);
  std::atomic<int> uploads[2] = {};
  gpu::DevicePool::Options o;
  o.ordinals = {0, 1};
  o.resident_bytes = std::size_t{1} << 30;
  o.upload = [&](int ordinal) -> gpu::ResidentCache::Upload {
    return [&, ordinal](const void* host, std::size_t bytes) -> Result<gpu::DeviceCopy> {
      ++uploads[ordinal];
      auto copy = std::shared_ptr<std::uint8_t[]>(new std::uint8_t[bytes]);
      std::memcpy(copy.get(), host, bytes);
      return gpu::DeviceCopy(copy, copy.get());
    };
  };
  o.select = [](int ordinal) {
    emulated_device = ordinal;
    return Status{};
  };
  gpu::DevicePool gpus(std::move(o));
  DeviceLog log;
  log.pool = &gpus;
  log.first = false;
  const DeviceBackend<EmulatedOps> backend(gpus, EmulatedOps{&log}, keyed.pk);
  // Another caller holds one device while each partition is proved: device 0 for the first two
  // partitions (which go to device 1), device 1 for the last two (which go to device 0).
  std::vector<int> used;
  for (int round = 0; round < 4; ++round) {
    std::optional<gpu::DevicePool::Lease> first, second;
    std::thread taker([&] {
      first.emplace(gpus.acquire());  // device 0: both free, the lowest ordinal
      if (round >= 2) {
        second.emplace(gpus.acquire());  // device 1
        first.reset();
      }
    });
    taker.join();
    const int calls_on_0 = log.calls[0].load();
    const Fr r = Fr::random(rng), s = Fr::random(rng);
    auto pending = prove_start<E>(*keyed.pk, keyed.partition(), r, s, nullptr, backend);
    used.push_back(log.calls[0].load() > calls_on_0 ? 0 : 1);
    first.reset();
    second.reset();
    ASSERT_TRUE(pending.ok()) << pending.status().to_string();
    EXPECT_EQ(used.back(), round >= 2 ? 0 : 1) << "round " << round;
    auto proof = prove_finish(*keyed.pk, std::move(*pending));
    auto cpu = prove(*keyed.pk, keyed.partition(), r, s);
    ASSERT_TRUE(proof.ok() && cpu.ok());
    EXPECT_EQ(*proof, *cpu);
  }
  EXPECT_EQ(log.resident_mismatches.load(), 0);
  EXPECT_EQ(log.outside_a_turn.load(), 0);
  const auto st = gpus.status();
  ASSERT_EQ(st.size(), 2u);
  for (const auto& d : st) {
    const int partitions = static_cast<int>(std::count(used.begin(), used.end(), d.ordinal));
    EXPECT_EQ(partitions, 2) << "device " << d.ordinal;
    EXPECT_EQ(d.gate.turns, 2u + (d.ordinal == 0 ? 4u : 2u)) << "device " << d.ordinal;  // with the other caller's
    EXPECT_GT(uploads[d.ordinal].load(), 0) << "device " << d.ordinal;
    EXPECT_GT(d.resident.hits, 0u) << "device " << d.ordinal;  // its second partition found the bases
    EXPECT_EQ(static_cast<std::uint64_t>(uploads[d.ordinal].load()), d.resident.misses);
  }
}

TEST(DevicePool, LeasesGoToTheLeastBusyDeviceAndNameTheirPartition) {
  gpu::DevicePool gpus = emulated_pool(3);
  auto a = gpus.acquire({"a", "porep", 0});
  auto b = gpus.acquire({"b", "porep", 1});
  auto c = gpus.acquire({"c", "window-post", 0});
  EXPECT_EQ(a.ordinal(), 0);
  EXPECT_EQ(b.ordinal(), 1);
  EXPECT_EQ(c.ordinal(), 2);
  EXPECT_EQ(emulated_device, 2);  // the last lease's device is current on this thread
  auto st = gpus.status();
  ASSERT_TRUE(st[1].current.has_value());
  EXPECT_EQ(st[1].current->job_id, "b");
  EXPECT_EQ(st[1].current->partition, 1u);
  ASSERT_TRUE(st[2].current.has_value());
  EXPECT_EQ(st[2].current->kind, "window-post");
  b.release();
  EXPECT_FALSE(gpus.status()[1].current.has_value());
  auto d = gpus.acquire({"d", "porep", 2});
  EXPECT_EQ(d.ordinal(), 1);  // the one free device
  // All busy: the next caller queues on the device with the fewest callers (the lowest ordinal on
  // ties) and gets it when its holder leaves.
  std::atomic<int> got{-1};
  std::thread waiter([&] {
    auto e = gpus.acquire({"e", "porep", 3});
    got = e.ordinal();
  });
  ASSERT_TRUE(eventually([&] { return gpus.status()[0].gate.waiting == 1; }));
  EXPECT_EQ(got.load(), -1);
  a.release();
  waiter.join();
  EXPECT_EQ(got.load(), 0);
  for (const auto& x : gpus.status()) EXPECT_EQ(x.gate.waiting, 0u);
}

TEST(DevicePool, ADeviceCallOutsideALeaseOrOnAnUnselectableDeviceFails) {
  gpu::DevicePool::Options o;
  o.select = [](int) { return Status::unavailable("CUDA device 0: emulated failure"); };
  gpu::DevicePool gpus(std::move(o));
  EXPECT_EQ(gpus.device_here().code(), StatusCode::kInternal);  // no lease on this thread
  EXPECT_EQ(gpus.resident_here(), nullptr);
  DeviceLog log;
  log.pool = &gpus;
  log.first = false;
  const DeviceBackend<EmulatedOps> backend(gpus, EmulatedOps{&log});
  using C = Bls12_381::G1Config;
  std::vector<curve::Affine<C>> bases(1, curve::Affine<C>::generator());
  std::vector<Bls12_381::Fr> scalars(1, Bls12_381::Fr::one());
  EXPECT_EQ(backend.template msm<C>(bases, scalars).status().code(), StatusCode::kInternal);  // outside a turn
  {
    auto lease = gpus.acquire();
    EXPECT_EQ(lease.status().code(), StatusCode::kUnavailable);
    EXPECT_EQ(gpus.device_here().code(), StatusCode::kUnavailable);
    // The device calls fail with the reason instead of running on whatever device is current.
    EXPECT_EQ(backend.template msm<C>(bases, scalars).status().code(), StatusCode::kUnavailable);
  }
  EXPECT_EQ(log.total_calls(), 0);
  EXPECT_EQ(gpus.device_here().code(), StatusCode::kInternal);  // released
  EXPECT_EQ(gpus.status()[0].gate.turns, 1u);
}

TEST(DevicePool, DeviceListsNameExistingDistinctOrdinals) {
  EXPECT_EQ(*gpu::parse_device_list("all", 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(*gpu::parse_device_list("", 2), (std::vector<int>{0, 1}));
  EXPECT_EQ(*gpu::parse_device_list("2, 0", 3), (std::vector<int>{2, 0}));
  for (const char* bad : {"3", "0,0", "x", "-1", "1,,2", "99999"}) {
    EXPECT_EQ(gpu::parse_device_list(bad, 3).status().code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_NE(gpu::parse_device_list("4", 2).status().message().find("has 2 GPUs"), std::string::npos);
}

// engine.gpu_resident: half the smallest listed device's memory by default, else what is asked
// (0: none) unless a listed device holds less than that.
TEST(DevicePool, ResidentCapacityIsHalfTheSmallestDeviceOrWhatIsAsked) {
  constexpr std::uint64_t GiB = 1ull << 30;
  std::vector<gpu::DeviceInfo> devs(3);
  for (int i = 0; i < 3; ++i) devs[static_cast<std::size_t>(i)].ordinal = i;
  devs[0].total_bytes = 80 * GiB;
  devs[1].total_bytes = 24 * GiB;
  devs[2].total_bytes = 141 * GiB;
  EXPECT_EQ(*gpu::resident_capacity(devs, {0, 2}, std::nullopt), 40 * GiB);
  EXPECT_EQ(*gpu::resident_capacity(devs, {2, 1, 0}, std::nullopt), 12 * GiB);
  EXPECT_EQ(*gpu::resident_capacity(devs, {2}, 60 * GiB), 60 * GiB);
  EXPECT_EQ(*gpu::resident_capacity(devs, {0, 1}, 0), 0u);
  EXPECT_EQ(*gpu::resident_capacity({}, {0}, std::nullopt), 0u);
  const auto too_much = gpu::resident_capacity(devs, {0, 1}, 30 * GiB);
  ASSERT_EQ(too_much.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(too_much.status().message().find("device 1's memory (24.0 GiB)"), std::string::npos)
      << too_much.status().message();
}

TEST(ResidentCache, EvictsOtherKeysLeastRecentlyUsedWithinItsCapacity) {
  int uploads = 0;
  gpu::ResidentCache cache(100, [&](const void* host, std::size_t) -> Result<gpu::DeviceCopy> {
    ++uploads;
    return gpu::DeviceCopy(std::make_shared<int>(0), host);
  });
  auto owner = std::make_shared<int>(1), other = std::make_shared<int>(2);
  const char data[200] = {};
  ASSERT_TRUE(cache.get(data, 40, owner).ok());
  ASSERT_TRUE(cache.get(data + 40, 40, other).ok());
  ASSERT_TRUE(cache.get(data, 40, owner).ok());        // hit: data is now the most recent
  ASSERT_TRUE(cache.get(data + 80, 40, owner).ok());   // evicts the other key's data + 40
  EXPECT_EQ(uploads, 3);
  EXPECT_EQ(cache.stats().evictions, 1u);
  ASSERT_TRUE(cache.get(data, 40, owner).ok());
  EXPECT_EQ(uploads, 3);
  EXPECT_EQ(cache.get(data, 101, owner).status().code(), StatusCode::kResourceExhausted);  // larger than it all
  ASSERT_TRUE(cache.get(data, 40, other).ok());  // same address, another key: a separate entry (evicts data + 80)
  EXPECT_EQ(uploads, 4);
  cache.clear();
  EXPECT_EQ(cache.stats().bytes, 0u);
}

// A key larger than the capacity, its ranges asked for in turn proof after proof (a PoRep-32G key
// beside an H100's default capacity): the ranges that fit stay and hit every time after the first;
// the one that does not fit is refused (its MSM uploads it) instead of evicting the range the next
// MSM needs — with least-recently-used eviction within one key every lookup missed.
TEST(ResidentCache, AKeyLargerThanTheCapacityKeepsWhatFits) {
  int uploads = 0;
  gpu::ResidentCache cache(100, [&](const void* host, std::size_t) -> Result<gpu::DeviceCopy> {
    ++uploads;
    return gpu::DeviceCopy(std::make_shared<int>(0), host);
  });
  auto key = std::make_shared<int>(1);
  const char data[200] = {};
  int refused = 0;
  for (int proof = 0; proof < 3; ++proof) {
    for (std::size_t range = 0; range < 3; ++range) {
      auto copy = cache.get(data + 40 * range, 40, key);
      if (!copy.ok()) {
        EXPECT_EQ(copy.status().code(), StatusCode::kResourceExhausted);
        ++refused;
      }
    }
  }
  EXPECT_EQ(uploads, 2);   // the first two ranges, once
  EXPECT_EQ(refused, 3);   // the third, every proof
  EXPECT_EQ(cache.stats().hits, 4u);
  EXPECT_EQ(cache.stats().evictions, 0u);
}

/// An emulated device and a backend over it, for tests that only gather (no first-call hold).
struct GatherOnlyDevice {
  gpu::DevicePool gpus = emulated_pool(1);
  DeviceLog log;
  DeviceBackend<EmulatedOps> backend{gpus, EmulatedOps{&log}};
  GatherOnlyDevice() {
    log.pool = &gpus;
    log.first = false;
  }
  std::uint64_t turns() const { return gpus.status()[0].gate.turns; }
};

TYPED_TEST(InterlockTest, GatherKeepsTheDensityFilteredScalarsInOrder) {  // several parallel blocks
  using E = TypeParam;
  using C = typename E::G1Config;
  using Fr = typename E::Fr;
  GatherOnlyDevice device;
  const auto& backend = device.backend;
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
  // Dense scalars (the inputs): gathered on the CPU, in order.
  auto g = backend.template gather<C>(bases, std::span<const Fr>(scalars), density);
  ASSERT_TRUE(g.ok()) << g.status().message();
  ASSERT_EQ(g->dense.size(), expected.size());
  for (std::size_t j = 0; j < expected.size(); ++j) ASSERT_EQ(g->dense[j], expected[j]) << j;
  // The compact witness: kept as it is for the device, which forms the same scalars from it
  // (device_code_test's CompactScalars; the proofs above).
  auto c = backend.template gather<C>(bases, column, &density);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_TRUE(c->dense.empty());
  EXPECT_EQ(c->compact, &column);
  EXPECT_EQ(c->density, &density);
  EXPECT_EQ(backend.template gather<C>(std::span(bases).first(3), column, &density).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(device.turns(), 0u);
}

TYPED_TEST(InterlockTest, MismatchedDensityIsAnErrorBeforeTheDevice) {  // found while gathering, on the CPU
  using E = TypeParam;
  using C = typename E::G1Config;
  using Fr = typename E::Fr;
  GatherOnlyDevice device;
  const auto& backend = device.backend;
  std::vector<curve::Affine<C>> bases(2, curve::Affine<C>::generator());
  std::vector<Fr> scalars(3, Fr::one());
  msm::DensityBitmap density(3);
  density.set(0);  // one set bit for two bases
  auto res = backend.template gather<C>(bases, scalars, density);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(device.turns(), 0u);
}

}  // namespace
}  // namespace zk::groth16
