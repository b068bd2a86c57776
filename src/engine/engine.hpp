#pragma once

// The proving engine: jobs become partitions that flow through
//   scheduler (priority, job age, partition index) -> budget reservation -> synthesis workers
//   -> bounded channel -> prover workers (prove_start) -> finalizer workers (prove_finish)
//   -> job assembly (partition order) -> result,
// with every stage owned by the engine (no process-wide pools). A partition reserves its whole
// working set before synthesis starts and keeps it, counted, while it waits for the channel; the
// a/b/c part goes back when prove_start is done, the rest when prove_finish is. The buffer ledger
// records every move. Cancel drops queued partitions at once and in-flight ones at their next
// stage boundary, releasing their memory. docs/engine.md has the picture and the rules.

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/status.hpp"
#include "engine/budget.hpp"
#include "engine/engine_config.hpp"
#include "engine/ledger.hpp"
#include "engine/workload.hpp"

namespace zk::engine {


/// One stage of one partition on one worker, for the trace.
struct TraceSpan {
  std::string worker;  // "synthesis-0", "prover-1", ...
  std::string stage;   // "synthesis", "channel wait", "prove_start", "prove_finish"
  std::uint64_t job = 0;
  std::size_t partition = 0;
  double start_us = 0, duration_us = 0;  // from the engine's start
};

enum class JobState { kQueued, kRunning, kDone, kFailed, kCancelled };
const char* job_state_name(JobState s);

struct PartitionTimings {
  double queue_ms = 0, synthesis_ms = 0, channel_ms = 0, prove_ms = 0, finalize_ms = 0, verify_ms = 0;
};

struct JobResult {
  std::uint64_t id = 0;
  JobState state = JobState::kQueued;
  std::vector<std::uint8_t> proof;  // partition proofs concatenated, in partition order
  std::string error;                // for kFailed / kCancelled: which partition, which stage, why
  std::vector<PartitionTimings> partitions;
  double total_ms = 0;
  std::string circuit;
  std::size_t partition_count = 0;
  std::string curve;  // the workload's ("bls12-381" or "bn254")
  /// Per partition, decimal (only when asked for, and only for finished jobs).
  std::vector<std::vector<std::string>> public_inputs;
};

/// What a worker is doing now (job 0: idle).
struct WorkerInfo {
  std::string name;  // "synthesis-0", "prover-0", "finalizer-0"
  std::uint64_t job = 0;
  std::size_t partition = 0;
  std::string circuit;
  double busy_ms = 0;  // in the current stage
  double busy_total_s = 0;  // in stages since the engine started, the current one included
};
/// Jobs and partitions of one circuit kind.
struct KindInfo {
  std::size_t jobs_queued = 0, jobs_running = 0, partitions_queued = 0;
};

/// Jobs of one circuit kind that ended since the engine started, by how (Prometheus counters).
struct KindTotals {
  std::uint64_t done = 0, failed = 0, cancelled = 0;
};

/// What synthesized partitions of one circuit kind and shape held once synthesis ended: the most
/// a/b and witness bytes (their real, compact size; the working set's bounds are larger).
struct HeldAfterSynthesis {
  std::uint64_t abc = 0, aux = 0;
};

struct EngineStatus {
  std::uint64_t budget_total = 0, budget_used = 0, budget_high_water = 0;
  /// Of budget_used: the prove-start room, held for the prover workers (docs/engine.md).
  std::uint64_t budget_room = 0;
  double uptime_s = 0;
  std::vector<WorkerInfo> workers;
  std::map<std::string, KindInfo> kinds;
  std::map<std::string, KindTotals> kind_totals;
  std::uint64_t rss_bytes = 0, rss_peak_bytes = 0;  // /proc/self/status VmRSS and VmHWM
  LedgerSnapshot ledger;
  std::size_t jobs_active = 0, jobs_kept = 0, partitions_queued = 0;
  std::uint64_t jobs_submitted = 0, jobs_done = 0, jobs_failed = 0, jobs_cancelled = 0;
  /// Keyed "kind/shape" (`zkpipe bench --json` reports it; the planner's profile reads it).
  std::map<std::string, HeldAfterSynthesis> held_after_synthesis;
};

class Engine {
 public:
  Engine(EngineConfig config, std::map<std::string, std::shared_ptr<Workload>> workloads);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// Registers (or replaces) the workload for a circuit kind.
  void add_workload(const std::string& kind, std::shared_ptr<Workload> workload);
  /// A new job id, or the existing one for a repeated request id with the same payload. With
  /// job.id set, the job gets that id (ALREADY_EXISTS if the engine holds a job with it).
  Result<std::uint64_t> submit(JobRequest job);
  /// What submit checks before queueing, without queueing: the kind is known, the partition count
  /// allowed, the workload accepts the input and one partition fits the whole budget.
  Status validate(const JobRequest& job);
  /// The partition count the kind's workload reads off this input (Workload::partitions_of); 0
  /// when it has no opinion or the kind is unknown.
  std::size_t partitions_of(const JobRequest& job);
  /// The registered proof the kind's workload reads off this input (Workload::registered_proof_of).
  std::optional<std::uint64_t> registered_proof_of(const JobRequest& job);
  /// The finished job; DEADLINE_EXCEEDED if it is still running after `timeout`, NOT_FOUND if
  /// unknown or forgotten. With `public_inputs`, a finished job's public inputs (computed by the
  /// finalizer with each partition's proof) are copied into the result, for clients that verify.
  Result<JobResult> await(std::uint64_t id, std::chrono::milliseconds timeout, bool public_inputs = false);
  /// Cancels a queued or running job (a finished one is left as it is).
  Status cancel(std::uint64_t id);
  /// Drops a finished job's result now, before its TTL (its outcome is kept elsewhere: the
  /// daemon's job store). True if there was one; a job still running is left alone.
  bool forget(std::uint64_t id);
  /// A counter that moves whenever a job may have become ready for await(); blocks until it differs
  /// from `seen` or `timeout` passes and returns its value. Lets one watcher thread answer many
  /// waiters (the daemon's AwaitProof) without a thread per waiter.
  std::uint64_t wait_for_change(std::uint64_t seen, std::chrono::milliseconds timeout);
  EngineStatus status();
  const EngineConfig& config() const { return config_; }
  /// Most finished jobs kept for await() at once: past it the oldest are forgotten before their
  /// result_ttl (each keeps its proofs and public inputs: ~0.1-110 KB per partition).
  std::size_t max_kept_jobs = 10000;
  /// Most bytes the inputs of unfinished jobs may hold together: EngineConfig::max_input_bytes, or
  /// its default (a quarter of the budget, at least 1 MiB).
  std::uint64_t input_cap() const;
  /// Bytes the inputs of unfinished jobs hold now (what input_cap bounds).
  std::uint64_t held_input_bytes();
  /// Stops accepting jobs, cancels what is left, joins the workers. Idempotent. A worker inside a
  /// stage finishes that stage first; with `stage_bound`, the wait ends after it: false means some
  /// worker is still inside a stage (the engine must then not be destroyed — the daemon exits the
  /// process instead).
  bool shutdown(std::chrono::milliseconds stage_bound = std::chrono::milliseconds::max());
  /// A metrics snapshot in Prometheus text format (jobs, partitions, stage latency histograms,
  /// ledger, budget).
  std::string prometheus_text();
  /// The recorded spans (config.trace) as Chrome trace-event JSON, one track per worker.
  std::string chrome_trace_json();
  /// The recorded spans themselves (start times from the engine's construction).
  std::vector<TraceSpan> trace_spans();
  /// The last kRecentSpans spans, recorded whether or not config.trace is set (the daemon's status
  /// page draws them), and the engine's clock in the spans' terms (µs since its construction).
  static constexpr std::size_t kRecentSpans = 512;
  std::vector<TraceSpan> recent_spans();
  double now_us() const;
  /// The budget and ledger, shared with a ParamsCache so parameters compete for the same bytes.
  MemoryBudget& budget() { return budget_; }
  /// Registers a cache of keys that share the budget (ParamsCache::evict_one_unused_except): a
  /// partition whose reservation does not fit evicts unused keys, except its own (Workload::key_id),
  /// before it waits for partitions in flight; with none in flight, its own key too. Without it, keys
  /// nobody uses could keep a partition waiting for ever when none is in flight. Returns a handle for
  /// remove_key_evictor, which the cache's owner calls before the cache goes away.
  std::uint64_t add_key_evictor(std::function<bool(const std::string& keep)> evict_one_unused_except);
  /// Unregisters an evictor; once it returns, the engine no longer calls it.
  void remove_key_evictor(std::uint64_t handle);
  BufferLedger& ledger() { return ledger_; }

