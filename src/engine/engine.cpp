#include "engine/engine.hpp"

#include <functional>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <optional>
#include <random>
#include <tuple>

namespace zk::engine {

const char* job_state_name(JobState s) {
  static constexpr const char* kNames[] = {"queued", "running", "done", "failed", "cancelled"};
  return kNames[static_cast<std::size_t>(s)];
}

namespace {

using Counts = std::array<std::int64_t, kBufferClasses>;

ClassBytes class_bytes(const WorkingSet& w) {
  ClassBytes b;
  b[BufferClass::kAbc] = static_cast<std::int64_t>(w.abc);
  b[BufferClass::kAux] = static_cast<std::int64_t>(w.aux);
  b[BufferClass::kDensity] = static_cast<std::int64_t>(w.density);
  b[BufferClass::kPending] = static_cast<std::int64_t>(w.pending);
  return b;
}

ClassBytes negate(ClassBytes b) {
  for (auto& x : b.bytes) x = -x;
  return b;
}

Counts counts_of(const ClassBytes& b, std::int64_t sign) {
  Counts c{};
  for (std::size_t i = 0; i < kBufferClasses; ++i) c[i] = b.bytes[i] != 0 ? sign : 0;
  return c;
}

std::uint64_t fnv1a(const JobRequest& j) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  };
  mix(j.circuit.data(), j.circuit.size());
  mix("\0", 1);
  mix(j.shape.data(), j.shape.size());
  mix("\0", 1);
  mix(j.input.data(), j.input.size());
  mix(&j.priority, sizeof(j.priority));
  mix(&j.partitions, sizeof(j.partitions));
  return h;
}

/// A fresh job id: 63 random bits from the OS (never 0, which means "idle" in worker status; below
/// 2^63 so it survives signed 64-bit consumers). Ids never restart: a client awaiting a job of a
/// daemon that has since restarted gets NOT_FOUND, never another job's proof (a collision between
/// any two of a million ids has probability ~1e-7).
std::uint64_t random_job_id() {
  thread_local std::random_device rd;
  for (;;) {
    const std::uint64_t v = ((std::uint64_t{rd()} << 32) ^ std::uint64_t{rd()}) >> 1;
    if (v != 0) return v;
  }
}

/// The key of by_request_id_: a request id with its payload's digest.
std::string request_key_of(const std::string& request_id, std::uint64_t digest) {
  return request_id + '\0' + std::to_string(digest);
}

double ms_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

struct Engine::Job {
  std::uint64_t id = 0, seq = 0, digest = 0;
  JobRequest req;
  std::shared_ptr<Workload> workload;
  WorkingSet ws;
  bool uses_room = false;  // a partition was admitted on the engine's prove-start room (under m_)
  JobState state = JobState::kQueued;
  std::atomic<bool> dead{false};  // terminal: read by budget waiters without the engine lock
  std::string error;
  std::vector<std::vector<std::uint8_t>> proofs;  // per partition
  std::vector<std::uint8_t> answer;               // Workload::combine of them, once done
  std::vector<std::vector<std::string>> public_inputs;  // per partition, decimal, set with its proof
  std::vector<PartitionTimings> timings;
  std::size_t remaining = 0, in_flight = 0;
  bool input_held = true;  // the request's input bytes, given back when the job is over (release_input)
  Clock::time_point submitted, finished;
};

/// Counts a partition as admitted (Engine::admitted_) for the life of its task. The first member of
/// Task, so it is destroyed last: a count of 0 means every partition's reservation is back.
class AdmittedCount {
 public:
  AdmittedCount() = default;
  AdmittedCount(const AdmittedCount&) = delete;
  AdmittedCount& operator=(const AdmittedCount&) = delete;
  ~AdmittedCount() {
    if (n_ != nullptr) n_->fetch_sub(1);
  }
  void admit(std::atomic<std::size_t>& n) {
    n_ = &n;
    n.fetch_add(1);
  }

 private:
  std::atomic<std::size_t>* n_ = nullptr;
};

struct Engine::Task {
  AdmittedCount admitted;
  std::shared_ptr<Job> job;
  std::size_t partition = 0;
  Reservation reservation;
  std::uint64_t abc_reserved = 0;  // of the reservation: the a/b(/c) share, given back after prove_start
  bool shared_room = false;        // prove_start's dense buffers come from the engine's room
  ClassBytes held;                 // what the ledger counts for this partition now
  std::unique_ptr<Synthesized> synth;
  std::unique_ptr<Pending> pending;
  PartitionTimings t;
  Clock::time_point mark;
  bool urgent_slot = false;  // synthesized by an urgent synthesis worker
};

Engine::Engine(EngineConfig config, std::map<std::string, std::shared_ptr<Workload>> workloads)
    : config_(config),
      workloads_(std::move(workloads)),
      budget_(config.budget_bytes != 0 ? config.budget_bytes
                                       : static_cast<std::uint64_t>(static_cast<double>(available_memory_bytes()) *
                                                                    config.budget_fraction)) {
  if (config_.synthesis_workers == 0) config_.synthesis_workers = std::max(1u, std::thread::hardware_concurrency() / 2);
  config_.prover_workers = std::max(1u, config_.prover_workers);
  config_.finalizer_workers = std::max(1u, config_.finalizer_workers);
  config_.channel_capacity = std::max<std::size_t>(1, config_.channel_capacity);
  config_.budget_bytes = budget_.total();
  synth_idle_ = config_.synthesis_workers;
  urgent_idle_ = config_.urgent_synthesis_workers;
  for (unsigned i = 0; i < config_.synthesis_workers; ++i) workers_["synthesis-" + std::to_string(i)];
  for (unsigned i = 0; i < config_.urgent_synthesis_workers; ++i) workers_["synthesis-urgent-" + std::to_string(i)];
  for (unsigned i = 0; i < config_.prover_workers; ++i) workers_["prover-" + std::to_string(i)];
  for (unsigned i = 0; i < config_.finalizer_workers; ++i) workers_["finalizer-" + std::to_string(i)];
  // Each thread counts itself out when its loop returns, so that shutdown can bound its wait.
  auto start = [this](std::function<void()> loop) {
    {
      std::lock_guard lock(m_);
      ++live_threads_;
    }
    threads_.emplace_back([this, loop = std::move(loop)] {
      loop();
      std::lock_guard lock(m_);
      --live_threads_;
      threads_cv_.notify_all();
    });
  };
  start([this] { scheduler_loop(); });
  for (unsigned i = 0; i < config_.synthesis_workers; ++i) {
    start([this, i] { synthesis_loop("synthesis-" + std::to_string(i), false); });
  }
  for (unsigned i = 0; i < config_.urgent_synthesis_workers; ++i) {
    start([this, i] { synthesis_loop("synthesis-urgent-" + std::to_string(i), true); });
  }
  for (unsigned i = 0; i < config_.prover_workers; ++i) {
    start([this, i] { prover_loop("prover-" + std::to_string(i)); });
  }
  for (unsigned i = 0; i < config_.finalizer_workers; ++i) {
    start([this, i] { finalizer_loop("finalizer-" + std::to_string(i)); });
  }
}

