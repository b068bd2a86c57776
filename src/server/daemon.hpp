#pragma once

// The daemon: the engine, the workload registry, the gRPC service and its listener, wired from a
// DaemonConfig; and the orderly stop (refuse new jobs, let running ones finish for a grace period,
// cancel the rest, answer every waiter, close the listener, remove the socket).
//
// Unix sockets are created owner-only (0600, in a 0700 directory if the daemon creates it). A
// stale socket (nothing accepts on it) is replaced; a live one makes start() fail with a message.

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "base/status.hpp"
#include "engine/engine.hpp"
#include "server/config.hpp"
#include "server/registry.hpp"
#include "server/cuzk_service.hpp"
#include "server/dispatcher.hpp"
#include "server/http_listener.hpp"
#include "server/service.hpp"
#include "store/job_store.hpp"

namespace zk::server {

/// spdlog: level, and text or JSON lines (one object per line, message escaped).
Status configure_logging(const std::string& level, const std::string& format);

class Daemon {
 public:
  static Result<std::unique_ptr<Daemon>> start(const DaemonConfig& config);
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  /// Where clients connect: "unix:///path", or "host:port" with the port actually bound.
  const std::string& address() const { return address_; }
  /// The operators' HTTP listener's "host:port" (daemon.http_listen), or "" when it is off.
  std::string http_address() const { return http_ ? http_->address() : std::string(); }
  engine::Engine& engine() { return *engine_; }
  ProvingService& service() { return *service_; }
  Dispatcher& dispatcher() { return *dispatcher_; }

  /// Refuses new jobs, waits up to `grace` for the active ones, cancels what is left, answers every
  /// waiter and stops listening. Idempotent. A worker still inside a stage kStageBound after the
  /// cancel (a partition's synthesis or prove_start runs for minutes at 32 GiB) is not waited for:
  /// its job's claim goes back to the store and abandoned() is true — the caller must then end the
  /// process without destroying the daemon (std::_Exit), whose engine still runs that stage.
  void stop(std::chrono::milliseconds grace);
  /// How long a stop waits for the stages under way once the grace period is over.
  static constexpr std::chrono::milliseconds kStageBound{3000};
  bool abandoned() const { return abandoned_; }
  /// Ends a running stop()'s grace period now (a second signal).
  void hurry() { hurry_ = true; }

 private:
  Daemon() = default;
  DaemonConfig config_;
  std::string address_, socket_path_, device_;
  int lock_fd_ = -1;  // flock on <socket>.lock while the daemon lives
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<WorkloadRegistry> registry_;
  std::unique_ptr<store::JobStore> store_;  // accepted jobs and results (docs/cluster.md)
  std::unique_ptr<Dispatcher> dispatcher_;  // store <-> engine
  std::unique_ptr<ProvingService> service_;
  std::unique_ptr<CuzkService> cuzk_;  // cuzk.v1 on the same listener, sharing service_'s machinery
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<HttpListener> http_;  // daemon.http_listen: /metrics, /healthz, /readyz, status page
  bool stopped_ = false;
  bool abandoned_ = false;  // stop() returned with a stage still running
  std::atomic<bool> hurry_{false};
};

/// The job store the configuration names: the embedded one in state_dir, or PostgreSQL.
Result<std::unique_ptr<store::JobStore>> open_job_store(const DaemonConfig& config);

/// daemon.max_receive_bytes, or twice daemon.max_message_bytes when it is 0.
std::uint64_t receive_bytes(const DaemonConfig& config);

/// What the listener speaks: plain (a unix socket; TCP without a token, or with
/// daemon.allow_token_over_plaintext), TLS, or mutual TLS (daemon.tls_*). A token on plain TCP
/// without that setting, TLS settings on a unix socket, or a bad certificate file is an error
/// naming the setting.
Result<std::shared_ptr<grpc::ServerCredentials>> listener_credentials(const DaemonConfig& config,
                                                                      const std::string& listen, bool unix_socket);

/// The path of a "unix:" address, or "" for TCP.
std::string unix_socket_path(const std::string& address);

}  // namespace zk::server
