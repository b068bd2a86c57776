#pragma once

// The gRPC service (callback API). Handlers convert proto <-> engine types, enqueue, or read state;
// they never prove and never block on a proof: AwaitProof and Prove hand their reactor to one
// watcher thread that answers it when the engine says the job is done, when its timeout or the
// call's deadline passes, or when the client goes away.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <list>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "engine/engine.hpp"
#include "server/registry.hpp"
#include "zkpipe/v1/proving.grpc.pb.h"

namespace zk::server {

namespace pb = ::zkpipe::v1;

/// zk::Status -> grpc::Status (INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS, RESOURCE_EXHAUSTED, ...).
grpc::Status to_grpc(const Status& s);

struct ServiceOptions {
  std::string token;                  // empty: no check
  std::size_t max_active_jobs = 1000;
  std::string version = "zkpipe";
};

/// Prometheus lines for the GPU's gate: turns taken, seconds the device was held and seconds
/// prover workers waited for it (with two workers, waiting while the other's kernels run is the
/// interlock working; busy / wall time is the GPU's share of the prover stage), workers waiting now.
std::string gate_metrics(const gpu::DeviceGate& gate);

class ProvingService final : public pb::ProvingEngine::CallbackService {
 public:
  ProvingService(engine::Engine& engine, WorkloadRegistry& registry, ServiceOptions options);
  ~ProvingService() override;

  /// Refuse new jobs (UNAVAILABLE) from now on; waits, status and metrics go on.
  void set_draining() { draining_ = true; }
  bool draining() const { return draining_; }
  /// Answers every waiter now (their jobs are over after an engine shutdown) and stops the watcher.
  void stop();
  std::size_t waiters() const;

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
    pb::ProofResult* out;
  };
  grpc::ServerUnaryReactor* finish(grpc::CallbackServerContext* ctx, const grpc::Status& s);
  grpc::Status authorize(grpc::CallbackServerContext* ctx) const;
  Result<std::uint64_t> submit(const pb::SubmitProofRequest& req, std::uint32_t* partitions);
  void wait_for(std::uint64_t job, std::uint32_t timeout_ms, grpc::CallbackServerContext* ctx,
                grpc::ServerUnaryReactor* reactor, pb::ProofResult* out);
  void watch();
  /// Answers a waiter if its job is over, its time is up or its client left; true if answered.
  bool try_answer(Waiter& w, std::chrono::steady_clock::time_point now, bool final);
  bool answer(Waiter& w, std::chrono::steady_clock::time_point now, bool final);
  void count(const char* method);

  engine::Engine& engine_;
  WorkloadRegistry& registry_;
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
};

}  // namespace zk::server