Engine::~Engine() { shutdown(); }

bool Engine::shutdown(std::chrono::milliseconds stage_bound) {
  {
    std::lock_guard lock(m_);
    if (stopping_ && threads_.empty()) return true;
    stopping_ = true;
    for (auto& [id, job] : jobs_) {
      if (!job->dead) fail_job(*job, "the engine shut down before the job finished", JobState::kCancelled);
    }
  }
  budget_.wake_all();
  sched_cv_.notify_all();
  synth_cv_.notify_all();
  channel_cv_.notify_all();
  final_cv_.notify_all();
  {
    // A worker inside a stage (a synthesis, a prove_start) ends it before it sees the stop: minutes
    // for a 32 GiB partition on the CPU. Past the bound, the caller is told so (and may exit the
    // process without waiting: the daemon's jobs are in its store).
    std::unique_lock lock(m_);
    auto all_out = [&] { return live_threads_ == 0; };
    if (stage_bound == std::chrono::milliseconds::max()) {
      threads_cv_.wait(lock, all_out);
    } else if (!threads_cv_.wait_for(lock, stage_bound, all_out)) {
      return false;
    }
  }
  for (auto& t : threads_) t.join();
  threads_.clear();
  std::deque<std::unique_ptr<Task>> left;
  {
    std::lock_guard lock(m_);
    for (auto* q : {&synth_q_, &urgent_q_, &channel_, &final_q_}) {
      for (auto& t : *q) left.push_back(std::move(t));
      q->clear();
    }
  }
  for (auto& t : left) {
    const Stage at = t->pending ? Stage::kFinalizing : t->synth ? Stage::kInChannel : Stage::kQueued;
    drop_task(std::move(t), at);
  }
  {
    std::lock_guard lock(m_);
    ++done_version_;
  }
  done_cv_.notify_all();
  return true;
}

std::uint64_t Engine::wait_for_change(std::uint64_t seen, std::chrono::milliseconds timeout) {
  std::unique_lock lock(m_);
  done_cv_.wait_for(lock, timeout, [&] { return done_version_ != seen; });
  return done_version_;
}

bool Engine::job_alive(const Job& j) const { return !j.dead && !stopping_; }

void Engine::fail_job(Job& j, const std::string& why, JobState state) {
  // Caller holds m_.
  if (j.dead) return;
  j.state = state;
  j.error = why;
  j.dead = true;
  j.finished = Clock::now();
  for (auto it = queue_.begin(); it != queue_.end();) it = it->job == j.id ? queue_.erase(it) : std::next(it);
  (state == JobState::kCancelled ? cancelled_ : failed_)++;
  {
    auto& k = kind_totals_[j.req.circuit];
    (state == JobState::kCancelled ? k.cancelled : k.failed)++;
  }
  spdlog::info("job {} {}: {}", j.id, job_state_name(state), why);
  release_input(j);
  budget_.wake_all();
  synth_cv_.notify_all();
  channel_cv_.notify_all();
  ++done_version_;
  done_cv_.notify_all();
}

void Engine::drop_task(std::unique_ptr<Task> t, Stage at) {
  t->synth.reset();
  t->pending.reset();
  t->reservation.release_all();
  const bool entered = at != Stage::kQueued;  // kQueued: reserved but never started synthesis
  ledger_.record(Event::kDeallocDone, negate(t->held), counts_of(t->held, -1),
                 entered ? std::optional<Stage>(at) : std::nullopt, std::nullopt);
  std::lock_guard lock(m_);
  --t->job->in_flight;
  release_input(*t->job);
  ++done_version_;
  done_cv_.notify_all();
}

void Engine::release_input(Job& j) {
  // Caller holds m_. Once a job is over and no worker uses it, its input is never read again
  // (public inputs were computed with each proof; the request id keeps its digest).
  if (!j.dead || j.in_flight != 0) return;
  if (j.uses_room) fit_room();
  if (!j.input_held) return;
  held_input_bytes_ -= j.req.input.size();
  std::vector<std::uint8_t>().swap(j.req.input);
  j.input_held = false;
}

std::uint64_t Engine::abc_estimate(const Job& j) const {
  auto it = seen_.find(j.req.circuit + '\0' + j.req.shape);
  if (it == seen_.end() || it->second.abc == 0) return j.ws.abc;
  // A quarter more than the most seen: partitions of one shape differ only in their witness. One
  // that holds more anyway is counted in full after its synthesis (MemoryBudget::overdraw).
  return std::min(j.ws.abc, it->second.abc + it->second.abc / 4);
}

void Engine::fit_room() {
  std::uint64_t need = 0;
  for (const auto& [id, j] : jobs_) {
    if (j->uses_room && (!j->dead || j->in_flight != 0)) need = std::max(need, j->ws.prove_room);
  }
  const std::uint64_t target = need * config_.prover_workers;
  if (room_.bytes() > target) room_.release(room_.bytes() - target);
}

