#include "server/service.hpp"

#include <openssl/crypto.h>

#include <algorithm>
#include <tuple>

#include <spdlog/spdlog.h>

#include "circuits/filecoin/proof_kind.hpp"
#include "engine/ledger.hpp"
#include "gpu/gpu.hpp"

namespace zk::server {

using Clock = std::chrono::steady_clock;

grpc::Status to_grpc(const Status& s) {
  using grpc::StatusCode;
  StatusCode c = StatusCode::UNKNOWN;
  switch (s.code()) {
    case zk::StatusCode::kOk:
      return grpc::Status::OK;
    case zk::StatusCode::kInvalidArgument:
    case zk::StatusCode::kOutOfRange:
      c = StatusCode::INVALID_ARGUMENT;
      break;
    case zk::StatusCode::kNotFound:
      c = StatusCode::NOT_FOUND;
      break;
    case zk::StatusCode::kIoError:
    case zk::StatusCode::kInternal:
      c = StatusCode::INTERNAL;
      break;
    case zk::StatusCode::kUnavailable:
      c = StatusCode::UNAVAILABLE;
      break;
    case zk::StatusCode::kAlreadyExists:
      c = StatusCode::ALREADY_EXISTS;
      break;
    case zk::StatusCode::kDeadlineExceeded:
      c = StatusCode::DEADLINE_EXCEEDED;
      break;
    case zk::StatusCode::kCancelled:
      c = StatusCode::CANCELLED;
      break;
    case zk::StatusCode::kResourceExhausted:
      c = StatusCode::RESOURCE_EXHAUSTED;
      break;
    case zk::StatusCode::kUnimplemented:
      c = StatusCode::UNIMPLEMENTED;
      break;
  }
  return {c, bounded_message(s.message())};
}

ProvingService::ProvingService(engine::Engine& engine, WorkloadRegistry& registry, Dispatcher& dispatcher,
                               ServiceOptions options)
    : engine_(engine), registry_(registry), dispatcher_(dispatcher), opt_(std::move(options)) {
  watcher_ = std::thread([this] { watch(); });
  for (unsigned i = 0; i < std::max(1u, opt_.admission_workers); ++i) admitters_.emplace_back([this] { admit_loop(); });
}

ProvingService::~ProvingService() { stop(); }

std::size_t ProvingService::waiters() const {
  std::lock_guard lock(m_);
  return waiters_.size();
}

std::size_t ProvingService::admissions() const {
  std::lock_guard lock(m_);
  return admissions_.size() + admitting_;
}

void ProvingService::count(const char* method) {
  std::lock_guard lock(m_);
  ++calls_[method];
}

grpc::ServerUnaryReactor* ProvingService::finish(grpc::CallbackServerContext* ctx, const grpc::Status& s) {
  auto* r = ctx->DefaultReactor();
  r->Finish(s);
  return r;
}

grpc::Status ProvingService::authorize(grpc::CallbackServerContext* ctx) const {
  if (opt_.token.empty()) return grpc::Status::OK;
  const auto& md = ctx->client_metadata();
  auto it = md.find("authorization");
  const std::string expected = "Bearer " + opt_.token;
  // Constant-time in the token's bytes: the comparison time tells nothing about how much matched.
  const bool match = it != md.end() && it->second.size() == expected.size() &&
                     CRYPTO_memcmp(it->second.data(), expected.data(), expected.size()) == 0;
  if (!match) {
    return {grpc::StatusCode::UNAUTHENTICATED, "this daemon needs 'authorization: Bearer <token>' (zkpipe --token)"};
  }
  return grpc::Status::OK;
}

Status ProvingService::check_request(const pb::SubmitProofRequest& req) const {
  if (draining_) return Status::unavailable("the daemon is shutting down and accepts no new jobs");
  if (req.circuit().empty()) return Status::invalid_argument("circuit is required (synthetic, porep or zkey)");
  // Names are short; anything longer is malformed (and is never echoed whole).
  for (const auto& [field, value, max] : {std::tuple{"circuit", &req.circuit(), 64}, std::tuple{"shape", &req.shape(), 256},
                                          std::tuple{"request_id", &req.request_id(), 256}}) {
    if (value->size() > static_cast<std::size_t>(max)) {
      return Status::invalid_argument(std::string(field) + " is " + std::to_string(value->size()) +
                                      " bytes long; at most " + std::to_string(max) + " are allowed");
    }
  }
  return {};
}

Result<std::uint64_t> ProvingService::submit_job(const std::string& circuit, const std::string& shape,
                                                 engine::JobRequest job, std::uint32_t* partitions,
                                                 std::optional<std::uint64_t> registered_proof) {
  // Runs on an admission thread, after the handler's checks: draining may have begun since.
  if (draining_) return Status::unavailable("the daemon is shutting down and accepts no new jobs");
  if (engine_.status().jobs_active >= opt_.max_active_jobs) {
    return Status::resource_exhausted("the daemon already holds " + std::to_string(opt_.max_active_jobs) +
                                      " active jobs (daemon.max_active_jobs); retry later");
  }
  auto r = registry_.resolve(circuit, shape);
  if (!r.ok()) return r.status();
  job.circuit = r->kind;
  job.shape = r->job_shape;
  if (job.partitions == 0) {
    // The input may fix it (an NI PoRep C1: 13 or 126), else the kind's count for the shape.
    const std::size_t from_input = engine_.partitions_of(job);
    job.partitions = from_input != 0 ? from_input : r->partitions;
  }
  if (registered_proof) {
    // The input is parsed once here and found again by validation (the workload keeps it).
    if (auto named = engine_.registered_proof_of(job); named && *named != *registered_proof) {
      return Status::invalid_argument("registered_proof " + std::to_string(*registered_proof) +
                                      " contradicts the input, whose registered proof is " + std::to_string(*named));
    }
  }
  *partitions = static_cast<std::uint32_t>(job.partitions);
  auto a = dispatcher_.accept(circuit, shape, std::move(job));
  if (!a.ok()) return a.status();
  if (a->existed) {
    spdlog::info("job {}: its request id was seen before with the same payload (the same job)", a->id);
  } else {
    spdlog::info("job {} accepted: {} {}", a->id, circuit, shape);
  }
  return a->id;
}

Result<bool> ProvingService::cancel_job(std::uint64_t id) {
  auto was = dispatcher_.cancel(id);
  if (was.ok() && *was) spdlog::info("job {} cancelled by a client", id);
  return was;
}

int default_priority(const std::string& circuit) {
  auto kind = circuits::filecoin::find_proof_kind(circuit);
  return kind.ok() ? (*kind)->default_priority() : 0;
}

Result<std::uint64_t> ProvingService::submit(const pb::SubmitProofRequest& req, std::uint32_t* partitions) {
  engine::JobRequest job;
  job.input.assign(req.input().begin(), req.input().end());
  job.priority = req.priority() != 0 ? req.priority() : default_priority(req.circuit());
  job.request_id = req.request_id();
  job.partitions = req.partitions();
  return submit_job(req.circuit(), req.shape(), std::move(job), partitions);
}

namespace {

Clock::time_point deadline_after(std::uint32_t timeout_ms) {
  return timeout_ms > 0 ? Clock::now() + std::chrono::milliseconds(timeout_ms) : Clock::time_point::max();
}

}  // namespace

grpc::ServerUnaryReactor* ProvingService::SubmitProof(grpc::CallbackServerContext* ctx,
                                                      const pb::SubmitProofRequest* req,
                                                      pb::SubmitProofResponse* resp) {
  count("SubmitProof");
  if (auto a = authorize(ctx); !a.ok()) return finish(ctx, a);
  if (Status s = check_request(*req); !s.ok()) return finish(ctx, to_grpc(s));
  return enqueue(ctx, req->input().size(), [this, req, resp](grpc::ServerUnaryReactor*) -> std::optional<grpc::Status> {
    std::uint32_t parts = 0;
    auto id = guarded("SubmitProof", [&] { return submit(*req, &parts); });
    if (!id.ok()) return to_grpc(id.status());
    resp->set_job_id(*id);
    resp->set_partitions(parts);
    return grpc::Status::OK;
  });
}

grpc::ServerUnaryReactor* ProvingService::AwaitProof(grpc::CallbackServerContext* ctx,
                                                     const pb::AwaitProofRequest* req, pb::ProofResult* resp) {
  count("AwaitProof");
  if (auto a = authorize(ctx); !a.ok()) return finish(ctx, a);
  auto* reactor = ctx->DefaultReactor();
  wait_for(req->job_id(), deadline_after(req->timeout_ms()), ctx, reactor, proof_result_answers(req->job_id(), resp));
  return reactor;
}

grpc::ServerUnaryReactor* ProvingService::Prove(grpc::CallbackServerContext* ctx, const pb::ProveRequest* req,
                                                pb::ProofResult* resp) {
  count("Prove");
  if (auto a = authorize(ctx); !a.ok()) return finish(ctx, a);
  if (Status s = check_request(req->submit()); !s.ok()) return finish(ctx, to_grpc(s));
  // The timeout counts from the call's arrival: time spent waiting for admission is part of it.
  const auto deadline = deadline_after(req->timeout_ms());
  return enqueue(ctx, req->submit().input().size(),
                 [this, ctx, req, resp, deadline](grpc::ServerUnaryReactor* reactor) -> std::optional<grpc::Status> {
                   std::uint32_t parts = 0;
                   auto id = guarded("Prove", [&] { return submit(req->submit(), &parts); });
                   if (!id.ok()) return to_grpc(id.status());
                   // The request lives until the proof is answered, and the engine holds its own
                   // copy of the input now: the request's is given back (gRPC made the request
                   // mutable; handlers are only shown it const).
                   std::string().swap(*const_cast<pb::ProveRequest*>(req)->mutable_submit()->mutable_input());
                   wait_for(*id, deadline, ctx, reactor, proof_result_answers(*id, resp));
                   return std::nullopt;
                 });
}

grpc::ServerUnaryReactor* ProvingService::enqueue(grpc::CallbackServerContext* ctx, std::uint64_t bytes,
                                                  AdmissionWork work) {
  Admission a{.ctx = ctx, .reactor = ctx->DefaultReactor(), .work = std::move(work), .bytes = bytes};
  // The inputs waiting here are bounded together with those the engine holds (engine.max_input_bytes):
  // a burst of large requests is refused at once instead of piling up in memory.
  const std::uint64_t cap = engine_.input_cap();
  const std::uint64_t held = engine_.held_input_bytes();
  grpc::Status refused;
  {
    std::lock_guard lock(m_);
    if (stop_) {
      refused = {grpc::StatusCode::UNAVAILABLE, "the daemon is stopping"};
    } else if (admissions_.size() + admitting_ >= opt_.max_active_jobs) {
      refused = {grpc::StatusCode::RESOURCE_EXHAUSTED, std::to_string(admissions_.size() + admitting_) +
                                                           " requests are already waiting for admission "
                                                           "(daemon.max_active_jobs); retry later"};
    } else if (held + admission_bytes_ + a.bytes > cap) {
      refused = {grpc::StatusCode::RESOURCE_EXHAUSTED,
                 "the jobs in progress hold " + engine::format_bytes(held) + " of inputs and those waiting for "
                     "admission " + engine::format_bytes(admission_bytes_) + "; this one (" +
                     engine::format_bytes(a.bytes) + ") would pass engine.max_input_bytes = " +
                     engine::format_bytes(cap) + "; retry later"};
    } else {
      admission_bytes_ += a.bytes;
      admissions_.push_back(a);
    }
  }
  if (!refused.ok()) {
    a.reactor->Finish(refused);
    return a.reactor;
  }
  admit_cv_.notify_one();
  return a.reactor;
}

void ProvingService::admit_loop() {
  for (;;) {
    Admission a;
    bool stopping = false;
    {
      std::unique_lock lock(m_);
      admit_cv_.wait(lock, [&] { return stop_ || !admissions_.empty(); });
      if (admissions_.empty()) return;  // stopping, and nothing left to answer
      a = std::move(admissions_.front());
      admissions_.pop_front();
      ++admitting_;
      stopping = stop_;
    }
    if (stopping) {
      a.reactor->Finish({grpc::StatusCode::UNAVAILABLE, "the daemon stopped before this request was admitted"});
    } else {
      admit(a);
    }
    a.work = nullptr;  // what the work captured goes now, not when the next call replaces it
    std::lock_guard lock(m_);
    --admitting_;
    admission_bytes_ -= a.bytes;
  }
}

void ProvingService::admit(const Admission& a) {
  // Nothing may escape an admission thread, and every call it took must be answered exactly once
  // (a reactor left unfinished would hang the server's shutdown): whatever throws is answered
  // INTERNAL. Work that hands the call to wait_for throws only before it has.
  grpc::Status answer;
  try {
    if (a.ctx->IsCancelled()) {
      answer = {grpc::StatusCode::CANCELLED, "the client cancelled the call before it was admitted"};
    } else {
      auto done = a.work(a.reactor);
      if (!done.has_value()) return;  // the watcher answers it
      answer = *done;
    }
  } catch (const std::exception& e) {
    answer = {grpc::StatusCode::INTERNAL, std::string("admitting the request: ") + e.what()};
  } catch (...) {
    answer = {grpc::StatusCode::INTERNAL, "admitting the request: unexpected error"};
  }
  a.reactor->Finish(answer);
}

void ProvingService::wait_for(std::uint64_t job, Clock::time_point deadline, grpc::CallbackServerContext* ctx,
                              grpc::ServerUnaryReactor* reactor, WaitAnswers answers) {
  Waiter w{job, deadline, ctx, reactor, std::move(answers)};
  // Already over (or unknown): answer now, from this thread, without waiting.
  if (try_answer(w, Clock::now(), false)) return;
  std::lock_guard lock(m_);
  if (stop_) {
    reactor->Finish({grpc::StatusCode::UNAVAILABLE, "the daemon is stopping"});
    return;
  }
  waiters_.push_back(std::move(w));
  cv_.notify_one();
}

bool ProvingService::try_answer(Waiter& w, Clock::time_point now, bool final) {
  // Runs on the watcher thread and in handlers: nothing it throws may escape (the waiter is then
  // answered INTERNAL with the reason, and the daemon goes on).
  try {
    return answer(w, now, final);
  } catch (const std::exception& e) {
    w.reactor->Finish({grpc::StatusCode::INTERNAL, std::string("answering job ") + std::to_string(w.job) + ": " + e.what()});
  } catch (...) {
    w.reactor->Finish({grpc::StatusCode::INTERNAL, "answering job " + std::to_string(w.job) + ": unexpected error"});
  }
  return true;
}

bool ProvingService::answer(Waiter& w, Clock::time_point now, bool final) {
  auto r = dispatcher_.poll(w.job, w.answers.public_inputs);
  if (!r.ok()) {
    w.reactor->Finish(to_grpc(r.status()));
    return true;
  }
  if (!r->has_value()) {  // queued or running, here or on another daemon
    if (w.ctx->IsCancelled()) {
      w.reactor->Finish({grpc::StatusCode::CANCELLED, "the client cancelled the call"});
      return true;
    }
    if (final) {
      w.reactor->Finish({grpc::StatusCode::UNAVAILABLE,
                         "the daemon stopped before job " + std::to_string(w.job) +
                             " finished (the job is kept in the job store; await it again once a daemon serves the "
                             "queue)"});
      return true;
    }
    if (now >= w.deadline) {
      w.reactor->Finish(w.answers.on_timeout());
      return true;
    }
    return false;
  }
  w.reactor->Finish(w.answers.on_result(**r));
  return true;
}

ProvingService::WaitAnswers ProvingService::proof_result_answers(std::uint64_t job, pb::ProofResult* out) const {
  WaitAnswers a;
  a.public_inputs = true;
  a.on_timeout = [job] {
    return grpc::Status{grpc::StatusCode::DEADLINE_EXCEEDED,
                        "job " + std::to_string(job) + " is still running (it goes on; await it again)"};
  };
  a.on_result = [out](const engine::JobResult& r) {
    pb::ProofResult& o = *out;
    o.set_job_id(r.id);
    o.set_circuit(r.circuit);
    o.set_curve(r.curve);
    o.set_partitions(static_cast<std::uint32_t>(r.partition_count));
    switch (r.state) {
      case engine::JobState::kDone:
        o.set_status(pb::JOB_STATUS_COMPLETED);
        break;
      case engine::JobState::kCancelled:
        o.set_status(pb::JOB_STATUS_CANCELLED);
        break;
      default:
        o.set_status(pb::JOB_STATUS_FAILED);
        break;
    }
    o.set_proof(std::string(r.proof.begin(), r.proof.end()));
    o.set_error(r.error);
    for (const auto& part : r.public_inputs) {
      auto* p = o.add_public_inputs();
      for (const auto& v : part) p->add_values(v);
    }
    auto* t = o.mutable_timings();
    for (const auto& p : r.partitions) {
      t->set_queue_ms(t->queue_ms() + p.queue_ms);
      t->set_synthesis_ms(t->synthesis_ms() + p.synthesis_ms);
      t->set_prove_ms(t->prove_ms() + p.prove_ms);
      t->set_finalize_ms(t->finalize_ms() + p.finalize_ms);
    }
    t->set_total_ms(r.total_ms);
    return grpc::Status::OK;
  };
  return a;
}

void ProvingService::watch() {
  std::uint64_t seen = 0;
  for (;;) {
    // Wakes when a job may have finished, or every 25 ms for deadlines and departed clients.
    seen = engine_.wait_for_change(seen, std::chrono::milliseconds(25));
    std::list<Waiter> batch;
    {
      std::unique_lock lock(m_);
      if (stop_) return;
      if (waiters_.empty()) {
        cv_.wait_for(lock, std::chrono::milliseconds(25), [&] { return stop_ || !waiters_.empty(); });
        if (stop_) return;
      }
      batch.splice(batch.end(), waiters_);
    }
    const auto now = Clock::now();
    for (auto it = batch.begin(); it != batch.end();) it = try_answer(*it, now, false) ? batch.erase(it) : std::next(it);
    std::lock_guard lock(m_);
    waiters_.splice(waiters_.end(), batch);
  }
}

void ProvingService::stop() {
  {
    std::lock_guard lock(m_);
    if (stop_ && !watcher_.joinable()) return;
    stop_ = true;
  }
  cv_.notify_all();
  admit_cv_.notify_all();
  // The admission threads first: each finishes the call in hand, answers every call still queued
  // (UNAVAILABLE) and exits. A Prove they admitted is then among the waiters, answered below.
  for (auto& t : admitters_) {
    if (t.joinable()) t.join();
  }
  if (watcher_.joinable()) watcher_.join();
  std::vector<std::thread> loaders;
  {
    std::lock_guard lock(m_);
    loaders.swap(loaders_);
  }
  for (auto& t : loaders) t.join();
  std::list<Waiter> left;
  {
    std::lock_guard lock(m_);
    left.swap(waiters_);
  }
  for (auto& w : left) try_answer(w, Clock::now(), true);
}

grpc::ServerUnaryReactor* ProvingService::CancelProof(grpc::CallbackServerContext* ctx,
                                                      const pb::CancelProofRequest* req,
                                                      pb::CancelProofResponse* resp) {
  count("CancelProof");
  if (auto a = authorize(ctx); !a.ok()) return finish(ctx, a);
  auto was = cancel_job(req->job_id());
  if (!was.ok()) return finish(ctx, to_grpc(was.status()));
  resp->set_was_active(*was);
  return finish(ctx, grpc::Status::OK);
}

grpc::ServerUnaryReactor* ProvingService::GetStatus(grpc::CallbackServerContext* ctx, const pb::GetStatusRequest*,
                                                    pb::GetStatusResponse* resp) {
  count("GetStatus");
  if (auto a = authorize(ctx); !a.ok()) return finish(ctx, a);
  status(resp);
  return finish(ctx, grpc::Status::OK);
}

void ProvingService::status(pb::GetStatusResponse* resp) {
  const auto st = engine_.status();
  resp->set_version(opt_.version);
  resp->set_uptime_s(std::chrono::duration<double>(Clock::now() - started_).count());
  resp->set_draining(draining_);
  auto* b = resp->mutable_budget();
  b->set_total_bytes(st.budget_total);
  b->set_used_bytes(st.budget_used);
  b->set_high_water_bytes(st.budget_high_water);
  for (std::size_t c = 0; c < engine::kBufferClasses; ++c) {
    auto* l = resp->add_ledger();
    l->set_name(engine::buffer_class_name(static_cast<engine::BufferClass>(c)));
    l->set_bytes(st.ledger.bytes.bytes[c]);
    l->set_high_water_bytes(st.ledger.high_water.bytes[c]);
    l->set_buffers(st.ledger.count[c]);
  }
  for (const auto& [kind, k] : st.kinds) {
    auto* q = resp->add_queues();
    q->set_circuit(kind);
    q->set_jobs_queued(static_cast<std::uint32_t>(k.jobs_queued));
    q->set_jobs_running(static_cast<std::uint32_t>(k.jobs_running));
    q->set_partitions_queued(static_cast<std::uint32_t>(k.partitions_queued));
  }
  for (std::size_t s = 0; s < engine::kStages; ++s) {
    auto* x = resp->add_stages();
    x->set_stage(engine::stage_name(static_cast<engine::Stage>(s)));
    x->set_partitions(static_cast<std::uint32_t>(std::max<std::int64_t>(0, st.ledger.partitions_in_stage[s])));
  }
  for (const auto& w : st.workers) {
    auto* x = resp->add_workers();
    x->set_name(w.name);
    x->set_job_id(w.job);
    x->set_partition(static_cast<std::uint32_t>(w.partition));
    x->set_circuit(w.circuit);
    x->set_busy_ms(w.busy_ms);
  }
  if (const auto* gpus = registry_.gpus(); gpus != nullptr) {
    const auto info = gpu::devices();
    for (const auto& d : gpus->status()) {
      auto* x = resp->add_gpus();
      x->set_ordinal(static_cast<std::uint32_t>(d.ordinal));
      for (const auto& i : info) {
        if (i.ordinal == d.ordinal) x->set_name(i.name), x->set_memory_total_bytes(i.total_bytes);
      }
      x->set_turns(d.gate.turns);
      x->set_busy_s(d.gate.held_ms / 1000);
      x->set_waiting(d.gate.waiting);
      if (d.current) {
        x->set_job_id(d.current->job_id);
        x->set_kind(d.current->kind);
        x->set_partition(d.current->partition);
      }
      x->set_resident_bytes(d.resident.bytes);
      x->set_resident_capacity_bytes(d.resident.capacity);
      x->set_pool_bytes(d.pool_bytes);
    }
  }
  for (const auto& p : registry_.params()) {
    auto* x = resp->add_params();
    x->set_id(p.id);
    x->set_bytes(p.bytes);
    x->set_users(p.users);
  }
  auto* t = resp->mutable_totals();
  t->set_submitted(st.jobs_submitted);
  t->set_completed(st.jobs_done);
  t->set_failed(st.jobs_failed);
  t->set_cancelled(st.jobs_cancelled);
  t->set_active(static_cast<std::uint32_t>(st.jobs_active));
  resp->set_rss_bytes(st.rss_bytes);
  resp->set_rss_peak_bytes(st.rss_peak_bytes);
  // One short query (the embedded store: microseconds; PostgreSQL: a round trip).
  auto* js = resp->mutable_store();
  js->set_location(dispatcher_.store().describe());
  js->set_owner(dispatcher_.owner());
  if (auto q = dispatcher_.store().status(); q.ok()) {
    js->set_queued(q->queued);
    js->set_running(q->running);
    js->set_done(q->done);
    js->set_failed(q->failed);
    js->set_cancelled(q->cancelled);
    js->set_input_bytes(q->input_bytes);
    for (const auto& m : q->machines) {
      auto* x = js->add_machines();
      x->set_owner(m.owner);
      x->set_seconds_since_heartbeat(m.seconds_since_heartbeat);
      x->set_jobs_running(m.jobs_running);
    }
  } else {
    js->set_error(q.status().message());
  }
}

std::string gpu_metrics(const gpu::DevicePool& gpus) {
  const auto devices = gpus.status();
  std::string t;
  // One family at a time (HELP and TYPE once), a series per device.
  auto family = [&](const char* name, const char* type, const char* help, auto&& value) {
    t += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
    for (const auto& d : devices) t += std::string(name) + "{gpu=\"" + std::to_string(d.ordinal) + "\"} " + value(d) + "\n";
  };
  using D = gpu::DevicePool::DeviceStatus;
  family("zkpipe_gpu_turns_total", "counter", "Device turns taken by prover workers (one per partition).",
         [](const D& d) { return std::to_string(d.gate.turns); });
  family("zkpipe_gpu_busy_seconds_total", "counter", "Seconds the device was held by a prover worker.",
         [](const D& d) { return std::to_string(d.gate.held_ms / 1000); });
  family("zkpipe_gpu_wait_seconds_total", "counter", "Seconds prover workers waited for the device.",
         [](const D& d) { return std::to_string(d.gate.wait_ms / 1000); });
  family("zkpipe_gpu_waiting", "gauge", "Prover workers waiting for the device now.",
         [](const D& d) { return std::to_string(d.gate.waiting); });
  family("zkpipe_gpu_proving", "gauge", "1 while a partition's device turn runs on the device.",
         [](const D& d) { return std::string(d.current ? "1" : "0"); });
  family("zkpipe_gpu_resident_bytes", "gauge", "Key bases kept in device memory.",
         [](const D& d) { return std::to_string(d.resident.bytes); });
  family("zkpipe_gpu_resident_capacity_bytes", "gauge", "Most key bases the device keeps (engine.gpu_resident).",
         [](const D& d) { return std::to_string(d.resident.capacity); });
  family("zkpipe_gpu_pool_bytes", "gauge", "Device memory the kernels' pool keeps between turns.",
         [](const D& d) { return std::to_string(d.pool_bytes); });
  t += "# HELP zkpipe_gpu_resident_lookups_total MSM base lookups, by result.\n";
  t += "# TYPE zkpipe_gpu_resident_lookups_total counter\n";
  for (const auto& d : devices) {
    const std::string gpu = "gpu=\"" + std::to_string(d.ordinal) + "\"";
    t += "zkpipe_gpu_resident_lookups_total{" + gpu + ",result=\"hit\"} " + std::to_string(d.resident.hits) + "\n";
    t += "zkpipe_gpu_resident_lookups_total{" + gpu + ",result=\"miss\"} " + std::to_string(d.resident.misses) + "\n";
  }
  return t;
}

double ProvingService::uptime_s() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }

