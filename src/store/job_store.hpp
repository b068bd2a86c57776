#pragma once

// The job store: accepted jobs and their results, kept outside the daemon's memory so that a crash,
// an OOM kill or a reboot loses nothing, and so that several daemons can share one queue. One
// interface, two implementations (SQL lives only in this folder):
//   SqliteJobStore  embedded, the default: a file in the daemon's state directory (WAL), one daemon;
//   PgJobStore      PostgreSQL (or YugabyteDB) for a fleet: any daemon accepts, any daemon proves.
// docs/cluster.md has the design, the schema and the failure semantics.
//
// A job's life: accept() writes it durably (queued) before the client is told its id. A daemon
// claim()s queued jobs — and jobs whose owner's lease ran out — when it has room; a claim is a
// lease that heartbeat() renews. finish() writes the job's one outcome: the first writer wins, a
// later one (a duplicate run after a lease expired on a slow machine, or a run the client
// cancelled) is dropped. A claim ends without an outcome by release() (the daemon stopped before
// proving it: queued again, the attempt not counted) or by its lease running out (the attempt
// counted, the reason recorded); a job claimed max_attempts times without an outcome fails with
// every attempt's reason. Finished jobs are kept until their result TTL, then forgotten.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.hpp"

namespace zk::store {

enum class JobState { kQueued, kRunning, kDone, kFailed, kCancelled };
const char* job_state_name(JobState s);
bool is_finished(JobState s);

struct StoreLimits {
  /// Most bytes the inputs of unfinished jobs may take together (each stored once, by content
  /// hash); more is RESOURCE_EXHAUSTED at accept.
  std::uint64_t max_input_bytes = 4ull << 30;
  /// Most unfinished jobs (queued or running, over the whole fleet); more is RESOURCE_EXHAUSTED.
  std::uint64_t max_unfinished_jobs = 100000;
  /// How long a finished job's outcome stays retrievable.
  std::chrono::seconds result_ttl{600};
  /// Most finished jobs kept: past it, expire() forgets those finished longest ago before their TTL
  /// (each keeps its proofs and public inputs: ~0.3-110 KB per partition).
  std::uint64_t max_kept_results = 100000;
  /// Claims of one job that ended without an outcome (its daemon died or stalled) before it fails.
  std::uint32_t max_attempts = 3;
};

/// A job as accepted: what the client asked for, by the names the client used (each daemon
/// resolves (circuit, shape) with its own keys when it claims the job).
struct NewJob {
  // With the payload, the idempotency key over the fleet: the same request id and payload name the
  // job queued, running or proved; after it failed or was cancelled, a new attempt (Curio retries a
  // failed task under the same id). Empty: every accept is a new job.
  std::string request_id;
  std::string circuit, shape;
  int priority = 0;  // larger first
  std::uint32_t partitions = 1;
  std::vector<std::uint8_t> input;
};

struct Accepted {
  std::uint64_t id = 0;
  bool existed = false;  // the request id and payload name a live or proved job: that job's id
};

struct ClaimedJob {
  std::uint64_t id = 0;
  std::string circuit, shape;
  int priority = 0;
  std::uint32_t partitions = 1;
  std::vector<std::uint8_t> input;
  std::uint32_t attempt = 1;  // this claim's number (1: the first)
};

/// A job's one outcome.
struct Outcome {
  JobState state = JobState::kDone;  // kDone, kFailed or kCancelled
  std::vector<std::uint8_t> proof;   // partition proofs concatenated (kDone)
  std::string error;                 // kFailed / kCancelled: why
  std::string curve;
  std::vector<std::vector<std::string>> public_inputs;  // per partition, decimal
  std::string timings_json;  // per-partition stage times, opaque to the store
  double total_ms = 0;
  std::string finished_by;  // the owner whose write won (set by the store)
};

struct JobView {
  std::uint64_t id = 0;
  JobState state = JobState::kQueued;
  std::string circuit, shape;
  std::uint32_t partitions = 1;
  std::string owner;  // kRunning: who holds the claim
  std::uint32_t attempts = 0;
  std::vector<std::string> attempt_errors;  // why earlier claims ended without an outcome
  std::optional<Outcome> outcome;           // when finished
};

struct MachineInfo {
  std::string owner;
  double seconds_since_heartbeat = 0;
  std::uint64_t jobs_running = 0;  // claims it holds
};

struct QueueStatus {
  std::uint64_t queued = 0, running = 0, done = 0, failed = 0, cancelled = 0;
  std::uint64_t input_bytes = 0;  // held for unfinished jobs
  std::vector<MachineInfo> machines;
  /// The counter of jobs in `state`.
  std::uint64_t& count(JobState state);
};

class JobStore {
 public:
  virtual ~JobStore() = default;

