#pragma once

// cuzk's gRPC protocol (package cuzk.v1, proto/cuzk/v1/proving.proto) in front of zkpipe's engine,
// so that Curio, whose `[Cuzk] Address` points at a proving daemon, hands its proofs to `zkpipe
// serve` unchanged. It shares everything with the zkpipe.v1 front end (ProvingService): the token,
// the admission threads (a request's payload is translated and validated there, never on a gRPC
// thread), the watcher, the engine, its budget and queue. docs/curio.md says what each RPC and
// field does here.

#include <optional>
#include <string>

#include <grpcpp/grpcpp.h>

#include "cuzk/v1/proving.grpc.pb.h"
#include "engine/engine.hpp"
#include "server/service.hpp"

namespace zk::server {

namespace cz = ::cuzk::v1;

/// An engine job from a cuzk SubmitProofRequest: PoRep C2 (the C1 in `vanilla_proof`), WindowPoSt
/// and WinningPoSt (bincode vanilla proofs, randomness, partition index, registered proof in the Go
/// numbering), SnapDeals (every partition's bincode PartitionProof, the three 32-byte commitments,
/// the registered update proof 0-4). Priority: the request's, else the kind's default
/// (WinningPoSt CRITICAL, WindowPoSt HIGH, PoRep and SnapDeals NORMAL).
struct CuzkJob {
  std::string circuit, shape;  // the registry's (circuit, shape)
  engine::JobRequest request;  // input, priority, request_id, partitions (circuit / shape: the registry's)
  std::optional<std::uint64_t> registered_proof;  // the request's, which the input must name too
};
Result<CuzkJob> cuzk_job(const cz::SubmitProofRequest& req);
/// cuzk's priority scale on the engine's (zkpipe.v1's default 0 is NORMAL).
int cuzk_priority(cz::Priority p, cz::ProofKind kind);
/// cuzk's circuit ids (porep-32g, wpost-32g, winning-32g, ... for every published size) as the
/// registry's (circuit, shape) (snap-2k … snap-64g: snap-update); unknown ids INVALID_ARGUMENT.
Result<std::pair<std::string, std::string>> cuzk_circuit(const std::string& circuit_id);

class CuzkService final : public cz::ProvingEngine::CallbackService {
 public:
  explicit CuzkService(ProvingService& core) : core_(core) {}

  grpc::ServerUnaryReactor* SubmitProof(grpc::CallbackServerContext* ctx, const cz::SubmitProofRequest* req,
                                        cz::SubmitProofResponse* resp) override;
  grpc::ServerUnaryReactor* AwaitProof(grpc::CallbackServerContext* ctx, const cz::AwaitProofRequest* req,
                                       cz::AwaitProofResponse* resp) override;
  grpc::ServerUnaryReactor* Prove(grpc::CallbackServerContext* ctx, const cz::ProveRequest* req,
                                  cz::ProveResponse* resp) override;
  grpc::ServerUnaryReactor* CancelProof(grpc::CallbackServerContext* ctx, const cz::CancelProofRequest* req,
                                        cz::CancelProofResponse* resp) override;
  grpc::ServerUnaryReactor* GetStatus(grpc::CallbackServerContext* ctx, const cz::GetStatusRequest* req,
                                      cz::GetStatusResponse* resp) override;
  grpc::ServerUnaryReactor* GetMetrics(grpc::CallbackServerContext* ctx, const cz::GetMetricsRequest* req,
                                       cz::GetMetricsResponse* resp) override;
  grpc::ServerUnaryReactor* PreloadSRS(grpc::CallbackServerContext* ctx, const cz::PreloadSrsRequest* req,
                                       cz::PreloadSrsResponse* resp) override;
  grpc::ServerUnaryReactor* EvictSRS(grpc::CallbackServerContext* ctx, const cz::EvictSrsRequest* req,
                                     cz::EvictSrsResponse* resp) override;

 private:
  grpc::ServerUnaryReactor* finish(grpc::CallbackServerContext* ctx, const grpc::Status& s);
  /// Translates and submits on an admission thread; the job id, or the status to answer.
  Result<std::uint64_t> submit(const cz::SubmitProofRequest& req);
  ProvingService::WaitAnswers await_answers(std::uint64_t job, cz::AwaitProofResponse* out) const;

  ProvingService& core_;
};

}  // namespace zk::server