grpc::ServerUnaryReactor* ProvingService::GetMetrics(grpc::CallbackServerContext* ctx, const pb::GetMetricsRequest*,
                                                     pb::GetMetricsResponse* resp) {
  count("GetMetrics");
  if (auto a = authorize(ctx); !a.ok()) return finish(ctx, a);
  resp->set_prometheus_text(metrics_text());
  return finish(ctx, grpc::Status::OK);
}

std::string ProvingService::metrics_text() {
  std::string text = engine_.prometheus_text();
  text += "# HELP zkpipe_uptime_seconds Seconds since the daemon started.\n# TYPE zkpipe_uptime_seconds gauge\n";
  text += "zkpipe_uptime_seconds " + std::to_string(std::chrono::duration<double>(Clock::now() - started_).count()) +
          "\n";
  text += "# HELP zkpipe_rpc_total RPCs received, by method.\n# TYPE zkpipe_rpc_total counter\n";
  {
    std::lock_guard lock(m_);
    for (const auto& [method, n] : calls_) text += "zkpipe_rpc_total{method=\"" + method + "\"} " + std::to_string(n) + "\n";
  }
  text += "# HELP zkpipe_params_bytes Bytes held by a cached proving key.\n# TYPE zkpipe_params_bytes gauge\n";
  for (const auto& p : registry_.params()) {
    text += "zkpipe_params_bytes{id=\"" + p.id + "\"} " + std::to_string(p.bytes) + "\n";
  }
  if (const auto* gpus = registry_.gpus(); gpus != nullptr) text += gpu_metrics(*gpus);
  {
    std::lock_guard lock(m_);
    text += "# HELP zkpipe_admission_requests SubmitProof / Prove calls waiting for admission or being admitted "
            "(input validation).\n# TYPE zkpipe_admission_requests gauge\n";
    text += "zkpipe_admission_requests " + std::to_string(admissions_.size() + admitting_) + "\n";
    text += "# HELP zkpipe_admission_bytes Input bytes of those calls.\n# TYPE zkpipe_admission_bytes gauge\n";
    text += "zkpipe_admission_bytes " + std::to_string(admission_bytes_) + "\n";
  }
  text += "# HELP zkpipe_draining 1 while the daemon refuses new jobs before stopping.\n# TYPE zkpipe_draining gauge\n";
  text += std::string("zkpipe_draining ") + (draining_ ? "1" : "0") + "\n";
  return text;
}

