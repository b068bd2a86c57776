#pragma once

// The embedded job store (the daemon's default): one SQLite file in the state directory, WAL
// journal, every accept and outcome committed with synchronous=FULL (it survives a kill -9 and a
// power loss). One daemon per file: open() takes an exclusive lock beside it, and since no other
// process can hold a claim, the claims found at open (the previous process died holding them) end
// at once — each counted as an attempt — and their jobs are queued again.

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include "store/job_store.hpp"

struct sqlite3;

namespace zk::store {

class SqliteJobStore final : public JobStore {
 public:
  /// Opens (creating, or migrating to the current schema) the store at `path`.
  static Result<std::unique_ptr<SqliteJobStore>> open(const std::string& path, StoreLimits limits = {});
  ~SqliteJobStore() override;

  std::string describe() const override { return "sqlite:" + path_; }
  const StoreLimits& limits() const override { return limits_; }
  Result<Accepted> accept(const NewJob& job) override;
  Status heartbeat(const std::string& owner, std::chrono::milliseconds lease) override;
  Result<std::vector<ClaimedJob>> claim(const std::string& owner, std::size_t max_jobs, std::chrono::milliseconds lease,
                                        const std::vector<std::uint64_t>& skip = {}) override;
  Status release(std::uint64_t id, const std::string& owner) override;
  Result<bool> finish(std::uint64_t id, const std::string& owner, const Outcome& outcome) override;
  Result<bool> cancel(std::uint64_t id, const std::string& reason) override;
  Result<std::optional<JobView>> lookup(std::uint64_t id) override;
  Result<std::vector<std::uint64_t>> lost_claims(const std::string& owner,
                                                 const std::vector<std::uint64_t>& ids) override;
  Status expire() override;
  Result<QueueStatus> status() override;
  void wait_for_change(std::chrono::milliseconds timeout) override;

  /// Jobs that were running when the store was opened and were queued again (or failed: attempts).
  std::size_t recovered() const { return recovered_; }

 private:
  SqliteJobStore() = default;
  Status exec(const char* sql);
  Status migrate();
  Status recover();
  void changed();
  /// Ends expired claims (or, at open, every claim): queued again with `why`, or failed past
  /// max_attempts. Inside a transaction.
  Status end_claims(bool all, std::int64_t now_ms, const std::string& why_prefix);
  Result<bool> write_outcome(std::uint64_t id, const std::string& owner, const Outcome& outcome);

  std::string path_;
  StoreLimits limits_;
  sqlite3* db_ = nullptr;
  int lock_fd_ = -1;
  std::size_t recovered_ = 0;
  std::mutex m_;  // one connection, one statement at a time
  std::mutex change_m_;
  std::condition_variable change_cv_;
  std::uint64_t version_ = 0;  // under change_m_
};

}  // namespace zk::store
