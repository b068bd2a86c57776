#include "server/dispatcher.hpp"

#include <unistd.h>

#include <random>
#include <vector>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

namespace zk::server {

using Clock = std::chrono::steady_clock;

namespace {

std::string timings_json(const std::vector<engine::PartitionTimings>& parts) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& p : parts) {
    a.push_back({{"queue_ms", p.queue_ms},
                 {"synthesis_ms", p.synthesis_ms},
                 {"channel_ms", p.channel_ms},
                 {"prove_ms", p.prove_ms},
                 {"finalize_ms", p.finalize_ms},
                 {"verify_ms", p.verify_ms}});
  }
  return a.dump();
}

std::vector<engine::PartitionTimings> parse_timings(const std::string& text) {
  std::vector<engine::PartitionTimings> out;
  auto a = nlohmann::json::parse(text, nullptr, false);
  if (a.is_discarded() || !a.is_array()) return out;
  for (const auto& p : a) {
    engine::PartitionTimings t;
    auto num = [&](const char* k) { return p.contains(k) && p[k].is_number() ? p[k].get<double>() : 0.0; };
    t.queue_ms = num("queue_ms");
    t.synthesis_ms = num("synthesis_ms");
    t.channel_ms = num("channel_ms");
    t.prove_ms = num("prove_ms");
    t.finalize_ms = num("finalize_ms");
    t.verify_ms = num("verify_ms");
    out.push_back(t);
  }
  return out;
}

store::Outcome to_outcome(const engine::JobResult& r) {
  store::Outcome o;
  o.state = r.state == engine::JobState::kDone     ? store::JobState::kDone
            : r.state == engine::JobState::kFailed ? store::JobState::kFailed
                                                   : store::JobState::kCancelled;
  o.proof = r.proof;
  o.error = r.error;
  o.curve = r.curve;
  o.public_inputs = r.public_inputs;
  o.timings_json = timings_json(r.partitions);
  o.total_ms = r.total_ms;
  return o;
}

engine::JobResult to_result(const store::JobView& v, bool public_inputs) {
  engine::JobResult r;
  r.id = v.id;
  const store::Outcome& o = *v.outcome;
  r.state = o.state == store::JobState::kDone     ? engine::JobState::kDone
            : o.state == store::JobState::kFailed ? engine::JobState::kFailed
                                                  : engine::JobState::kCancelled;
  r.proof = o.proof;
  r.error = o.error;
  r.partitions = parse_timings(o.timings_json);
  r.total_ms = o.total_ms;
  r.circuit = v.circuit + ":" + v.shape;  // the engine's kind name, as a local result has it
  r.partition_count = v.partitions;
  r.curve = o.curve;
  if (public_inputs) r.public_inputs = o.public_inputs;
  return r;
}

}  // namespace

std::string default_owner() {
  char host[256] = {};
  if (::gethostname(host, sizeof(host) - 1) != 0) std::snprintf(host, sizeof(host), "unknown-host");
  std::random_device rd;
  char tag[16];
  std::snprintf(tag, sizeof(tag), "%08x", rd());
  return std::string(host) + ":" + std::to_string(::getpid()) + ":" + tag;
}

Dispatcher::Dispatcher(engine::Engine& engine, WorkloadRegistry& registry, store::JobStore& store,
                       DispatchOptions options)
    : engine_(engine), registry_(registry), store_(store), opt_(std::move(options)) {
  if (opt_.owner.empty()) opt_.owner = default_owner();
  claimer_ = std::thread([this] { claim_loop(); });
  recorder_ = std::thread([this] { record_loop(); });
}

Dispatcher::~Dispatcher() { stop(); }

Result<store::Accepted> Dispatcher::accept(const std::string& circuit, const std::string& shape,
                                           engine::JobRequest job) {
  if (Status s = engine_.validate(job); !s.ok()) return s;
  store::NewJob n;
  n.request_id = job.request_id;
  n.circuit = circuit;
  n.shape = shape;
  n.priority = job.priority;
  n.partitions = static_cast<std::uint32_t>(job.partitions);
  n.input = std::move(job.input);
  auto a = store_.accept(n);
  if (a.ok() && !a->existed) {
    std::lock_guard lock(m_);
    validated_.insert(a->id);
  }
  return a;
}

