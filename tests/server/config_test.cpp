// The daemon's TOML configuration: the example file documents exactly the defaults, overrides
// apply, and unknown keys, wrong types, out-of-range values and syntax errors are errors that name
// the key (and line).

#include <gtest/gtest.h>

#include <cstdlib>

#include <fstream>
#include <sstream>

#include "server/config.hpp"

namespace zk::server {
namespace {

TEST(Config, TheExampleFileHoldsTheDefaults) {
  ::unsetenv("FIL_PROOFS_PARAMETER_CACHE");  // the documented default is Filecoin's own directory
  auto c = load_config(std::string(ZK_SOURCE_DIR) + "/zkpipe.example.toml");
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  const DaemonConfig d;
  EXPECT_EQ(c->listen, d.listen);
  EXPECT_EQ(c->params_dir, d.params_dir);
  EXPECT_EQ(c->ni_partition_proofs, d.ni_partition_proofs);
  EXPECT_EQ(c->token, d.token);
  EXPECT_EQ(c->tls_cert, d.tls_cert);
  EXPECT_EQ(c->tls_key, d.tls_key);
  EXPECT_EQ(c->tls_client_ca, d.tls_client_ca);
  EXPECT_EQ(c->allow_token_over_plaintext, d.allow_token_over_plaintext);
  EXPECT_EQ(c->max_message_bytes, d.max_message_bytes);
  EXPECT_EQ(c->max_receive_bytes, d.max_receive_bytes);
  EXPECT_EQ(c->admission_workers, d.admission_workers);
  EXPECT_EQ(c->max_active_jobs, d.max_active_jobs);
  EXPECT_EQ(c->shutdown_grace, d.shutdown_grace);
  EXPECT_EQ(c->state_dir, d.state_dir);
  EXPECT_EQ(c->queue_url, d.queue_url);
  EXPECT_EQ(c->queue_max_input_bytes, d.queue_max_input_bytes);
  EXPECT_EQ(c->queue_max_unfinished_jobs, d.queue_max_unfinished_jobs);
  EXPECT_EQ(c->queue_max_attempts, d.queue_max_attempts);
  EXPECT_EQ(c->queue_max_kept_results, d.queue_max_kept_results);
  EXPECT_EQ(c->queue_lease, d.queue_lease);
  EXPECT_EQ(c->queue_heartbeat, d.queue_heartbeat);
  EXPECT_EQ(c->queue_poll, d.queue_poll);
  EXPECT_EQ(c->queue_claim_partitions, d.queue_claim_partitions);
  EXPECT_EQ(c->engine.budget_bytes, d.engine.budget_bytes);
  EXPECT_EQ(c->engine.budget_fraction, d.engine.budget_fraction);
  EXPECT_EQ(c->engine.synthesis_workers, d.engine.synthesis_workers);
  EXPECT_EQ(c->engine.prover_workers, d.engine.prover_workers);
  EXPECT_EQ(c->engine.finalizer_workers, d.engine.finalizer_workers);
  EXPECT_EQ(c->engine.channel_capacity, d.engine.channel_capacity);
  EXPECT_EQ(c->engine.self_verify, d.engine.self_verify);
  EXPECT_EQ(c->engine.result_ttl, d.engine.result_ttl);
  EXPECT_EQ(c->device, d.device);
  EXPECT_EQ(c->gpus, d.gpus);
  EXPECT_EQ(c->gpu_resident, d.gpu_resident);
  EXPECT_EQ(c->log_level, d.log_level);
  EXPECT_EQ(c->log_format, d.log_format);
}

TEST(Config, ValuesApply) {
  auto c = parse_config(R"(
[daemon]
listen = "127.0.0.1:0"
params_dir = "/keys"
ni_partition_proofs = true
token = "s3cret"
tls_cert = "/etc/zkpipe/server.pem"
tls_key = "/etc/zkpipe/server.key"
tls_client_ca = "/etc/zkpipe/clients-ca.pem"
allow_token_over_plaintext = true
max_message_bytes = 1048576
max_receive_bytes = "4MiB"
admission_workers = 3
shutdown_grace_s = 0
[engine]
budget = "2GiB"
gpu_resident = "40GiB"
synthesis_workers = 3
self_verify = true
[log]
level = "debug"
format = "json"
)");
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_EQ(c->listen, "127.0.0.1:0");
  EXPECT_EQ(c->params_dir, "/keys");
  EXPECT_TRUE(c->ni_partition_proofs);
  EXPECT_EQ(c->token, "s3cret");
  EXPECT_EQ(c->tls_cert, "/etc/zkpipe/server.pem");
  EXPECT_EQ(c->tls_key, "/etc/zkpipe/server.key");
  EXPECT_EQ(c->tls_client_ca, "/etc/zkpipe/clients-ca.pem");
  EXPECT_TRUE(c->allow_token_over_plaintext);
  EXPECT_EQ(c->max_message_bytes, 1048576u);
  EXPECT_EQ(c->max_receive_bytes, 4u << 20);
  EXPECT_EQ(c->admission_workers, 3u);
  EXPECT_EQ(c->shutdown_grace.count(), 0);
  EXPECT_EQ(c->engine.budget_bytes, 2ull << 30);
  EXPECT_EQ(c->gpu_resident, std::optional<std::uint64_t>(40ull << 30));
  EXPECT_EQ(c->engine.synthesis_workers, 3u);
  EXPECT_TRUE(c->engine.self_verify);
  EXPECT_EQ(c->log_format, "json");
}

TEST(Config, MistakesAreErrorsThatNameTheKey) {
  const std::pair<const char*, const char*> bad[] = {
      {"[daemon]\nlisten_addr = \"x\"\n", "daemon.listen_addr"},
      {"[deamon]\nlisten = \"x\"\n", "[deamon]"},
      {"[engine]\nprover_workers = \"two\"\n", "engine.prover_workers"},
      {"[engine]\nprover_workers = 65\n", "engine.prover_workers"},
      {"[engine]\nbudget = \"lots\"\n", "engine.budget"},
      {"[engine]\nbudget = 0\n", "engine.budget"},
      {"[engine]\nbudget_fraction = 1.5\n", "engine.budget_fraction"},
      {"[engine]\ngpu_resident = \"lots\"\n", "engine.gpu_resident"},
      {"[engine]\ngpu_resident = -1\n", "engine.gpu_resident"},
      {"[log]\nlevel = \"loud\"\n", "log.level"},
      {"[engine]\ndevice = \"tpu\"\n", "engine.device"},
      {"[log]\nformat = \"xml\"\n", "log.format"},
      {"[daemon]\nmax_message_bytes = 10\n", "daemon.max_message_bytes"},
      {"[daemon]\nmax_receive_bytes = \"1MiB\"\n", "daemon.max_receive_bytes"},  // below max_message_bytes
      {"[daemon]\nadmission_workers = 0\n", "daemon.admission_workers"},
      {"[daemon]\nallow_token_over_plaintext = \"yes\"\n", "daemon.allow_token_over_plaintext"},
      {"[daemon]\ntls_cert = 1\n", "daemon.tls_cert"},
      {"[daemon\nlisten = 1\n", "line"},
      {"[queue]\nurl = \"mysql://x\"\n", "queue.url"},
      {"[queue]\nlease_s = 10\nheartbeat_s = 6\n", "queue.heartbeat_s"},
      {"[queue]\nmax_attempts = 0\n", "queue.max_attempts"},
      {"[queue]\nmax_input_bytes = \"much\"\n", "queue.max_input_bytes"},
      {"[queue]\nleases = 1\n", "queue.leases"},
      {"listen = \"x\"\n", "listen"},
  };
  for (const auto& [text, what] : bad) {
    auto c = parse_config(text);
    ASSERT_FALSE(c.ok()) << text;
    EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument) << text;
    EXPECT_NE(c.status().message().find(what), std::string::npos) << c.status().message();
  }
  EXPECT_EQ(load_config("/nonexistent/zkpipe.toml").status().code(), StatusCode::kNotFound);
}

TEST(Config, Sizes) {
  EXPECT_EQ(*parse_size("8GiB"), 8ull << 30);
  EXPECT_EQ(*parse_size("512MiB"), 512ull << 20);
  EXPECT_EQ(*parse_size("1.5GB"), 1500000000ull);
  EXPECT_EQ(*parse_size("1000"), 1000u);
  EXPECT_FALSE(parse_size("8 parsecs").ok());
  EXPECT_FALSE(parse_size("-1GiB").ok());
  EXPECT_FALSE(parse_size("").ok());
}

TEST(Config, ParamsDirDefaultsToFilecoinsParameterCache) {
  ::setenv("FIL_PROOFS_PARAMETER_CACHE", "/srv/fil-params", 1);
  EXPECT_EQ(DaemonConfig{}.params_dir, "/srv/fil-params");
  ::unsetenv("FIL_PROOFS_PARAMETER_CACHE");
  EXPECT_EQ(DaemonConfig{}.params_dir, "/var/tmp/filecoin-proof-parameters");
}

}  // namespace
}  // namespace zk::server