void Engine::complete_partition(std::unique_ptr<Task> t, std::vector<std::uint8_t> proof,
                                std::vector<std::string> public_inputs) {
  t->pending.reset();
  t->reservation.release_all();
  ledger_.record(Event::kDeallocDone, negate(t->held), counts_of(t->held, -1), Stage::kFinalizing, std::nullopt);
  std::unique_lock lock(m_);
  Job& j = *t->job;
  for (auto [i, ms] : {std::pair{0, t->t.queue_ms},
                       {1, t->t.synthesis_ms},
                       {2, t->t.channel_ms},
                       {3, t->t.prove_ms},
                       {4, t->t.finalize_ms}}) {
    latency_[static_cast<std::size_t>(i)].observe(ms / 1000.0);
  }
  if (!j.dead) {
    j.proofs[t->partition] = std::move(proof);
    j.public_inputs[t->partition] = std::move(public_inputs);
    j.timings[t->partition] = t->t;
    if (--j.remaining == 0) {
      // The job's answer (a non-interactive PoRep's: the aggregate of its partitions), outside the
      // lock; the task still counts in j.in_flight, so the job stays open (and its input held).
      lock.unlock();
      auto answer = guarded("combining the partitions' proofs", [&] { return j.workload->combine(j.req, j.proofs); });
      lock.lock();
      if (j.dead) {
        // cancelled meanwhile
      } else if (!answer.ok()) {
        fail_job(j, "combining the partitions' proofs: " + answer.status().message(), JobState::kFailed);
      } else {
        j.answer = std::move(*answer);
        j.state = JobState::kDone;
        j.dead = true;
        j.finished = Clock::now();
        ++done_;
        ++kind_totals_[j.req.circuit].done;
      }
    }
  }
  --j.in_flight;
  release_input(j);
  ++done_version_;
  done_cv_.notify_all();
}

void Engine::add_workload(const std::string& kind, std::shared_ptr<Workload> workload) {
  std::lock_guard lock(m_);
  workloads_[kind] = std::move(workload);
}

std::uint64_t Engine::input_cap() const {
  return config_.max_input_bytes != 0 ? config_.max_input_bytes : std::max<std::uint64_t>(budget_.total() / 4, 1 << 20);
}

Result<std::shared_ptr<Workload>> Engine::checked_workload(const JobRequest& req, WorkingSet* ws, bool validate) {
  std::shared_ptr<Workload> workload;
  {
    std::lock_guard lock(m_);
    auto wl = workloads_.find(req.circuit);
    if (wl == workloads_.end()) {
      std::string known;
      for (auto& [k, v] : workloads_) known += (known.empty() ? "" : ", ") + k;
      return Status::invalid_argument("unknown circuit kind '" + req.circuit +
                                      "' (this engine serves: " + (known.empty() ? "nothing" : known) + ")");
    }
    workload = wl->second;
  }
  if (req.partitions == 0 || req.partitions > config_.max_partitions) {
    return Status::invalid_argument("a job needs between 1 and " + std::to_string(config_.max_partitions) +
                                    " partitions (engine.max_partitions), not " + std::to_string(req.partitions));
  }
  if (validate) {
    if (Status s = guarded("validating the job", [&] { return workload->validate(req); }); !s.ok()) return s;
  }
  auto sized = guarded("sizing the job", [&] { return workload->working_set(req); });
  if (!sized.ok()) return sized.status();
  // The least one partition can run with: its own bytes, with prove_start's buffers in place of its
  // a/b (the scheduler's fallback when the shared room does not fit beside it).
  const std::uint64_t least = sized->total() - sized->abc + std::max(sized->abc, sized->prove_room);
  if (least > budget_.total()) {
    return Status::resource_exhausted("one partition of this job needs " + format_bytes(least) +
                                      " (prove_start's buffers included) but the whole memory budget is " +
                                      format_bytes(budget_.total()));
  }
  *ws = *sized;
  return workload;
}

std::shared_ptr<Workload> Engine::workload_for(const std::string& kind) {
  std::lock_guard lock(m_);
  auto wl = workloads_.find(kind);
  return wl == workloads_.end() ? nullptr : wl->second;
}

std::size_t Engine::partitions_of(const JobRequest& req) {
  std::shared_ptr<Workload> workload = workload_for(req.circuit);
  if (!workload) return 0;
  auto n = guarded("reading the input's partition count", [&]() -> Result<std::size_t> {
    return workload->partitions_of(req);
  });
  return n.ok() ? *n : 0;
}

std::optional<std::uint64_t> Engine::registered_proof_of(const JobRequest& req) {
  std::shared_ptr<Workload> workload = workload_for(req.circuit);
  if (!workload) return std::nullopt;
  auto id = guarded("reading the input's registered proof", [&]() -> Result<std::optional<std::uint64_t>> {
    return workload->registered_proof_of(req);
  });
  return id.ok() ? *id : std::nullopt;
}

Status Engine::validate(const JobRequest& req) {
  WorkingSet ws;
  auto w = checked_workload(req, &ws, true);
  return w.ok() ? Status{} : w.status();
}

Result<std::uint64_t> Engine::submit(JobRequest req) {
  if (stopping_) return Status::unavailable("the engine is shutting down");
  auto ws = std::make_optional<WorkingSet>();
  auto checked = checked_workload(req, &*ws, !req.validated);
  if (!checked.ok()) return checked.status();
  std::shared_ptr<Workload> workload = std::move(*checked);
  const std::uint64_t digest = fnv1a(req);
  std::lock_guard lock(m_);
  // Validation ran unlocked: the engine may have begun shutting down meanwhile.
  if (stopping_) return Status::unavailable("the engine is shutting down");
  forget_expired();
  const std::uint64_t input_cap = this->input_cap();
  // The same request id and payload name the job queued, running or done; after it failed or was
  // cancelled, a retry is a new job (as the job store: issue 41); another payload is another job.
  const std::string request_key = req.request_id.empty() ? std::string() : request_key_of(req.request_id, digest);
  if (!request_key.empty()) {
    if (auto it = by_request_id_.find(request_key); it != by_request_id_.end()) {
      auto j = jobs_.find(it->second);
      if (j != jobs_.end() && j->second->state != JobState::kFailed && j->second->state != JobState::kCancelled) {
        return it->second;
      }
    }
  }
  if (held_input_bytes_ + req.input.size() > input_cap) {
    return Status::resource_exhausted("the inputs of the jobs in progress hold " + format_bytes(held_input_bytes_) +
                                      "; this one (" + format_bytes(req.input.size()) + ") would pass " +
                                      "engine.max_input_bytes = " + format_bytes(input_cap) + "; retry later");
  }
  auto job = std::make_shared<Job>();
  if (req.id != 0) {
    if (jobs_.count(req.id) != 0) return Status::already_exists("the engine already holds job " + std::to_string(req.id));
    job->id = req.id;
  } else {
    do {
      job->id = random_job_id();
    } while (jobs_.count(job->id) != 0);
  }
  job->seq = next_seq_++;
  job->digest = digest;
  job->workload = workload;
  job->ws = *ws;
  job->proofs.resize(req.partitions);
  job->public_inputs.resize(req.partitions);
  job->timings.resize(req.partitions);
  job->remaining = req.partitions;
  job->submitted = Clock::now();
  for (std::size_t k = 0; k < req.partitions; ++k) queue_.insert({-req.priority, job->seq, k, job->id});
  if (!request_key.empty()) by_request_id_[request_key] = job->id;
  held_input_bytes_ += req.input.size();
  job->req = std::move(req);
  jobs_[job->id] = job;
  ++submitted_;
  sched_cv_.notify_one();
  if (job->req.priority >= config_.urgent_priority) {
    // A scheduler waiting for memory for other work re-checks and gives way (scheduler_loop).
    urgent_arrivals_.fetch_add(1);
    budget_.wake_all();
  }
  return job->id;
}

