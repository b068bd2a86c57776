#pragma once

// Between the job store and the engine (docs/cluster.md). Every job the daemon accepts is first
// written to the store (durable from then on); the dispatcher claims jobs from the store when the
// engine has room — the ones this daemon accepted, a dead daemon's, or, with a shared PostgreSQL
// queue, any daemon's — and submits them to the engine under their store ids; it writes each
// engine result back as the job's one outcome, renews its claims by heartbeat, and stops work on
// claims it lost (cancelled by a client, or its lease ran out and another daemon proved the job).
//
// Two threads: the claimer (waits for the store to change; heartbeats, claims, expires) and the
// recorder (waits for the engine to change; writes outcomes).

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "base/status.hpp"
#include "engine/engine.hpp"
#include "server/registry.hpp"
#include "store/job_store.hpp"

namespace zk::server {

struct DispatchOptions {
  /// This daemon's name in the store (claims, heartbeats, `zkpipe status`): host:pid:random.
  std::string owner;
  /// A claim not renewed for this long is taken over by another daemon.
  std::chrono::milliseconds lease{std::chrono::seconds(60)};
  std::chrono::milliseconds heartbeat{std::chrono::seconds(10)};
  /// Longest sleep between looks at the store when nothing wakes the claimer (NOTIFY is optional).
  std::chrono::milliseconds poll{std::chrono::milliseconds(500)};
  /// Claims stop while this many partitions wait in the engine's own queue (a shared queue leaves
  /// the rest to other daemons); 0: no limit — the embedded store's default, where this daemon is
  /// the only one.
  std::size_t claim_partitions = 0;
  std::size_t max_active_jobs = 1000;  // the engine's unfinished jobs (daemon.max_active_jobs)
};

/// host:pid:8 random hex digits.
std::string default_owner();

class Dispatcher {
 public:
  Dispatcher(engine::Engine& engine, WorkloadRegistry& registry, store::JobStore& store, DispatchOptions options);
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  /// Validates the job here (a clear error at submit, never a failed job) and records it in the
  /// store. `job.circuit` / `job.shape` are the engine's (resolved); `circuit` / `shape` the
  /// client's names, which the store keeps so that any daemon can resolve them.
  Result<store::Accepted> accept(const std::string& circuit, const std::string& shape, engine::JobRequest job);

  /// A job for a waiter: its result once over; nullopt while it is queued or running (here or on
  /// another daemon); NOT_FOUND when unknown or forgotten.
  Result<std::optional<engine::JobResult>> poll(std::uint64_t id, bool public_inputs);

  /// Cancels an unfinished job wherever it runs: true if it was unfinished; NOT_FOUND if unknown.
  Result<bool> cancel(std::uint64_t id);

  /// Draining: no more claims.
  void pause_claims() { paused_ = true; }
  /// After the engine has shut down: writes what finished, gives the claims of jobs the shutdown
  /// cancelled back to the store (they resume on the next daemon that serves the queue), joins.
  /// `release_running`: the engine's shutdown gave up on a stage under way (the process is about to
  /// end): the claims of jobs still inside a stage are given back too.
  void stop(bool release_running = false);

  const std::string& owner() const { return opt_.owner; }
  store::JobStore& store() { return store_; }

 private:
  void claim_loop();
  void record_loop();
  /// One claim round: as many jobs as the engine has room for.
  void claim_round();
  /// Writes the outcome of every claimed job the engine has finished; with `final`, releases the
  /// ones the engine's shutdown cancelled.
  void record_round(bool final, bool release_running = false);
  void drop_lost_claims();
  /// Logs a store failure (rate-limited while the store stays down) / its recovery.
  void store_failed(const std::string& what, const Status& s);
  void store_ok();

  engine::Engine& engine_;
  WorkloadRegistry& registry_;
  store::JobStore& store_;
  DispatchOptions opt_;
  std::atomic<bool> paused_{false}, stop_{false};

  std::mutex m_;
  std::set<std::uint64_t> claimed_;    // in the engine under our claim, outcome not yet written
  std::set<std::uint64_t> submitting_;  // claimed_ ids whose engine_.submit has not returned yet
  std::set<std::uint64_t> validated_;  // accepted here and validated: the engine need not again
  std::map<std::uint64_t, std::chrono::steady_clock::time_point> skip_;  // cannot take here, until
  std::map<std::uint64_t, std::chrono::steady_clock::time_point> looked_;  // poll: last store lookup
  std::thread claimer_, recorder_;
  std::mutex log_m_;
  bool store_down_ = false;  // under log_m_
  std::uint64_t store_failures_ = 0;
  std::chrono::steady_clock::time_point last_store_warning_;
};

}  // namespace zk::server
