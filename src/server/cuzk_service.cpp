#include "server/cuzk_service.hpp"

#include <spdlog/spdlog.h>

#include "circuits/filecoin/proof_kind.hpp"
#include "gpu/gpu.hpp"

namespace zk::server {

using Clock = std::chrono::steady_clock;
namespace fc = circuits::filecoin;

namespace {

/// cuzk's short size names in circuit ids ("32g").
std::string short_size(const fc::SectorSize& s) {
  const std::string n = s.name;  // "32GiB", "512MiB", "2KiB"
  return n.substr(0, n.size() - 3) + static_cast<char>(std::tolower(static_cast<unsigned char>(n[n.size() - 3])));
}

/// Every Filecoin key a cuzk circuit id names: id, the registry's (circuit, shape), the file stem.
struct CircuitId {
  std::string id, circuit, shape, stem;
};
const std::vector<CircuitId>& circuit_ids() {
  static const std::vector<CircuitId> ids = [] {
    std::vector<CircuitId> v;
    for (const auto* kind : fc::proof_kinds()) {
      if (kind->cuzk_proof_kind() == 0) continue;  // not in cuzk.v1
      for (const auto& s : kind->published_shapes()) {
        v.push_back({std::string(kind->cuzk_id_prefix()) + "-" + short_size(s.size), std::string(kind->name()),
                     s.size.name, s.params_stem});
      }
    }
    return v;
  }();
  return ids;
}

/// The cuzk queue label of an engine kind ("porep:32GiB" -> "porep-c2"); empty for kinds Curio
/// does not send (synthetic, zkey, the PoRep-shaped presets).
std::string queue_label(const std::string& engine_kind) {
  const auto colon = engine_kind.find(':');
  const std::string circuit = engine_kind.substr(0, colon), shape = colon == std::string::npos ? "" : engine_kind.substr(colon + 1);
  auto kind = fc::find_proof_kind(circuit);
  if (!kind.ok() || !fc::find_sector_size(shape).ok()) return "";
  return std::string((*kind)->cuzk_queue());
}

/// The kind of a cuzk.v1 ProofKind value.
const fc::ProofKind* kind_of(cz::ProofKind k) {
  if (k == cz::PROOF_KIND_UNSPECIFIED) return nullptr;
  for (const auto* kind : fc::proof_kinds()) {
    if (kind->cuzk_proof_kind() == static_cast<int>(k)) return kind;
  }
  return nullptr;
}

Result<std::uint64_t> parse_job_id(const std::string& text) {
  if (text.empty() || text.size() > 20) return Status::invalid_argument("job_id must be a decimal job id");
  std::uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return Status::invalid_argument("job_id must be a decimal job id");
    const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return Status::invalid_argument("job_id is out of range");
    v = v * 10 + d;
  }
  return v;
}

Clock::time_point deadline_after_ms(std::uint64_t ms) {
  constexpr std::uint64_t kYear = 365ull * 24 * 3600 * 1000;  // beyond: no deadline
  return ms == 0 || ms > kYear ? Clock::time_point::max() : Clock::now() + std::chrono::milliseconds(ms);
}

}  // namespace

int cuzk_priority(cz::Priority p, cz::ProofKind kind) {
  if (p == cz::PRIORITY_UNSPECIFIED) {
    const fc::ProofKind* k = kind_of(kind);
    return k != nullptr ? k->default_priority() : 0;
  }
  switch (p) {
    case cz::LOW:
      return -10;
    case cz::HIGH:
      return 10;
    case cz::CRITICAL:
      return 20;
    default:
      return 0;  // NORMAL: zkpipe.v1's default
  }
}

Result<std::pair<std::string, std::string>> cuzk_circuit(const std::string& circuit_id) {
  for (const auto& c : circuit_ids()) {
    if (c.id == circuit_id) return std::pair{c.circuit, c.shape};
  }
  std::string known;
  for (const auto& c : circuit_ids()) known += (known.empty() ? "" : ", ") + c.id;
  return Status::invalid_argument("unknown circuit_id '" + bounded_message(circuit_id, 32) + "' (known: " + known + ")");
}

