// The engine with fake stages of controlled duration and size, and with real proofs: the memory
// bound (and a double with the reference daemon's bug, which the same check catches), the ledger
// back at zero after success, failure and cancel, priorities, idempotent submits, 500 concurrent
// jobs, timeouts, and verified proofs for 1-4 synthesis workers.

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>

#include "engine/engine.hpp"
#include "engine/synthetic_workload.hpp"
#include "groth16/io.hpp"
#include "groth16/verifier.hpp"

namespace zk::engine {
namespace {

using namespace std::chrono_literals;

/// Fake stages: synthesis allocates `bytes` (really: a vector), prove_start frees the a/b/c share,
/// prove_finish returns 8 bytes naming the partition. Tracks the bytes its objects hold.
class FakeWorkload : public Workload {
 public:
  struct Options {
    WorkingSet ws{.abc = 600, .aux = 200, .density = 50, .pending = 150};
    std::chrono::milliseconds synth = 1ms, prove = 1ms, finish = 1ms;
    long fail_partition = -1;         // fail this partition...
    int fail_stage = 0;               // ...in stage 1 synthesis, 2 prove_start, 3 prove_finish
    bool reports_too_little = false;  // the reference's bug: the reservation only covers synthesis
    std::mutex* gate = nullptr;       // synthesis waits for it (to queue everything first)
    // Throw (instead of returning an error) in stage 1 synthesis, 2 prove_start, 3 prove_finish,
    // 4 public inputs, 5 validate, 6 working_set, for jobs whose first input byte is 0xEE; std::bad_alloc
    // when throw_bad_alloc, else std::runtime_error.
    int throw_stage = 0;
    bool throw_bad_alloc = false;
    // >= 0: a synthesized partition k holds (and reports, Synthesized::abc_bytes) synth_abc +
    // k * synth_abc_step bytes of a/b instead of ws.abc.
    std::int64_t synth_abc = -1, synth_abc_step = 0;
    // >= 0: a synthesized partition and its pending proof hold (and report, aux_bytes) this many
    // bytes of assignments instead of ws.aux.
    std::int64_t synth_aux = -1;
    std::mutex* prove_gate = nullptr;  // prove_start waits for it (with its ws.prove_room allocated)
  };
  explicit FakeWorkload(Options o) : o_(o) {}

  struct Synth : Synthesized {
    Synth(FakeWorkload& w, std::size_t k, std::uint64_t n) : w(w), k(k), buf(n) { w.add(static_cast<std::int64_t>(n)); }
    ~Synth() override { w.add(-static_cast<std::int64_t>(buf.size())); }
    FakeWorkload& w;
    std::size_t k;
    std::vector<std::uint8_t> buf;
    JobRequest job;
    std::optional<std::uint64_t> reported;
    std::optional<std::uint64_t> reported_aux;
    std::optional<std::uint64_t> abc_bytes() const override { return reported; }
    std::optional<std::uint64_t> aux_bytes() const override { return reported_aux; }
  };
  struct Pend : Pending {
    Pend(FakeWorkload& w, std::size_t k, std::uint64_t n) : w(w), k(k), buf(n) { w.add(static_cast<std::int64_t>(n)); }
    ~Pend() override { w.add(-static_cast<std::int64_t>(buf.size())); }
    FakeWorkload& w;
    std::size_t k;
    std::vector<std::uint8_t> buf;
    JobRequest job;
  };

  std::uint64_t aux() const { return o_.synth_aux >= 0 ? static_cast<std::uint64_t>(o_.synth_aux) : o_.ws.aux; }
  void maybe_throw(int stage, const JobRequest& job) const {
    if (o_.throw_stage != stage || job.input.empty() || job.input[0] != 0xEE) return;
    if (o_.throw_bad_alloc) throw std::bad_alloc();
    throw std::runtime_error("injected exception in stage " + std::to_string(stage));
  }
  Status validate(const JobRequest& job) override {
    maybe_throw(5, job);
    return {};
  }
  std::string curve() const override { return "none"; }
  Result<std::vector<std::string>> public_inputs_decimal(const JobRequest& job, std::size_t k) override {
    maybe_throw(4, job);
    return std::vector<std::string>{std::to_string(k)};
  }
  Result<WorkingSet> working_set(const JobRequest& job) override {
    maybe_throw(6, job);
    if (o_.reports_too_little) return WorkingSet{.pending = 1};
    return o_.ws;
  }
  Result<std::unique_ptr<Synthesized>> synthesize(const JobRequest& job, std::size_t k) override {
    if (o_.gate != nullptr) std::lock_guard lock(*o_.gate);
    {
      std::lock_guard lock(order_m_);
      order_.push_back(job.priority * 1000 + static_cast<int>(k));
    }
    std::this_thread::sleep_for(o_.synth);
    maybe_throw(1, job);
    if (o_.fail_stage == 1 && static_cast<long>(k) == o_.fail_partition)
      return Status::internal("injected synthesis failure");
    const bool tracked = o_.synth_abc >= 0;
    const std::uint64_t abc =
        tracked ? static_cast<std::uint64_t>(o_.synth_abc + o_.synth_abc_step * static_cast<std::int64_t>(k))
                : o_.ws.abc;
    auto out = std::make_unique<Synth>(*this, k, abc + aux() + o_.ws.density);
    if (tracked) out->reported = abc;
    if (o_.synth_aux >= 0) out->reported_aux = aux();
    out->job = job;
    return std::unique_ptr<Synthesized>(std::move(out));
  }
  Result<std::unique_ptr<Pending>> prove_start(std::unique_ptr<Synthesized> s) override {
    std::vector<std::uint8_t> dense(o_.ws.prove_room);  // the quotient's buffers, while it runs
    add(static_cast<std::int64_t>(dense.size()));
    if (o_.prove_gate != nullptr) std::lock_guard lock(*o_.prove_gate);
    std::this_thread::sleep_for(o_.prove);
    add(-static_cast<std::int64_t>(dense.size()));
    auto* in = static_cast<Synth*>(s.get());
    const std::size_t k = in->k;
    maybe_throw(2, in->job);
    if (o_.fail_stage == 2 && static_cast<long>(k) == o_.fail_partition)
      return Status::internal("injected prove_start failure");
    auto job = in->job;
    // a/b/c (and the rest of the synthesized state) freed before the pending state exists: a real
    // workload moves its witness on rather than holding two copies. Counting both for a moment made
    // the held-prover tests see 6,500 bytes over the budget now and then (a fake's artefact).
    s.reset();
    auto out = std::make_unique<Pend>(*this, k, aux() + o_.ws.density + o_.ws.pending);
    out->job = job;
    return std::unique_ptr<Pending>(std::move(out));
  }
  Result<std::vector<std::uint8_t>> prove_finish(std::unique_ptr<Pending> p) override {
    std::this_thread::sleep_for(o_.finish);
    const std::size_t k = static_cast<Pend*>(p.get())->k;
    maybe_throw(3, static_cast<Pend*>(p.get())->job);
    if (o_.fail_stage == 3 && static_cast<long>(k) == o_.fail_partition)
      return Status::internal("injected prove_finish failure");
    std::vector<std::uint8_t> out(8);
    for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(k >> (8 * i));
    return out;
  }

