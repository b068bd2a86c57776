// What only the PostgreSQL store does: several daemons on one database (accepting one request id at
// once, creating the schema at once, waking each other by NOTIFY), schema versions, describe()
// without the password, and reconnecting after the server restarted or dropped the connection.
// The contract every store keeps is job_store_test.cpp's, instantiated there for PostgreSQL too.

#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <atomic>
#include <latch>
#include <set>
#include <thread>

#include "store/pg_job_store.hpp"
#include "store/store_common.hpp"
#include "store_fixture.hpp"

namespace zk::store {
namespace {

using namespace std::chrono_literals;

NewJob job(std::string request_id, std::vector<std::uint8_t> input) {
  NewJob j;
  j.request_id = std::move(request_id);
  j.circuit = "synthetic";
  j.shape = "bn254-n8";
  j.input = std::move(input);
  return j;
}

/// A plain libpq connection, for what the store does not do itself: committing rows by hand,
/// reading its tables, ending its sessions.
class Raw {
 public:
  explicit Raw(const std::string& conninfo) : c_(PQconnectdb(conninfo.c_str())) {}
  ~Raw() { PQfinish(c_); }
  Raw(const Raw&) = delete;
  Raw& operator=(const Raw&) = delete;
  bool ok() const { return PQstatus(c_) == CONNECTION_OK; }
  /// Runs `sql` (fixed text, no values from outside the test); the first column of the first row.
  std::string query(const std::string& sql) {
    PGresult* r = PQexec(c_, sql.c_str());
    const auto st = PQresultStatus(r);
    EXPECT_TRUE(st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) << sql << ": " << PQerrorMessage(c_);
    std::string v = st == PGRES_TUPLES_OK && PQntuples(r) > 0 ? PQgetvalue(r, 0, 0) : "";
    PQclear(r);
    return v;
  }

 private:
  PGconn* c_;
};

class PgJobStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto why = f_.unavailable(); !why.empty()) GTEST_SKIP() << why;
    ASSERT_EQ(f_.error(), "");
  }
  std::unique_ptr<PgJobStore> open(const std::string& conninfo) {
    auto s = PgJobStore::open(conninfo);
    EXPECT_TRUE(s.ok()) << s.status().message();
    return s.ok() ? std::move(*s) : nullptr;
  }
  std::unique_ptr<PgJobStore> open() { return open(f_.conninfo()); }
  PgServer& server() { return PgFixture::server(); }

  PgFixture f_;
};

TEST_F(PgJobStoreTest, TwoDaemonsAcceptingOneRequestIdAtOnceGetOneJob) {
  auto a = open(), b = open();
  ASSERT_TRUE(a && b);
  for (int round = 0; round < 20; ++round) {
    const std::string same = "same-" + std::to_string(round), other = "other-" + std::to_string(round);
    Result<Accepted> ra = Status::internal("not run"), rb = Status::internal("not run");
    Result<Accepted> ca = Status::internal("not run"), cb = Status::internal("not run");
    std::latch go(2);
    std::thread ta([&] {
      go.arrive_and_wait();
      ra = a->accept(job(same, {1}));
      ca = a->accept(job(other, {1}));
    });
    std::thread tb([&] {
      go.arrive_and_wait();
      rb = b->accept(job(same, {1}));
      cb = b->accept(job(other, {2}));
    });
    ta.join();
    tb.join();
    // The same payload: one job, and exactly one of the two accepts created it.
    ASSERT_TRUE(ra.ok()) << ra.status().message();
    ASSERT_TRUE(rb.ok()) << rb.status().message();
    EXPECT_EQ(ra->id, rb->id);
    EXPECT_NE(ra->existed, rb->existed);
    // Different payloads under one request id: two jobs (the id is the client's label).
    ASSERT_TRUE(ca.ok() && cb.ok()) << ca.status().message() << " / " << cb.status().message();
    EXPECT_NE(ca->id, cb->id);
  }
  EXPECT_EQ(a->status()->queued, 60u);
}

