#pragma once

// The gRPC service (callback API). Handlers convert proto <-> engine types, enqueue, or read state;
// they never prove, never validate an input and never block on a proof. SubmitProof and Prove do
// the cheap checks (token, draining, name lengths, the bytes waiting for admission) and hand the
// request to a few admission threads, which run the workload's validation (seconds for a large
// C1) and queue the job. AwaitProof and Prove then hand their reactor to one watcher thread that
// answers it when the engine says the job is done, when its timeout or the call's deadline
// passes, or when the client goes away.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <list>
#include <optional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "engine/engine.hpp"
#include "server/dispatcher.hpp"
#include "server/registry.hpp"
#include "zkpipe/v1/proving.grpc.pb.h"

namespace zk::server {

namespace pb = ::zkpipe::v1;

/// zk::Status -> grpc::Status (INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS, RESOURCE_EXHAUSTED, ...).
grpc::Status to_grpc(const Status& s);

/// The priority a job of `circuit` gets when its request gives none (0): WinningPoSt 20 (cuzk's
/// CRITICAL), WindowPoSt 10 (HIGH), everything else 0 (NORMAL). Larger runs first.
int default_priority(const std::string& circuit);

struct ServiceOptions {
  std::string token;                  // empty: no check
  std::size_t max_active_jobs = 1000;
  unsigned admission_workers = 2;  // threads that validate and queue SubmitProof / Prove requests
  std::string version = "zkpipe";
};

/// Prometheus lines for each GPU prove_start uses (label gpu="ordinal"): turns taken, seconds the
/// device was held and seconds prover workers waited for it (with two workers per device, waiting
/// while the other's kernels run is the interlock working; busy / wall time is the GPU's share of
/// the prover stage), workers waiting now, whether a partition is on it, its resident bases.
std::string gpu_metrics(const gpu::DevicePool& gpus);

class ProvingService final : public pb::ProvingEngine::CallbackService {
 public:
  /// Jobs go through `dispatcher` (the job store) to the engine; waiters read results through it.
  ProvingService(engine::Engine& engine, WorkloadRegistry& registry, Dispatcher& dispatcher, ServiceOptions options);
  ~ProvingService() override;

  /// Refuse new jobs (UNAVAILABLE) from now on; waits, status and metrics go on.
  void set_draining() { draining_ = true; }
  bool draining() const { return draining_; }
  /// Answers every request still waiting for admission (UNAVAILABLE) and every waiter (their jobs
  /// are over after an engine shutdown), then joins the admission threads and the watcher.
  void stop();
  std::size_t waiters() const;
  /// SubmitProof / Prove requests queued for admission or being admitted now.
  std::size_t admissions() const;

  // The machinery the protocol front ends share (zkpipe.v1 here, cuzk.v1 in cuzk_service.hpp):
  // one token, one admission queue, one watcher, one engine.
  grpc::Status authorize(grpc::CallbackServerContext* ctx) const;
  void count(const char* method);
  /// Work for an admission thread: validates and submits, then answers the call — returning its
  /// status (the thread finishes the reactor with it) or nullopt once it has handed the reactor to
  /// wait_for. It may throw only before that hand-over (answered INTERNAL).
  using AdmissionWork = std::function<std::optional<grpc::Status>(grpc::ServerUnaryReactor*)>;
  /// Queues `work` (its request holding `bytes` of input) for an admission thread, or answers the
  /// call at once (stopping, queue full, the input cap reached). A call whose client left while it
  /// waited is answered CANCELLED without running its work.
  grpc::ServerUnaryReactor* enqueue(grpc::CallbackServerContext* ctx, std::uint64_t bytes, AdmissionWork work);
  /// How a waiter is answered: `on_result` fills the response from the finished job and returns the
  /// call's status; `on_timeout` does the same when `deadline` passes first.
  struct WaitAnswers {
    bool public_inputs = false;  // the result needs the public inputs (decimal strings)
    std::function<grpc::Status(const engine::JobResult&)> on_result;
    std::function<grpc::Status()> on_timeout;
  };
  /// Answers the call when job `job` ends (or at once if it has), when `deadline` passes, when the
  /// client goes away (CANCELLED) or when the daemon stops (UNAVAILABLE); unknown ids: NOT_FOUND.
  void wait_for(std::uint64_t job, std::chrono::steady_clock::time_point deadline, grpc::CallbackServerContext* ctx,
                grpc::ServerUnaryReactor* reactor, WaitAnswers answers);
  /// Resolves (circuit, shape), validates `job` (its partitions 0: the kind's count) and records it
  /// in the job store — on an admission thread. UNAVAILABLE while draining; RESOURCE_EXHAUSTED at
  /// max_active_jobs or the store's limits.
  /// `registered_proof`: what the request says the input is (cuzk.v1's field, Filecoin's
  /// numbering); an input that names another is INVALID_ARGUMENT naming both.
  Result<std::uint64_t> submit_job(const std::string& circuit, const std::string& shape, engine::JobRequest job,
                                   std::uint32_t* partitions,
                                   std::optional<std::uint64_t> registered_proof = std::nullopt);
  /// Cancels a job wherever it is (queued in the store, running here or on another daemon): true
  /// if it was unfinished; NOT_FOUND if unknown.
  Result<bool> cancel_job(std::uint64_t id);
  /// Runs `load` on a loader thread (key loads take seconds to minutes), which answers the call
  /// with the status it returns; joined at stop().
  void run_loader(grpc::ServerUnaryReactor* reactor, std::function<grpc::Status()> load);
  /// The daemon's Prometheus text (engine, RPCs, keys, GPU, admission).
  std::string metrics_text();
  /// What GetStatus answers (also the HTTP status page's data): engine, queues, workers, keys, store.
  void status(pb::GetStatusResponse* resp);
  double uptime_s() const;
  engine::Engine& engine() { return engine_; }
  WorkloadRegistry& registry() { return registry_; }

