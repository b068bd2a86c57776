// The job store's contract, written once and run against every implementation (store_fixture.hpp
// says how each is opened: SQLite in a temporary directory; PostgreSQL on a server the test starts).

#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "store/job_store.hpp"
#include "store_fixture.hpp"

namespace zk::store {
namespace {

using namespace std::chrono_literals;

NewJob job(std::string circuit = "synthetic", std::vector<std::uint8_t> input = {1, 2, 3}, int priority = 0,
           std::string request_id = "") {
  NewJob j;
  j.circuit = std::move(circuit);
  j.shape = "bn254-n8";
  j.input = std::move(input);
  j.priority = priority;
  j.request_id = std::move(request_id);
  j.partitions = 2;
  return j;
}

Outcome done(std::vector<std::uint8_t> proof) {
  Outcome o;
  o.state = JobState::kDone;
  o.proof = std::move(proof);
  o.curve = "bn254";
  o.public_inputs = {{"1", "2"}, {"3"}};
  o.timings_json = "[{\"synthesis_ms\":1}]";
  o.total_ms = 12.5;
  return o;
}

template <class F>
class JobStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto why = fixture_.unavailable(); !why.empty()) GTEST_SKIP() << why;
    store_ = fixture_.open(limits_);
    ASSERT_NE(store_, nullptr);
  }
  void reopen_with(StoreLimits l) {
    store_.reset();
    limits_ = l;
    store_ = fixture_.open(limits_);
    ASSERT_NE(store_, nullptr);
  }
  F fixture_;
  StoreLimits limits_;
  std::unique_ptr<JobStore> store_;
};

TYPED_TEST_SUITE_P(JobStoreTest);

TYPED_TEST_P(JobStoreTest, AcceptedJobIsQueuedWithWhatTheClientAskedFor) {
  auto& s = *this->store_;
  auto a = s.accept(job("porep", {9, 9}, 5));
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_FALSE(a->existed);
  EXPECT_NE(a->id, 0u);
  auto v = s.lookup(a->id);
  ASSERT_TRUE(v.ok());
  ASSERT_TRUE(v->has_value());
  EXPECT_EQ((*v)->state, JobState::kQueued);
  EXPECT_EQ((*v)->circuit, "porep");
  EXPECT_EQ((*v)->shape, "bn254-n8");
  EXPECT_EQ((*v)->partitions, 2u);
  EXPECT_EQ((*v)->attempts, 0u);
  EXPECT_FALSE((*v)->outcome.has_value());
  auto unknown = s.lookup(a->id ^ 1);
  ASSERT_TRUE(unknown.ok());
  EXPECT_FALSE(unknown->has_value());
}

TYPED_TEST_P(JobStoreTest, RequestIdIsIdempotentForTheSamePayloadOnly) {
  auto& s = *this->store_;
  auto a = s.accept(job("synthetic", {1}, 0, "req-1"));
  ASSERT_TRUE(a.ok());
  auto b = s.accept(job("synthetic", {1}, 0, "req-1"));
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(b->existed);
  EXPECT_EQ(a->id, b->id);
  // Another payload under a used id (a C1 re-run after a reorg changes the seed): another job.
  auto c = s.accept(job("synthetic", {2}, 0, "req-1"));
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_FALSE(c->existed);
  EXPECT_NE(c->id, a->id);
  auto c2 = s.accept(job("synthetic", {2}, 0, "req-1"));
  ASSERT_TRUE(c2.ok());
  EXPECT_EQ(c2->id, c->id);
  auto d = s.accept(job("synthetic", {1}, 0, "req-2"));
  ASSERT_TRUE(d.ok());
  EXPECT_NE(d->id, a->id);
  // Without a request id every accept is a new job.
  auto e = s.accept(job("synthetic", {1}));
  auto f = s.accept(job("synthetic", {1}));
  ASSERT_TRUE(e.ok() && f.ok());
  EXPECT_NE(e->id, f->id);
}

