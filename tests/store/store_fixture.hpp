#pragma once

// How the job store contract (job_store_test.cpp) opens each implementation: SQLite in a temporary
// directory; PostgreSQL in a fresh database on a server the test process starts (pg_server.hpp).
//   open(limits):         the store under test (a fresh, empty one per test);
//   open_another(limits): a second connection to the same store, or null where the store allows one
//                         process only (SQLite);
//   unavailable():        why the implementation cannot be tested here ("" when it can).

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>

#include "pg_server.hpp"
#include "store/pg_job_store.hpp"
#include "store/sqlite_job_store.hpp"

namespace zk::store {

class SqliteFixture {
 public:
  SqliteFixture() {
    char tmpl[] = "/tmp/zkpipe-store-XXXXXX";
    dir_ = ::mkdtemp(tmpl) ? tmpl : "";
  }
  ~SqliteFixture() {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  std::string unavailable() const { return dir_.empty() ? "cannot make a temporary directory" : ""; }
  std::string path() const { return dir_ + "/jobs.db"; }
  std::unique_ptr<JobStore> open(const StoreLimits& limits) {
    auto s = SqliteJobStore::open(path(), limits);
    return s.ok() ? std::unique_ptr<JobStore>(std::move(*s)) : nullptr;
  }
  std::unique_ptr<JobStore> open_another(const StoreLimits&) { return nullptr; }

 private:
  std::string dir_;
};

/// PostgreSQL: one server per test process (started by the first test that needs it, stopped at
/// exit), a fresh database per fixture, so that no test sees another's jobs or schema. Tests skip
/// where PostgreSQL is not installed; a server that is installed but will not start fails them.
class PgFixture {
 public:
  PgFixture() {
    if (why_ = server().unavailable(); !why_.empty()) return;
    if (!server().running()) {
      if (Status st = server().start(); !st.ok()) {
        error_ = st.message();
        return;
      }
    }
    static std::atomic<int> next{0};
    db_ = "zkpipe_test_" + std::to_string(::getpid()) + "_" + std::to_string(next++);
    // A name made here from numbers: nothing to quote.
    if (Status st = server().sql("postgres", "CREATE DATABASE " + db_); !st.ok()) error_ = st.message();
  }
  ~PgFixture() {
    // FORCE: a store a failed test left open does not keep the database.
    if (error_.empty() && !db_.empty() && server().running()) {
      (void)server().sql("postgres", "DROP DATABASE IF EXISTS " + db_ + " WITH (FORCE)");
    }
  }
  PgFixture(const PgFixture&) = delete;
  PgFixture& operator=(const PgFixture&) = delete;

  std::string unavailable() const { return why_; }
  /// Why the server or the database could not be made ("" when they were).
  const std::string& error() const { return error_; }
  std::string conninfo() const { return server().conninfo(db_); }
  const std::string& database() const { return db_; }
  std::unique_ptr<JobStore> open(const StoreLimits& limits) {
    if (!error_.empty()) {
      ADD_FAILURE() << error_;
      return nullptr;
    }
    auto s = PgJobStore::open(conninfo(), limits);
    if (!s.ok()) {
      ADD_FAILURE() << s.status().message();
      return nullptr;
    }
    return std::unique_ptr<JobStore>(std::move(*s));
  }
  /// Another daemon: its own connection to the same database.
  std::unique_ptr<JobStore> open_another(const StoreLimits& limits) { return open(limits); }

  /// The process's server (for tests that restart it or run SQL on it).
  static PgServer& server() {
    static PgServer s;
    return s;
  }

 private:
  std::string why_, error_, db_;
};

}  // namespace zk::store