Result<JobResult> Engine::await(std::uint64_t id, std::chrono::milliseconds timeout, bool public_inputs) {
  std::unique_lock lock(m_);
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return Status::not_found("no job " + std::to_string(id) + " (unknown, or its result expired)");
  std::shared_ptr<Job> job = it->second;
  // Terminal and every partition's memory given back.
  const bool ready = done_cv_.wait_for(lock, timeout, [&] { return job->dead && job->in_flight == 0; });
  if (!ready) {
    return Status::deadline_exceeded("job " + std::to_string(id) + " is still " + job_state_name(job->state) +
                                     " after " + std::to_string(timeout.count()) + " ms");
  }
  JobResult r;
  r.id = id;
  r.state = job->state;
  r.error = job->error;
  r.partitions = job->timings;
  r.total_ms = ms_between(job->submitted, job->finished);
  r.circuit = job->req.circuit;
  r.partition_count = job->req.partitions;
  r.curve = job->workload->curve();
  if (job->state == JobState::kDone) {
    r.proof = job->answer;
    // Known only when the workload could name them for every partition.
    const bool all = std::all_of(job->public_inputs.begin(), job->public_inputs.end(),
                                 [](const auto& v) { return !v.empty(); });
    if (public_inputs && all) r.public_inputs = job->public_inputs;
  }
  return r;
}

Status Engine::cancel(std::uint64_t id) {
  std::lock_guard lock(m_);
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return Status::not_found("no job " + std::to_string(id));
  if (it->second->dead) return {};
  fail_job(*it->second, "cancelled on request", JobState::kCancelled);
  return {};
}

namespace {
std::pair<std::uint64_t, std::uint64_t> rss_now_and_peak() {
  std::ifstream in("/proc/self/status");
  std::string key;
  std::uint64_t rss = 0, hwm = 0, kb = 0;
  while (in >> key) {
    if (key == "VmRSS:" && (in >> kb)) rss = kb * 1024;
    if (key == "VmHWM:" && (in >> kb)) hwm = kb * 1024;
    std::getline(in, key);
  }
  return {rss, hwm};
}
}  // namespace

EngineStatus Engine::status() {
  EngineStatus s;
  std::tie(s.rss_bytes, s.rss_peak_bytes) = rss_now_and_peak();
  s.budget_total = budget_.total();
  s.budget_used = budget_.used();
  s.budget_high_water = budget_.high_water();
  s.ledger = ledger_.snapshot();
  std::lock_guard lock(m_);
  s.budget_room = room_.bytes();
  forget_expired();
  for (auto& [id, j] : jobs_) (j->dead ? s.jobs_kept : s.jobs_active)++;
  s.partitions_queued = queue_.size();
  s.jobs_submitted = submitted_, s.jobs_done = done_, s.jobs_failed = failed_, s.jobs_cancelled = cancelled_;
  s.kind_totals = kind_totals_;
  const auto now = Clock::now();
  s.uptime_s = std::chrono::duration<double>(now - started_).count();
  for (const auto& [key, held] : seen_) {
    std::string name = key;
    std::replace(name.begin(), name.end(), '\0', '/');
    s.held_after_synthesis[name] = held;
  }
  for (const auto& [name, w] : workers_) {
    const double now_ms = w.job != 0 ? ms_between(w.since, now) : 0.0;
    s.workers.push_back({name, w.job, w.partition, w.circuit, now_ms, w.busy_s + now_ms / 1000});
  }
  for (const auto& [id, j] : jobs_) {
    if (j->dead) continue;
    auto& k = s.kinds[j->req.circuit];
    (j->state == JobState::kQueued ? k.jobs_queued : k.jobs_running)++;
  }
  for (const auto& q : queue_) {
    auto it = jobs_.find(q.job);
    if (it != jobs_.end()) s.kinds[it->second->req.circuit].partitions_queued++;
  }
  return s;
}

void Engine::set_worker(const std::string& name, const Task* t) {
  std::lock_guard lock(m_);
  auto& w = workers_[name];
  if (w.job != 0) w.busy_s += std::chrono::duration<double>(Clock::now() - w.since).count();
  w.job = t != nullptr ? t->job->id : 0;
  w.partition = t != nullptr ? t->partition : 0;
  w.circuit = t != nullptr ? t->job->req.circuit : std::string();
  w.since = Clock::now();
}

void Engine::forget_request_id(const Job& j) {
  if (j.req.request_id.empty()) return;
  // A retry may have taken the key since (this job failed): only this job's entry goes.
  auto it = by_request_id_.find(request_key_of(j.req.request_id, j.digest));
  if (it != by_request_id_.end() && it->second == j.id) by_request_id_.erase(it);
}

void Engine::forget_expired() {
  const auto now = Clock::now();
  std::vector<std::pair<Clock::time_point, std::uint64_t>> kept;  // finished jobs still here
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    const Job& j = *it->second;
    if (j.dead && j.in_flight == 0 && now - j.finished > config_.result_ttl) {
      forget_request_id(j);
      it = jobs_.erase(it);
    } else {
      if (j.dead && j.in_flight == 0) kept.emplace_back(j.finished, it->first);
      ++it;
    }
  }
  // Bounded whatever the TTL: past max_kept_jobs, the results finished longest ago go first.
  if (kept.size() <= config_.max_kept_jobs) return;
  const std::size_t drop = kept.size() - config_.max_kept_jobs;
  std::nth_element(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(drop - 1), kept.end());
  for (std::size_t i = 0; i < drop; ++i) {
    auto it = jobs_.find(kept[i].second);
    forget_request_id(*it->second);
    jobs_.erase(it);
  }
}

bool Engine::forget(std::uint64_t id) {
  std::lock_guard lock(m_);
  auto it = jobs_.find(id);
  if (it == jobs_.end() || !it->second->dead || it->second->in_flight != 0) return false;
  forget_request_id(*it->second);
  jobs_.erase(it);
  return true;
}