TYPED_TEST_P(JobStoreTest, ARetryAfterAFailureOrACancelIsANewAttemptAndAProvedJobIsKept) {
  // Curio retries a failed task with the same request id (issue 41).
  auto& s = *this->store_;
  const auto first = s.accept(job("synthetic", {1}, 0, "porep-1000-7"))->id;
  ASSERT_EQ(s.claim("m1", 1, 30s)->size(), 1u);
  Outcome failed;
  failed.state = JobState::kFailed;
  failed.error = "out of memory";
  ASSERT_TRUE(s.finish(first, "m1", failed).value());
  auto retry = s.accept(job("synthetic", {1}, 0, "porep-1000-7"));
  ASSERT_TRUE(retry.ok()) << retry.status().message();
  EXPECT_FALSE(retry->existed);
  EXPECT_NE(retry->id, first);
  // The failed attempt keeps its outcome; the retry is queued.
  auto old = s.lookup(first);
  ASSERT_TRUE(old.ok() && old->has_value());
  EXPECT_EQ((*old)->state, JobState::kFailed);
  EXPECT_EQ((*old)->outcome->error, "out of memory");
  EXPECT_EQ((*s.lookup(retry->id))->state, JobState::kQueued);
  // While the retry is queued, the same request names it.
  EXPECT_EQ(s.accept(job("synthetic", {1}, 0, "porep-1000-7"))->id, retry->id);
  // Cancelled: the next submit is a new attempt again.
  ASSERT_TRUE(s.cancel(retry->id, "cancelled by a client").value());
  auto third = s.accept(job("synthetic", {1}, 0, "porep-1000-7"));
  ASSERT_TRUE(third.ok());
  EXPECT_FALSE(third->existed);
  EXPECT_NE(third->id, retry->id);
  // Proved: the same request is answered with that job, never proved again.
  auto claimed = s.claim("m1", 1, 30s);
  ASSERT_EQ(claimed->size(), 1u);
  ASSERT_EQ((*claimed)[0].id, third->id);
  ASSERT_TRUE(s.finish(third->id, "m1", done({4})).value());
  auto again = s.accept(job("synthetic", {1}, 0, "porep-1000-7"));
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->existed);
  EXPECT_EQ(again->id, third->id);
  // A job failed for its attempts (its daemons died) is retried the same way.
  StoreLimits l;
  l.max_attempts = 1;
  this->reopen_with(l);
  auto& t = *this->store_;
  const auto lost = t.accept(job("synthetic", {5}, 0, "snap-1000-9"))->id;
  ASSERT_EQ(t.claim("m1", 1, 1ms)->size(), 1u);
  std::this_thread::sleep_for(20ms);
  EXPECT_TRUE(t.claim("m2", 1, 30s)->empty());
  ASSERT_EQ((*t.lookup(lost))->state, JobState::kFailed);
  auto after = t.accept(job("synthetic", {5}, 0, "snap-1000-9"));
  ASSERT_TRUE(after.ok());
  EXPECT_FALSE(after->existed);
  EXPECT_NE(after->id, lost);
}

TYPED_TEST_P(JobStoreTest, ClaimsHighestPriorityFirstThenOldestAndSkipsWhatItIsTold) {
  auto& s = *this->store_;
  const auto low = s.accept(job("a", {1}, 0))->id;
  const auto high = s.accept(job("b", {2}, 10))->id;
  const auto low2 = s.accept(job("c", {3}, 0))->id;
  auto c = s.claim("m1", 2, 30s, {high});
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->size(), 2u);
  EXPECT_EQ((*c)[0].id, low);
  EXPECT_EQ((*c)[1].id, low2);
  EXPECT_EQ((*c)[0].input, std::vector<std::uint8_t>{1});
  EXPECT_EQ((*c)[0].attempt, 1u);
  EXPECT_EQ((*c)[0].partitions, 2u);
  auto c2 = s.claim("m1", 5, 30s);
  ASSERT_TRUE(c2.ok());
  ASSERT_EQ(c2->size(), 1u);
  EXPECT_EQ((*c2)[0].id, high);
  EXPECT_EQ((*c2)[0].circuit, "b");
  EXPECT_EQ((*c2)[0].priority, 10);
  auto v = s.lookup(high);
  EXPECT_EQ((*v)->state, JobState::kRunning);
  EXPECT_EQ((*v)->owner, "m1");
  EXPECT_TRUE(s.claim("m2", 5, 30s)->empty());
}

