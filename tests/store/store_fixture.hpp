#pragma once

// How the job store contract (job_store_test.cpp) opens each implementation.
//   open(limits):         the store under test (a fresh, empty one per test);
//   open_another(limits): a second connection to the same store, or null where the store allows one
//                         process only (SQLite);
//   unavailable():        why the implementation cannot be tested here ("" when it can).

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

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

}  // namespace zk::store