Result<std::optional<engine::JobResult>> Dispatcher::poll(std::uint64_t id, bool public_inputs) {
  // The answer is always the store's outcome: the one written first, so that every daemon answers
  // a job with the same proof even when a lease ran out and two daemons proved it.
  auto r = engine_.await(id, std::chrono::milliseconds(0), false);
  if (!r.ok() && r.status().code() == StatusCode::kDeadlineExceeded) return std::optional<engine::JobResult>();
  if (!r.ok() && r.status().code() != StatusCode::kNotFound) return r.status();
  const bool ended_here = r.ok();  // its outcome is being written, or it is (kCancelled) a stopped claim
  const auto now = Clock::now();
  if (!ended_here) {
    std::lock_guard lock(m_);
    auto it = looked_.find(id);
    // A job queued or running elsewhere is looked up at most every half poll period, however
    // many waiters it has.
    if (it != looked_.end() && now - it->second < opt_.poll / 2) return std::optional<engine::JobResult>();
    looked_[id] = now;
  }
  auto v = store_.lookup(id);
  if (!v.ok()) {
    store_failed("looking up job " + std::to_string(id) + " (still waiting)", v.status());
    return std::optional<engine::JobResult>();
  }
  if (!v->has_value() || (*v)->outcome) {
    std::lock_guard lock(m_);
    looked_.erase(id);
  }
  if (!v->has_value()) {
    return Status::not_found("unknown job " + std::to_string(id) + " (never accepted, or its result expired)");
  }
  if ((*v)->outcome) return std::optional<engine::JobResult>(to_result(**v, public_inputs));
  return std::optional<engine::JobResult>();  // queued or running; or ended here, outcome not yet written
}

Result<bool> Dispatcher::cancel(std::uint64_t id) {
  auto v = store_.lookup(id);
  if (!v.ok()) return v.status();
  if (!v->has_value()) return Status::not_found("unknown job " + std::to_string(id) + " (never accepted, or expired)");
  auto won = store_.cancel(id, "cancelled by a client");
  if (!won.ok()) return won.status();
  if (*won) {
    // Running here: stop it (its partitions give their memory back at the next stage boundary).
    // Running on another daemon: that daemon sees its claim finished at its next heartbeat.
    (void)engine_.cancel(id);
  }
  return *won;
}

void Dispatcher::store_failed(const std::string& what, const Status& s) {
  // A store that is down fails every call for a while (a database restart): one line when it goes,
  // then one every 30 s with the count, and one when it is back.
  std::lock_guard lock(log_m_);
  const auto now = Clock::now();
  ++store_failures_;
  if (!store_down_ || now - last_store_warning_ > std::chrono::seconds(30)) {
    spdlog::warn("job store {}: {} failed: {} ({} failure(s) so far; retrying)", store_.describe(), what, s.message(),
                 store_failures_);
    last_store_warning_ = now;
  }
  store_down_ = true;
}

void Dispatcher::store_ok() {
  std::lock_guard lock(log_m_);
  if (store_down_) spdlog::info("job store {}: reachable again", store_.describe());
  store_down_ = false;
}

void Dispatcher::claim_loop() {
  auto next_heartbeat = Clock::now();
  auto next_expire = Clock::now() + std::chrono::seconds(60);
  while (!stop_) {
    try {
      const auto now = Clock::now();
      if (now >= next_heartbeat) {
        if (Status s = store_.heartbeat(opt_.owner, opt_.lease); !s.ok()) {
          store_failed("heartbeat", s);
        } else {
          store_ok();
        }
        drop_lost_claims();
        next_heartbeat = now + opt_.heartbeat;
      }
      if (now >= next_expire) {
        if (Status s = store_.expire(); !s.ok()) spdlog::warn("job store: expiring results: {}", s.message());
        std::lock_guard lock(m_);
        for (auto it = skip_.begin(); it != skip_.end();) it = it->second < now ? skip_.erase(it) : std::next(it);
        if (validated_.size() > 10000) validated_.clear();  // accepted here, claimed elsewhere: revalidated
        for (auto it = looked_.begin(); it != looked_.end();) {
          it = now - it->second > std::chrono::minutes(5) ? looked_.erase(it) : std::next(it);
        }
        next_expire = now + std::chrono::seconds(60);
      }
      claim_round();
    } catch (const std::exception& e) {
      spdlog::error("job dispatcher: {}", e.what());
    } catch (...) {
      spdlog::error("job dispatcher: unexpected error");
    }
    const auto until_heartbeat = std::chrono::duration_cast<std::chrono::milliseconds>(next_heartbeat - Clock::now());
    store_.wait_for_change(std::max(std::chrono::milliseconds(1), std::min(opt_.poll, until_heartbeat)));
  }
}

