// The daemon in-process on a unix socket, called through the generated gRPC stubs: prove, submit +
// await, cancel, status, metrics, preload/evict; malformed, oversized, unknown-kind and
// keyless requests get the status code that says so; 100 concurrent clients each get exactly their
// own proof; a stop with jobs in flight drains them (or cancels them with no grace) and answers
// every waiter; tokens; stale and live sockets; validation held up on the admission threads never
// stops status, await or cancel, and calls waiting for admission are bounded and always answered.

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <thread>

#include <grpcpp/grpcpp.h>

#include "circuits/synthetic.hpp"
#include "engine/synthetic_workload.hpp"
#include "field/decimal.hpp"
#include "groth16/io.hpp"
#include "groth16/verifier.hpp"
#include "server/daemon.hpp"
#include "test_util.hpp"
#include "server/throwaway_ca.hpp"
#include "zkpipe/v1/proving.grpc.pb.h"

namespace zk::server {
namespace {

namespace fs = std::filesystem;
namespace pb = ::zkpipe::v1;
using E = groth16::Bn254;
constexpr std::size_t kN = 200;

struct Keys {
  fs::path dir;
  groth16::PreparedVerifyingKey<E> pvk;
};

/// A params directory with synthetic BN254 keys (n = 200) and snarkjs's chain.zkey (made once).
const Keys& keys() {
  static const Keys k = [] {
    Keys out;
    out.dir = fs::temp_directory_path() / ("zkpipe-server-test-" + std::to_string(::getpid()));
    fs::create_directories(out.dir);
    auto w = engine::SyntheticWorkload<E>::create(kN, 5);
    auto pk = (*w)->proving_key();
    (void)groth16::write_file((out.dir / ("synthetic-bn254-n" + std::to_string(kN) + ".params")).string(),
                              groth16::write_parameters(**pk));
    fs::copy_file(fs::path(ZK_TEST_DATA_DIR) / "snarkjs/bn128/chain.zkey", out.dir / "chain.zkey",
                  fs::copy_options::overwrite_existing);
    out.pvk = groth16::prepare_verifying_key((*pk)->vk);
    return out;
  }();
  return k;
}

class RemoveKeys : public ::testing::Environment {
 public:
  void TearDown() override { fs::remove_all(keys().dir); }
};
const auto* const kRemoveKeys = ::testing::AddGlobalTestEnvironment(new RemoveKeys);

std::vector<std::uint8_t> seed(std::uint64_t s) { return engine::SyntheticWorkload<E>::seed_input(s); }

pb::SubmitProofRequest synthetic(std::uint64_t s, std::uint32_t partitions = 1) {
  pb::SubmitProofRequest r;
  r.set_circuit("synthetic");
  r.set_shape("bn254-n" + std::to_string(kN));
  const auto in = seed(s);
  r.set_input(std::string(in.begin(), in.end()));
  r.set_partitions(partitions);
  return r;
}

/// The synthetic workload (the same keys as those in keys().dir), except that validate() waits until
/// the test opens the gate: admission is held up at will, without timing anything.
class GatedWorkload : public engine::Workload {
 public:
  GatedWorkload() : inner_(*engine::SyntheticWorkload<E>::create(kN, 5)) {}
  Status validate(const engine::JobRequest& job) override {
    {
      std::unique_lock lock(m_);
      ++entered_;
      cv_.notify_all();
      cv_.wait(lock, [&] { return open_; });
    }
    return inner_->validate(job);
  }
  void open() {
    std::lock_guard lock(m_);
    open_ = true;
    cv_.notify_all();
  }
  /// Until `n` validations have begun.
  void wait_entered(int n) {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return entered_ >= n; });
  }
  Result<engine::WorkingSet> working_set(const engine::JobRequest& job) override { return inner_->working_set(job); }
  Result<std::unique_ptr<engine::Synthesized>> synthesize(const engine::JobRequest& job, std::size_t k) override {
    return inner_->synthesize(job, k);
  }
  Result<std::unique_ptr<engine::Pending>> prove_start(std::unique_ptr<engine::Synthesized> s) override {
    return inner_->prove_start(std::move(s));
  }
  Result<std::vector<std::uint8_t>> prove_finish(std::unique_ptr<engine::Pending> p) override {
    return inner_->prove_finish(std::move(p));
  }
  Result<bool> verify(const engine::JobRequest& job, std::size_t k, const std::vector<std::uint8_t>& proof) override {
    return inner_->verify(job, k, proof);
  }
  Result<std::vector<std::string>> public_inputs_decimal(const engine::JobRequest& job, std::size_t k) override {
    return inner_->public_inputs_decimal(job, k);
  }
  std::string curve() const override { return inner_->curve(); }

 private:
  std::shared_ptr<engine::Workload> inner_;
  std::mutex m_;
  std::condition_variable cv_;
  int entered_ = 0;
  bool open_ = false;
};

/// A fresh private directory (mode 0700) for a socket.
fs::path private_dir(const std::string& tag) {
  std::string templ = (fs::temp_directory_path() / ("zkpipe-" + tag + "-XXXXXX")).string();
  const char* d = ::mkdtemp(templ.data());
  EXPECT_NE(d, nullptr);
  return fs::path(templ);
}