TYPED_TEST_P(JobStoreTest, TheFirstOutcomeWinsAndLaterOnesAreDropped) {
  auto& s = *this->store_;
  const auto id = s.accept(job())->id;
  ASSERT_EQ(s.claim("m1", 1, 30s)->size(), 1u);
  auto w = s.finish(id, "m1", done({7, 7, 7}));
  ASSERT_TRUE(w.ok());
  EXPECT_TRUE(*w);
  auto again = s.finish(id, "m2", done({8}));
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
  auto v = s.lookup(id);
  ASSERT_TRUE(v->has_value());
  EXPECT_EQ((*v)->state, JobState::kDone);
  ASSERT_TRUE((*v)->outcome.has_value());
  const Outcome& o = *(*v)->outcome;
  EXPECT_EQ(o.proof, (std::vector<std::uint8_t>{7, 7, 7}));
  EXPECT_EQ(o.curve, "bn254");
  EXPECT_EQ(o.public_inputs, (std::vector<std::vector<std::string>>{{"1", "2"}, {"3"}}));
  EXPECT_EQ(o.timings_json, "[{\"synthesis_ms\":1}]");
  EXPECT_DOUBLE_EQ(o.total_ms, 12.5);
  EXPECT_EQ(o.finished_by, "m1");
  EXPECT_FALSE(s.cancel(id, "too late").value());
  auto lost = s.lost_claims("m1", {id});
  ASSERT_TRUE(lost.ok());
  EXPECT_EQ(*lost, std::vector<std::uint64_t>{id});
}

TYPED_TEST_P(JobStoreTest, CancelFinishesAnUnfinishedJobAndItsOwnerSeesItLost) {
  auto& s = *this->store_;
  const auto queued = s.accept(job("a", {1}))->id;
  const auto running = s.accept(job("b", {2}))->id;
  ASSERT_TRUE(s.cancel(queued, "cancelled by a client").value());
  auto c = s.claim("m1", 5, 30s);
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].id, running);
  EXPECT_TRUE(s.lost_claims("m1", {running})->empty());
  ASSERT_TRUE(s.cancel(running, "cancelled by a client").value());
  EXPECT_EQ(*s.lost_claims("m1", {running}), std::vector<std::uint64_t>{running});
  auto v = s.lookup(running);
  EXPECT_EQ((*v)->state, JobState::kCancelled);
  EXPECT_EQ((*v)->outcome->error, "cancelled by a client");
  EXPECT_FALSE(s.finish(running, "m1", done({1})).value());  // the owner's late result is dropped
}

TYPED_TEST_P(JobStoreTest, ReleaseQueuesTheJobAgainWithoutCountingTheAttempt) {
  auto& s = *this->store_;
  const auto id = s.accept(job())->id;
  ASSERT_EQ(s.claim("m1", 1, 30s)->size(), 1u);
  EXPECT_TRUE(s.release(id, "m2").ok());  // not m2's claim: nothing changes
  EXPECT_EQ((*s.lookup(id))->state, JobState::kRunning);
  ASSERT_TRUE(s.release(id, "m1").ok());
  auto v = s.lookup(id);
  EXPECT_EQ((*v)->state, JobState::kQueued);
  EXPECT_EQ((*v)->attempts, 0u);
  auto c = s.claim("m2", 1, 30s);
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].attempt, 1u);
}

TYPED_TEST_P(JobStoreTest, AnExpiredLeaseIsReclaimedWithItsReasonRecorded) {
  auto& s = *this->store_;
  const auto id = s.accept(job())->id;
  ASSERT_EQ(s.claim("m1", 1, 1ms)->size(), 1u);
  std::this_thread::sleep_for(20ms);  // the lease runs out
  auto c = s.claim("m2", 1, 30s);
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].id, id);
  EXPECT_EQ((*c)[0].attempt, 2u);
  auto v = s.lookup(id);
  EXPECT_EQ((*v)->owner, "m2");
  ASSERT_EQ((*v)->attempt_errors.size(), 1u);
  EXPECT_NE((*v)->attempt_errors[0].find("m1"), std::string::npos) << (*v)->attempt_errors[0];
  EXPECT_EQ(*s.lost_claims("m1", {id}), std::vector<std::uint64_t>{id});
  EXPECT_TRUE(s.lost_claims("m2", {id})->empty());
  // The slow first owner finishes first after all: its result stands, m2's is dropped.
  EXPECT_TRUE(s.finish(id, "m1", done({1})).value());
  EXPECT_FALSE(s.finish(id, "m2", done({2})).value());
  EXPECT_EQ((*s.lookup(id))->outcome->proof, std::vector<std::uint8_t>{1});
}