std::uint64_t Engine::held_input_bytes() {
  std::lock_guard lock(m_);
  return held_input_bytes_;
}

std::uint64_t Engine::add_key_evictor(std::function<bool(const std::string& keep)> evict_one_unused_except) {
  std::lock_guard lock(evictors_m_);
  evictors_.emplace(next_evictor_, std::move(evict_one_unused_except));
  return next_evictor_++;
}

void Engine::remove_key_evictor(std::uint64_t handle) {
  std::lock_guard lock(evictors_m_);
  evictors_.erase(handle);
}

Result<Reservation> Engine::reserve_evicting(std::uint64_t bytes, const std::string& keep,
                                             const std::function<bool()>& abandon, const std::string& what) {
  if (bytes <= budget_.total()) {
    std::lock_guard lock(evictors_m_);
    const auto evict_one = [&](const std::string& spare) {
      for (auto& [handle, evict] : evictors_) {
        if (evict(spare)) return true;
      }
      return false;
    };
    for (;;) {
      auto res = budget_.try_reserve(bytes, what);
      if (res.ok()) return res;
      // With no partition admitted nothing else can give memory back: the job's own key goes too
      // (when it and the partition cannot fit together, its reload fails the job with that error,
      // instead of the partition waiting for ever).
      if (!evict_one(keep) && !(admitted_.load() == 0 && evict_one(""))) break;
    }
  }
  return budget_.reserve(bytes, abandon, what);
}

void Engine::scheduler_loop() {
  std::unique_lock lock(m_);
  for (;;) {
    // The queue's first partition goes to an idle synthesis worker; an urgent one to an idle
    // urgent worker first (so the regular ones stay with the other work), else to any.
    auto urgent_first = [&] { return !queue_.empty() && -queue_.begin()->neg_priority >= config_.urgent_priority; };
    sched_cv_.wait(lock, [&] {
      return stopping_ || (!queue_.empty() && (synth_idle_ > 0 || (urgent_idle_ > 0 && urgent_first())));
    });
    if (stopping_) return;
    const bool urgent = urgent_first();
    const bool urgent_slot = urgent && urgent_idle_ > 0;
    const QueueKey key = *queue_.begin();
    queue_.erase(queue_.begin());
    auto it = jobs_.find(key.job);
    if (it == jobs_.end() || !job_alive(*it->second)) continue;
    std::shared_ptr<Job> job = it->second;
    auto& idle = urgent_slot ? urgent_idle_ : synth_idle_;
    --idle;
    ++job->in_flight;
    job->state = JobState::kRunning;
    // Reserve the whole working set before synthesis starts; wait (in priority order) for memory.
    // prove_start's dense buffers come from the engine's room (one per prover worker, grown here
    // first), so a partition holds only its own a/b while it waits for a prover; when the room does
    // not fit beside the partition, the partition reserves them itself, as one block.
    const std::uint64_t rest = job->ws.total() - job->ws.abc;
    const std::uint64_t room_need = job->ws.prove_room * config_.prover_workers;
    std::uint64_t abc = abc_estimate(*job);
    // (With no prove_room there is nothing to share: the partition's a/b reservation is its own.)
    const bool shared_room = job->ws.prove_room == 0 || rest + abc + room_need <= budget_.total();
    if (!shared_room) abc = std::max(job->ws.abc, job->ws.prove_room);
    if (shared_room && job->ws.prove_room != 0) job->uses_room = true;
    // Other work waiting for memory gives way to urgent work submitted meanwhile: that partition
    // goes back to the queue, so a PoSt partition never waits for memory behind a PoRep partition
    // that arrived first (it waits only for memory that running work gives back).
    const std::uint64_t arrivals = urgent_arrivals_.load();
    bool gave_way = false;
    auto abandon = [&] {
      if (stopping_.load() || job->dead.load()) return true;
      if (!urgent && urgent_arrivals_.load() != arrivals) return gave_way = true;
      return false;
    };
    const std::string own_key = job->workload->key_id(job->req);
    Result<Reservation> res = Reservation();
    while (shared_room && room_.bytes() < room_need && res.ok()) {
      const std::uint64_t more = room_need - room_.bytes();
      lock.unlock();
      res = reserve_evicting(more, own_key, abandon, "the prove-start room");
      lock.lock();
      if (res.ok()) room_.absorb(std::move(*res));
    }
    lock.unlock();
    if (res.ok()) {
      res = reserve_evicting(rest + abc, own_key, abandon,
                             "partition " + std::to_string(key.partition) + " of job " + std::to_string(job->id));
    }
    lock.lock();
    if (gave_way && !res.ok() && job_alive(*job) && !stopping_) {
      ++idle;
      if (--job->in_flight == 0 && job->state == JobState::kRunning && job->remaining == job->req.partitions)
        job->state = JobState::kQueued;
      queue_.insert(key);
      continue;
    }
    if (!res.ok() || !job_alive(*job)) {
      ++idle;
      --job->in_flight;
      if (!res.ok() && !job->dead && !stopping_) fail_job(*job, res.status().message(), JobState::kFailed);
      release_input(*job);
      ++done_version_;
  done_cv_.notify_all();
      continue;
    }
    auto task = std::make_unique<Task>();
    task->admitted.admit(admitted_);
    task->job = job;
    task->partition = key.partition;
    task->reservation = std::move(*res);  // held bytes enter the ledger when synthesis starts
    task->abc_reserved = abc;
    task->shared_room = shared_room;
    task->mark = Clock::now();
    task->t.queue_ms = ms_between(job->submitted, task->mark);
    task->urgent_slot = urgent_slot;
    (urgent_slot ? urgent_q_ : synth_q_).push_back(std::move(task));
    synth_cv_.notify_all();
  }
}