 private:
  struct Job;
  struct Task;
  using Clock = std::chrono::steady_clock;

  /// The kind's workload after submit's checks (validation itself only with `validate`); *ws: the
  /// job's per-partition working set.
  Result<std::shared_ptr<Workload>> checked_workload(const JobRequest& req, WorkingSet* ws, bool validate);
  void scheduler_loop();
  void synthesis_loop(std::string name, bool urgent_worker);
  void prover_loop(std::string name);
  void finalizer_loop(std::string name);
  void span(const std::string& worker, const char* stage, const Task& t, Clock::time_point begin,
            Clock::time_point end);
  bool job_alive(const Job& j) const;
  void fail_job(Job& j, const std::string& why, JobState state);
  void drop_task(std::unique_ptr<Task> t, Stage at);
  void complete_partition(std::unique_ptr<Task> t, std::vector<std::uint8_t> proof,
                          std::vector<std::string> public_inputs);
  void forget_expired();
  void release_input(Job& j);
  /// The a/b bytes a partition of `j` reserves at admission: the workload's bound, or less once
  /// partitions of the same circuit and shape have shown what they hold. Caller holds m_.
  std::uint64_t abc_estimate(const Job& j) const;
  /// Gives back the part of the prove-start room that no live job needs any more. Caller holds m_.
  void fit_room();
  /// budget_.reserve, after evicting unused cached keys other than `keep` while the bytes do not fit.
  Result<Reservation> reserve_evicting(std::uint64_t bytes, const std::string& keep,
                                       const std::function<bool()>& abandon, const std::string& what);