void Dispatcher::claim_round() {
  if (paused_ || stop_) return;
  const auto st = engine_.status();
  if (st.jobs_active >= opt_.max_active_jobs) return;
  if (engine_.held_input_bytes() >= engine_.input_cap()) return;  // the engine's inputs are full
  std::size_t room = opt_.max_active_jobs - st.jobs_active;
  if (opt_.claim_partitions != 0) {
    if (st.partitions_queued >= opt_.claim_partitions) return;
    room = 1;  // one at a time: the next round sees its partitions queued
  }
  std::vector<std::uint64_t> skip;
  {
    std::lock_guard lock(m_);
    const auto now = Clock::now();
    for (const auto& [id, until] : skip_) {
      if (until > now) skip.push_back(id);
    }
  }
  auto claimed = store_.claim(opt_.owner, room, opt_.lease, skip);
  if (!claimed.ok()) {
    store_failed("claim", claimed.status());
    return;
  }
  for (auto& c : *claimed) {
    if (c.attempt > 1) spdlog::info("job {}: attempt {} (claimed by {})", c.id, c.attempt, opt_.owner);
    auto fail = [&](const Status& why) {
      store::Outcome o;
      o.state = store::JobState::kFailed;
      o.error = why.message();
      if (auto w = store_.finish(c.id, opt_.owner, o); !w.ok()) spdlog::warn("job {}: {}", c.id, w.status().message());
      spdlog::info("job {} failed: {}", c.id, why.message());
    };
    auto give_back = [&](const Status& why, bool skip_here) {
      if (Status s = store_.release(c.id, opt_.owner); !s.ok()) spdlog::warn("job {}: release: {}", c.id, s.message());
      if (skip_here) {
        std::lock_guard lock(m_);
        skip_[c.id] = Clock::now() + std::chrono::seconds(60);
      }
      spdlog::info("job {}: not taken here ({}); left for another daemon", c.id, why.message());
    };
    auto r = registry_.resolve(c.circuit, c.shape);
    if (!r.ok()) {
      // No keys here: another daemon of the fleet may have them (with the embedded store there is
      // no other daemon: the job fails with the reason).
      if (r.status().code() == StatusCode::kNotFound && opt_.claim_partitions != 0) {
        give_back(r.status(), true);
      } else {
        fail(r.status());
      }
      continue;
    }
    engine::JobRequest req;
    req.circuit = r->kind;
    req.shape = r->job_shape;
    req.input = std::move(c.input);
    req.priority = c.priority;
    req.partitions = c.partitions;
    req.id = c.id;
    {
      std::lock_guard lock(m_);
      req.validated = validated_.erase(c.id) != 0;
      claimed_.insert(c.id);  // before submit: the recorder may see the job end at once
      submitting_.insert(c.id);  // until submit returns, the engine not knowing it is no news
    }
    auto id = engine_.submit(std::move(req));
    const bool taken = id.ok() || id.status().code() == StatusCode::kAlreadyExists;  // ours already: renewed
    {
      std::lock_guard lock(m_);
      submitting_.erase(c.id);
      if (!taken) claimed_.erase(c.id);
    }
    if (id.ok()) {
      spdlog::info("job {} started: {} {}", c.id, c.circuit, c.shape);
      continue;
    }
    if (taken) continue;
    const bool too_big = id.status().code() == StatusCode::kResourceExhausted &&
                         id.status().message().find("whole memory budget") != std::string::npos;
    if (id.status().code() == StatusCode::kUnavailable ||
        (id.status().code() == StatusCode::kResourceExhausted && !too_big)) {
      give_back(id.status(), false);  // shutting down, or the engine's inputs are full: later
      return;
    }
    if (too_big && opt_.claim_partitions != 0) {
      give_back(id.status(), true);  // a daemon with a larger budget may take it
      continue;
    }
    fail(id.status());
  }
}