TEST_F(PgJobStoreTest, TwoDaemonsReceivingTheRetryOfAFailedJobAtOnceStartOneAttempt) {
  auto a = open(), b = open();
  ASSERT_TRUE(a && b);
  for (int round = 0; round < 10; ++round) {
    const std::string id = "porep-1000-" + std::to_string(round);
    auto first = a->accept(job(id, {3}));
    ASSERT_TRUE(first.ok()) << first.status().message();
    auto claimed = a->claim("m1", 1, 30s);
    ASSERT_TRUE(claimed.ok());
    ASSERT_EQ(claimed->size(), 1u);
    Outcome failed;
    failed.state = JobState::kFailed;
    failed.error = "a transient failure";
    ASSERT_TRUE(a->finish(first->id, "m1", failed).value());
    Result<Accepted> ra = Status::internal("not run"), rb = Status::internal("not run");
    std::latch go(2);
    std::thread ta([&] {
      go.arrive_and_wait();
      ra = a->accept(job(id, {3}));
    });
    std::thread tb([&] {
      go.arrive_and_wait();
      rb = b->accept(job(id, {3}));
    });
    ta.join();
    tb.join();
    ASSERT_TRUE(ra.ok()) << ra.status().message();
    ASSERT_TRUE(rb.ok()) << rb.status().message();
    EXPECT_EQ(ra->id, rb->id);
    EXPECT_NE(ra->id, first->id);
    EXPECT_NE(ra->existed, rb->existed);
    // The retry is proved (the queue is empty for the next round).
    auto retried = b->claim("m2", 1, 30s);
    ASSERT_TRUE(retried.ok());
    ASSERT_EQ(retried->size(), 1u);
    EXPECT_EQ((*retried)[0].id, ra->id);
    ASSERT_TRUE(b->finish(ra->id, "m2", Outcome{}).value());
  }
  EXPECT_EQ(a->status()->done, 10u);
  EXPECT_EQ(a->status()->failed, 10u);
  EXPECT_EQ(a->status()->queued, 0u);
}

TEST_F(PgJobStoreTest, AnAcceptWaitingOnAnotherDaemonsUncommittedJobReturnsThatJob) {
  // The race above made certain: another daemon's insert of the request id is in flight (not
  // committed) when this accept looks it up, so the accept finds nothing and its insert must wait
  // for that commit, then read the winner's job.
  auto s = open();
  ASSERT_TRUE(s);
  const NewJob j = job("held", {4, 2});
  const std::string hash = detail::content_hash(j.input), digest = detail::payload_digest(j, hash);
  Raw other(f_.conninfo());
  ASSERT_TRUE(other.ok());
  other.query("BEGIN");
  other.query(
      "INSERT INTO zkpipe_jobs (id, request_id, digest, circuit, shape, priority, partitions, input_hash, "
      "input_size, state, accepted_at) VALUES (4242, 'held', '" +
      digest +
      "', 'synthetic', 'bn254-n8', 0, 1, "
      "NULL, 2, 'queued', now())");
  Result<Accepted> r = Status::internal("not run");
  std::thread t([&] { r = s->accept(j); });
  std::this_thread::sleep_for(100ms);  // let the accept reach its insert (if it is slower, it finds the row itself)
  other.query("COMMIT");
  t.join();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->id, 4242u);
  EXPECT_TRUE(r->existed);
  EXPECT_EQ(other.query("SELECT COUNT(*) FROM zkpipe_jobs"), "1");
  EXPECT_EQ(other.query("SELECT COUNT(*) FROM zkpipe_inputs"), "0");  // the loser's input went with its transaction
}