void ProvingService::run_loader(grpc::ServerUnaryReactor* reactor, std::function<grpc::Status()> load) {
  std::lock_guard lock(m_);
  if (stop_) {
    reactor->Finish({grpc::StatusCode::UNAVAILABLE, "the daemon is stopping"});
    return;
  }
  loaders_.emplace_back([reactor, load = std::move(load)] {
    grpc::Status s;
    try {
      s = load();
    } catch (const std::exception& e) {
      s = {grpc::StatusCode::INTERNAL, std::string("loading parameters: ") + e.what()};
    } catch (...) {
      s = {grpc::StatusCode::INTERNAL, "loading parameters: unexpected error"};
    }
    reactor->Finish(s);
  });
}

grpc::ServerUnaryReactor* ProvingService::PreloadParams(grpc::CallbackServerContext* ctx,
                                                        const pb::ParamsRequest* req,
                                                        pb::PreloadParamsResponse* resp) {
  count("PreloadParams");
  if (auto a = authorize(ctx); !a.ok()) return finish(ctx, a);
  // Loading a key takes seconds for large keys: it runs on a loader thread, which answers the call.
  auto* reactor = ctx->DefaultReactor();
  run_loader(reactor, [this, resp, circuit = req->circuit(), shape = req->shape()]() -> grpc::Status {
    const auto t0 = Clock::now();
    auto p = guarded("loading parameters", [&] { return registry_.preload(circuit, shape); });
    if (!p.ok()) return to_grpc(p.status());
    resp->set_already_loaded(p->already_loaded);
    resp->set_bytes(p->bytes);
    resp->set_load_ms(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    spdlog::info("params {} {} loaded ({} bytes)", circuit, shape, p->bytes);
    return grpc::Status::OK;
  });
  return reactor;
}

grpc::ServerUnaryReactor* ProvingService::EvictParams(grpc::CallbackServerContext* ctx, const pb::ParamsRequest* req,
                                                      pb::EvictParamsResponse* resp) {
  count("EvictParams");
  if (auto a = authorize(ctx); !a.ok()) return finish(ctx, a);
  auto e = registry_.evict(req->circuit(), req->shape());
  if (!e.ok()) {
    if (e.status().code() == zk::StatusCode::kUnavailable)
      return finish(ctx, {grpc::StatusCode::FAILED_PRECONDITION, e.status().message()});
    return finish(ctx, to_grpc(e.status()));
  }
  resp->set_was_loaded(e->was_loaded);
  resp->set_freed_bytes(e->freed_bytes);
  return finish(ctx, grpc::Status::OK);
}

}  // namespace zk::server