Result<CuzkJob> cuzk_job(const cz::SubmitProofRequest& req) {
  const fc::ProofKind* kind = kind_of(req.proof_kind());
  if (kind == nullptr) {
    return Status::invalid_argument(
        "proof_kind is required (POREP_SEAL_COMMIT, WINDOW_POST_PARTITION, WINNING_POST, SNAP_DEALS_UPDATE)");
  }
  fc::WirePayload p;
  p.registered_proof = req.registered_proof();
  p.sector_size = req.sector_size();
  p.vanilla_proof = req.vanilla_proof();
  for (const auto& v : req.vanilla_proofs()) p.vanilla_proofs.emplace_back(v);
  p.randomness = req.randomness();
  p.partition_index = req.partition_index();
  p.comm_r_old = req.comm_r_old(), p.comm_d_new = req.comm_d_new(), p.comm_r_new = req.comm_r_new();
  auto job = kind->from_wire(p);
  if (!job.ok()) return job.status();
  CuzkJob j;
  j.request.request_id = req.request_id();
  j.request.priority = cuzk_priority(req.priority(), req.proof_kind());
  j.circuit = kind->name();
  j.shape = job->shape;
  j.request.input = std::move(job->input);
  j.request.partitions = job->partitions;
  j.registered_proof = job->registered_proof;  // the input must be of this very proof (PoRep: V1 vs V1_1)
  return j;
}

grpc::ServerUnaryReactor* CuzkService::finish(grpc::CallbackServerContext* ctx, const grpc::Status& s) {
  auto* r = ctx->DefaultReactor();
  r->Finish(s);
  return r;
}

Result<std::uint64_t> CuzkService::submit(const cz::SubmitProofRequest& req) {
  auto job = cuzk_job(req);
  if (!job.ok()) return job.status();
  std::uint32_t parts = 0;
  return core_.submit_job(job->circuit, job->shape, std::move(job->request), &parts, job->registered_proof);
}

grpc::ServerUnaryReactor* CuzkService::SubmitProof(grpc::CallbackServerContext* ctx, const cz::SubmitProofRequest* req,
                                                   cz::SubmitProofResponse* resp) {
  core_.count("cuzk.SubmitProof");
  if (auto a = core_.authorize(ctx); !a.ok()) return finish(ctx, a);
  if (core_.draining()) return finish(ctx, {grpc::StatusCode::UNAVAILABLE, "the daemon is shutting down"});
  if (req->request_id().size() > 256) return finish(ctx, {grpc::StatusCode::INVALID_ARGUMENT, "request_id is longer than 256 bytes"});
  const std::uint64_t bytes = req->vanilla_proof().size() + [&] {
    std::uint64_t n = 0;
    for (const auto& v : req->vanilla_proofs()) n += v.size() * 4 / 3 + 4;  // as base64 in the job's input
    return n;
  }();
  return core_.enqueue(ctx, bytes, [this, req, resp](grpc::ServerUnaryReactor*) -> std::optional<grpc::Status> {
    auto id = guarded("cuzk SubmitProof", [&] { return submit(*req); });
    if (!id.ok()) return to_grpc(id.status());
    resp->set_job_id(std::to_string(*id));
    resp->set_queue_position(static_cast<std::uint32_t>(core_.engine().status().partitions_queued));
    return grpc::Status::OK;
  });
}

ProvingService::WaitAnswers CuzkService::await_answers(std::uint64_t job, cz::AwaitProofResponse* out) const {
  ProvingService::WaitAnswers a;
  a.public_inputs = false;
  a.on_timeout = [job, out] {
    // cuzk answers a timeout as a result, not an RPC error; the job goes on.
    out->set_job_id(std::to_string(job));
    out->set_status(cz::AwaitProofResponse::TIMEOUT);
    out->set_error_message("job " + std::to_string(job) + " is still running (it goes on; await it again)");
    return grpc::Status::OK;
  };
  a.on_result = [out](const engine::JobResult& r) {
    out->set_job_id(std::to_string(r.id));
    switch (r.state) {
      case engine::JobState::kDone:
        out->set_status(cz::AwaitProofResponse::COMPLETED);
        break;
      case engine::JobState::kCancelled:
        out->set_status(cz::AwaitProofResponse::CANCELLED);
        break;
      default:
        out->set_status(cz::AwaitProofResponse::FAILED);
        break;
    }
    out->set_proof(std::string(r.proof.begin(), r.proof.end()));
    out->set_error_message(r.error);
    double queue = 0, synthesis = 0, prove = 0;
    for (const auto& p : r.partitions) queue += p.queue_ms, synthesis += p.synthesis_ms, prove += p.prove_ms;
    out->set_queue_wait_ms(static_cast<std::uint64_t>(queue));
    out->set_srs_load_ms(0);  // keys load outside a job (first use, or PreloadSRS): never inside its time
    out->set_synthesis_ms(static_cast<std::uint64_t>(synthesis));
    out->set_gpu_compute_ms(static_cast<std::uint64_t>(prove));  // prove_start + prove_finish, CPU or GPU
    out->set_total_ms(static_cast<std::uint64_t>(r.total_ms));
    return grpc::Status::OK;
  };
  return a;
}