void Engine::synthesis_loop(std::string name, bool urgent_worker) {
  auto& q = urgent_worker ? urgent_q_ : synth_q_;
  for (;;) {
    std::unique_ptr<Task> task;
    {
      std::unique_lock lock(m_);
      synth_cv_.wait(lock, [&] { return stopping_ || !q.empty(); });
      if (stopping_) return;
      task = std::move(q.front());
      q.pop_front();
    }
    Job& job = *task->job;
    auto& idle = task->urgent_slot ? urgent_idle_ : synth_idle_;
    if (!job_alive(job)) {
      drop_task(std::move(task), Stage::kQueued);
      std::lock_guard lock(m_);
      ++idle;
      sched_cv_.notify_one();
      continue;
    }
    task->held = class_bytes(job.ws);
    task->held[BufferClass::kAbc] = static_cast<std::int64_t>(task->abc_reserved);
    ledger_.record(Event::kSynthStart, task->held, counts_of(task->held, +1), std::nullopt, Stage::kSynthesizing);
    set_worker(name, task.get());
    auto s = guarded("synthesis", [&] {
      using Synthesized = decltype(job.workload->synthesize(job.req, task->partition));
      if (config_.test_fail_syntheses > 0 && faults_injected_.fetch_add(1) < config_.test_fail_syntheses) {
        return Synthesized(Status::unavailable("a fault injected for tests failed this synthesis "
                                               "(ZKPIPE_TEST_FAIL_SYNTHESES)"));
      }
      if (config_.test_slow_synthesis_ms > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(config_.test_slow_synthesis_ms));
      }
      return job.workload->synthesize(job.req, task->partition);
    });
    set_worker(name, nullptr);
    const auto now = Clock::now();
    span(name, "synthesis", *task, task->mark, now);
    task->t.synthesis_ms = ms_between(task->mark, now);
    task->mark = now;
    // What a/b really hold: the rest of their reservation goes back before the partition waits for
    // a prover (more than reserved is counted in full).
    const std::optional<std::uint64_t> abc_held = s.ok() ? (*s)->abc_bytes() : std::nullopt;
    ClassBytes shrink;
    if (abc_held && task->shared_room) {
      if (*abc_held < task->abc_reserved) {
        task->reservation.release(task->abc_reserved - *abc_held);
      } else if (*abc_held > task->abc_reserved) {
        spdlog::warn("partition {} of job {}: a/b hold {} against {} estimated; counted in full", task->partition,
                     job.id, format_bytes(*abc_held), format_bytes(task->abc_reserved));
        budget_.overdraw(task->reservation, *abc_held - task->abc_reserved);
      }
      shrink[BufferClass::kAbc] = static_cast<std::int64_t>(*abc_held) - static_cast<std::int64_t>(task->abc_reserved);
      task->abc_reserved = *abc_held;
      task->held[BufferClass::kAbc] = static_cast<std::int64_t>(*abc_held);
    }
    // The same for the witness, reserved at its bound (every value a full field element): a
    // compact one holds a fraction of it from here to prove_finish.
    const std::optional<std::uint64_t> aux_held = s.ok() ? (*s)->aux_bytes() : std::nullopt;
    if (aux_held) {
      const auto reserved = static_cast<std::uint64_t>(task->held[BufferClass::kAux]);
      if (*aux_held < reserved) {
        task->reservation.release(reserved - *aux_held);
      } else if (*aux_held > reserved) {
        spdlog::warn("partition {} of job {}: the witness holds {} against {} bounded; counted in full",
                     task->partition, job.id, format_bytes(*aux_held), format_bytes(reserved));
        budget_.overdraw(task->reservation, *aux_held - reserved);
      }
      shrink[BufferClass::kAux] = static_cast<std::int64_t>(*aux_held) - static_cast<std::int64_t>(reserved);
      task->held[BufferClass::kAux] = static_cast<std::int64_t>(*aux_held);
    }
    ledger_.record(Event::kSynthDone, shrink, {}, std::nullopt, std::nullopt);
    std::unique_lock lock(m_);
    if (abc_held || aux_held) {
      auto& seen = seen_[job.req.circuit + '\0' + job.req.shape];
      if (abc_held) seen.abc = std::max(seen.abc, *abc_held);
      if (aux_held) seen.aux = std::max(seen.aux, *aux_held);
    }
    if (!s.ok()) {
      fail_job(job, "partition " + std::to_string(task->partition) + ", synthesis: " + s.status().message(),
               JobState::kFailed);
    } else {
      task->synth = std::move(*s);
      // Wait for room in the channel; the reservation stays held (and counted) meanwhile. Urgent
      // work counts only urgent work ahead of it: it passes a channel full of other partitions.
      auto is_urgent = [&](const Task& t) { return t.job->req.priority >= config_.urgent_priority; };
      const bool urgent = is_urgent(*task);
      channel_cv_.wait(lock, [&] {
        if (stopping_ || !job_alive(job)) return true;
        const std::size_t ahead =
            urgent ? static_cast<std::size_t>(std::count_if(channel_.begin(), channel_.end(),
                                                            [&](const auto& t) { return is_urgent(*t); }))
                   : channel_.size();
        return ahead < config_.channel_capacity;
      });
    }
    ++idle;
    sched_cv_.notify_one();
    if (!s.ok() || stopping_ || !job_alive(job)) {
      lock.unlock();
      drop_task(std::move(task), Stage::kSynthesizing);
      continue;
    }
    ledger_.record(Event::kChannelSend, {}, {}, Stage::kSynthesizing, Stage::kInChannel);
    if (Clock::now() - task->mark > std::chrono::milliseconds(1))
      span(name, "wait for channel", *task, task->mark, Clock::now());
    task->mark = Clock::now();
    // In priority order (first come first among equals): an urgent partition is proved next.
    const int priority = job.req.priority;
    auto at = std::find_if(channel_.begin(), channel_.end(), [&](const auto& t) { return t->job->req.priority < priority; });
    channel_.insert(at, std::move(task));
    channel_cv_.notify_all();
  }
}