TYPED_TEST_P(JobStoreTest, HeartbeatsKeepALeaseAlive) {
  auto& s = *this->store_;
  const auto id = s.accept(job())->id;
  ASSERT_EQ(s.claim("m1", 1, 1ms)->size(), 1u);
  ASSERT_TRUE(s.heartbeat("m1", 60s).ok());
  std::this_thread::sleep_for(20ms);  // past the claim's own lease, not the renewed one
  EXPECT_TRUE(s.claim("m2", 1, 30s)->empty());
  EXPECT_EQ((*s.lookup(id))->owner, "m1");
  auto st = s.status();
  ASSERT_TRUE(st.ok());
  ASSERT_EQ(st->machines.size(), 1u);
  EXPECT_EQ(st->machines[0].owner, "m1");
  EXPECT_EQ(st->machines[0].jobs_running, 1u);
  EXPECT_EQ(st->running, 1u);
}

TYPED_TEST_P(JobStoreTest, AJobClaimedMaxAttemptsTimesFailsWithEveryReason) {
  StoreLimits l;
  l.max_attempts = 2;
  this->reopen_with(l);
  auto& s = *this->store_;
  const auto id = s.accept(job())->id;
  ASSERT_EQ(s.claim("m1", 1, 1ms)->size(), 1u);
  std::this_thread::sleep_for(20ms);
  ASSERT_EQ(s.claim("m2", 1, 1ms)->size(), 1u);
  std::this_thread::sleep_for(20ms);
  EXPECT_TRUE(s.claim("m3", 1, 30s)->empty());
  auto v = s.lookup(id);
  ASSERT_TRUE(v->has_value());
  EXPECT_EQ((*v)->state, JobState::kFailed);
  ASSERT_EQ((*v)->attempt_errors.size(), 2u);
  const std::string& why = (*v)->outcome->error;
  EXPECT_NE(why.find("m1"), std::string::npos) << why;
  EXPECT_NE(why.find("m2"), std::string::npos) << why;
  EXPECT_NE(why.find("max_attempts"), std::string::npos) << why;
}

TYPED_TEST_P(JobStoreTest, InputsAreStoredOnceAndDroppedWithTheirLastJob) {
  auto& s = *this->store_;
  const std::vector<std::uint8_t> big(1000, 7);
  const auto a = s.accept(job("a", big))->id;
  const auto b = s.accept(job("b", big))->id;
  EXPECT_EQ(s.status()->input_bytes, 1000u);
  ASSERT_EQ(s.claim("m1", 2, 30s)->size(), 2u);
  ASSERT_TRUE(s.finish(a, "m1", done({1})).value());
  EXPECT_EQ(s.status()->input_bytes, 1000u);  // b still needs it
  ASSERT_TRUE(s.finish(b, "m1", done({1})).value());
  ASSERT_TRUE(s.expire().ok());
  EXPECT_EQ(s.status()->input_bytes, 0u);
}

TYPED_TEST_P(JobStoreTest, LimitsAreRefusedWithResourceExhausted) {
  StoreLimits l;
  l.max_input_bytes = 100;
  l.max_unfinished_jobs = 2;
  this->reopen_with(l);
  auto& s = *this->store_;
  auto big = s.accept(job("a", std::vector<std::uint8_t>(101, 1)));
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(big.status().message().find("max_input_bytes"), std::string::npos);
  ASSERT_TRUE(s.accept(job("a", {1})).ok());
  ASSERT_TRUE(s.accept(job("a", {2})).ok());
  auto third = s.accept(job("a", {3}));
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(third.status().message().find("max_unfinished_jobs"), std::string::npos);
}

TYPED_TEST_P(JobStoreTest, FinishedJobsAreForgottenAfterTheirTtl) {
  StoreLimits l;
  l.result_ttl = 0s;
  this->reopen_with(l);
  auto& s = *this->store_;
  const auto id = s.accept(job("a", {1}, 0, "req"))->id;
  ASSERT_TRUE(s.cancel(id, "x").value());
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(s.lookup(id)->has_value());
  // The request id is free again: a new job.
  auto again = s.accept(job("a", {1}, 0, "req"));
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->existed);
  EXPECT_NE(again->id, id);
  ASSERT_TRUE(s.expire().ok());
  EXPECT_EQ(s.status()->cancelled, 0u);
}

