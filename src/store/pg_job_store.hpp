#pragma once

// The fleet's job store: one PostgreSQL database (or YugabyteDB) shared by every daemon, so that
// any daemon accepts a job and any daemon proves it. The semantics are SqliteJobStore's; what
// differs is what a fleet needs:
//   - every lease is timed by the database server's clock (clock_timestamp()), so daemons whose
//     clocks disagree still agree on whose lease ran out;
//   - claims take rows with FOR UPDATE SKIP LOCKED, so concurrent claimers never share a job;
//   - a request id is unique over the fleet (a unique index, INSERT ... ON CONFLICT);
//   - a change NOTIFYs the channel zkpipe_jobs, which wait_for_change() LISTENs to on a second
//     connection (where the server refuses LISTEN/NOTIFY, as YugabyteDB does by default, it polls);
//   - no claims end at open: another daemon may hold them; a dead daemon's claims end when their
//     lease runs out (the attempt counted, as in SqliteJobStore).
// The schema (tables named zkpipe_*) is created and migrated by open(), versioned in zkpipe_meta,
// under an advisory lock so that daemons starting together do not race.
//
// One connection, one statement at a time (a mutex): the daemon makes one store. A call that finds
// the connection broken (the server restarted, a network cut) reconnects once and runs again;
// failing that, it returns UNAVAILABLE with the server's message.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "store/job_store.hpp"

struct pg_conn;  // libpq's PGconn

namespace zk::store {

class PgJobStore final : public JobStore {
 public:
  /// Connects to `conninfo` (a libpq URI, "postgresql://user@host:5432/zkpipe", or keyword form,
  /// "host=/run/postgresql dbname=zkpipe") and creates or migrates the schema.
  static Result<std::unique_ptr<PgJobStore>> open(const std::string& conninfo, StoreLimits limits = {});
  ~PgJobStore() override;
  PgJobStore(const PgJobStore&) = delete;
  PgJobStore& operator=(const PgJobStore&) = delete;

  /// "postgresql://user@host:port/db" (never the password).
  std::string describe() const override { return describe_; }
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

  /// Whether this server takes NOTIFY (false on YugabyteDB unless ysql_yb_enable_listen_notify is
  /// set: the daemons then find each other's jobs by polling alone).
  bool notifies() const { return notify_; }

 private:
  PgJobStore() = default;
  /// Runs `body` (which returns Status or Result<T>) on the connection under m_, reconnecting once
  /// and running it again when the connection was lost.
  template <class R, class F>
  R call(const char* what, F&& body);
  Status reconnect();
  Status migrate();
  void changed();
  /// The LISTEN connection, connected (without blocking past `deadline`) and listening; false when
  /// none could be had (wait_for_change then sleeps on changes in this process only).
  bool start_listening(std::chrono::steady_clock::time_point deadline);
  void drop_listener(std::chrono::milliseconds retry_after);

  std::string conninfo_, describe_;
  StoreLimits limits_;
  bool notify_ = true;
  pg_conn* conn_ = nullptr;
  std::mutex m_;  // conn_: one statement at a time

  // wait_for_change: one caller at a time polls the LISTEN connection; others wait on change_cv_,
  // which the poller and this process's changes signal.
  std::mutex listen_m_;
  pg_conn* listener_ = nullptr;                         // under listen_m_
  std::chrono::steady_clock::time_point listen_retry_;  // under listen_m_: no new LISTEN connection before
  int wake_fd_ = -1;                                    // eventfd: this process's changes wake the poller
  std::mutex change_m_;
  std::condition_variable change_cv_;
  std::uint64_t version_ = 0;  // under change_m_
};

}  // namespace zk::store