/// Each test process gets its own state home (the daemons' default job store lives there), removed
/// at exit; tests that run two daemons at once give the second its own state_dir.
class StateHome : public ::testing::Environment {
 public:
  void SetUp() override {
    dir_ = private_dir("state");
    ::setenv("XDG_STATE_HOME", dir_.c_str(), 1);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

 private:
  fs::path dir_;
};
const auto* const kStateHome = ::testing::AddGlobalTestEnvironment(new StateHome);

class ServerTest : public ::testing::Test {
 protected:
  void start(DaemonConfig cfg = {}) {
    dir_ = private_dir("t");
    socket_ = (dir_ / "zk.sock").string();
    cfg.listen = "unix://" + socket_;
    cfg.state_dir = (dir_ / "state").string();
    cfg.params_dir = keys().dir.string();
    if (cfg.engine.budget_bytes == 0) cfg.engine.budget_bytes = std::uint64_t{1} << 30;
    if (cfg.engine.synthesis_workers == 0) cfg.engine.synthesis_workers = 2;
    auto d = Daemon::start(cfg);
    ASSERT_TRUE(d.ok()) << d.status().to_string();
    daemon_ = std::move(*d);
    stub_ = pb::ProvingEngine::NewStub(grpc::CreateChannel(daemon_->address(), grpc::InsecureChannelCredentials()));
  }
  void TearDown() override {
    daemon_.reset();
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  /// From now on synthetic jobs of the test shape validate through a GatedWorkload (after one job
  /// has made the registry register the kind with the engine).
  std::shared_ptr<GatedWorkload> gate_admission() {
    pb::ProofResult r;
    EXPECT_TRUE(prove(synthetic(1), &r).ok());
    auto gate = std::make_shared<GatedWorkload>();
    daemon_->engine().add_workload("synthetic:bn254-n" + std::to_string(kN), gate);
    return gate;
  }
  /// Until `n` SubmitProof / Prove calls are queued for admission or being admitted.
  void wait_admissions(std::size_t n) {
    while (daemon_->service().admissions() < n) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  grpc::Status submit(const pb::SubmitProofRequest& s, pb::SubmitProofResponse* out = nullptr) {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse r;
    return stub_->SubmitProof(&ctx, s, out != nullptr ? out : &r);
  }

  grpc::Status prove(const pb::SubmitProofRequest& s, pb::ProofResult* out, std::uint32_t timeout_ms = 0) {
    grpc::ClientContext ctx;
    pb::ProveRequest req;
    *req.mutable_submit() = s;
    req.set_timeout_ms(timeout_ms);
    return stub_->Prove(&ctx, req, out);
  }
  /// Verifies a synthetic job's proofs against the public inputs the daemon returned.
  static void expect_valid(const pb::ProofResult& r) {
    ASSERT_EQ(r.status(), pb::JOB_STATUS_COMPLETED) << r.error();
    auto proofs = groth16::read_proofs<E>(std::span(reinterpret_cast<const std::uint8_t*>(r.proof().data()), r.proof().size()));
    ASSERT_TRUE(proofs.ok());
    ASSERT_EQ(proofs->size(), r.partitions());
    ASSERT_EQ(r.public_inputs_size(), static_cast<int>(r.partitions()));
    for (std::size_t k = 0; k < proofs->size(); ++k) {
      std::vector<E::Fr> in;
      for (const auto& v : r.public_inputs(static_cast<int>(k)).values()) in.push_back(*field::from_decimal<E::Fr>(v));
      EXPECT_TRUE(*groth16::verify(keys().pvk, (*proofs)[k], in)) << "partition " << k;
    }
  }

  fs::path dir_;
  std::string socket_;
  std::unique_ptr<Daemon> daemon_;
  std::unique_ptr<pb::ProvingEngine::Stub> stub_;
};

TEST_F(ServerTest, ProveSubmitAwaitCancelStatusMetrics) {
  start();
  struct stat st {};
  ASSERT_EQ(::stat(socket_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u) << "owner-only socket";

  pb::ProofResult r;
  {
    const auto st = prove(synthetic(1, 2), &r);
    ASSERT_TRUE(st.ok()) << st.error_message();
  }
  expect_valid(r);
  EXPECT_EQ(r.partitions(), 2u);
  EXPECT_EQ(r.curve(), "bn254");
  EXPECT_GT(r.timings().total_ms(), 0);

  // Submit, then await.
  pb::SubmitProofResponse sub;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub_->SubmitProof(&ctx, synthetic(2), &sub).ok());
  }
  {
    grpc::ClientContext ctx;
    pb::AwaitProofRequest a;
    a.set_job_id(sub.job_id());
    pb::ProofResult res;
    ASSERT_TRUE(stub_->AwaitProof(&ctx, a, &res).ok());
    EXPECT_EQ(res.job_id(), sub.job_id());
    expect_valid(res);
  }
  // Unknown job.
  {
    grpc::ClientContext ctx;
    pb::AwaitProofRequest a;
    a.set_job_id(999999);
    pb::ProofResult res;
    EXPECT_EQ(stub_->AwaitProof(&ctx, a, &res).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  // Many queued jobs: the last is still waiting when awaited for 1 ms, then cancelled.
  std::vector<std::uint64_t> ids;
  for (int i = 0; i < 30; ++i) {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse s;
    ASSERT_TRUE(stub_->SubmitProof(&ctx, synthetic(100 + i, 2), &s).ok());
    ids.push_back(s.job_id());
  }
  {
    grpc::ClientContext ctx;
    pb::AwaitProofRequest a;
    a.set_job_id(ids.back());
    a.set_timeout_ms(1);
    pb::ProofResult res;
    EXPECT_EQ(stub_->AwaitProof(&ctx, a, &res).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  }
  {
    grpc::ClientContext ctx;
    pb::CancelProofRequest c;
    c.set_job_id(ids.back());
    pb::CancelProofResponse res;
    ASSERT_TRUE(stub_->CancelProof(&ctx, c, &res).ok());
    EXPECT_TRUE(res.was_active());
  }
  {
    grpc::ClientContext ctx;
    pb::AwaitProofRequest a;
    a.set_job_id(ids.back());
    pb::ProofResult res;
    ASSERT_TRUE(stub_->AwaitProof(&ctx, a, &res).ok());
    EXPECT_EQ(res.status(), pb::JOB_STATUS_CANCELLED);
    EXPECT_TRUE(res.proof().empty());
  }
  for (std::size_t i = 0; i + 1 < ids.size(); ++i) {
    grpc::ClientContext ctx;
    pb::AwaitProofRequest a;
    a.set_job_id(ids[i]);
    pb::ProofResult res;
    ASSERT_TRUE(stub_->AwaitProof(&ctx, a, &res).ok());
    expect_valid(res);
  }
  // Status and metrics are real.
  {
    grpc::ClientContext ctx;
    pb::GetStatusResponse s;
    ASSERT_TRUE(stub_->GetStatus(&ctx, pb::GetStatusRequest(), &s).ok());
    // The store's counts are every accepted job's outcome. The engine's totals count what it ran:
    // the cancelled job is in them only if the claim loop handed it to the engine before the
    // cancel (a job cancelled while still queued in the store never reaches the engine).
    EXPECT_EQ(s.store().done(), 31u);
    EXPECT_EQ(s.store().cancelled(), 1u);
    EXPECT_EQ(s.store().queued() + s.store().running(), 0u);
    EXPECT_EQ(s.totals().completed(), 31u);
    EXPECT_LE(s.totals().cancelled(), 1u);
    EXPECT_EQ(s.totals().submitted(), 31u + s.totals().cancelled());
    EXPECT_EQ(s.totals().active(), 0u);
    EXPECT_EQ(s.workers_size(), 5);  // 2 synthesis, 1 urgent synthesis, 1 prover, 1 finalizer
    ASSERT_EQ(s.params_size(), 1);
    EXPECT_GT(s.params(0).bytes(), 0u);
    EXPECT_EQ(s.ledger_size(), 5);
    EXPECT_GT(s.budget().high_water_bytes(), 0u);
    EXPECT_GT(s.rss_peak_bytes(), 0u);
  }
  {
    grpc::ClientContext ctx;
    pb::GetMetricsResponse m;
    ASSERT_TRUE(stub_->GetMetrics(&ctx, pb::GetMetricsRequest(), &m).ok());
    EXPECT_NE(m.prometheus_text().find("zkpipe_jobs_total{state=\"done\"} 31"), std::string::npos);
    EXPECT_NE(m.prometheus_text().find("zkpipe_rpc_total{method=\"SubmitProof\"} 31"), std::string::npos);
    EXPECT_NE(m.prometheus_text().find("zkpipe_params_bytes"), std::string::npos);
  }
}

TEST_F(ServerTest, BadRequestsGetCodesThatSaySo) {
  DaemonConfig cfg;
  cfg.max_message_bytes = 1 << 20;
  start(cfg);
  auto code = [&](pb::SubmitProofRequest s) {
    pb::ProofResult r;
    return prove(s, &r).error_code();
  };
  auto s = synthetic(1);
  s.set_circuit("nope");
  EXPECT_EQ(code(s), grpc::StatusCode::INVALID_ARGUMENT);
  s = synthetic(1);
  s.set_circuit("");
  EXPECT_EQ(code(s), grpc::StatusCode::INVALID_ARGUMENT);
  s = synthetic(1);
  s.set_shape("../../etc/passwd");
  EXPECT_EQ(code(s), grpc::StatusCode::INVALID_ARGUMENT);
  s = synthetic(1);
  s.set_shape("bn254-n999");  // no keys
  EXPECT_EQ(code(s), grpc::StatusCode::NOT_FOUND);
  s = synthetic(1);
  s.set_input("abc");  // not an 8-byte seed
  EXPECT_EQ(code(s), grpc::StatusCode::INVALID_ARGUMENT);
  s = synthetic(1);
  s.set_input(std::string(2 << 20, 'x'));  // above max_message_bytes
  EXPECT_EQ(code(s), grpc::StatusCode::RESOURCE_EXHAUSTED);
  pb::SubmitProofRequest z;
  z.set_circuit("zkey");
  z.set_shape("chain.zkey");
  z.set_input("not a witness");
  EXPECT_EQ(code(z), grpc::StatusCode::INVALID_ARGUMENT);
  z.set_shape("missing.zkey");
  EXPECT_EQ(code(z), grpc::StatusCode::NOT_FOUND);
  pb::SubmitProofRequest p;
  p.set_circuit("porep");
  p.set_shape("huge");
  EXPECT_EQ(code(p), grpc::StatusCode::INVALID_ARGUMENT);
  // A request id reused: the same payload names the same job, another payload is another job
  // (the id is the client's label; issue 41).
  auto a = synthetic(1), b = synthetic(2);
  a.set_request_id("r1"), b.set_request_id("r1");
  pb::SubmitProofResponse ra, ra2, rb;
  {
    grpc::ClientContext c1, c2, c3;
    ASSERT_TRUE(stub_->SubmitProof(&c1, a, &ra).ok());
    ASSERT_TRUE(stub_->SubmitProof(&c2, a, &ra2).ok());
    EXPECT_EQ(ra.job_id(), ra2.job_id());
    ASSERT_TRUE(stub_->SubmitProof(&c3, b, &rb).ok());
    EXPECT_NE(rb.job_id(), ra.job_id());
  }
  // A zkey job through the daemon: snarkjs's witness for the chain circuit.
  {
    const auto w = groth16::read_file((fs::path(ZK_TEST_DATA_DIR) / "snarkjs/bn128/chain-witness.wtns").string());
    z.set_shape("chain.zkey");
    z.set_input(std::string(w->begin(), w->end()));
    pb::ProofResult r;
    ASSERT_TRUE(prove(z, &r).ok());
    EXPECT_EQ(r.status(), pb::JOB_STATUS_COMPLETED) << r.error();
    EXPECT_EQ(r.public_inputs(0).values_size(), 2);
  }
  // Preload / evict.
  {
    grpc::ClientContext c1, c2, c3;
    pb::ParamsRequest pr;
    pr.set_circuit("zkey");
    pr.set_shape("chain.zkey");
    pb::PreloadParamsResponse p1;
    ASSERT_TRUE(stub_->PreloadParams(&c1, pr, &p1).ok());
    EXPECT_TRUE(p1.already_loaded());  // the job above loaded it
    EXPECT_GT(p1.bytes(), 0u);
    pb::EvictParamsResponse e;
    ASSERT_TRUE(stub_->EvictParams(&c2, pr, &e).ok());
    EXPECT_TRUE(e.was_loaded());
    EXPECT_EQ(e.freed_bytes(), p1.bytes());
    pb::PreloadParamsResponse p2;
    ASSERT_TRUE(stub_->PreloadParams(&c3, pr, &p2).ok());
    EXPECT_FALSE(p2.already_loaded());
  }
}

TEST_F(ServerTest, HundredConcurrentClientsEachGetTheirOwnProof) {
  start();
  constexpr int kClients = 100;
  std::vector<pb::ProofResult> results(kClients);
  std::vector<grpc::Status> statuses(kClients);
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i) {
    threads.emplace_back([&, i] {
      auto stub = pb::ProvingEngine::NewStub(
          grpc::CreateChannel(daemon_->address(), grpc::InsecureChannelCredentials()));
      grpc::ClientContext ctx;
      pb::ProveRequest req;
      *req.mutable_submit() = synthetic(5000 + static_cast<std::uint64_t>(i));
      statuses[static_cast<std::size_t>(i)] = stub->Prove(&ctx, req, &results[static_cast<std::size_t>(i)]);
    });
  }
  for (auto& t : threads) t.join();
  std::set<std::uint64_t> ids;
  for (int i = 0; i < kClients; ++i) {
    ASSERT_TRUE(statuses[static_cast<std::size_t>(i)].ok()) << statuses[static_cast<std::size_t>(i)].error_message();
    const auto& r = results[static_cast<std::size_t>(i)];
    expect_valid(r);
    ids.insert(r.job_id());
    // Its own job: the public inputs are those of its seed.
    const auto mine = circuits::SyntheticCircuit<E::Fr>(kN, 5000 + static_cast<std::uint64_t>(i)).public_inputs();
    ASSERT_EQ(r.public_inputs(0).values_size(), static_cast<int>(mine.size()));
    for (std::size_t k = 0; k < mine.size(); ++k) EXPECT_EQ(r.public_inputs(0).values(static_cast<int>(k)), field::to_decimal(mine[k]));
  }
  EXPECT_EQ(ids.size(), static_cast<std::size_t>(kClients)) << "no job answered twice or lost";
  EXPECT_EQ(daemon_->engine().status().jobs_done, static_cast<std::uint64_t>(kClients));
}

// Stop with jobs in flight: with a grace period they finish and every waiter gets its proof; new
// jobs are refused meanwhile. With no grace they are cancelled and every waiter hears so.
TEST_F(ServerTest, StopDrainsOrCancelsAndAnswersEveryWaiter) {
  for (const bool drain : {true, false}) {
    start();
    const int kJobs = 40;
    std::vector<pb::ProofResult> results(kJobs);
    std::vector<grpc::Status> statuses(kJobs);
    std::vector<std::uint64_t> ids;
    for (int i = 0; i < kJobs; ++i) {
      grpc::ClientContext ctx;
      pb::SubmitProofResponse s;
      ASSERT_TRUE(stub_->SubmitProof(&ctx, synthetic(700 + static_cast<std::uint64_t>(i), 2), &s).ok());
      ids.push_back(s.job_id());
    }
    std::vector<std::thread> waiters;
    for (int i = 0; i < kJobs; ++i) {
      waiters.emplace_back([&, i] {
        grpc::ClientContext ctx;
        pb::AwaitProofRequest a;
        a.set_job_id(ids[static_cast<std::size_t>(i)]);
        statuses[static_cast<std::size_t>(i)] = stub_->AwaitProof(&ctx, a, &results[static_cast<std::size_t>(i)]);
      });
    }
    while (daemon_->service().waiters() < static_cast<std::size_t>(kJobs) &&
           daemon_->engine().status().jobs_active > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    const std::size_t active_at_stop = daemon_->engine().status().jobs_active;
    std::thread stopper([&] { daemon_->stop(drain ? std::chrono::minutes(5) : std::chrono::milliseconds(0)); });
    while (!daemon_->service().draining()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    {
      grpc::ClientContext ctx;
      pb::SubmitProofResponse s;
      const auto st = stub_->SubmitProof(&ctx, synthetic(1), &s);
      // Never accepted. While jobs are still draining the listener is open, so the refusal is
      // UNAVAILABLE; once the drain is over the closing listener answers CANCELLED or UNAVAILABLE.
      const bool still_draining = drain && daemon_->engine().status().jobs_active > 0;
      EXPECT_FALSE(st.ok());
      if (still_draining) {
        EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAVAILABLE) << st.error_message();
      }
    }
    stopper.join();
    for (auto& t : waiters) t.join();
    int completed = 0, cancelled = 0;
    for (int i = 0; i < kJobs; ++i) {
      ASSERT_TRUE(statuses[static_cast<std::size_t>(i)].ok()) << statuses[static_cast<std::size_t>(i)].error_message();
      const auto& r = results[static_cast<std::size_t>(i)];
      if (r.status() == pb::JOB_STATUS_COMPLETED) {
        ++completed;
        expect_valid(r);
      } else {
        EXPECT_EQ(r.status(), pb::JOB_STATUS_CANCELLED);
        ++cancelled;
      }
    }
    EXPECT_EQ(completed + cancelled, kJobs);
    if (drain) {
      EXPECT_EQ(completed, kJobs);
    } else if (active_at_stop > 2) {
      // Jobs still active at stop are cancelled (a job may finish between the two readings).
      EXPECT_GT(cancelled, 0);
    }
    EXPECT_FALSE(fs::exists(socket_)) << "socket removed";
    daemon_.reset();
  }
}

TEST_F(ServerTest, TokenIsCheckedOnEveryCall) {
  DaemonConfig cfg;
  cfg.token = "s3cret";
  start(cfg);
  {
    grpc::ClientContext ctx;
    pb::GetStatusResponse s;
    EXPECT_EQ(stub_->GetStatus(&ctx, pb::GetStatusRequest(), &s).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer wrong");
    pb::ProofResult r;
    pb::ProveRequest req;
    *req.mutable_submit() = synthetic(1);
    EXPECT_EQ(stub_->Prove(&ctx, req, &r).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer s3cret");
    pb::GetStatusResponse s;
    EXPECT_TRUE(stub_->GetStatus(&ctx, pb::GetStatusRequest(), &s).ok());
  }
}

// TCP with port 0: the bound port is reported, the token is required, a proof comes back. (A token
// over plain TCP has to be allowed explicitly: TokenOverPlainTcpIsRefusedUnlessAllowed.)
TEST_F(ServerTest, TcpWithTokenAndAPickedPort) {
  DaemonConfig cfg;
  cfg.listen = "127.0.0.1:0";
  cfg.token = "tcp-secret";
  cfg.allow_token_over_plaintext = true;
  cfg.params_dir = keys().dir.string();
  cfg.engine.budget_bytes = 1 << 28;
  auto d = Daemon::start(cfg);
  ASSERT_TRUE(d.ok()) << d.status().to_string();
  const std::string addr = (*d)->address();
  ASSERT_EQ(addr.rfind("127.0.0.1:", 0), 0u) << addr;
  EXPECT_NE(addr, "127.0.0.1:0");
  auto stub = pb::ProvingEngine::NewStub(grpc::CreateChannel(addr, grpc::InsecureChannelCredentials()));
  {
    grpc::ClientContext ctx;
    pb::GetStatusResponse s;
    EXPECT_EQ(stub->GetStatus(&ctx, pb::GetStatusRequest(), &s).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  grpc::ClientContext ctx;
  ctx.AddMetadata("authorization", "Bearer tcp-secret");
  pb::ProveRequest req;
  *req.mutable_submit() = synthetic(77);
  pb::ProofResult r;
  ASSERT_TRUE(stub->Prove(&ctx, req, &r).ok());
  expect_valid(r);
  (*d)->stop(std::chrono::milliseconds(0));
}

// TLS on 127.0.0.1 with a throwaway PKI made here (never committed): a CA, the daemon's certificate,
// a client certificate the CA signed, and another CA with a client certificate of its own.
class TlsTest : public ServerTest {
 protected:
  void SetUp() override {
    pki_ = private_dir("pki");
    ca_ = test_pki::issue("zkpipe test CA", "ca", nullptr, 1);
    const auto server = test_pki::issue("zkpipe daemon", "server", &ca_, 2);
    client_ = test_pki::issue("curio", "client", &ca_, 3);
    other_ca_ = test_pki::issue("another CA", "ca", nullptr, 4);
    stranger_ = test_pki::issue("stranger", "client", &other_ca_, 5);
    write("ca.pem", ca_.cert_pem);
    write("server.pem", server.cert_pem);
    write("server.key", server.key_pem);
    write("garbage.pem", "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n");
  }
  void TearDown() override {
    ServerTest::TearDown();
    fs::remove_all(pki_);
  }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(pki_ / name) << text;
    return path(name);
  }
  std::string path(const std::string& name) const { return (pki_ / name).string(); }

  /// `with_keys` false: a params directory without keys (tests that prove nothing skip making them).
  DaemonConfig tls_config(bool with_keys = true) const {
    DaemonConfig cfg;
    cfg.listen = "127.0.0.1:0";
    cfg.params_dir = with_keys ? keys().dir.string() : pki_.string();
    cfg.engine.budget_bytes = 1 << 28;
    cfg.tls_cert = path("server.pem");
    cfg.tls_key = path("server.key");
    return cfg;
  }
  /// A stub for `addr`: TLS trusting `ca_pem` (empty: the system's roots) with an optional client
  /// certificate, or plain (`tls` false).
  static std::unique_ptr<pb::ProvingEngine::Stub> stub(const std::string& addr, bool tls, const std::string& ca_pem = "",
                                                        const test_pki::Issued* client = nullptr) {
    std::shared_ptr<grpc::ChannelCredentials> creds = grpc::InsecureChannelCredentials();
    if (tls) {
      grpc::SslCredentialsOptions o;
      o.pem_root_certs = ca_pem;
      if (client != nullptr) {
        o.pem_cert_chain = client->cert_pem;
        o.pem_private_key = client->key_pem;
      }
      creds = grpc::SslCredentials(o);
    }
    return pb::ProvingEngine::NewStub(grpc::CreateChannel(addr, creds));
  }
  /// GetStatus with a deadline (a refused handshake must fail, never hang the test).
  static grpc::Status status(pb::ProvingEngine::Stub& s, const std::string& token = "") {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
    pb::GetStatusResponse r;
    return s.GetStatus(&ctx, pb::GetStatusRequest(), &r);
  }

  fs::path pki_;
  test_pki::Issued ca_, client_, other_ca_, stranger_;
};

// The daemon's certificate on an ephemeral port: a client trusting the CA proves (with the token,
// which TLS allows on TCP); a plain client and one that does not trust the CA are refused.
TEST_F(TlsTest, ServesTlsOnLoopbackAndAClientWithoutTheCaFails) {
  DaemonConfig cfg = tls_config();
  cfg.token = "over-tls";
  auto d = Daemon::start(cfg);
  ASSERT_TRUE(d.ok()) << d.status().to_string();
  const std::string addr = (*d)->address();
  ASSERT_EQ(addr.rfind("127.0.0.1:", 0), 0u) << addr;

  auto good = stub(addr, true, ca_.cert_pem);
  EXPECT_EQ(status(*good).error_code(), grpc::StatusCode::UNAUTHENTICATED) << "TLS does not replace the token";
  {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer over-tls");
    pb::ProveRequest req;
    *req.mutable_submit() = synthetic(91);
    pb::ProofResult r;
    ASSERT_TRUE(good->Prove(&ctx, req, &r).ok());
    expect_valid(r);
  }
  const grpc::Status plain = status(*stub(addr, false), "over-tls");
  EXPECT_EQ(plain.error_code(), grpc::StatusCode::UNAVAILABLE) << plain.error_message();
  const grpc::Status untrusted = status(*stub(addr, true, ""), "over-tls");  // the system's roots only
  EXPECT_EQ(untrusted.error_code(), grpc::StatusCode::UNAVAILABLE) << untrusted.error_message();
  const grpc::Status other = status(*stub(addr, true, other_ca_.cert_pem), "over-tls");
  EXPECT_EQ(other.error_code(), grpc::StatusCode::UNAVAILABLE) << other.error_message();
  EXPECT_TRUE(status(*good, "over-tls").ok()) << "the daemon goes on after refused handshakes";
  EXPECT_EQ((*d)->engine().status().jobs_submitted, 1u);
  (*d)->stop(std::chrono::milliseconds(0));
}

// Mutual TLS: a client without a certificate, or with one from another CA, never gets a call
// through; the CA's client gets its proof.
TEST_F(TlsTest, MutualTlsAcceptsOnlyClientsTheCaSigned) {
  DaemonConfig cfg = tls_config();
  cfg.tls_client_ca = path("ca.pem");
  auto d = Daemon::start(cfg);
  ASSERT_TRUE(d.ok()) << d.status().to_string();
  const std::string addr = (*d)->address();

  const grpc::Status anonymous = status(*stub(addr, true, ca_.cert_pem));
  EXPECT_FALSE(anonymous.ok()) << "a client without a certificate";
  const grpc::Status stranger = status(*stub(addr, true, ca_.cert_pem, &stranger_));
  EXPECT_FALSE(stranger.ok()) << "a certificate from another CA";
  const grpc::Status plain = status(*stub(addr, false));
  EXPECT_FALSE(plain.ok()) << "no TLS at all";

  auto good = stub(addr, true, ca_.cert_pem, &client_);
  grpc::ClientContext ctx;
  pb::ProveRequest req;
  *req.mutable_submit() = synthetic(92);
  pb::ProofResult r;
  ASSERT_TRUE(good->Prove(&ctx, req, &r).ok());
  expect_valid(r);
  EXPECT_EQ((*d)->engine().status().jobs_submitted, 1u) << "only the authenticated client's job";
  (*d)->stop(std::chrono::milliseconds(0));
}

// A token on plain TCP travels in clear: the daemon refuses to start, naming the setting that
// allows it; with that setting (or TLS, or a unix socket) it starts.
TEST_F(TlsTest, TokenOverPlainTcpIsRefusedUnlessAllowed) {
  DaemonConfig cfg = tls_config(/*with_keys=*/false);
  cfg.tls_cert.clear();
  cfg.tls_key.clear();
  cfg.token = "secret";
  auto refused = Daemon::start(cfg);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("daemon.allow_token_over_plaintext"), std::string::npos)
      << refused.status().message();
  EXPECT_NE(refused.status().message().find("daemon.tls_cert"), std::string::npos) << refused.status().message();
  cfg.allow_token_over_plaintext = true;
  auto allowed = Daemon::start(cfg);
  ASSERT_TRUE(allowed.ok()) << allowed.status().to_string();
  (*allowed)->stop(std::chrono::milliseconds(0));
  allowed->reset();  // gone, with its hold on the job store
  // A unix socket is owner-only: a token needs no TLS there.
  cfg.allow_token_over_plaintext = false;
  cfg.listen = "unix://" + path("zk.sock");
  auto unix_daemon = Daemon::start(cfg);
  ASSERT_TRUE(unix_daemon.ok()) << unix_daemon.status().to_string();
  EXPECT_TRUE(status(*stub((*unix_daemon)->address(), false), "secret").ok());
  (*unix_daemon)->stop(std::chrono::milliseconds(0));
}

// Wrong TLS settings are errors naming the setting and the file, before anything listens.
TEST_F(TlsTest, BadTlsSettingsAreErrorsNamingTheSetting) {
  const auto other_key = test_pki::issue("x", "client", &ca_, 9);
  write("other.key", other_key.key_pem);
  write("encrypted.key", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n");
  struct Case {
    std::function<void(DaemonConfig&)> change;
    std::string needle;
  };
  const std::vector<Case> cases = {
      {[](DaemonConfig& c) { c.tls_key.clear(); }, "needs both daemon.tls_cert"},
      {[](DaemonConfig& c) { c.tls_cert.clear(); }, "needs both daemon.tls_cert"},
      {[&](DaemonConfig& c) { c.tls_cert = path("missing.pem"); }, "daemon.tls_cert"},
      {[&](DaemonConfig& c) { c.tls_cert = path("server.key"); }, "no PEM certificate"},
      {[&](DaemonConfig& c) { c.tls_cert = path("garbage.pem"); }, "daemon.tls_cert"},
      {[&](DaemonConfig& c) { c.tls_key = path("other.key"); }, "is not the key of the daemon.tls_cert"},
      {[&](DaemonConfig& c) { c.tls_key = path("encrypted.key"); }, "no unencrypted PEM private key"},
      {[&](DaemonConfig& c) { c.tls_key = path("server.pem"); }, "daemon.tls_key"},
      {[&](DaemonConfig& c) { c.tls_client_ca = path("server.key"); }, "daemon.tls_client_ca"},
      {[&](DaemonConfig& c) {
         c.tls_cert.clear();
         c.tls_key.clear();
         c.tls_client_ca = path("ca.pem");
       },
       "needs daemon.tls_cert"},
      {[&](DaemonConfig& c) { c.listen = "unix://" + path("zk.sock"); }, "is a unix socket"},
  };
  for (const auto& k : cases) {
    DaemonConfig cfg = tls_config(/*with_keys=*/false);
    k.change(cfg);
    auto d = Daemon::start(cfg);
    ASSERT_FALSE(d.ok()) << k.needle;
    EXPECT_NE(d.status().message().find(k.needle), std::string::npos) << d.status().message();
  }
}

// With the GPU, every workload the registry makes shares one pool of devices (a gate each), and
// each device's turns, waiting workers and partition show in metrics.
TEST(GpuMetrics, RegistryOwnsOnePoolOnlyWithTheGpuAndMetricsHaveASeriesPerDevice) {
  engine::Engine e({.budget_bytes = std::uint64_t{1} << 28, .synthesis_workers = 1}, {});
  WorkloadRegistry cpu(e, ".", engine::ProverDevice::kCpu);
  EXPECT_EQ(cpu.gpus(), nullptr);
  gpu::DevicePool::Options o;
  o.ordinals = {0, 1};
  o.select = [](int) { return Status{}; };  // emulated devices
  o.pool_bytes = [](int ordinal) { return std::size_t{5} << (30 + ordinal); };
  o.resident_bytes = std::size_t{40} << 30;
  auto pool = std::make_shared<gpu::DevicePool>(std::move(o));
  WorkloadRegistry gpu_reg(e, ".", engine::ProverDevice::kGpu, pool);
  ASSERT_EQ(gpu_reg.gpus(), pool.get());
  { auto t = pool->acquire(); }
  { auto t = pool->acquire(); }
  auto held = pool->acquire({"job-7", "porep:32GiB", 3});  // device 0: both free
  auto other = pool->acquire();                            // device 1
  const std::string m = gpu_metrics(*pool);
  EXPECT_NE(m.find("zkpipe_gpu_turns_total{gpu=\"0\"} 3\n"), std::string::npos) << m;
  EXPECT_NE(m.find("zkpipe_gpu_turns_total{gpu=\"1\"} 1\n"), std::string::npos) << m;
  EXPECT_NE(m.find("# TYPE zkpipe_gpu_busy_seconds_total counter"), std::string::npos);
  EXPECT_EQ(m.find("# TYPE zkpipe_gpu_busy_seconds_total counter", m.find("# TYPE zkpipe_gpu_busy_seconds_total") + 1),
            std::string::npos) << "one TYPE line per family";
  EXPECT_NE(m.find("zkpipe_gpu_waiting{gpu=\"1\"} 0\n"), std::string::npos);
  EXPECT_NE(m.find("zkpipe_gpu_proving{gpu=\"0\"} 1\n"), std::string::npos);
  EXPECT_NE(m.find("zkpipe_gpu_resident_lookups_total{gpu=\"1\",result=\"hit\"} 0\n"), std::string::npos);
  EXPECT_NE(m.find("zkpipe_gpu_pool_bytes{gpu=\"1\"} 10737418240\n"), std::string::npos) << m;
  EXPECT_NE(m.find("zkpipe_gpu_resident_capacity_bytes{gpu=\"0\"} 42949672960\n"), std::string::npos) << m;
  // Every GPU metric the Grafana dashboard queries is exported here (tests/cli/http_test.py checks
  // the others against a live CPU daemon, which exports no zkpipe_gpu_* family).
  std::ifstream dash_file(std::string(ZK_SOURCE_DIR) + "/contrib/grafana/zkpipe.json");
  const std::string dash((std::istreambuf_iterator<char>(dash_file)), std::istreambuf_iterator<char>());
  const std::regex name(R"(\bzkpipe_gpu_[a-z_]+)");
  int used = 0;
  for (auto it = std::sregex_iterator(dash.begin(), dash.end(), name); it != std::sregex_iterator(); ++it, ++used) {
    EXPECT_NE(m.find("# TYPE " + it->str() + " "), std::string::npos) << "the dashboard queries " << it->str();
  }
  EXPECT_GE(used, 5) << "the dashboard's GPU panels";
  e.shutdown();
}

TEST_F(ServerTest, StaleSocketIsReplacedLiveOneRefused) {
  const fs::path dir = private_dir("stale");
  const std::string path = (dir / "zk.sock").string();
  auto bind_at = [&](bool listening) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
    EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    if (listening) {
      EXPECT_EQ(::listen(fd, 1), 0);
    }
    return fd;
  };
  ::close(bind_at(false));  // a socket file nobody accepts on
  ASSERT_TRUE(fs::exists(path));
  DaemonConfig cfg;
  cfg.listen = "unix://" + path;
  cfg.params_dir = keys().dir.string();
  cfg.engine.budget_bytes = 1 << 28;
  auto first = Daemon::start(cfg);
  ASSERT_TRUE(first.ok()) << first.status().to_string();
  auto second = Daemon::start(cfg);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kAlreadyExists);
  EXPECT_NE(second.status().message().find("another zkpipe daemon holds"), std::string::npos)
      << second.status().message();
  first->reset();
  EXPECT_FALSE(fs::exists(path));  // the first daemon removed its own socket
  // Another program listening on the path (not a zkpipe daemon, so no lock): refused, untouched.
  const int other = bind_at(true);
  auto third = Daemon::start(cfg);
  ASSERT_FALSE(third.ok());
  EXPECT_NE(third.status().message().find("another process is serving"), std::string::npos);
  ::close(other);
  fs::remove(path);
  // A regular file is never replaced.
  { std::ofstream(path) << "data"; }
  auto fourth = Daemon::start(cfg);
  ASSERT_FALSE(fourth.ok());
  EXPECT_NE(fourth.status().message().find("not a socket"), std::string::npos);
  fs::remove(path);
  cfg.params_dir = "/nonexistent/keys";
  EXPECT_EQ(Daemon::start(cfg).status().code(), StatusCode::kNotFound);
  fs::remove_all(dir);
}

// Two daemons started at the same moment on one path: exactly one serves; stopping the one that
// failed never removes the other's socket.
TEST_F(ServerTest, TwoDaemonsStartedTogetherOnOnePathOneWins) {
  const fs::path dir = private_dir("race");
  DaemonConfig cfg;
  cfg.listen = "unix://" + (dir / "zk.sock").string();
  cfg.params_dir = keys().dir.string();
  cfg.engine.budget_bytes = 1 << 28;
  for (int round = 0; round < 5; ++round) {
    std::optional<Result<std::unique_ptr<Daemon>>> a, b;
    std::thread ta([&] { a.emplace(Daemon::start(cfg)); });
    std::thread tb([&] { b.emplace(Daemon::start(cfg)); });
    ta.join();
    tb.join();
    ASSERT_NE(a->ok(), b->ok()) << "round " << round << ": " << a->status().to_string() << " / "
                                << b->status().to_string();
    auto& winner = a->ok() ? *a : *b;
    auto& loser = a->ok() ? *b : *a;
    EXPECT_EQ(loser.status().code(), StatusCode::kAlreadyExists);
    EXPECT_TRUE(fs::exists(dir / "zk.sock"));
    auto stub = pb::ProvingEngine::NewStub(grpc::CreateChannel((*winner)->address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext ctx;
    pb::GetStatusResponse st;
    EXPECT_TRUE(stub->GetStatus(&ctx, pb::GetStatusRequest(), &st).ok());
    (*winner)->stop(std::chrono::milliseconds(0));
    EXPECT_FALSE(fs::exists(dir / "zk.sock"));
  }
  fs::remove_all(dir);
}

// A socket directory that other users can write into is refused (they could replace the socket).
TEST_F(ServerTest, AWorldWritableSocketDirectoryIsRefused) {
  const fs::path dir = private_dir("open");
  ::chmod(dir.c_str(), 0777);
  DaemonConfig cfg;
  cfg.listen = "unix://" + (dir / "zk.sock").string();
  cfg.params_dir = keys().dir.string();
  cfg.engine.budget_bytes = 1 << 28;
  auto d = Daemon::start(cfg);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("writable by other users"), std::string::npos) << d.status().message();
  EXPECT_FALSE(fs::exists(dir / "zk.sock"));
  ::chmod(dir.c_str(), 0700);
  EXPECT_TRUE(Daemon::start(cfg).ok());
  fs::remove_all(dir);
}



// What a hostile client can send: each request fails alone with the right code and a bounded
// message, and the daemon goes on serving (issue 16: the crafted zkey that killed the watcher
// thread, oversized names, absurd partition counts, unknown ids, garbage on the socket).
TEST_F(ServerTest, HostileRequestsFailAloneAndTheDaemonGoesOn) {
  // A zkey whose nPublic overflowed the header check (0xFFFFFFFF + 1 = 0 in 32 bits).
  {
    auto z = groth16::read_file((fs::path(ZK_TEST_DATA_DIR) / "snarkjs/bn128/chain.zkey").string());
    ASSERT_TRUE(z.ok());
    const std::size_t at = test::snarkjs_section_offset(*z, 2) + 4 + 32 + 4 + 32 + 4;
    for (int i = 0; i < 4; ++i) (*z)[at + static_cast<std::size_t>(i)] = 0xff;
    ASSERT_TRUE(groth16::write_file(keys().dir / "evil.zkey", *z).ok());
  }
  DaemonConfig cfg;
  cfg.max_message_bytes = 4 << 20;
  start(cfg);
  auto submit = [&](const pb::SubmitProofRequest& s, std::string* message = nullptr) {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse r;
    const auto st = stub_->SubmitProof(&ctx, s, &r);
    if (message != nullptr) *message = st.error_message();
    return st.error_code();
  };
  std::string msg;
  auto s = synthetic(1);
  s.set_circuit(std::string(1 << 20, 'c'));
  EXPECT_EQ(submit(s, &msg), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_LT(msg.size(), 4096u);
  s = synthetic(1);
  s.set_shape(std::string(100'000, 's'));
  EXPECT_EQ(submit(s, &msg), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_LT(msg.size(), 4096u);
  s = synthetic(1, 1u << 20);
  EXPECT_EQ(submit(s, &msg), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(msg.find("max_partitions"), std::string::npos) << msg;
  {
    const auto w = groth16::read_file((fs::path(ZK_TEST_DATA_DIR) / "snarkjs/bn128/chain-witness.wtns").string());
    pb::SubmitProofRequest z;
    z.set_circuit("zkey");
    z.set_shape("evil.zkey");
    z.set_input(std::string(w->begin(), w->end()));
    EXPECT_EQ(submit(z, &msg), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(msg.find("inconsistent counts"), std::string::npos) << msg;
  }
  for (std::uint64_t id : {std::uint64_t{1}, std::uint64_t{0x7fffffffffffffff}}) {
    grpc::ClientContext c1, c2;
    pb::AwaitProofRequest a;
    a.set_job_id(id);
    pb::ProofResult r;
    EXPECT_EQ(stub_->AwaitProof(&c1, a, &r).error_code(), grpc::StatusCode::NOT_FOUND);
    pb::CancelProofRequest c;
    c.set_job_id(id);
    pb::CancelProofResponse cr;
    EXPECT_EQ(stub_->CancelProof(&c2, c, &cr).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  // Garbage on the socket, then a connection closed half-way.
  for (int round = 0; round < 2; ++round) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, socket_.c_str(), sizeof(addr.sun_path) - 1);
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    const std::string junk = round == 0 ? std::string(65536, '\x17') : std::string("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    (void)::write(fd, junk.data(), junk.size());
    ::close(fd);
  }
  // Still serving: a real job completes and verifies.
  pb::ProofResult r;
  ASSERT_TRUE(prove(synthetic(7), &r).ok());
  expect_valid(r);
  fs::remove(keys().dir / "evil.zkey");
}

// A corrupted parameter file (a point of the L query replaced by another valid point) never yields
// a COMPLETED job: the daemon verifies every proof before answering (engine.self_verify, on by
// default), and the job fails naming self-verification.
TEST_F(ServerTest, ACorruptedKeyFailsTheJobInsteadOfAnsweringAnInvalidProof) {
  const fs::path dir = private_dir("corrupt-keys");
  auto pk = groth16::read_parameters<E>(*groth16::read_file(keys().dir / ("synthetic-bn254-n" + std::to_string(kN) + ".params")));
  ASSERT_TRUE(pk.ok());
  std::vector<E::G1Affine> l(pk->l.begin(), pk->l.end());  // a key's queries are read-only
  std::swap(l[0], l[1]);
  pk->l = std::move(l);
  ASSERT_TRUE(groth16::write_file(dir / ("synthetic-bn254-n" + std::to_string(kN) + ".params"), groth16::write_parameters(*pk)).ok());
  DaemonConfig cfg;
  ASSERT_TRUE(cfg.engine.self_verify) << "the daemon's default";
  cfg.listen = "unix://" + (dir / "zk.sock").string();
  cfg.params_dir = dir.string();
  cfg.engine.budget_bytes = 1 << 28;
  auto d = Daemon::start(cfg);
  ASSERT_TRUE(d.ok()) << d.status().to_string();
  auto stub = pb::ProvingEngine::NewStub(grpc::CreateChannel((*d)->address(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  pb::ProveRequest req;
  *req.mutable_submit() = synthetic(3, 2);
  pb::ProofResult r;
  ASSERT_TRUE(stub->Prove(&ctx, req, &r).ok());
  EXPECT_EQ(r.status(), pb::JOB_STATUS_FAILED);
  EXPECT_NE(r.error().find("self-verification"), std::string::npos) << r.error();
  EXPECT_TRUE(r.proof().empty());
  d->reset();
  fs::remove_all(dir);
}

// Validation runs on the admission threads, never on gRPC's: with more SubmitProof / Prove calls
// held up in admission than gRPC has handler threads, status, metrics, await and cancel still
// answer; once validation may go on, every held call gets its job and its proof.
TEST_F(ServerTest, StatusAwaitAndCancelAnswerWhileAdmissionIsHeldUp) {
  DaemonConfig cfg;
  cfg.admission_workers = 1;
  start(cfg);
  pb::SubmitProofResponse done;
  ASSERT_TRUE(submit(synthetic(2), &done).ok());
  auto gate = gate_admission();
  constexpr int kCalls = 16;  // half SubmitProof, half Prove
  std::vector<grpc::Status> statuses(kCalls);
  std::vector<pb::SubmitProofResponse> submitted(kCalls);
  std::vector<pb::ProofResult> proved(kCalls);
  std::vector<std::thread> calls;
  for (int i = 0; i < kCalls; ++i) {
    calls.emplace_back([&, i] {
      const auto k = static_cast<std::size_t>(i);
      statuses[k] = i % 2 == 0 ? submit(synthetic(300 + k), &submitted[k]) : prove(synthetic(300 + k), &proved[k]);
    });
  }
  gate->wait_entered(1);
  wait_admissions(kCalls);
  for (int round = 0; round < 20; ++round) {
    grpc::ClientContext ctx;
    pb::GetStatusResponse st;
    ASSERT_TRUE(stub_->GetStatus(&ctx, pb::GetStatusRequest(), &st).ok());
    EXPECT_EQ(st.totals().submitted(), 2u) << "the held calls are not jobs yet";
  }
  {
    grpc::ClientContext ctx;
    pb::GetMetricsResponse m;
    ASSERT_TRUE(stub_->GetMetrics(&ctx, pb::GetMetricsRequest(), &m).ok());
    EXPECT_NE(m.prometheus_text().find("zkpipe_admission_requests " + std::to_string(kCalls) + "\n"), std::string::npos)
        << m.prometheus_text();
  }
  {
    grpc::ClientContext ctx;
    pb::AwaitProofRequest a;
    a.set_job_id(done.job_id());
    pb::ProofResult r;
    ASSERT_TRUE(stub_->AwaitProof(&ctx, a, &r).ok());
    expect_valid(r);
  }
  {
    grpc::ClientContext ctx;
    pb::CancelProofRequest c;
    c.set_job_id(done.job_id());
    pb::CancelProofResponse r;
    ASSERT_TRUE(stub_->CancelProof(&ctx, c, &r).ok());
    EXPECT_FALSE(r.was_active());
  }
  gate->open();
  for (auto& t : calls) t.join();
  for (int i = 0; i < kCalls; ++i) {
    const auto k = static_cast<std::size_t>(i);
    ASSERT_TRUE(statuses[k].ok()) << i << ": " << statuses[k].error_message();
    if (i % 2 == 1) {
      expect_valid(proved[k]);
      continue;
    }
    grpc::ClientContext ctx;
    pb::AwaitProofRequest a;
    a.set_job_id(submitted[k].job_id());
    pb::ProofResult r;
    ASSERT_TRUE(stub_->AwaitProof(&ctx, a, &r).ok());
    expect_valid(r);
  }
  EXPECT_EQ(daemon_->service().admissions(), 0u);
}

// A stop while calls wait for admission answers every one of them (UNAVAILABLE; the call being
// validated may still become a job), and the daemon stops: no call is left unanswered.
TEST_F(ServerTest, CallsWaitingForAdmissionAreAnsweredWhenTheDaemonStops) {
  DaemonConfig cfg;
  cfg.admission_workers = 1;
  start(cfg);
  auto gate = gate_admission();
  constexpr int kCalls = 6;
  std::vector<grpc::Status> statuses(kCalls);
  std::vector<pb::ProofResult> proved(kCalls);
  std::vector<std::thread> calls;
  for (int i = 0; i < kCalls; ++i) {
    calls.emplace_back([&, i] {
      const auto k = static_cast<std::size_t>(i);
      statuses[k] = i % 2 == 0 ? submit(synthetic(400 + k)) : prove(synthetic(400 + k), &proved[k]);
    });
  }
  gate->wait_entered(1);
  wait_admissions(kCalls);
  std::thread stopper([&] { daemon_->stop(std::chrono::milliseconds(0)); });
  while (!daemon_->service().draining()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  gate->open();
  stopper.join();
  for (auto& t : calls) t.join();
  int unavailable = 0;
  for (int i = 0; i < kCalls; ++i) {
    const auto& st = statuses[static_cast<std::size_t>(i)];
    EXPECT_TRUE(st.ok() || st.error_code() == grpc::StatusCode::UNAVAILABLE) << i << ": " << st.error_message();
    unavailable += st.error_code() == grpc::StatusCode::UNAVAILABLE ? 1 : 0;
  }
  EXPECT_GE(unavailable, kCalls - 1) << "only the call being validated at the stop may have become a job";
  EXPECT_FALSE(fs::exists(socket_)) << "the daemon stopped";
}

// The inputs waiting for admission are bounded by engine.max_input_bytes: past it a call is refused
// at once (RESOURCE_EXHAUSTED, naming the key), and small calls still queue.
TEST_F(ServerTest, InputsWaitingForAdmissionAreBoundedByTheInputCap) {
  DaemonConfig cfg;
  cfg.admission_workers = 1;
  cfg.engine.max_input_bytes = 1 << 20;
  start(cfg);
  auto gate = gate_admission();
  auto large = synthetic(500);
  large.set_input(std::string(600 << 10, 'x'));  // queued, then refused by validation (not a seed)
  grpc::Status held, queued_large, queued_small;
  std::thread t1([&] { held = submit(synthetic(501)); });
  gate->wait_entered(1);
  std::thread t2([&] { queued_large = submit(large); });
  wait_admissions(2);
  {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse r;
    const auto st = stub_->SubmitProof(&ctx, large, &r);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << st.error_message();
    EXPECT_NE(st.error_message().find("waiting for admission"), std::string::npos) << st.error_message();
    EXPECT_NE(st.error_message().find("engine.max_input_bytes"), std::string::npos) << st.error_message();
  }
  {
    auto huge = synthetic(502);
    huge.set_input(std::string(2 << 20, 'x'));
    pb::ProofResult r;
    EXPECT_EQ(prove(huge, &r).error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  }
  std::thread t3([&] { queued_small = submit(synthetic(503)); });
  wait_admissions(3);
  gate->open();
  t1.join();
  t2.join();
  t3.join();
  EXPECT_TRUE(held.ok()) << held.error_message();
  EXPECT_EQ(queued_large.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << queued_large.error_message();
  EXPECT_TRUE(queued_small.ok()) << queued_small.error_message();
}

// A call whose client gave up while it waited for admission is answered CANCELLED and never
// becomes a job.
TEST_F(ServerTest, ACallCancelledWhileWaitingForAdmissionIsNeverSubmitted) {
  DaemonConfig cfg;
  cfg.admission_workers = 1;
  start(cfg);
  auto gate = gate_admission();  // job 1
  grpc::Status held, cancelled;
  std::thread t1([&] { held = submit(synthetic(601)); });
  gate->wait_entered(1);
  grpc::ClientContext ctx;
  std::thread t2([&] {
    pb::SubmitProofResponse r;
    cancelled = stub_->SubmitProof(&ctx, synthetic(602), &r);
  });
  wait_admissions(2);
  ctx.TryCancel();
  t2.join();
  EXPECT_EQ(cancelled.error_code(), grpc::StatusCode::CANCELLED);
  // Lets the client's cancellation reach the daemon before the queue moves on (a pause, not a
  // timed assertion).
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  gate->open();
  t1.join();
  ASSERT_TRUE(held.ok()) << held.error_message();
  while (daemon_->service().admissions() > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  auto st = daemon_->dispatcher().store().status();
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->queued + st->running + st->done + st->failed + st->cancelled, 2u)
      << "the cancelled call never became a job";
}

}  // namespace
}  // namespace zk::server
