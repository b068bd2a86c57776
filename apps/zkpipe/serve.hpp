#pragma once

// `zkpipe serve` (the daemon) and its clients: `status`, `metrics`, `cancel`, and the --addr forms
// of `prove` and `bench`. Exit codes: 0 success, 1 a negative answer (a failed or cancelled job), 2
// bad input or an error (including a daemon that cannot be reached).

#include <cstdint>
#include <string>
#include <vector>

namespace zk::app {

struct ServeArgs {
  std::string config;  // TOML file; empty: defaults
  std::string listen, params_dir, token;
  std::string state_dir, queue;  // override daemon.state_dir, queue.url
  std::string tls_cert, tls_key, tls_client_ca;  // override daemon.tls_*
  bool allow_token_over_plaintext = false;       // sets daemon.allow_token_over_plaintext
  std::string http_listen;                       // overrides daemon.http_listen
  bool ni_partition_proofs = false;              // sets daemon.ni_partition_proofs
  std::string log_level, log_format;
};
int run_serve(const ServeArgs& a);

struct ClientArgs {
  std::string addr;   // empty: the default socket
  std::string token;  // empty: $ZKPIPE_TOKEN
  // TLS to a TCP daemon: --tls (the system's CA roots), --tls-ca (the CA that signed the daemon's
  // certificate; implies --tls), --tls-cert / --tls-key (a client certificate, for mutual TLS).
  bool tls = false;
  std::string tls_ca, tls_cert, tls_key;
  bool json = false;
};
int run_status(const ClientArgs& c);
int run_metrics(const ClientArgs& c);
int run_cancel(const ClientArgs& c, std::uint64_t job);

/// What to prove through a daemon (prove --addr, bench --addr).
struct RemoteJob {
  std::string circuit;  // synthetic, porep, zkey
  std::string shape;    // daemon-side shape name
  std::vector<std::uint8_t> input;
  std::uint32_t partitions = 0;
  int priority = 0;
};
struct RemoteProveArgs {
  RemoteJob job;
  std::string out;         // bellman-layout proofs (porep, synthetic)
  std::string public_out;  // public inputs JSON (porep, synthetic)
  std::string proof_json, public_json;  // snarkjs files (zkey)
  std::uint32_t timeout_ms = 0;
};
int run_remote_prove(const ClientArgs& c, const RemoteProveArgs& a);
/// `jobs` jobs from `clients` concurrent connections; the same report as the in-process bench.
int run_remote_bench(const ClientArgs& c, const RemoteJob& job, std::size_t jobs, std::size_t clients);

}  // namespace zk::app