void Engine::prover_loop(std::string name) {
  for (;;) {
    std::unique_ptr<Task> task;
    {
      std::unique_lock lock(m_);
      channel_cv_.wait(lock, [&] { return stopping_ || !channel_.empty(); });
      if (stopping_) return;
      task = std::move(channel_.front());
      channel_.pop_front();
      channel_cv_.notify_all();  // room for a waiting synthesis worker
    }
    Job& job = *task->job;
    if (!job_alive(job)) {
      drop_task(std::move(task), Stage::kInChannel);
      continue;
    }
    const auto begin = Clock::now();
    task->t.channel_ms = ms_between(task->mark, begin);
    ClassBytes dense;  // prove_start's buffers, from the engine's room, counted as this partition's
    if (task->shared_room) dense[BufferClass::kAbc] = static_cast<std::int64_t>(job.ws.prove_room);
    task->held[BufferClass::kAbc] += dense[BufferClass::kAbc];
    ledger_.record(Event::kProveStartBegin, dense, {}, Stage::kInChannel, Stage::kProving);
    set_worker(name, task.get());
    task->synth->label = {job.req.request_id.empty() ? std::to_string(job.id) : job.req.request_id, job.req.circuit,
                          static_cast<std::uint32_t>(task->partition)};
    auto p = guarded("prove_start", [&] { return job.workload->prove_start(std::move(task->synth)); });
    set_worker(name, nullptr);
    // a/b/c are gone (freed inside prove_start, or with the failed stage's state).
    task->reservation.release(task->abc_reserved);
    task->abc_reserved = 0;
    ClassBytes abc;
    abc[BufferClass::kAbc] = -task->held[BufferClass::kAbc];
    Counts abc_count{};
    abc_count[static_cast<std::size_t>(BufferClass::kAbc)] = task->held[BufferClass::kAbc] != 0 ? -1 : 0;
    task->held[BufferClass::kAbc] = 0;
    ledger_.record(Event::kAbcFreed, abc, abc_count, std::nullopt, std::nullopt);
    task->mark = Clock::now();
    task->t.prove_ms = ms_between(begin, task->mark);
    span(name, "prove_start", *task, begin, task->mark);
    std::unique_lock lock(m_);
    if (!p.ok() || !job_alive(job)) {
      if (!p.ok()) {
        fail_job(job, "partition " + std::to_string(task->partition) + ", prove_start: " + p.status().message(),
                 JobState::kFailed);
      }
      lock.unlock();
      drop_task(std::move(task), Stage::kProving);
      continue;
    }
    task->pending = std::move(*p);
    // In priority order too: an urgent partition's prove_finish does not wait behind a backlog.
    const int priority = job.req.priority;
    auto at = std::find_if(final_q_.begin(), final_q_.end(), [&](const auto& t) { return t->job->req.priority < priority; });
    final_q_.insert(at, std::move(task));
    final_cv_.notify_one();
  }
}

void Engine::finalizer_loop(std::string name) {
  for (;;) {
    std::unique_ptr<Task> task;
    {
      std::unique_lock lock(m_);
      final_cv_.wait(lock, [&] { return stopping_ || !final_q_.empty(); });
      if (stopping_) return;
      task = std::move(final_q_.front());
      final_q_.pop_front();
    }
    Job& job = *task->job;
    ledger_.record(Event::kFinalizeDone, {}, {}, Stage::kProving, Stage::kFinalizing);
    if (!job_alive(job)) {
      drop_task(std::move(task), Stage::kFinalizing);
      continue;
    }
    const auto begin = Clock::now();
    set_worker(name, task.get());
    auto proof = guarded("prove_finish", [&] { return job.workload->prove_finish(std::move(task->pending)); });
    set_worker(name, nullptr);
    task->t.finalize_ms = ms_between(begin, Clock::now());
    span(name, "prove_finish", *task, begin, Clock::now());
    if (!proof.ok()) {
      {
        std::lock_guard lock(m_);
        fail_job(job, "partition " + std::to_string(task->partition) + ", prove_finish: " + proof.status().message(),
                 JobState::kFailed);
      }
      drop_task(std::move(task), Stage::kFinalizing);
      continue;
    }
    if (config_.self_verify || job.workload->always_verify()) {
      const auto v0 = Clock::now();
      auto ok = guarded("self-verification", [&] { return job.workload->verify(job.req, task->partition, *proof); });
      task->t.verify_ms = ms_between(v0, Clock::now());
      span(name, "self-verify", *task, v0, Clock::now());
      if (!ok.ok() || !*ok) {
        {
          std::lock_guard lock(m_);
          fail_job(job,
                   "partition " + std::to_string(task->partition) + ", self-verification: " +
                       (ok.ok() ? std::string("the proof does not verify") : ok.status().message()),
                   JobState::kFailed);
        }
        drop_task(std::move(task), Stage::kFinalizing);
        continue;
      }
    }
    // The partition's public inputs, once, here (clients that verify ask for them with the result).
    std::vector<std::string> pub;
    auto named = guarded("public inputs", [&] { return job.workload->public_inputs_decimal(job.req, task->partition); });
    if (named.ok()) {
      pub = std::move(*named);
    } else if (named.status().code() != StatusCode::kUnavailable) {
      {
        std::lock_guard lock(m_);
        fail_job(job, "partition " + std::to_string(task->partition) + ", public inputs: " + named.status().message(),
                 JobState::kFailed);
      }
      drop_task(std::move(task), Stage::kFinalizing);
      continue;
    }
    complete_partition(std::move(task), std::move(*proof), std::move(pub));
  }
}

void Engine::Histogram::observe(double seconds) {
  std::size_t b = 0;
  while (b < kBuckets.size() && seconds > kBuckets[b]) ++b;
  ++counts[b];
  sum += seconds;
  ++n;
}

