#pragma once

// The daemon's configuration: a TOML file (every key, its default and meaning in
// zkpipe.example.toml at the repository root), then command-line overrides. Unknown keys and bad
// values are errors that name the key, never silent defaults.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.hpp"
#include "engine/engine_config.hpp"

namespace zk::server {

/// Where Filecoin's software keeps its parameter files: $FIL_PROOFS_PARAMETER_CACHE, else
/// /var/tmp/filecoin-proof-parameters (the daemon's default params_dir).
std::string default_params_dir();

/// $STATE_DIRECTORY (systemd's StateDirectory=), else $XDG_STATE_HOME/zkpipe, else
/// $HOME/.local/state/zkpipe, else /var/lib/zkpipe.
std::string default_state_dir();

struct DaemonConfig {
  // [daemon]
  std::string listen;      // "unix:///path" or "host:port"; empty: default_listen()
  std::string params_dir = default_params_dir();
  // A non-interactive PoRep's answer: false (the default) its partitions' SnarkPack aggregate, as
  // filecoin-proofs and the chain take it (needs the SRS in params_dir); true the partition proofs.
  bool ni_partition_proofs = false;
  std::string token;       // when set, every call must carry "authorization: Bearer <token>"
  // TLS on a TCP listener (PEM files): the server's certificate chain and its key, both or neither;
  // with tls_client_ca, every client must present a certificate that CA signed (mutual TLS).
  std::string tls_cert, tls_key, tls_client_ca;
  // A token on a TCP listener without TLS travels in clear: the daemon refuses to start unless this
  // is set (unix sockets need no TLS).
  bool allow_token_over_plaintext = false;
  // The operators' HTTP listener (server/http_listener.hpp): /metrics, /healthz, /readyz and the
  // status page. Empty: off. Loopback unless http_tls_* or http_allow_public.
  std::string http_listen;
  std::string http_tls_cert, http_tls_key;
  bool http_allow_public = false;
  unsigned http_max_connections = 32;
  std::uint64_t max_message_bytes = 256ull << 20;
  // What gRPC may hold for incoming messages over all connections (a grpc::ResourceQuota): a
  // message is received whole before its handler can check the token. 0: 2 x max_message_bytes.
  std::uint64_t max_receive_bytes = 0;
  // Threads that validate and admit SubmitProof / Prove requests off gRPC's own threads.
  unsigned admission_workers = 2;
  std::size_t max_active_jobs = 1000;  // queued + running; more is RESOURCE_EXHAUSTED
  std::chrono::seconds shutdown_grace{600};  // SIGTERM: let jobs finish this long, then cancel
  // Where the embedded job store keeps accepted jobs and results (jobs.db): default_state_dir().
  std::string state_dir = default_state_dir();
  // [queue] (docs/cluster.md)
  // "" (the default): the embedded store in state_dir, this daemon alone; "postgresql://...": a
  // queue shared by every daemon given the same database.
  std::string queue_url;
  std::uint64_t queue_max_input_bytes = 4ull << 30;   // inputs of unfinished jobs in the store
  std::uint64_t queue_max_unfinished_jobs = 100000;   // queued + running in the store
  std::uint32_t queue_max_attempts = 3;               // claims without an outcome before a job fails
  std::uint64_t queue_max_kept_results = 100000;      // finished jobs kept (oldest forgotten first)
  std::chrono::seconds queue_lease{60};               // a claim not renewed this long is taken over
  std::chrono::seconds queue_heartbeat{10};
  std::chrono::milliseconds queue_poll{500};          // longest wait between looks at the store
  // Claims stop while this many partitions wait in the engine's own queue; 0: unlimited with the
  // embedded store, 2 x synthesis workers with a shared one.
  std::size_t queue_claim_partitions = 0;
  // [engine]
  // prover_workers 0 (the default): 2 per GPU (the dual-worker interlock: one worker prepares on
  // the CPU while the other's kernels run), 1 on the CPU.
  engine::EngineConfig engine = [] {
    engine::EngineConfig e;
    e.prover_workers = 0;
    // The daemon checks every proof before it answers (as the reference does for PoRep): a
    // corrupted key or a faulty device never yields a COMPLETED job with an invalid proof. Cost: one
    // pairing check per partition (milliseconds against seconds of proving; docs/daemon.md).
    e.self_verify = true;
    return e;
  }();
  std::string device = "auto";  // where prove_start runs: auto (GPU if present), cpu, gpu
  // With the GPU: which devices ("all", or ordinals such as "0,2"); a job's partitions spread
  // across them (docs/gpu.md "Every GPU of the host").
  std::string gpus = "all";
  // With the GPU: bytes of proving-key bases each device keeps resident across proofs ("auto",
  // empty: half the smallest listed device's memory; 0: none kept, they upload with every MSM).
  std::optional<std::uint64_t> gpu_resident;
  // [log]
  std::string log_level = "info";  // trace, debug, info, warn, error, off
  std::string log_format = "text";  // text or json
};


/// unix://$XDG_RUNTIME_DIR/zkpipe.sock, or unix:///tmp/zkpipe-<uid>/zkpipe.sock without it.
std::string default_listen();

/// Parses a TOML document over the defaults. Errors name the key (and the line for syntax).
Result<DaemonConfig> parse_config(std::string_view toml_text);
Result<DaemonConfig> load_config(const std::string& path);

/// "8GiB", "512MiB", "1.5GB", "1000000" -> bytes.
Result<std::uint64_t> parse_size(std::string_view text);
/// parse_size, or "auto" -> nullopt (engine.budget, engine.gpu_resident, zkpipe bench --gpu-resident).
Result<std::optional<std::uint64_t>> parse_size_or_auto(std::string_view text);

}  // namespace zk::server
