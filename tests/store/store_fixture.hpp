#pragma once

// How the job store contract (job_store_test.cpp) opens each implementation: SQLite in a temporary
// directory; PostgreSQL in a fresh database on a server the test process starts (pg_server.hpp).
//   open(limits):         the store under test (a fresh, empty one per test);
//   open_another(limits): a second connection to the same store, or null where the store allows one
//                         process only (SQLite);
//   unavailable():        why the implementation cannot be tested here ("" when it can).

#include <gtest/gtest.h>
#include <unistd.h>

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
/// exit), and a fresh schema per fixture in its database (the connection's search_path), so that
/// no test sees another's tables or jobs. (A schema is made in a millisecond; CREATE DATABASE takes
/// 150 ms, for each test since ctest runs each in its own process.) Tests skip where PostgreSQL is
/// not installed; a server that is installed but will not start fails them.
class PgFixture {
 public:
  static constexpr const char* kDatabase = "postgres";  // initdb's; the server is the test's alone

  PgFixture() {
    if (why_ = server().unavailable(); !why_.empty()) return;
    if (!server().running()) {
      if (Status st = server().start(); !st.ok()) {
        error_ = st.message();
        return;
      }
    }
    static int next = 0;
    schema_ = "zkpipe_test_" + std::to_string(next++);
    // A name made here from a number: nothing to quote.
    if (Status st = server().sql(kDatabase, "CREATE SCHEMA " + schema_); !st.ok()) error_ = st.message();
  }
  ~PgFixture() {
    if (error_.empty() && !schema_.empty() && server().running()) {
      (void)server().sql(kDatabase, "DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    }
  }
  PgFixture(const PgFixture&) = delete;
  PgFixture& operator=(const PgFixture&) = delete;

  std::string unavailable() const { return why_; }
  /// Why the server or the schema could not be made ("" when they were).
  const std::string& error() const { return error_; }
  /// The test's schema, the only one on the connection's search_path.
  const std::string& schema() const { return schema_; }
  std::string conninfo() const { return server().conninfo(kDatabase) + "&options=-csearch_path%3D" + schema_; }
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
  std::string why_, error_, schema_;
};

}  // namespace zk::store