std::string Engine::prometheus_text() {
  const EngineStatus st = status();
  std::array<Histogram, 5> lat;
  {
    std::lock_guard lock(m_);
    lat = latency_;
  }
  std::string o;
  char buf[256];
  auto metric = [&](const char* name, const char* type, const char* help) {
    o += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
  };
  auto line = [&](const std::string& name, double v) {
    std::snprintf(buf, sizeof(buf), "%s %.17g\n", name.c_str(), v);
    o += buf;
  };
  metric("zkpipe_jobs_total", "counter", "Jobs by final state (submitted counts every accepted job).");
  line("zkpipe_jobs_total{state=\"submitted\"}", static_cast<double>(st.jobs_submitted));
  line("zkpipe_jobs_total{state=\"done\"}", static_cast<double>(st.jobs_done));
  line("zkpipe_jobs_total{state=\"failed\"}", static_cast<double>(st.jobs_failed));
  line("zkpipe_jobs_total{state=\"cancelled\"}", static_cast<double>(st.jobs_cancelled));
  metric("zkpipe_jobs_active", "gauge", "Jobs queued or running.");
  line("zkpipe_jobs_active", static_cast<double>(st.jobs_active));
  // Per circuit kind: throughput (rate of done) and failures per kind, and the queue.
  metric("zkpipe_kind_jobs_total", "counter", "Jobs of each circuit kind that ended, by final state.");
  for (const auto& [kind, k] : st.kind_totals) {
    for (auto [state, n] : {std::pair{"done", k.done}, {"failed", k.failed}, {"cancelled", k.cancelled}}) {
      line("zkpipe_kind_jobs_total{kind=\"" + kind + "\",state=\"" + state + "\"}", static_cast<double>(n));
    }
  }
  metric("zkpipe_kind_jobs", "gauge", "Jobs of each circuit kind queued or running now.");
  for (const auto& [kind, k] : st.kinds) {
    line("zkpipe_kind_jobs{kind=\"" + kind + "\",state=\"queued\"}", static_cast<double>(k.jobs_queued));
    line("zkpipe_kind_jobs{kind=\"" + kind + "\",state=\"running\"}", static_cast<double>(k.jobs_running));
  }
  metric("zkpipe_partitions", "gauge", "Partitions per pipeline stage (queued: not yet reserved).");
  line("zkpipe_partitions{stage=\"queued\"}", static_cast<double>(st.partitions_queued));
  for (std::size_t s = 0; s < kStages; ++s) {
    line(std::string("zkpipe_partitions{stage=\"") + stage_name(static_cast<Stage>(s)) + "_now\"}",
         static_cast<double>(st.ledger.partitions_in_stage[s]));
  }
  metric("zkpipe_worker_busy_seconds_total", "counter",
         "Seconds each worker spent in stages (prover workers: on the GPU when there is one).");
  for (const auto& w : st.workers) line("zkpipe_worker_busy_seconds_total{worker=\"" + w.name + "\"}", w.busy_total_s);
  metric("zkpipe_budget_bytes", "gauge", "Memory budget: total, reserved now, high-water mark, of it the prove-start room.");
  line("zkpipe_budget_bytes{kind=\"total\"}", static_cast<double>(st.budget_total));
  line("zkpipe_budget_bytes{kind=\"used\"}", static_cast<double>(st.budget_used));
  line("zkpipe_budget_bytes{kind=\"high_water\"}", static_cast<double>(st.budget_high_water));
  line("zkpipe_budget_bytes{kind=\"prove_room\"}", static_cast<double>(st.budget_room));
  metric("zkpipe_rss_bytes", "gauge", "Resident set size of the process (now, and its high-water mark).");
  line("zkpipe_rss_bytes{kind=\"now\"}", static_cast<double>(st.rss_bytes));
  line("zkpipe_rss_bytes{kind=\"peak\"}", static_cast<double>(st.rss_peak_bytes));
  metric("zkpipe_buffer_bytes", "gauge", "Buffer ledger: live bytes and high-water mark per class.");
  for (std::size_t c = 0; c < kBufferClasses; ++c) {
    const std::string cls = buffer_class_name(static_cast<BufferClass>(c));
    line("zkpipe_buffer_bytes{class=\"" + cls + "\",kind=\"live\"}", static_cast<double>(st.ledger.bytes.bytes[c]));
    line("zkpipe_buffer_bytes{class=\"" + cls + "\",kind=\"high_water\"}",
         static_cast<double>(st.ledger.high_water.bytes[c]));
  }
  metric("zkpipe_stage_seconds", "histogram", "Per-partition latency of each stage (completed partitions).");
  static constexpr const char* kNames[] = {"queue", "synthesis", "channel", "prove_start", "prove_finish"};
  for (std::size_t i = 0; i < lat.size(); ++i) {
    std::uint64_t cum = 0;
    for (std::size_t b = 0; b <= kBuckets.size(); ++b) {
      cum += lat[i].counts[b];
      char le[32];
      if (b < kBuckets.size()) {
        std::snprintf(le, sizeof(le), "%g", kBuckets[b]);
      } else {
        std::snprintf(le, sizeof(le), "+Inf");
      }
      line(std::string("zkpipe_stage_seconds_bucket{stage=\"") + kNames[i] + "\",le=\"" + le + "\"}",
           static_cast<double>(cum));
    }
    line(std::string("zkpipe_stage_seconds_sum{stage=\"") + kNames[i] + "\"}", lat[i].sum);
    line(std::string("zkpipe_stage_seconds_count{stage=\"") + kNames[i] + "\"}", static_cast<double>(lat[i].n));
  }
  return o;
}

void Engine::span(const std::string& worker, const char* stage, const Task& t, Clock::time_point begin,
                  Clock::time_point end) {
  TraceSpan sp{worker,
               stage,
               t.job->id,
               t.partition,
               std::chrono::duration<double, std::micro>(begin - started_).count(),
               std::chrono::duration<double, std::micro>(end - begin).count()};
  std::lock_guard lock(trace_m_);
  if (recent_.size() == kRecentSpans) recent_.pop_front();
  recent_.push_back(sp);
  if (config_.trace) trace_.push_back(std::move(sp));
}

std::vector<TraceSpan> Engine::recent_spans() {
  std::lock_guard lock(trace_m_);
  return {recent_.begin(), recent_.end()};
}

double Engine::now_us() const { return std::chrono::duration<double, std::micro>(Clock::now() - started_).count(); }

std::vector<TraceSpan> Engine::trace_spans() {
  std::lock_guard lock(trace_m_);
  return trace_;
}

std::string Engine::chrome_trace_json() {
  std::vector<TraceSpan> spans;
  {
    std::lock_guard lock(trace_m_);
    spans = trace_;
  }
  std::map<std::string, int> tids;
  for (const auto& s : spans) tids.emplace(s.worker, 0);
  int next = 1;
  for (auto& [w, tid] : tids) tid = next++;
  auto esc = [](const std::string& x) {
    std::string o;
    for (char c : x) {
      if (c == '"' || c == '\\') o += '\\';
      o += c;
    }
    return o;
  };
  std::string out = "{\"traceEvents\":[\n";
  bool first = true;
  for (const auto& [w, tid] : tids) {
    out += std::string(first ? "" : ",\n") +
           "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(tid) +
           ",\"args\":{\"name\":\"" + esc(w) + "\"}}";
    first = false;
  }
  char buf[512];
  for (const auto& s : spans) {
    std::snprintf(buf, sizeof(buf),
                  ",\n{\"name\":\"%s\",\"cat\":\"job %llu\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%.1f,\"dur\":%.1f,"
                  "\"args\":{\"job\":%llu,\"partition\":%zu}}",
                  esc(s.stage).c_str(), static_cast<unsigned long long>(s.job), tids[s.worker], s.start_us,
                  s.duration_us, static_cast<unsigned long long>(s.job), s.partition);
    out += buf;
  }
  out += "\n],\"displayTimeUnit\":\"ms\"}\n";
  return out;
}

}  // namespace zk::engine
