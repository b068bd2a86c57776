// What only the embedded store does: one daemon per file, and recovery of a dead daemon's claims.

#include <gtest/gtest.h>

#include <sqlite3.h>

#include "store/sqlite_job_store.hpp"
#include "store_fixture.hpp"

namespace zk::store {
namespace {

using namespace std::chrono_literals;

NewJob job(std::uint8_t b) {
  NewJob j;
  j.circuit = "synthetic";
  j.shape = "bn254-n8";
  j.input = {b};
  return j;
}

TEST(SqliteJobStore, ASecondDaemonOnTheSameFileIsRefusedWithAClearError) {
  SqliteFixture f;
  auto a = SqliteJobStore::open(f.path());
  ASSERT_TRUE(a.ok()) << a.status().message();
  auto b = SqliteJobStore::open(f.path());
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), StatusCode::kAlreadyExists);
  EXPECT_NE(b.status().message().find("another zkpipe daemon"), std::string::npos) << b.status().message();
}

TEST(SqliteJobStore, JobsAndResultsSurviveReopening) {
  SqliteFixture f;
  std::uint64_t queued = 0, finished = 0;
  {
    auto s = SqliteJobStore::open(f.path());
    ASSERT_TRUE(s.ok());
    queued = (*s)->accept(job(1))->id;
    finished = (*s)->accept(job(2))->id;
    Outcome o;
    o.state = JobState::kFailed;
    o.error = "bad input";
    ASSERT_TRUE((*s)->finish(finished, "m1", o).value());
  }
  auto s = SqliteJobStore::open(f.path());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)->recovered(), 0u);
  EXPECT_EQ((*(*s)->lookup(queued))->state, JobState::kQueued);
  auto v = (*s)->lookup(finished);
  EXPECT_EQ((*v)->state, JobState::kFailed);
  EXPECT_EQ((*v)->outcome->error, "bad input");
  auto c = (*s)->claim("m2", 5, 30s);
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].input, std::vector<std::uint8_t>{1});
}

TEST(SqliteJobStore, ClaimsOfADeadDaemonAreQueuedAgainWhenTheStoreReopens) {
  SqliteFixture f;
  std::uint64_t id = 0;
  {
    auto s = SqliteJobStore::open(f.path());
    id = (*s)->accept(job(1))->id;
    ASSERT_EQ((*s)->claim("old-daemon", 1, 1h)->size(), 1u);
  }  // closed while the claim is held: as after a kill -9
  auto s = SqliteJobStore::open(f.path());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)->recovered(), 1u);
  auto v = (*s)->lookup(id);
  EXPECT_EQ((*v)->state, JobState::kQueued);
  ASSERT_EQ((*v)->attempt_errors.size(), 1u);
  EXPECT_NE((*v)->attempt_errors[0].find("old-daemon"), std::string::npos);
  auto c = (*s)->claim("new-daemon", 1, 1h);
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].attempt, 2u);
}

TEST(SqliteJobStore, AStoreFromANewerZkpipeIsRefused) {
  SqliteFixture f;
  { ASSERT_TRUE(SqliteJobStore::open(f.path()).ok()); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(f.path().c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto s = SqliteJobStore::open(f.path());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("newer zkpipe"), std::string::npos) << s.status().message();
}

TEST(SqliteJobStore, AFileThatIsNotADatabaseIsAClearError) {
  SqliteFixture f;
  {
    FILE* fp = std::fopen(f.path().c_str(), "wb");
    ASSERT_NE(fp, nullptr);
    std::fputs("this is not a database, just some text long enough to fill a header page.........", fp);
    std::fclose(fp);
  }
  auto s = SqliteJobStore::open(f.path());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find(f.path()), std::string::npos) << s.status().message();
}

}  // namespace
}  // namespace zk::store