  std::int64_t live() const { return live_; }
  std::int64_t peak() const { return peak_; }
  std::vector<int> order() {
    std::lock_guard lock(order_m_);
    return order_;
  }

 private:
  void add(std::int64_t d) {
    const std::int64_t now = live_ += d;
    std::int64_t p = peak_;
    while (now > p && !peak_.compare_exchange_weak(p, now)) {
    }
  }
  Options o_;
  std::atomic<std::int64_t> live_{0}, peak_{0};
  std::mutex order_m_;
  std::vector<int> order_;
};

JobRequest fake_job(std::size_t partitions, int priority = 0, std::string request_id = "") {
  return {.circuit = "fake",
          .shape = "s",
          .input = {1, 2, 3},
          .priority = priority,
          .request_id = std::move(request_id),
          .partitions = partitions};
}

/// Submits a fake job of `partitions` partitions and waits until it is done.
void expect_job_done(Engine& e, std::size_t partitions) {
  auto id = e.submit(fake_job(partitions));
  ASSERT_TRUE(id.ok()) << id.status().message();
  auto r = e.await(*id, 30s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->state, JobState::kDone) << r->error;
}

void expect_ledger_idle(Engine& e) {
  const auto s = e.status();
  EXPECT_FALSE(s.ledger.went_negative);
  EXPECT_EQ(s.ledger.bytes.total(), 0) << s.ledger.to_string();
  for (auto c : s.ledger.count) EXPECT_EQ(c, 0) << s.ledger.to_string();
  for (auto p : s.ledger.partitions_in_stage) EXPECT_EQ(p, 0) << s.ledger.to_string();
  EXPECT_EQ(s.budget_used, 0u);
}

/// Partitions the ledger counts in `stages`, polled (up to 20 s) until there are `want` of them.
std::int64_t partitions_reaching(Engine& e, std::initializer_list<Stage> stages, std::int64_t want) {
  auto count = [&] {
    const auto s = e.status();
    std::int64_t n = 0;
    for (Stage st : stages) n += s.ledger.partitions_in_stage[static_cast<std::size_t>(st)];
    return n;
  };
  for (int i = 0; i < 2000 && count() < want; ++i) std::this_thread::sleep_for(10ms);
  return count();
}

/// Opens the prover's gate on a job held in front of it; the job finishes within the budget of
/// 30,000 bytes and every byte comes back.
void release_and_expect_done(Engine& e, std::mutex& gate, std::uint64_t id, const FakeWorkload& w) {
  gate.unlock();
  auto r = e.await(id, 30s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->state, JobState::kDone);
  EXPECT_LE(w.peak(), 30000);
  expect_ledger_idle(e);
  EXPECT_EQ(w.live(), 0);
}

// With a slow prover, synthesized partitions pile up in front of it; the budget must bound the
// bytes they really hold (the reference daemon ran out of memory exactly here).
std::int64_t peak_live_bytes_with_slow_prover(bool buggy) {
  FakeWorkload::Options o;
  o.ws = {.abc = 6000, .aux = 2000, .density = 500, .pending = 1500};  // 10 000 bytes per partition
  o.synth = 1ms;
  o.prove = 15ms;
  o.reports_too_little = buggy;
  auto w = std::make_shared<FakeWorkload>(o);
  Engine e({.budget_bytes = 30000, .synthesis_workers = 4, .prover_workers = 1, .channel_capacity = 8}, {{"fake", w}});
  auto id = e.submit(fake_job(16));
  EXPECT_TRUE(id.ok());
  auto r = e.await(*id, 30s);
  EXPECT_TRUE(r.ok() && r->state == JobState::kDone);
  return w->peak();
}

TEST(Engine, BudgetBoundsLivePartitionBytesWithASlowProver) {
  EXPECT_LE(peak_live_bytes_with_slow_prover(false), 30000);
  // The same check catches a double whose reservation ends with synthesis: partitions pile up.
  EXPECT_GT(peak_live_bytes_with_slow_prover(true), 30000);
}

// Partitions whose a/b are compact (Synthesized::abc_bytes) give back the rest of their a/b
// reservation after synthesis, and prove_start's dense buffers come from one room per prover
// worker: with the prover held, 5 partitions fit in front of it where whole reservations fit 3.
TEST(Engine, PartitionsWaitingForTheProverHoldOnlyTheirCompactAB) {
  std::mutex gate;
  gate.lock();
  FakeWorkload::Options o;
  o.ws = {.abc = 6000, .aux = 2000, .density = 500, .pending = 1500, .prove_room = 6000};
  o.synth_abc = 600;
  o.prove_gate = &gate;
  auto w = std::make_shared<FakeWorkload>(o);
  Engine e({.budget_bytes = 30000, .synthesis_workers = 4, .prover_workers = 1, .channel_capacity = 8}, {{"fake", w}});
  auto id = e.submit(fake_job(16));
  ASSERT_TRUE(id.ok());
  // room 6000 + 5 x (600 + 2000 + 500 + 1500) = 29000 <= 30000; a sixth needs 4750 (the estimate:
  // a quarter above the 600 seen). Whole reservations (10000 each, room included) admit 3.
  EXPECT_EQ(partitions_reaching(e, {Stage::kInChannel, Stage::kProving}, 5), 5);
  auto s = e.status();
  EXPECT_EQ(s.budget_room, 6000u);
  EXPECT_LE(s.budget_used, 30000u);
  EXPECT_LE(w->live(), 30000);
  ASSERT_NO_FATAL_FAILURE(release_and_expect_done(e, gate, *id, *w));
  EXPECT_LE(e.status().budget_high_water, 30000u);
  EXPECT_EQ(e.status().budget_room, 0u) << "the room goes back with the last job that needs it";
}

// A compact witness (Synthesized::aux_bytes) gives back the rest of its aux reservation after
// synthesis: with the prover held, 9 partitions wait in front of it where witnesses held at their
// bound fit 3 (both counts are exact: the next one does not fit).
TEST(Engine, PartitionsWaitingForTheProverHoldOnlyTheirCompactWitness) {
  for (const bool compact : {true, false}) {
    SCOPED_TRACE(compact ? "compact witness" : "witness at its bound");
    std::mutex gate;
    gate.lock();
    FakeWorkload::Options o;
    o.ws = {.abc = 1000, .aux = 6000, .density = 500, .pending = 500};
    if (compact) o.synth_aux = 500;
    o.prove_gate = &gate;
    auto w = std::make_shared<FakeWorkload>(o);
    Engine e({.budget_bytes = 30000, .synthesis_workers = 1, .prover_workers = 1, .channel_capacity = 16},
             {{"fake", w}});
    auto id = e.submit(fake_job(16));
    ASSERT_TRUE(id.ok());
    // Each partition reserves 8000 for its synthesis. Compact, it then holds 1000 + 500 + 500 + 500:
    // 9 x 2500 = 22500, and a tenth does not fit (+ 8000 > 30000). At the bound: 3 x 8000 = 24000.
    const int want = compact ? 9 : 3;
    const std::initializer_list<Stage> ahead = {Stage::kInChannel, Stage::kProving, Stage::kSynthesizing};
    partitions_reaching(e, ahead, want);
    std::this_thread::sleep_for(50ms);  // room for one too many to be admitted, were the count wrong
    EXPECT_EQ(partitions_reaching(e, ahead, 0), want);
    EXPECT_LE(e.status().budget_used, 30000u);
    EXPECT_LE(w->live(), 30000);
    ASSERT_NO_FATAL_FAILURE(release_and_expect_done(e, gate, *id, *w));
  }
}

// When the room does not fit beside a partition's a/b bound, the partition reserves prove_start's
// buffers itself (the old, whole reservation); once a/b have been seen to be small, later
// partitions of the job use the shared room. Both kinds finish and the budget is never exceeded.
TEST(Engine, APartitionReservesItsOwnProveRoomWhenTheSharedOneDoesNotFit) {
  FakeWorkload::Options o;
  o.ws = {.abc = 6000, .aux = 2000, .density = 500, .pending = 1500, .prove_room = 6000};
  o.synth_abc = 600;
  auto w = std::make_shared<FakeWorkload>(o);
  // Shared: 4000 + 6000 + 6000 > 12000; own: 4000 + max(6000, 6000) = 10000; learned: 10750.
  Engine e({.budget_bytes = 12000, .synthesis_workers = 2, .prover_workers = 1}, {{"fake", w}});
  ASSERT_NO_FATAL_FAILURE(expect_job_done(e, 6));
  EXPECT_LE(w->peak(), 12000);
  EXPECT_LE(e.status().budget_high_water, 12000u);
  expect_ledger_idle(e);
  EXPECT_EQ(e.status().budget_room, 0u);
  // Below the least a partition can run with (10000): refused at submit.
  Engine small({.budget_bytes = 9999}, {{"fake", w}});
  auto big = small.submit(fake_job(1));
  EXPECT_EQ(big.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(big.status().message().find("prove_start's buffers"), std::string::npos) << big.status().message();
}

// A partition whose a/b outgrow the estimate learned from earlier ones is counted in full (the
// budget may run over its total for a moment, and admits nothing until it is back under): the job
// still finishes and every byte comes back.
TEST(Engine, ABLargerThanTheEstimateAreCountedInFull) {
  for (std::uint64_t room : {6000u, 0u}) {  // with a prove-start room, and without one
    SCOPED_TRACE("prove_room " + std::to_string(room));
    FakeWorkload::Options o;
    o.ws = {.abc = 6000, .aux = 2000, .density = 500, .pending = 1500, .prove_room = room};
    o.synth_abc = 600;
    o.synth_abc_step = 600;  // partition k holds 600 (k + 1): later ones exceed 1.25 x the most seen
    auto w = std::make_shared<FakeWorkload>(o);
    Engine e({.budget_bytes = 30000, .synthesis_workers = 2, .prover_workers = 1}, {{"fake", w}});
    ASSERT_NO_FATAL_FAILURE(expect_job_done(e, 8));
    // Every byte a/b held was counted: the ledger's abc high water covers the largest partition.
    EXPECT_GE(e.status().ledger.high_water[BufferClass::kAbc], 600 * 8);
    expect_ledger_idle(e);
    EXPECT_EQ(e.status().budget_room, 0u);
    EXPECT_EQ(w->live(), 0);
  }
}

TEST(Engine, LedgerReturnsToZeroAfterSuccessFailureAndCancel) {
  auto ok = std::make_shared<FakeWorkload>(FakeWorkload::Options{});
  {
    Engine e({.budget_bytes = 5000, .synthesis_workers = 2}, {{"fake", ok}});
    auto id = e.submit(fake_job(6));
    ASSERT_TRUE(id.ok());
    auto r = e.await(*id, 10s);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->state, JobState::kDone);
    ASSERT_EQ(r->proof.size(), 6u * 8u);
    for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(r->proof[8 * k], k) << "partition order";
    expect_ledger_idle(e);
    const auto s = e.status();
    EXPECT_GT(s.ledger.high_water[BufferClass::kAbc], 0);
    EXPECT_LE(s.budget_high_water, 5000u);
    const std::string prom = e.prometheus_text();
    EXPECT_NE(prom.find("zkpipe_jobs_total{state=\"done\"} 1\n"), std::string::npos) << prom;
    EXPECT_NE(prom.find("zkpipe_stage_seconds_count{stage=\"synthesis\"} 6\n"), std::string::npos) << prom;
    EXPECT_NE(prom.find("zkpipe_stage_seconds_bucket{stage=\"prove_start\",le=\"+Inf\"} 6\n"), std::string::npos);
    EXPECT_NE(prom.find("zkpipe_buffer_bytes{class=\"abc\",kind=\"live\"} 0\n"), std::string::npos);
  }
  for (int stage = 1; stage <= 3; ++stage) {
    FakeWorkload::Options o;
    o.fail_partition = 2;
    o.fail_stage = stage;
    auto w = std::make_shared<FakeWorkload>(o);
    Engine e({.budget_bytes = 5000, .synthesis_workers = 2}, {{"fake", w}});
    auto bad = e.submit(fake_job(5));
    auto good = e.submit(fake_job(2, 0, "other"));
    auto r = e.await(*bad, 10s);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->state, JobState::kFailed);
    EXPECT_NE(r->error.find("partition 2"), std::string::npos) << r->error;
    EXPECT_NE(r->error.find(stage == 1   ? "synthesis"
                            : stage == 2 ? "prove_start"
                                         : "prove_finish"),
              std::string::npos)
        << r->error;
    auto g = e.await(*good, 10s);
    ASSERT_TRUE(g.ok());
    EXPECT_EQ(g->state, JobState::kDone) << "other jobs continue";
    expect_ledger_idle(e);
    EXPECT_EQ(w->live(), 0);
  }
  {
    FakeWorkload::Options o;
    o.synth = 5ms;
    o.prove = 5ms;
    auto w = std::make_shared<FakeWorkload>(o);
    Engine e({.budget_bytes = 5000, .synthesis_workers = 2}, {{"fake", w}});
    auto id = e.submit(fake_job(40));
    std::this_thread::sleep_for(20ms);
    ASSERT_TRUE(e.cancel(*id).ok());
    auto r = e.await(*id, 10s);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->state, JobState::kCancelled);
    expect_ledger_idle(e);
    EXPECT_EQ(w->live(), 0);
  }
}