grpc::ServerUnaryReactor* CuzkService::AwaitProof(grpc::CallbackServerContext* ctx, const cz::AwaitProofRequest* req,
                                                  cz::AwaitProofResponse* resp) {
  core_.count("cuzk.AwaitProof");
  if (auto a = core_.authorize(ctx); !a.ok()) return finish(ctx, a);
  auto id = parse_job_id(req->job_id());
  if (!id.ok()) return finish(ctx, to_grpc(id.status()));
  auto* reactor = ctx->DefaultReactor();
  core_.wait_for(*id, deadline_after_ms(req->timeout_ms()), ctx, reactor, await_answers(*id, resp));
  return reactor;
}

grpc::ServerUnaryReactor* CuzkService::Prove(grpc::CallbackServerContext* ctx, const cz::ProveRequest* req,
                                             cz::ProveResponse* resp) {
  core_.count("cuzk.Prove");
  if (auto a = core_.authorize(ctx); !a.ok()) return finish(ctx, a);
  if (core_.draining()) return finish(ctx, {grpc::StatusCode::UNAVAILABLE, "the daemon is shutting down"});
  const auto& sub = req->submit();
  if (sub.request_id().size() > 256) return finish(ctx, {grpc::StatusCode::INVALID_ARGUMENT, "request_id is longer than 256 bytes"});
  std::uint64_t bytes = sub.vanilla_proof().size();
  for (const auto& v : sub.vanilla_proofs()) bytes += v.size() * 4 / 3 + 4;
  return core_.enqueue(ctx, bytes, [this, ctx, req, resp](grpc::ServerUnaryReactor* reactor) -> std::optional<grpc::Status> {
    auto id = guarded("cuzk Prove", [&] { return submit(req->submit()); });
    if (!id.ok()) return to_grpc(id.status());
    // The engine holds its own copy of the payload now (the call lives until the proof is answered).
    auto* mutable_submit = const_cast<cz::ProveRequest*>(req)->mutable_submit();
    std::string().swap(*mutable_submit->mutable_vanilla_proof());
    mutable_submit->mutable_vanilla_proofs()->Clear();
    // Prove waits as long as the call does (Curio bounds it with its context deadline).
    core_.wait_for(*id, Clock::time_point::max(), ctx, reactor, await_answers(*id, resp->mutable_result()));
    return std::nullopt;
  });
}

grpc::ServerUnaryReactor* CuzkService::CancelProof(grpc::CallbackServerContext* ctx, const cz::CancelProofRequest* req,
                                                   cz::CancelProofResponse* resp) {
  core_.count("cuzk.CancelProof");
  if (auto a = core_.authorize(ctx); !a.ok()) return finish(ctx, a);
  auto id = parse_job_id(req->job_id());
  if (!id.ok()) return finish(ctx, to_grpc(id.status()));
  auto was = core_.cancel_job(*id);
  if (!was.ok()) return finish(ctx, to_grpc(was.status()));
  resp->set_was_running(*was);
  return finish(ctx, grpc::Status::OK);
}