TEST_F(PgJobStoreTest, AnInputSharedByJobsThatDaemonsAcceptAndFinishAtOnceIsNeverLost) {
  // One daemon accepts jobs on the same input while another finishes them, which drops the input
  // with its last job: an accept must never commit a job whose input a finish just dropped.
  auto a = open(), b = open();
  ASSERT_TRUE(a && b);
  constexpr int kJobs = 60;
  std::atomic<int> accepted{0};
  std::thread acceptor([&] {
    for (int i = 0; i < kJobs; ++i) {
      if (!a->accept(job("", {7, 7, 7})).ok()) return;
      ++accepted;
    }
  });
  int finished = 0;
  Status failed;  // asserted once the acceptor is joined
  for (int spins = 0; failed.ok() && finished < kJobs && spins < 100 * kJobs; ++spins) {
    auto c = b->claim("m1", 1, 30s);
    if (!c.ok()) {
      failed = c.status();  // "lost its input"
      break;
    }
    for (const auto& j : *c) {
      EXPECT_EQ(j.input, (std::vector<std::uint8_t>{7, 7, 7}));
      if (auto w = b->finish(j.id, "m1", Outcome{}); !w.ok()) failed = w.status();
      ++finished;
    }
    if (c->empty()) std::this_thread::yield();
  }
  acceptor.join();
  ASSERT_TRUE(failed.ok()) << failed.message();
  EXPECT_EQ(accepted, kJobs);
  EXPECT_EQ(finished, kJobs);
  EXPECT_EQ(b->status()->input_bytes, 0u);
}

TEST_F(PgJobStoreTest, ExpiredClaimsEndOnceWhenDaemonsClaimAtOnce) {
  // Four daemons find the same expired claims at the same moment: each claim ends once (one reason
  // recorded, the attempt counted once) and each job goes to one daemon.
  constexpr int kJobs = 30, kDaemons = 4;
  std::vector<std::unique_ptr<PgJobStore>> daemons;
  for (int d = 0; d < kDaemons; ++d) {
    daemons.push_back(open());
    ASSERT_TRUE(daemons.back());
  }
  for (int i = 0; i < kJobs; ++i) ASSERT_TRUE(daemons[0]->accept(job("", {static_cast<std::uint8_t>(i)})).ok());
  ASSERT_EQ(daemons[0]->claim("dead", kJobs, 1ms)->size(), static_cast<std::size_t>(kJobs));
  std::this_thread::sleep_for(20ms);  // every lease runs out
  const std::vector<std::string> owners = {"m0", "m1", "m2", "m3"};
  std::vector<std::vector<std::uint64_t>> got(kDaemons);
  std::latch go(kDaemons);
  std::vector<std::thread> threads;
  for (int d = 0; d < kDaemons; ++d) {
    threads.emplace_back([&, d] {
      go.arrive_and_wait();
      for (;;) {
        auto c = daemons[d]->claim(owners[d], 2, 30s);
        if (!c.ok() || c->empty()) return;
        for (const auto& j : *c) got[d].push_back(j.id);
      }
    });
  }
  for (auto& t : threads) t.join();
  std::set<std::uint64_t> all;
  std::size_t n = 0;
  for (const auto& g : got) {
    n += g.size();
    all.insert(g.begin(), g.end());
  }
  EXPECT_EQ(n, static_cast<std::size_t>(kJobs));
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kJobs));
  for (const std::uint64_t id : all) {
    auto v = daemons[0]->lookup(id);
    ASSERT_TRUE(v.ok() && v->has_value());
    EXPECT_EQ((*v)->attempts, 2u);
    ASSERT_EQ((*v)->attempt_errors.size(), 1u);
    EXPECT_NE((*v)->attempt_errors[0].find("dead"), std::string::npos) << (*v)->attempt_errors[0];
  }
}