TEST(Engine, HigherPriorityJobsAreSynthesizedFirst) {
  std::mutex gate;
  gate.lock();  // hold synthesis until both jobs are queued
  FakeWorkload::Options o;
  o.gate = &gate;
  auto w = std::make_shared<FakeWorkload>(o);
  Engine e({.budget_bytes = 100000, .synthesis_workers = 1}, {{"fake", w}});
  auto low = e.submit(fake_job(5, /*priority=*/0));
  auto high = e.submit(fake_job(5, /*priority=*/1, "high"));
  std::this_thread::sleep_for(20ms);
  gate.unlock();
  ASSERT_TRUE(e.await(*low, 10s).ok());
  ASSERT_TRUE(e.await(*high, 10s).ok());
  const auto order = w->order();
  ASSERT_EQ(order.size(), 10u);
  // The scheduler may have handed low's first partition to the worker before `high` arrived;
  // after that, every partition of `high` comes before the rest of `low`.
  const std::size_t start = order[0] == 0 ? 1 : 0;
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(order[start + i], 1000 + static_cast<int>(i)) << i;
  for (std::size_t i = start + 5; i < 10; ++i) EXPECT_EQ(order[i], static_cast<int>(i - 5)) << i;
}

TEST(Engine, UrgentWorkPassesAPipelineFullOfOtherWork) {
  // Issue 41: a PoSt partition (priority >= urgent_priority) arriving while PoRep partitions fill
  // the synthesis worker, the channel and the prover is synthesized by the urgent worker and
  // proved right after the prove_start under way — not behind the channel and the syntheses.
  for (unsigned urgent_workers : {1u, 0u}) {
    FakeWorkload::Options o;
    o.prove = 300ms;
    auto w = std::make_shared<FakeWorkload>(o);
    Engine e({.budget_bytes = 100000, .synthesis_workers = 1, .urgent_synthesis_workers = urgent_workers},
             {{"fake", w}});
    std::vector<std::uint64_t> normal;
    for (int i = 0; i < 4; ++i) normal.push_back(*e.submit(fake_job(1, 0)));
    std::this_thread::sleep_for(100ms);  // job 0 proving, job 1 in the channel, job 2 waiting for it
    auto urgent = e.submit(fake_job(1, 20));
    ASSERT_TRUE(urgent.ok());
    ASSERT_EQ(e.await(*urgent, 20s)->state, JobState::kDone);
    if (urgent_workers == 1) {
      // Proved second: jobs 1.. are still waiting or proving.
      EXPECT_EQ(e.await(normal[1], 0ms).status().code(), StatusCode::kDeadlineExceeded);
    }
    // Without an urgent worker it still enters the channel ahead of the others once synthesized.
    EXPECT_EQ(e.await(normal[3], 0ms).status().code(), StatusCode::kDeadlineExceeded) << urgent_workers;
    for (auto id : normal) EXPECT_EQ(e.await(id, 20s)->state, JobState::kDone);
  }
}