TYPED_TEST_P(JobStoreTest, PastMaxKeptResultsTheOldestAreForgotten) {
  StoreLimits l;
  l.max_kept_results = 2;
  this->reopen_with(l);
  auto& s = *this->store_;
  std::vector<std::uint64_t> ids;
  for (std::uint8_t i = 0; i < 4; ++i) {
    ids.push_back(s.accept(job("a", {i}))->id);
    ASSERT_TRUE(s.cancel(ids.back(), "x").value());
    std::this_thread::sleep_for(5ms);  // distinct finishing times
  }
  const auto queued = s.accept(job("a", {9}))->id;
  ASSERT_TRUE(s.expire().ok());
  EXPECT_FALSE(s.lookup(ids[0])->has_value());
  EXPECT_FALSE(s.lookup(ids[1])->has_value());
  EXPECT_TRUE(s.lookup(ids[2])->has_value());
  EXPECT_TRUE(s.lookup(ids[3])->has_value());
  EXPECT_TRUE(s.lookup(queued)->has_value());  // unfinished jobs are never forgotten
}

TYPED_TEST_P(JobStoreTest, ConcurrentClaimersNeverShareAJob) {
  // Four claimers, each through its own connection where the store has connections.
  auto& s = *this->store_;
  constexpr int kJobs = 60;
  for (int i = 0; i < kJobs; ++i) ASSERT_TRUE(s.accept(job("a", {static_cast<std::uint8_t>(i)})).ok());
  std::vector<std::unique_ptr<JobStore>> extra;
  std::vector<JobStore*> stores;
  for (int t = 0; t < 4; ++t) {
    auto other = this->fixture_.open_another(this->limits_);
    if (other) {
      stores.push_back(other.get());
      extra.push_back(std::move(other));
    } else {
      stores.push_back(&s);
    }
  }
  const std::vector<std::string> owners = {"m0", "m1", "m2", "m3"};
  std::vector<std::vector<std::uint64_t>> got(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (;;) {
        auto c = stores[t]->claim(owners[t], 3, 30s);
        if (!c.ok() || c->empty()) return;
        for (auto& j : *c) got[t].push_back(j.id);
      }
    });
  }
  for (auto& th : threads) th.join();
  std::set<std::uint64_t> all;
  std::size_t n = 0;
  for (auto& g : got) {
    n += g.size();
    all.insert(g.begin(), g.end());
  }
  EXPECT_EQ(n, static_cast<std::size_t>(kJobs));
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kJobs));
}

TYPED_TEST_P(JobStoreTest, WaitForChangeWakesOnAccept) {
  auto& s = *this->store_;
  std::thread t([&] {
    std::this_thread::sleep_for(50ms);
    ASSERT_TRUE(s.accept(job()).ok());
  });
  // Bounded either way: the test checks that the call returns and the job is then claimable.
  s.wait_for_change(10s);
  t.join();
  EXPECT_EQ(s.claim("m1", 1, 30s)->size(), 1u);
}

REGISTER_TYPED_TEST_SUITE_P(JobStoreTest, AcceptedJobIsQueuedWithWhatTheClientAskedFor,
                            RequestIdIsIdempotentForTheSamePayloadOnly,
                            ARetryAfterAFailureOrACancelIsANewAttemptAndAProvedJobIsKept,
                            ClaimsHighestPriorityFirstThenOldestAndSkipsWhatItIsTold,
                            TheFirstOutcomeWinsAndLaterOnesAreDropped, CancelFinishesAnUnfinishedJobAndItsOwnerSeesItLost,
                            ReleaseQueuesTheJobAgainWithoutCountingTheAttempt,
                            AnExpiredLeaseIsReclaimedWithItsReasonRecorded, HeartbeatsKeepALeaseAlive,
                            AJobClaimedMaxAttemptsTimesFailsWithEveryReason,
                            InputsAreStoredOnceAndDroppedWithTheirLastJob, LimitsAreRefusedWithResourceExhausted,
                            FinishedJobsAreForgottenAfterTheirTtl, PastMaxKeptResultsTheOldestAreForgotten,
                            ConcurrentClaimersNeverShareAJob,
                            WaitForChangeWakesOnAccept);

INSTANTIATE_TYPED_TEST_SUITE_P(Sqlite, JobStoreTest, SqliteFixture);
INSTANTIATE_TYPED_TEST_SUITE_P(Postgres, JobStoreTest, PgFixture);

}  // namespace
}  // namespace zk::store