  /// Where the store lives, for logs ("sqlite:/var/lib/zkpipe/jobs.db", "postgresql://host/db";
  /// never a password).
  virtual std::string describe() const = 0;
  virtual const StoreLimits& limits() const = 0;

  /// Records a new job durably before returning. The same request id with the same payload returns
  /// the job queued, running or done under them (existed) — one job however many daemons accept it
  /// at once; a failed or cancelled one is kept (its outcome until its TTL) and a new job made; the
  /// same request id with another payload is another job. RESOURCE_EXHAUSTED past the limits.
  virtual Result<Accepted> accept(const NewJob& job) = 0;

  /// Renews this daemon's heartbeat and the leases of every claim it holds (until now + lease).
  virtual Status heartbeat(const std::string& owner, std::chrono::milliseconds lease) = 0;

  /// Claims up to `max_jobs` jobs for `owner`: queued ones (highest priority, then first
  /// accepted), and running ones whose lease ran out (that attempt's end recorded as the reason).
  /// A job whose attempts reach max_attempts is failed instead of claimed. `skip`: ids this daemon
  /// cannot take (no keys for them here, too large for its budget).
  virtual Result<std::vector<ClaimedJob>> claim(const std::string& owner, std::size_t max_jobs,
                                                std::chrono::milliseconds lease,
                                                const std::vector<std::uint64_t>& skip = {}) = 0;

  /// Gives a claim back without an outcome (the daemon stops, or cannot take the job): queued
  /// again, the attempt not counted. Only the owner's claim is released.
  virtual Status release(std::uint64_t id, const std::string& owner) = 0;

  /// Writes the job's outcome unless one is written already: true if this write won.
  virtual Result<bool> finish(std::uint64_t id, const std::string& owner, const Outcome& outcome) = 0;

  /// Cancels an unfinished job (its outcome becomes kCancelled with `reason`; its owner drops it
  /// when it sees it finished). True if it was unfinished.
  virtual Result<bool> cancel(std::uint64_t id, const std::string& reason) = 0;

  /// The job, or nullopt when unknown or forgotten (its TTL passed).
  virtual Result<std::optional<JobView>> lookup(std::uint64_t id) = 0;

  /// Of `ids`, those that are finished (cancelled by a client, or proved by another daemon after
  /// this one's lease ran out) or no longer claimed by `owner`: the owner stops working on them.
  virtual Result<std::vector<std::uint64_t>> lost_claims(const std::string& owner,
                                                         const std::vector<std::uint64_t>& ids) = 0;

  /// Forgets outcomes past the TTL (and past max_kept_results, the oldest first) and inputs no
  /// unfinished job needs.
  virtual Status expire() = 0;

  /// Counts per state and the daemons that heartbeat (those silent for over a day are dropped).
  virtual Result<QueueStatus> status() = 0;

  /// Blocks until a job may have been accepted, released or finished (another daemon's NOTIFY, or
  /// an accept in this process), or `timeout` passes. Correct with polling alone: callers claim
  /// after it returns whatever the reason.
  virtual void wait_for_change(std::chrono::milliseconds timeout) = 0;
};

}  // namespace zk::store