TEST_F(PgJobStoreTest, ThreeDaemonsStartingTogetherOnAnEmptySchemaAllOpenIt) {
  std::vector<Result<std::unique_ptr<PgJobStore>>> opened;
  for (int i = 0; i < 3; ++i) opened.emplace_back(Status::internal("not run"));
  std::latch go(3);
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i) {
    threads.emplace_back([&, i] {
      go.arrive_and_wait();
      opened[i] = PgJobStore::open(f_.conninfo());
    });
  }
  for (auto& t : threads) t.join();
  for (auto& o : opened) ASSERT_TRUE(o.ok()) << o.status().message();
  Raw raw(f_.conninfo());
  EXPECT_EQ(raw.query("SELECT string_agg(schema_version::text, ',') FROM zkpipe_meta"), "2");
  // And the schema works for all three.
  const auto id = (*opened[0])->accept(job("", {1}))->id;
  auto c = (*opened[2])->claim("m2", 1, 30s);
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].id, id);
}

TEST_F(PgJobStoreTest, AStoreFromANewerZkpipeIsRefused) {
  ASSERT_TRUE(open());
  Raw(f_.conninfo()).query("UPDATE zkpipe_meta SET schema_version = 99");
  auto s = PgJobStore::open(f_.conninfo());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("newer zkpipe"), std::string::npos) << s.status().message();
  EXPECT_NE(s.status().message().find("99"), std::string::npos) << s.status().message();
}

TEST_F(PgJobStoreTest, AVersionOneStoreIsMigratedWithItsJobs) {
  // A store as schema v1 left it (request_id UNIQUE), with a failed job under a request id.
  {
    auto s = open();
    ASSERT_TRUE(s);
    const auto id = s->accept(job("porep-1000-3", {7}))->id;
    ASSERT_EQ(s->claim("m1", 1, 30s)->size(), 1u);
    Outcome failed;
    failed.state = JobState::kFailed;
    ASSERT_TRUE(s->finish(id, "m1", failed).value());
  }
  Raw raw(f_.conninfo());
  raw.query("DROP INDEX zkpipe_jobs_live_request");
  raw.query("DROP INDEX zkpipe_jobs_by_request");
  raw.query("ALTER TABLE zkpipe_jobs ADD CONSTRAINT zkpipe_jobs_request_id_key UNIQUE (request_id)");
  raw.query("UPDATE zkpipe_meta SET schema_version = 1");
  auto s = open();
  ASSERT_TRUE(s);
  EXPECT_EQ(raw.query("SELECT string_agg(schema_version::text, ',') FROM zkpipe_meta"), "2");
  EXPECT_EQ(raw.query("SELECT count(*) FROM pg_constraint WHERE conname = 'zkpipe_jobs_request_id_key'"), "0");
  EXPECT_EQ(s->status()->failed, 1u);
  // The failed job's retry is a new attempt.
  auto retry = s->accept(job("porep-1000-3", {7}));
  ASSERT_TRUE(retry.ok()) << retry.status().message();
  EXPECT_FALSE(retry->existed);
  EXPECT_EQ(s->status()->queued, 1u);
}