TEST(Engine, UrgentWorkIsAdmittedBeforeOtherWorkAlreadyWaitingForMemory) {
  // The budget holds one partition: job A's partition 0 runs, its partition 1 waits for memory in
  // the scheduler. An urgent job arriving then takes the memory A's partition 0 gives back first;
  // A's partition 1 gives way and goes back to the queue (it is not failed).
  FakeWorkload::Options o;
  o.prove = 300ms;
  auto w = std::make_shared<FakeWorkload>(o);
  Engine e({.budget_bytes = 1500, .synthesis_workers = 2, .urgent_synthesis_workers = 1}, {{"fake", w}});
  auto a = e.submit(fake_job(3, 0));
  ASSERT_TRUE(a.ok());
  std::this_thread::sleep_for(100ms);  // A's partition 0 proving, partition 1 waiting for memory
  auto urgent = e.submit(fake_job(1, 20, "urgent"));
  ASSERT_TRUE(urgent.ok());
  EXPECT_EQ(e.await(*urgent, 20s)->state, JobState::kDone);
  EXPECT_EQ(e.await(*a, 20s)->state, JobState::kDone);
  EXPECT_EQ(w->order(), (std::vector<int>{0, 20000, 1, 2}));
  EXPECT_EQ(e.budget().used(), 0u);
}