void Dispatcher::record_loop() {
  std::uint64_t seen = 0;
  while (!stop_) {
    seen = engine_.wait_for_change(seen, std::chrono::milliseconds(200));
    try {
      record_round(false);
    } catch (const std::exception& e) {
      spdlog::error("job dispatcher: recording outcomes: {}", e.what());
    } catch (...) {
      spdlog::error("job dispatcher: recording outcomes: unexpected error");
    }
  }
}

void Dispatcher::record_round(bool final, bool release_running) {
  std::vector<std::uint64_t> ids;
  {
    std::lock_guard lock(m_);
    ids.assign(claimed_.begin(), claimed_.end());
  }
  for (const std::uint64_t id : ids) {
    auto r = engine_.await(id, std::chrono::milliseconds(0), true);
    if (!r.ok() && r.status().code() == StatusCode::kDeadlineExceeded) {
      if (!release_running) continue;  // still running
      // The engine cancelled it but a stage of it still runs, and the process ends now: the job
      // goes back to the store for the next daemon (the attempt not counted).
      if (Status s = store_.release(id, opt_.owner); s.ok()) {
        spdlog::info("job {}: stopped inside a stage; kept in the job store", id);
      }
      std::lock_guard lock(m_);
      claimed_.erase(id);
      continue;
    }
    if (!r.ok()) {
      // Unknown to the engine. A claim whose submit is under way is not there yet: giving it back
      // now would queue it again while it runs here, and it would be proved twice. Once submit has
      // returned (checked under the lock claim_round updates), a job it took is in the engine.
      {
        std::lock_guard lock(m_);
        if (submitting_.count(id) != 0 || claimed_.count(id) == 0) continue;
      }
      r = engine_.await(id, std::chrono::milliseconds(0), true);
      if (!r.ok() && r.status().code() == StatusCode::kDeadlineExceeded) continue;
    }
    bool done_with = true;
    if (!r.ok()) {
      // The engine does not know it (it never took it, or forgot it): give the claim back.
      if (Status s = store_.release(id, opt_.owner); !s.ok()) done_with = false;
    } else if (r->state == engine::JobState::kCancelled) {
      // A client's cancel or a lost claim (the store has the outcome), or the engine shut down
      // (the job is kept for the next daemon: its claim is given back, the attempt not counted).
      auto v = store_.lookup(id);
      if (!v.ok()) {
        done_with = false;
      } else if (v->has_value() && !(*v)->outcome) {
        if (Status s = store_.release(id, opt_.owner); !s.ok()) done_with = false;
        if (done_with) spdlog::info("job {}: stopped before it finished; kept in the job store", id);
      }
    } else {
      auto w = store_.finish(id, opt_.owner, to_outcome(*r));
      if (!w.ok()) {
        done_with = false;  // the store is unreachable: the next round tries again
        store_failed("recording job " + std::to_string(id) + "'s outcome (kept; tried again)", w.status());
      } else if (!*w) {
        spdlog::info("job {}: finished here, but its outcome was already written (cancelled, or proved elsewhere); "
                     "this one is dropped",
                     id);
      }
    }
    if (done_with || final) {
      {
        std::lock_guard lock(m_);
        claimed_.erase(id);
      }
      // The store holds its outcome now: the engine need not keep it (waiters read the store).
      if (done_with) engine_.forget(id);
    }
  }
}

void Dispatcher::drop_lost_claims() {
  std::vector<std::uint64_t> ids;
  {
    std::lock_guard lock(m_);
    ids.assign(claimed_.begin(), claimed_.end());
  }
  if (ids.empty()) return;
  auto lost = store_.lost_claims(opt_.owner, ids);
  if (!lost.ok()) {
    store_failed("checking claims", lost.status());
    return;
  }
  for (const std::uint64_t id : *lost) {
    {
      std::lock_guard lock(m_);
      claimed_.erase(id);
    }
    spdlog::info("job {}: no longer ours (cancelled, or its lease ran out and another daemon took it); stopped here",
                 id);
    (void)engine_.cancel(id);
  }
}

void Dispatcher::stop(bool release_running) {
  if (stop_.exchange(true)) return;
  paused_ = true;
  if (claimer_.joinable()) claimer_.join();
  if (recorder_.joinable()) recorder_.join();
  try {
    record_round(true, release_running);
  } catch (...) {
    spdlog::error("job dispatcher: recording the last outcomes failed");
  }
}

}  // namespace zk::server