grpc::ServerUnaryReactor* CuzkService::GetStatus(grpc::CallbackServerContext* ctx, const cz::GetStatusRequest*,
                                                 cz::GetStatusResponse* resp) {
  core_.count("cuzk.GetStatus");
  if (auto a = core_.authorize(ctx); !a.ok()) return finish(ctx, a);
  const auto st = core_.engine().status();
  // Queues per cuzk kind: what Curio's backpressure sums (pending + in_progress).
  std::map<std::string, std::pair<std::uint32_t, std::uint32_t>> queues;
  for (const auto* k : fc::proof_kinds()) {
    if (k->cuzk_queue_always_listed()) queues[std::string(k->cuzk_queue())] = {0, 0};
  }
  for (const auto& [kind, k] : st.kinds) {
    const std::string label = queue_label(kind);
    if (label.empty()) continue;
    queues[label].first += static_cast<std::uint32_t>(k.jobs_queued);
    queues[label].second += static_cast<std::uint32_t>(k.jobs_running);
  }
  for (const auto& [label, q] : queues) {
    auto* x = resp->add_queues();
    x->set_proof_kind(label);
    x->set_pending(q.first);
    x->set_in_progress(q.second);
  }
  // Keys loaded, by cuzk circuit id (only Filecoin's: other keys have no cuzk name).
  for (const auto& p : core_.registry().params()) {
    for (const auto& c : circuit_ids()) {
      if (p.id.find(c.stem) == std::string::npos) continue;
      auto* x = resp->add_loaded_srs();
      x->set_circuit_id(c.id);
      x->set_tier(cz::SRSStatus::HOT);  // in the engine's cache: ready for proving
      x->set_size_bytes(p.bytes);
      x->set_ref_count(static_cast<std::uint32_t>(std::max<long>(0, p.users)));
    }
  }
  // Every device of the host; those prove_start uses name the partition in their turn now.
  std::vector<gpu::DevicePool::DeviceStatus> in_use;
  if (const auto* gpus = core_.registry().gpus(); gpus != nullptr) in_use = gpus->status();
  for (const auto& d : gpu::devices()) {
    auto* g = resp->add_gpus();
    g->set_ordinal(static_cast<std::uint32_t>(d.ordinal));
    g->set_name(d.name);
    g->set_vram_total_bytes(d.total_bytes);
    g->set_vram_free_bytes(d.free_bytes);
    for (const auto& u : in_use) {
      if (u.ordinal != d.ordinal || !u.current) continue;
      g->set_current_job_id(u.current->job_id);
      const std::string label = queue_label(u.current->kind);
      g->set_current_proof_kind(label.empty() ? u.current->kind : label);
    }
  }
  resp->set_total_proofs_completed(st.jobs_done);
  resp->set_total_proofs_failed(st.jobs_failed);
  resp->set_uptime_seconds(static_cast<std::uint64_t>(core_.uptime_s()));
  return finish(ctx, grpc::Status::OK);
}

grpc::ServerUnaryReactor* CuzkService::GetMetrics(grpc::CallbackServerContext* ctx, const cz::GetMetricsRequest*,
                                                  cz::GetMetricsResponse* resp) {
  core_.count("cuzk.GetMetrics");
  if (auto a = core_.authorize(ctx); !a.ok()) return finish(ctx, a);
  resp->set_prometheus_text(core_.metrics_text());
  return finish(ctx, grpc::Status::OK);
}

grpc::ServerUnaryReactor* CuzkService::PreloadSRS(grpc::CallbackServerContext* ctx, const cz::PreloadSrsRequest* req,
                                                  cz::PreloadSrsResponse* resp) {
  core_.count("cuzk.PreloadSRS");
  if (auto a = core_.authorize(ctx); !a.ok()) return finish(ctx, a);
  auto c = cuzk_circuit(req->circuit_id());
  if (!c.ok()) return finish(ctx, to_grpc(c.status()));
  auto* reactor = ctx->DefaultReactor();
  core_.run_loader(reactor, [this, resp, c = *c]() -> grpc::Status {
    const auto t0 = Clock::now();
    auto p = guarded("loading parameters", [&] { return core_.registry().preload(c.first, c.second); });
    if (!p.ok()) return to_grpc(p.status());
    resp->set_already_loaded(p->already_loaded);
    resp->set_load_time_ms(static_cast<std::uint64_t>(std::chrono::duration<double, std::milli>(Clock::now() - t0).count()));
    return grpc::Status::OK;
  });
  return reactor;
}

grpc::ServerUnaryReactor* CuzkService::EvictSRS(grpc::CallbackServerContext* ctx, const cz::EvictSrsRequest* req,
                                                cz::EvictSrsResponse* resp) {
  core_.count("cuzk.EvictSRS");
  if (auto a = core_.authorize(ctx); !a.ok()) return finish(ctx, a);
  auto c = cuzk_circuit(req->circuit_id());
  if (!c.ok()) return finish(ctx, to_grpc(c.status()));
  auto e = core_.registry().evict(c->first, c->second);
  if (!e.ok()) {
    if (e.status().code() == StatusCode::kUnavailable) return finish(ctx, {grpc::StatusCode::FAILED_PRECONDITION, e.status().message()});
    return finish(ctx, to_grpc(e.status()));
  }
  resp->set_was_loaded(e->was_loaded);
  resp->set_freed_bytes(e->freed_bytes);
  return finish(ctx, grpc::Status::OK);
}

}  // namespace zk::server