  grpc::ServerUnaryReactor* SubmitProof(grpc::CallbackServerContext* ctx, const pb::SubmitProofRequest* req,
                                        pb::SubmitProofResponse* resp) override;
  grpc::ServerUnaryReactor* AwaitProof(grpc::CallbackServerContext* ctx, const pb::AwaitProofRequest* req,
                                       pb::ProofResult* resp) override;
  grpc::ServerUnaryReactor* Prove(grpc::CallbackServerContext* ctx, const pb::ProveRequest* req,
                                  pb::ProofResult* resp) override;
  grpc::ServerUnaryReactor* CancelProof(grpc::CallbackServerContext* ctx, const pb::CancelProofRequest* req,
                                        pb::CancelProofResponse* resp) override;
  grpc::ServerUnaryReactor* GetStatus(grpc::CallbackServerContext* ctx, const pb::GetStatusRequest* req,
                                      pb::GetStatusResponse* resp) override;
  grpc::ServerUnaryReactor* GetMetrics(grpc::CallbackServerContext* ctx, const pb::GetMetricsRequest* req,
                                       pb::GetMetricsResponse* resp) override;
  grpc::ServerUnaryReactor* PreloadParams(grpc::CallbackServerContext* ctx, const pb::ParamsRequest* req,
                                          pb::PreloadParamsResponse* resp) override;
  grpc::ServerUnaryReactor* EvictParams(grpc::CallbackServerContext* ctx, const pb::ParamsRequest* req,
                                        pb::EvictParamsResponse* resp) override;

 private:
  struct Waiter {
    std::uint64_t job;
    std::chrono::steady_clock::time_point deadline;  // max(): none
    grpc::CallbackServerContext* ctx;
    grpc::ServerUnaryReactor* reactor;
    WaitAnswers answers;
  };
  /// A call waiting for an admission thread. gRPC keeps the context, request and response alive
  /// until the reactor is finished.
  struct Admission {
    grpc::CallbackServerContext* ctx = nullptr;
    grpc::ServerUnaryReactor* reactor = nullptr;
    AdmissionWork work;
    std::uint64_t bytes = 0;  // the request's input, counted until the engine has taken or refused it
  };
  grpc::ServerUnaryReactor* finish(grpc::CallbackServerContext* ctx, const grpc::Status& s);
  /// The handler's checks of a SubmitProofRequest: cheap, no workload involved.
  Status check_request(const pb::SubmitProofRequest& req) const;
  void admit_loop();
  /// Runs one queued call's work and answers it (or leaves it to the watcher). Never throws.
  void admit(const Admission& a);
  Result<std::uint64_t> submit(const pb::SubmitProofRequest& req, std::uint32_t* partitions);
  /// zkpipe.v1's answers: the ProofResult, DEADLINE_EXCEEDED on timeout.
  WaitAnswers proof_result_answers(std::uint64_t job, pb::ProofResult* out) const;
  void watch();
  /// Answers a waiter if its job is over, its time is up or its client left; true if answered.
  bool try_answer(Waiter& w, std::chrono::steady_clock::time_point now, bool final);
  bool answer(Waiter& w, std::chrono::steady_clock::time_point now, bool final);

  engine::Engine& engine_;
  WorkloadRegistry& registry_;
  Dispatcher& dispatcher_;
  ServiceOptions opt_;
  std::atomic<bool> draining_{false};
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();

  mutable std::mutex m_;
  std::condition_variable cv_;
  std::list<Waiter> waiters_;
  bool stop_ = false;
  std::map<std::string, std::uint64_t> calls_;  // per method, for metrics
  std::thread watcher_;
  std::vector<std::thread> loaders_;  // PreloadParams, joined at stop()
  std::condition_variable admit_cv_;
  std::deque<Admission> admissions_;    // under m_
  std::size_t admitting_ = 0;           // under m_: taken by an admission thread, not yet answered
  std::uint64_t admission_bytes_ = 0;   // under m_: input bytes of admissions_ and those being admitted
  std::vector<std::thread> admitters_;  // joined at stop()
};

}  // namespace zk::server