TEST(Engine, UrgentWorkIsFinishedAheadOfAFinishBacklog) {
  // prove_finish far slower than prove_start: other work's pending proofs pile up for the one
  // finalizer; an urgent partition's prove_finish runs next, not behind them.
  FakeWorkload::Options o;
  o.prove = 10ms;
  o.finish = 200ms;
  auto w = std::make_shared<FakeWorkload>(o);
  Engine e({.budget_bytes = 100000, .synthesis_workers = 1}, {{"fake", w}});
  auto a = e.submit(fake_job(6, 0));
  ASSERT_TRUE(a.ok());
  std::this_thread::sleep_for(250ms);  // A's partitions waiting for the finalizer
  auto urgent = e.submit(fake_job(1, 20, "urgent"));
  ASSERT_TRUE(urgent.ok());
  EXPECT_EQ(e.await(*urgent, 20s)->state, JobState::kDone);
  // Finished ahead of A's backlog: A is not done yet (its remaining finishes take 200 ms each).
  EXPECT_EQ(e.await(*a, 0ms).status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_EQ(e.await(*a, 20s)->state, JobState::kDone);
}

TEST(Engine, ARetryOfAFailedJobUnderItsRequestIdIsProvedAgain) {
  // The fault hook fails the first synthesis; Curio's retry (same request id and payload) is a new
  // attempt that is proved; a submit of a proved request is answered with that job.
  auto w = std::make_shared<FakeWorkload>(FakeWorkload::Options{});
  Engine e({.budget_bytes = 100000, .test_fail_syntheses = 1}, {{"fake", w}});
  auto first = e.submit(fake_job(1, 0, "porep-1000-7"));
  ASSERT_TRUE(first.ok());
  auto r1 = e.await(*first, 10s);
  ASSERT_TRUE(r1.ok());
  EXPECT_EQ(r1->state, JobState::kFailed);
  EXPECT_NE(r1->error.find("a fault injected for tests"), std::string::npos) << r1->error;
  auto retry = e.submit(fake_job(1, 0, "porep-1000-7"));
  ASSERT_TRUE(retry.ok());
  EXPECT_NE(*retry, *first);
  auto r2 = e.await(*retry, 10s);
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2->state, JobState::kDone) << r2->error;
  EXPECT_EQ(*e.submit(fake_job(1, 0, "porep-1000-7")), *retry);
  // The failed attempt's outcome is still there.
  EXPECT_EQ(e.await(*first, 1ms)->state, JobState::kFailed);
  // Cancelled, then retried: proved.
  FakeWorkload::Options slow;
  slow.synth = 200ms;
  auto ws = std::make_shared<FakeWorkload>(slow);
  Engine e2({.budget_bytes = 100000}, {{"fake", ws}});
  auto c = e2.submit(fake_job(1, 0, "snap-1000-9"));
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE(e2.cancel(*c).ok());
  EXPECT_EQ(e2.await(*c, 10s)->state, JobState::kCancelled);
  auto again = e2.submit(fake_job(1, 0, "snap-1000-9"));
  ASSERT_TRUE(again.ok());
  EXPECT_NE(*again, *c);
  EXPECT_EQ(e2.await(*again, 10s)->state, JobState::kDone);
}