TEST_F(PgJobStoreTest, DescribeNeverShowsThePassword) {
  const std::string dir = server().socket_dir(), port = PgServer::kPort, db = PgFixture::kDatabase;
  // Trust authentication: the server never asks for the password, so these connect.
  auto uri = open("postgresql://zkpipe:s3cret-pw@/" + db + "?host=" + dir + "&port=" + port +
                  "&options=-csearch_path%3D" + f_.schema());
  ASSERT_TRUE(uri);
  EXPECT_EQ(uri->describe().find("s3cret"), std::string::npos) << uri->describe();
  EXPECT_EQ(uri->describe(), "postgresql://zkpipe@/" + db + "?host=" + dir + "&port=" + port);
  auto keywords = open("host=" + dir + " port=" + port + " user=zkpipe password=s3cret-pw dbname=" + db +
                       " options=-csearch_path=" + f_.schema());
  ASSERT_TRUE(keywords);
  EXPECT_EQ(keywords->describe().find("s3cret"), std::string::npos) << keywords->describe();
  EXPECT_NE(keywords->describe().find(db), std::string::npos) << keywords->describe();
  // Nor do the errors.
  auto missing = PgJobStore::open("postgresql://zkpipe:s3cret-pw@/no_such_db?host=" + dir + "&port=" + port);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(missing.status().message().rfind("job store postgresql://zkpipe@/no_such_db", 0), 0u)
      << missing.status().message();
  EXPECT_EQ(missing.status().message().find("s3cret"), std::string::npos) << missing.status().message();
  auto garbled = PgJobStore::open("postgresql://zkpipe:s3cret-pw@/db?nonsense=1");
  ASSERT_FALSE(garbled.ok());
  EXPECT_EQ(garbled.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(garbled.status().message().find("s3cret"), std::string::npos) << garbled.status().message();
}

TEST_F(PgJobStoreTest, ACallAfterTheDatabaseRestartedReconnectsAndFindsTheJobs) {
  auto s = open();
  ASSERT_TRUE(s);
  const auto id = s->accept(job("", {1}))->id;
  s->wait_for_change(10ms);  // its LISTEN connection, which the restart cuts too
  // Down: the call tries to reconnect once and reports the server's refusal.
  ASSERT_TRUE(server().stop().ok());
  auto down = s->lookup(id);
  ASSERT_FALSE(down.ok());
  EXPECT_EQ(down.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(down.status().message().rfind("job store postgresql://", 0), 0u) << down.status().message();
  s->wait_for_change(50ms);  // polls, bounded, while no LISTEN connection can be had
  // Back: the next call reconnects (the connection known broken).
  ASSERT_TRUE(server().start().ok());
  auto v = s->lookup(id);
  ASSERT_TRUE(v.ok()) << v.status().message();
  ASSERT_TRUE(v->has_value());
  EXPECT_EQ((*v)->state, JobState::kQueued);
  // Restarted between two calls, unnoticed: the call finds the connection lost, reconnects, runs again.
  ASSERT_TRUE(server().stop().ok());
  ASSERT_TRUE(server().start().ok());
  auto c = s->claim("m1", 5, 30s);
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].id, id);
  EXPECT_EQ((*c)[0].input, std::vector<std::uint8_t>{1});
  s->wait_for_change(10ms);  // bounded on a cut LISTEN connection
  EXPECT_TRUE(s->finish(id, "m1", Outcome{}).value());
}

TEST_F(PgJobStoreTest, AConnectionTheServerEndedIsReconnected) {
  auto s = open();
  ASSERT_TRUE(s);
  const auto id = s->accept(job("", {1}))->id;
  Raw admin(f_.conninfo());
  admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
      "WHERE datname = current_database() AND pid <> pg_backend_pid()");
  auto v = s->lookup(id);
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_TRUE(v->has_value());
}

TEST_F(PgJobStoreTest, WaitForChangeWakesWhenAnotherDaemonAccepts) {
  auto a = open(), b = open();
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(a->notifies());
  std::atomic<bool> woke{false};
  std::thread waiter([&] {
    a->wait_for_change(60s);  // longer than the accepts below go on: only a NOTIFY ends it in time
    woke = true;
  });
  // b accepts until a wakes: the first accepts may come before a's LISTEN is in place.
  for (int i = 0; i < 300 && !woke; ++i) {
    auto r = b->accept(job("", {static_cast<std::uint8_t>(i)}));
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (!r.ok()) break;
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(woke) << "a waiting store did not wake on another store's accepts (NOTIFY)";
  waiter.join();
}

TEST_F(PgJobStoreTest, ANameThePostgresCannotStoreIsAnInvalidArgument) {
  // PostgreSQL's text holds no NUL byte (SQLite's does): the client's request is refused, the store
  // stays usable.
  auto s = open();
  ASSERT_TRUE(s);
  NewJob j = job("", {1});
  j.circuit = std::string("bad\0name", 8);
  auto r = s->accept(j);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << r.status().message();
  EXPECT_TRUE(s->accept(job("", {1})).ok());
}

}  // namespace
}  // namespace zk::store