  EngineConfig config_;
  std::map<std::string, std::shared_ptr<Workload>> workloads_;
  MemoryBudget budget_;
  BufferLedger ledger_;

  std::mutex m_;
  std::condition_variable sched_cv_, synth_cv_, channel_cv_, final_cv_, done_cv_;
  std::atomic<bool> stopping_{false};
  std::uint64_t next_seq_ = 0, held_input_bytes_ = 0;
  std::map<std::uint64_t, std::shared_ptr<Job>> jobs_;
  std::map<std::string, std::uint64_t> by_request_id_;  // request id '\0' payload digest -> its latest job
  void forget_request_id(const Job& j);
  std::shared_ptr<Workload> workload_for(const std::string& kind);  // null when unknown
  struct QueueKey {
    int neg_priority;
    std::uint64_t seq;
    std::size_t partition;
    std::uint64_t job;
    auto operator<=>(const QueueKey&) const = default;
  };
  std::set<QueueKey> queue_;
  std::size_t synth_idle_ = 0;
  std::size_t urgent_idle_ = 0;  // urgent synthesis workers waiting for work
  std::condition_variable threads_cv_;
  std::size_t live_threads_ = 0;  // worker loops not yet returned (under m_)
  std::atomic<std::uint32_t> faults_injected_{0};  // of config_.test_fail_syntheses
  std::atomic<std::size_t> admitted_{0};  // partitions holding a reservation (their tasks alive)
  // Urgent jobs submitted so far: the scheduler, waiting for memory for other work, gives way when
  // it changes (the partition goes back to the queue, the urgent one is admitted first).
  std::atomic<std::uint64_t> urgent_arrivals_{0};
  std::mutex evictors_m_;
  std::map<std::uint64_t, std::function<bool(const std::string&)>> evictors_;
  std::uint64_t next_evictor_ = 0;
  // The prove-start room (under m_): prover_workers x the largest WorkingSet::prove_room among live
  // jobs that use it, so a partition in the channel need not hold its own.
  Reservation room_;
  // Per circuit kind and shape (kind, '\0', shape): the most a/b and witness bytes a synthesized
  // partition held.
  std::map<std::string, HeldAfterSynthesis> seen_;
  std::deque<std::unique_ptr<Task>> synth_q_, urgent_q_, channel_, final_q_;
  std::uint64_t submitted_ = 0, done_ = 0, failed_ = 0, cancelled_ = 0;
  std::map<std::string, KindTotals> kind_totals_;  // under m_
  std::uint64_t done_version_ = 0;  // under m_; bumped with every done_cv_ notification
  std::vector<std::thread> threads_;
  Clock::time_point started_ = Clock::now();
  struct WorkerSlot {
    std::uint64_t job = 0;
    std::size_t partition = 0;
    std::string circuit;
    Clock::time_point since;
    double busy_s = 0;  // in stages, finished ones, since start
  };
  std::map<std::string, WorkerSlot> workers_;  // under m_
  void set_worker(const std::string& name, const Task* t);
  // Stage latency histograms (seconds), filled when a partition completes.
  static constexpr std::array<double, 11> kBuckets = {0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300};
  struct Histogram {
    std::array<std::uint64_t, kBuckets.size() + 1> counts{};  // last: +Inf
    double sum = 0;
    std::uint64_t n = 0;
    void observe(double seconds);
  };
  std::array<Histogram, 5> latency_;  // queue, synthesis, channel, prove_start, prove_finish
  std::mutex trace_m_;
  std::vector<TraceSpan> trace_;
  std::deque<TraceSpan> recent_;  // under trace_m_, at most kRecentSpans
};

}  // namespace zk::engine