TEST(Engine, SubmitIsIdempotentByRequestIdAndWaitsTimeOut) {
  FakeWorkload::Options o;
  o.synth = 50ms;
  auto w = std::make_shared<FakeWorkload>(o);
  Engine e({.budget_bytes = 100000}, {{"fake", w}});
  auto a = e.submit(fake_job(1, 0, "req-1"));
  auto b = e.submit(fake_job(1, 0, "req-1"));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  // Another payload under the same request id is another job (the id is the client's label).
  auto c = e.submit(fake_job(2, 0, "req-1"));
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_NE(*c, *a);
  auto t = e.await(*a, 1ms);
  EXPECT_EQ(t.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_TRUE(e.await(*a, 10s).ok());
  EXPECT_EQ(e.await(9999, 1ms).status().code(), StatusCode::kNotFound);
  JobRequest unknown = fake_job(1);
  unknown.circuit = "nope";
  EXPECT_EQ(e.submit(unknown).status().code(), StatusCode::kInvalidArgument);
  // Larger than the whole budget: refused at once, with the numbers.
  Engine small({.budget_bytes = 100}, {{"fake", w}});
  auto big = small.submit(fake_job(1));
  EXPECT_EQ(big.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(big.status().message().find("whole memory budget"), std::string::npos);
}

// A workload whose proofs never verify: self-verification must fail the job, naming the partition.
class BadProofWorkload : public FakeWorkload {
 public:
  BadProofWorkload() : FakeWorkload(Options{}) {}
  Result<bool> verify(const JobRequest&, std::size_t k, const std::vector<std::uint8_t>&) override { return k != 1; }
};

TEST(Engine, SelfVerificationFailsAJobWithABadProof) {
  auto w = std::make_shared<BadProofWorkload>();
  Engine e({.budget_bytes = 100000, .self_verify = true}, {{"fake", w}});
  auto id = e.submit(fake_job(3));
  auto r = e.await(*id, 10s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->state, JobState::kFailed);
  EXPECT_NE(r->error.find("partition 1, self-verification"), std::string::npos) << r->error;
  expect_ledger_idle(e);
}

// A workload whose answer is not its partition proofs concatenated (NI-PoRep's is their aggregate):
// combine runs once, after the last partition, and its bytes are the job's; a failure fails the job.
class CombiningWorkload : public FakeWorkload {
 public:
  CombiningWorkload() : FakeWorkload(Options{}) {}
  Result<std::vector<std::uint8_t>> combine(const JobRequest& job,
                                            const std::vector<std::vector<std::uint8_t>>& proofs) override {
    ++calls;
    if (!job.input.empty() && job.input[0] == 0xCC) return Status::invalid_argument("injected combine failure");
    std::vector<std::uint8_t> out{static_cast<std::uint8_t>(proofs.size())};
    for (const auto& p : proofs) out.push_back(p.empty() ? 0 : p[0]);
    return out;
  }
  std::atomic<int> calls{0};
};

TEST(Engine, AJobsAnswerIsItsWorkloadsCombinationOfThePartitions) {
  auto w = std::make_shared<CombiningWorkload>();
  Engine e({.budget_bytes = 100000}, {{"fake", w}});
  auto id = e.submit(fake_job(4));
  ASSERT_TRUE(id.ok());
  auto r = e.await(*id, 10s);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->state, JobState::kDone) << r->error;
  EXPECT_EQ(r->proof, (std::vector<std::uint8_t>{4, 0, 1, 2, 3}));  // the count, then each partition's first byte
  // The default: concatenation.
  FakeWorkload plain(FakeWorkload::Options{});
  auto cat = plain.combine(fake_job(2), {{1, 2}, {3}});
  ASSERT_TRUE(cat.ok());
  EXPECT_EQ(*cat, (std::vector<std::uint8_t>{1, 2, 3}));
  EXPECT_EQ(w->calls.load(), 1);
  JobRequest bad = fake_job(2);
  bad.input = {0xCC};
  id = e.submit(bad);
  ASSERT_TRUE(id.ok());
  r = e.await(*id, 10s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->state, JobState::kFailed);
  EXPECT_NE(r->error.find("combining the partitions' proofs: injected combine failure"), std::string::npos) << r->error;
  expect_ledger_idle(e);
}

// No exception thrown by a workload (std::bad_alloc from a size read off an input, or anything
// else) may escape a worker or a handler: the job it belongs to fails alone, with the reason, and
// the engine goes on with the next job.
TEST(Engine, AnExceptionInAnyStageFailsOnlyItsJob) {
  for (bool bad_alloc : {false, true}) {
    for (int stage = 1; stage <= 6; ++stage) {
      FakeWorkload::Options o;
      o.throw_stage = stage;
      o.throw_bad_alloc = bad_alloc;
      auto w = std::make_shared<FakeWorkload>(o);
      Engine e({.budget_bytes = 100000}, {{"fake", w}});
      JobRequest poisoned = fake_job(2);
      poisoned.input = {0xEE};
      auto id = e.submit(poisoned);
      const std::string expect = bad_alloc ? "out of memory" : "injected exception in stage " + std::to_string(stage);
      if (stage >= 5) {  // validate / working_set run in submit: a refusal, not a job
        ASSERT_FALSE(id.ok()) << stage;
        EXPECT_NE(id.status().message().find(expect), std::string::npos) << id.status().message();
        EXPECT_EQ(id.status().code(), bad_alloc ? StatusCode::kResourceExhausted : StatusCode::kInternal);
      } else {
        ASSERT_TRUE(id.ok()) << id.status().to_string();
        auto r = e.await(*id, 10s);
        ASSERT_TRUE(r.ok());
        EXPECT_EQ(r->state, JobState::kFailed) << stage;
        EXPECT_NE(r->error.find(expect), std::string::npos) << r->error;
      }
      auto fine = e.submit(fake_job(3));
      ASSERT_TRUE(fine.ok());
      auto r = e.await(*fine, 10s, /*public_inputs=*/true);
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(r->state, JobState::kDone) << "stage " << stage << ": " << r->error;
      ASSERT_EQ(r->public_inputs.size(), 3u);
      EXPECT_EQ(r->public_inputs[2], std::vector<std::string>{"2"});
      expect_ledger_idle(e);
    }
  }
}

// Job ids never restart: a client that awaits a job of an engine that has since been replaced (a
// restarted daemon) gets NOT_FOUND, never another job's result.
TEST(Engine, JobIdsAreNeverReusedByANewEngine) {
  auto w = std::make_shared<FakeWorkload>(FakeWorkload::Options{});
  std::set<std::uint64_t> first;
  {
    Engine e({.budget_bytes = 100000}, {{"fake", w}});
    for (int i = 0; i < 20; ++i) {
      auto id = e.submit(fake_job(1));
      ASSERT_TRUE(id.ok());
      EXPECT_NE(*id, 0u);
      EXPECT_LT(*id, std::uint64_t{1} << 63);
      first.insert(*id);
    }
    for (auto id : first) ASSERT_TRUE(e.await(id, 10s).ok());
  }
  EXPECT_EQ(first.size(), 20u);
  Engine restarted({.budget_bytes = 100000}, {{"fake", w}});
  for (int i = 0; i < 20; ++i) {
    auto id = restarted.submit(fake_job(1));
    ASSERT_TRUE(id.ok());
    EXPECT_EQ(first.count(*id), 0u) << "job id " << *id << " repeated after a restart";
    ASSERT_TRUE(restarted.await(*id, 10s).ok());
  }
  for (auto id : first) EXPECT_EQ(restarted.await(id, 1ms).status().code(), StatusCode::kNotFound);
}

// What unfinished jobs' inputs hold is capped; a finished job gives its input back.
TEST(Engine, InputsOfUnfinishedJobsAreCappedAndGivenBack) {
  FakeWorkload::Options o;
  std::mutex gate;
  o.gate = &gate;
  auto w = std::make_shared<FakeWorkload>(o);
  Engine e({.budget_bytes = 100000, .max_input_bytes = 1000}, {{"fake", w}});
  JobRequest big = fake_job(1);
  big.input.assign(600, 1);
  std::uint64_t first = 0;
  {
    std::lock_guard hold(gate);  // synthesis waits: the first job stays unfinished
    auto a = e.submit(big);
    ASSERT_TRUE(a.ok());
    first = *a;
    big.input.assign(600, 2);
    auto b = e.submit(big);
    EXPECT_EQ(b.status().code(), StatusCode::kResourceExhausted);
    EXPECT_NE(b.status().message().find("engine.max_input_bytes"), std::string::npos) << b.status().message();
  }
  ASSERT_TRUE(e.await(first, 10s).ok());
  auto c = e.submit(big);  // the first job's input was given back
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_TRUE(e.await(*c, 10s).ok());
}

TEST(Engine, PartitionsPerJobAreBounded) {
  auto w = std::make_shared<FakeWorkload>(FakeWorkload::Options{});
  Engine e({.budget_bytes = 100000, .max_partitions = 8}, {{"fake", w}});
  EXPECT_TRUE(e.submit(fake_job(8)).ok());
  auto big = e.submit(fake_job(9));
  EXPECT_EQ(big.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(big.status().message().find("engine.max_partitions"), std::string::npos);
  EXPECT_EQ(e.submit(fake_job(std::size_t{1} << 20)).status().code(), StatusCode::kInvalidArgument);
}

TEST(Engine, FinishedJobsAreForgottenAfterTheirTimeToLive) {
  auto w = std::make_shared<FakeWorkload>(FakeWorkload::Options{});
  Engine e({.budget_bytes = 100000, .result_ttl = 20ms}, {{"fake", w}});
  auto id = e.submit(fake_job(1, 0, "ttl"));
  ASSERT_TRUE(e.await(*id, 10s).ok());
  EXPECT_TRUE(e.await(*id, 1ms).ok());  // still kept
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(e.status().jobs_kept, 0u);  // status() forgets expired results
  EXPECT_EQ(e.await(*id, 1ms).status().code(), StatusCode::kNotFound);
  auto again = e.submit(fake_job(2, 0, "ttl"));  // the request id is free again
  ASSERT_TRUE(again.ok());
  EXPECT_NE(*again, *id);
  EXPECT_GT(e.status().rss_bytes, 0u);
}

TEST(Engine, KeptResultsAreBoundedByMaxKeptJobsOldestFirst) {
  auto w = std::make_shared<FakeWorkload>(FakeWorkload::Options{});
  Engine e({.budget_bytes = 100000, .result_ttl = 1h, .max_kept_jobs = 2}, {{"fake", w}});
  std::vector<std::uint64_t> ids;
  for (int i = 0; i < 4; ++i) {
    auto id = e.submit(fake_job(1, 0, "kept-" + std::to_string(i)));
    ASSERT_TRUE(id.ok());
    ASSERT_TRUE(e.await(*id, 10s).ok());  // finished in order
    ids.push_back(*id);
  }
  EXPECT_EQ(e.status().jobs_kept, 2u);
  EXPECT_EQ(e.await(ids[0], 1ms).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(e.await(ids[1], 1ms).status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(e.await(ids[2], 1ms).ok());
  EXPECT_TRUE(e.await(ids[3], 1ms).ok());
  // A forgotten job's request id is free again.
  EXPECT_TRUE(e.submit(fake_job(2, 0, "kept-0")).ok());
}

TEST(Engine, FiveHundredConcurrentTinyJobsAreEachAnsweredOnce) {
  FakeWorkload::Options o;
  o.synth = 0ms;
  o.prove = 0ms;
  o.finish = 0ms;
  auto w = std::make_shared<FakeWorkload>(o);
  Engine e({.budget_bytes = 4000,
            .synthesis_workers = 3,
            .prover_workers = 2,
            .finalizer_workers = 2,
            .channel_capacity = 2},
           {{"fake", w}});
  std::atomic<int> done{0}, bad{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < 10; ++c) {
    clients.emplace_back([&, c] {
      for (int i = 0; i < 50; ++i) {
        std::string rid = "c";
        rid += std::to_string(c);
        rid += '-';
        rid += std::to_string(i);
        auto id = e.submit(fake_job(1 + (i % 3), i % 4, rid));
        if (!id.ok()) {
          ++bad;
          continue;
        }
        auto r = e.await(*id, 60s);
        if (r.ok() && r->state == JobState::kDone && r->proof.size() == 8u * (1 + (i % 3))) {
          ++done;
        } else {
          ++bad;
        }
      }
    });
  }
  for (auto& t : clients) t.join();
  EXPECT_EQ(done, 500);
  EXPECT_EQ(bad, 0);
  const auto s = e.status();
  EXPECT_EQ(s.jobs_submitted, 500u);
  EXPECT_EQ(s.jobs_done, 500u);
  expect_ledger_idle(e);
}

// Submits a job of `partitions` partitions of the synthetic workload and checks that every
// partition's proof verifies with its own public inputs.
template <class E>
void prove_and_verify(Engine& e, const SyntheticWorkload<E>& w, const groth16::PreparedVerifyingKey<E>& pvk,
                      std::uint64_t seed, std::size_t partitions) {
  JobRequest job;
  job.circuit = "synthetic";
  job.shape = w.shape();
  job.input = SyntheticWorkload<E>::seed_input(seed);
  job.partitions = partitions;
  auto id = e.submit(job);
  ASSERT_TRUE(id.ok()) << id.status().to_string();
  auto r = e.await(*id, 60s);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->state, JobState::kDone) << r->error;
  auto proofs = groth16::read_proofs<E>(r->proof);
  ASSERT_TRUE(proofs.ok());
  ASSERT_EQ(proofs->size(), partitions);
  for (std::size_t k = 0; k < partitions; ++k) {
    auto pub = w.public_inputs(job, k);
    ASSERT_TRUE(pub.ok());
    EXPECT_TRUE(*groth16::verify(pvk, (*proofs)[k], *pub)) << "partition " << k;
  }
}

TEST(Engine, RealProofsVerifyForOneToFourSynthesisWorkers) {
  using E = groth16::Bls12_381;
  auto w = SyntheticWorkload<E>::create(300, 7);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  const auto pvk = groth16::prepare_verifying_key((*(*w)->proving_key())->vk);
  for (unsigned workers = 1; workers <= 4; ++workers) {
    Engine e({.budget_bytes = std::uint64_t{1} << 30, .synthesis_workers = workers, .prover_workers = 2},
             {{"synthetic", *w}});
    SCOPED_TRACE("synthesis workers " + std::to_string(workers));
    prove_and_verify<E>(e, **w, pvk, 40 + workers, 3);
    expect_ledger_idle(e);
  }
}

TEST(Engine, KeysLoadedThroughTheParamsCacheShareTheBudget) {
  using E = groth16::Bls12_381;
  auto owned = SyntheticWorkload<E>::create(200, 3);
  ASSERT_TRUE(owned.ok());
  auto key = (*owned)->proving_key();
  ASSERT_TRUE(key.ok());
  const auto dir = std::filesystem::temp_directory_path() / ("zkpipe-engine-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "k.params").string();
  ASSERT_TRUE(groth16::write_file(path, groth16::write_parameters(**key)).ok());
  const auto pvk = groth16::prepare_verifying_key((*key)->vk);
  {
    Engine e({.budget_bytes = std::uint64_t{1} << 30, .synthesis_workers = 2}, {});
    ParamsCache cache(e.budget(), e.ledger(), SyntheticWorkload<E>::params_file_bytes,
                      SyntheticWorkload<E>::load_params_file);
    auto w = std::make_shared<SyntheticWorkload<E>>(200, cache, path);
    e.add_workload("synthetic", w);
    prove_and_verify<E>(e, *w, pvk, 5, 2);
    // The key is cached, counted in the ledger and in the budget; unused now, so evictable.
    const auto s = e.status();
    EXPECT_GT(s.ledger.bytes[BufferClass::kParams], 0);
    EXPECT_EQ(s.budget_used, cache.bytes());
    ASSERT_EQ(cache.entries().size(), 1u);
    EXPECT_EQ(cache.entries()[0].users, 0);
    EXPECT_GT(cache.evict_unused(), 0u);
    expect_ledger_idle(e);
  }
  // The GPU caches' loader (queries pinned when a device is present, else a warning and pageable
  // memory) gives the same key.
  {
    auto plain = SyntheticWorkload<E>::load_params_file(path);
    auto pinned = SyntheticWorkload<E>::load_params_file_pinned(path);
    ASSERT_TRUE(plain.ok() && pinned.ok()) << pinned.status().to_string();
    EXPECT_EQ(plain->bytes, pinned->bytes);
    const auto* a = static_cast<const groth16::ProvingKey<E>*>(plain->object.get());
    const auto* b = static_cast<const groth16::ProvingKey<E>*>(pinned->object.get());
    EXPECT_TRUE(a->h == b->h && a->l == b->l && a->a == b->a && a->b_g1 == b->b_g1 && a->b_g2 == b->b_g2);
  }
  std::filesystem::remove_all(dir);
}

// A cached key nobody uses must not keep a partition waiting for ever (docs/engine.md,
// "Parameters"): with key A cached and unused, a job on key B whose partition fits the budget only
// without A used to wait with nothing in flight. With the cache registered as a key evictor the
// partition evicts A (not its own key, while another could be evicted) and the job finishes.
TEST(Engine, UnusedCachedKeysAreEvictedForAWaitingPartition) {
  using E = groth16::Bls12_381;
  const auto dir = std::filesystem::temp_directory_path() / ("zkpipe-engine-evict-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path_a = (dir / "a.params").string(), path_b = (dir / "b.params").string();
  std::map<std::string, std::uint64_t> loaded;  // each key's bytes in memory
  for (const auto& [n, path] : {std::pair{std::size_t{2000}, path_a}, std::pair{std::size_t{200}, path_b}}) {
    auto owned = SyntheticWorkload<E>::create(n, 3);
    ASSERT_TRUE(owned.ok());
    auto key = (*owned)->proving_key();
    ASSERT_TRUE(key.ok());
    ASSERT_TRUE(groth16::write_file(path, groth16::write_parameters(**key)).ok());
    auto l = SyntheticWorkload<E>::load_params_file(path);
    ASSERT_TRUE(l.ok());
    loaded[path] = l->bytes;
  }
  // The caches reserve each key's exact size (the file-size estimate is larger and transient).
  const auto exact = [&loaded](const std::string& id) -> Result<std::uint64_t> { return loaded.at(id); };
  const auto run_b = [&](Engine& e, ParamsCache& cache, std::uint64_t seed) {
    auto w = std::make_shared<SyntheticWorkload<E>>(200, cache, path_b);
    e.add_workload("synthetic", w);
    JobRequest job;
    job.circuit = "synthetic";
    job.shape = w->shape();
    job.input = SyntheticWorkload<E>::seed_input(seed);
    auto id = e.submit(job);
    EXPECT_TRUE(id.ok()) << id.status().to_string();
    return id.ok() ? e.await(*id, 60s) : Result<JobResult>(id.status());
  };
  // What B's job holds at its peak (one partition, the prove-start room, its key), alone.
  std::uint64_t peak_b = 0;
  {
    Engine e({.budget_bytes = std::uint64_t{1} << 30, .synthesis_workers = 1, .prover_workers = 1}, {});
    ParamsCache cache(e.budget(), e.ledger(), exact, SyntheticWorkload<E>::load_params_file);
    auto r = run_b(e, cache, 1);
    ASSERT_TRUE(r.ok() && r->state == JobState::kDone);
    peak_b = e.status().budget_high_water;
  }
  // A budget where B's job fits alone but its partition does not fit beside A's unused key:
  // A + (peak_b - B) > budget as long as A / 2 > B.
  const std::uint64_t budget = peak_b + loaded[path_a] / 2;
  ASSERT_GT(loaded[path_a] / 2, loaded[path_b]);
  {
    Engine e({.budget_bytes = budget, .synthesis_workers = 1, .prover_workers = 1}, {});
    ParamsCache cache(e.budget(), e.ledger(), exact, SyntheticWorkload<E>::load_params_file);
    const std::uint64_t handle =
        e.add_key_evictor([&cache](const std::string& keep) { return cache.evict_one_unused_except(keep); });
    ASSERT_TRUE(cache.acquire(path_a).ok());  // cached, and unused once the reference is dropped
    ASSERT_EQ(cache.entries().size(), 1u);
    auto r = run_b(e, cache, 2);
    ASSERT_TRUE(r.ok()) << "the partition is still waiting: " << r.status().to_string();
    EXPECT_EQ(r->state, JobState::kDone) << r->error;
    const auto entries = cache.entries();
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].id, path_b);  // A was evicted, B (the job's own key) loaded
    e.remove_key_evictor(handle);
  }
  // B's own key cached and unused, in a budget where B's partition fits but not beside B's key:
  // with nothing in flight the key is evicted too, and its reload fails the job with a clear error
  // (it used to wait for ever).
  {
    Engine e({.budget_bytes = peak_b - loaded[path_b] / 2, .synthesis_workers = 1, .prover_workers = 1}, {});
    ParamsCache cache(e.budget(), e.ledger(), exact, SyntheticWorkload<E>::load_params_file);
    const std::uint64_t handle =
        e.add_key_evictor([&cache](const std::string& keep) { return cache.evict_one_unused_except(keep); });
    ASSERT_TRUE(cache.acquire(path_b).ok());
    auto r = run_b(e, cache, 3);
    ASSERT_TRUE(r.ok()) << "the partition is still waiting: " << r.status().to_string();
    EXPECT_EQ(r->state, JobState::kFailed);
    EXPECT_NE(r->error.find("nothing unused is left to evict"), std::string::npos) << r->error;
    e.remove_key_evictor(handle);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace zk::engine
