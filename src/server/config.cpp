#include "server/config.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "base/file.hpp"

namespace zk::server {

std::string default_params_dir() {
  if (const char* d = std::getenv("FIL_PROOFS_PARAMETER_CACHE"); d != nullptr && *d != '\0') return d;
  return "/var/tmp/filecoin-proof-parameters";
}

std::string default_state_dir() {
  if (const char* d = std::getenv("STATE_DIRECTORY"); d != nullptr && *d != '\0') return d;
  if (const char* d = std::getenv("XDG_STATE_HOME"); d != nullptr && *d != '\0') return std::string(d) + "/zkpipe";
  if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') return std::string(h) + "/.local/state/zkpipe";
  return "/var/lib/zkpipe";
}

std::string default_listen() {
  if (const char* dir = std::getenv("XDG_RUNTIME_DIR"); dir != nullptr && *dir != '\0') {
    return std::string("unix://") + dir + "/zkpipe.sock";
  }
  return "unix:///tmp/zkpipe-" + std::to_string(::getuid()) + "/zkpipe.sock";
}

Result<std::uint64_t> parse_size(std::string_view text) {
  std::string s(text);
  std::size_t end = 0;
  double v = 0;
  try {
    v = std::stod(s, &end);
  } catch (...) {
    return Status::invalid_argument("'" + s + "' is not a size (e.g. 8GiB, 512MiB, 1000000)");
  }
  std::string unit = s.substr(end);
  while (!unit.empty() && unit.front() == ' ') unit.erase(unit.begin());
  static const std::map<std::string, double> units = {
      {"", 1},         {"B", 1},          {"KiB", 1024.0},     {"MiB", 1048576.0}, {"GiB", 1073741824.0},
      {"TiB", 1099511627776.0}, {"KB", 1e3}, {"MB", 1e6},      {"GB", 1e9},        {"TB", 1e12}};
  auto it = units.find(unit);
  if (it == units.end() || !(v >= 0) || std::isinf(v)) {
    return Status::invalid_argument("'" + s + "' is not a size (units: B, KiB, MiB, GiB, TiB, KB, MB, GB, TB)");
  }
  const double bytes = v * it->second;
  if (!(bytes < 18446744073709551616.0)) {  // 2^64: a larger value has no uint64 (and casting it is UB)
    return Status::invalid_argument("'" + s + "' is larger than 16 EiB");
  }
  return static_cast<std::uint64_t>(bytes);
}

Result<std::optional<std::uint64_t>> parse_size_or_auto(std::string_view text) {
  if (text == "auto") return std::optional<std::uint64_t>();
  auto v = parse_size(text);
  if (!v.ok()) return Status::invalid_argument(v.status().message() + " (or auto)");
  return std::optional<std::uint64_t>(*v);
}

namespace {

class Reader {
 public:
  explicit Reader(const toml::table& root) : root_(root) {}

  /// Every key of the document must be one of `known` ("section.key").
  Status check_known(const std::set<std::string>& sections, const std::set<std::string>& known) const {
    for (const auto& [k, v] : root_) {
      const std::string sec(k.str());
      if (!sections.count(sec)) return Status::invalid_argument("unknown section [" + sec + "]" + line(v));
      if (!v.is_table()) return Status::invalid_argument("'" + sec + "' must be a section ([" + sec + "])" + line(v));
      for (const auto& [k2, v2] : *v.as_table()) {
        const std::string key = sec + "." + std::string(k2.str());
        if (!known.count(key)) return Status::invalid_argument("unknown key '" + key + "'" + line(v2));
      }
    }
    return {};
  }
  const toml::node* get(const std::string& section, const std::string& key) const {
    const auto* sec = root_.get_as<toml::table>(section);
    return sec != nullptr ? sec->get(key) : nullptr;
  }
  Status string(const std::string& sec, const std::string& key, std::string& out) const {
    const auto* n = get(sec, key);
    if (n == nullptr) return {};
    if (!n->is_string()) return type_error(sec, key, "a string", *n);
    out = n->as_string()->get();
    return {};
  }
  template <class T>
  Status integer(const std::string& sec, const std::string& key, T& out, std::int64_t lo, std::int64_t hi) const {
    const auto* n = get(sec, key);
    if (n == nullptr) return {};
    if (!n->is_integer()) return type_error(sec, key, "an integer", *n);
    const std::int64_t v = n->as_integer()->get();
    if (v < lo || v > hi) {
      return Status::invalid_argument("'" + sec + "." + key + "' = " + std::to_string(v) + " is outside [" +
                                      std::to_string(lo) + ", " + std::to_string(hi) + "]" + line(*n));
    }
    out = static_cast<T>(v);
    return {};
  }
  Status boolean(const std::string& sec, const std::string& key, bool& out) const {
    const auto* n = get(sec, key);
    if (n == nullptr) return {};
    if (!n->is_boolean()) return type_error(sec, key, "true or false", *n);
    out = n->as_boolean()->get();
    return {};
  }
  Status number(const std::string& sec, const std::string& key, double& out, double lo, double hi) const {
    const auto* n = get(sec, key);
    if (n == nullptr) return {};
    if (!n->is_number()) return type_error(sec, key, "a number", *n);
    const double v = n->is_integer() ? static_cast<double>(n->as_integer()->get()) : n->as_floating_point()->get();
    if (!(v >= lo && v <= hi)) {
      return Status::invalid_argument("'" + sec + "." + key + "' = " + std::to_string(v) + " is outside [" +
                                      std::to_string(lo) + ", " + std::to_string(hi) + "]" + line(*n));
    }
    out = v;
    return {};
  }
  /// A size: an integer (bytes) or a string with a unit.
  Status size(const std::string& sec, const std::string& key, std::uint64_t& out) const {
    const auto* n = get(sec, key);
    if (n == nullptr) return {};
    if (n->is_integer() && n->as_integer()->get() >= 0) {
      out = static_cast<std::uint64_t>(n->as_integer()->get());
      return {};
    }
    if (!n->is_string()) return type_error(sec, key, "a size (bytes, or a string such as \"8GiB\")", *n);
    auto v = parse_size(n->as_string()->get());
    if (!v.ok()) return Status::invalid_argument("'" + sec + "." + key + "': " + v.status().message() + line(*n));
    out = *v;
    return {};
  }
  /// A size as `size` reads it, or "auto" (nullopt); absent: `out` unchanged.
  Status size_or_auto(const std::string& sec, const std::string& key, std::optional<std::uint64_t>& out) const {
    const auto* n = get(sec, key);
    if (n == nullptr) return {};
    if (n->is_string() && n->as_string()->get() == "auto") {
      out.reset();
      return {};
    }
    std::uint64_t bytes = 0;
    if (Status s = size(sec, key, bytes); !s.ok()) return Status::invalid_argument(s.message() + " (or \"auto\")");
    out = bytes;
    return {};
  }
  static std::string line(const toml::node& n) {
    const auto& src = n.source();
    return src.begin.line > 0 ? " (line " + std::to_string(src.begin.line) + ")" : "";
  }

 private:
  static Status type_error(const std::string& sec, const std::string& key, const char* want, const toml::node& n) {
    return Status::invalid_argument("'" + sec + "." + key + "' must be " + want + line(n));
  }
  const toml::table& root_;
};

}  // namespace

Result<DaemonConfig> parse_config(std::string_view text) {
  toml::table root;
  try {
    root = toml::parse(text);
  } catch (const toml::parse_error& e) {
    std::ostringstream o;
    o << "config: " << e.description() << " (line " << e.source().begin.line << ", column "
      << e.source().begin.column << ")";
    return Status::invalid_argument(o.str());
  }
  const Reader r(root);
  if (Status s = r.check_known({"daemon", "engine", "queue", "log"},
                               {"daemon.listen", "daemon.params_dir", "daemon.ni_partition_proofs", "daemon.token", "daemon.tls_cert", "daemon.tls_key",
                                "daemon.tls_client_ca", "daemon.allow_token_over_plaintext", "daemon.max_message_bytes",
                                "daemon.http_listen", "daemon.http_tls_cert", "daemon.http_tls_key",
                                "daemon.http_allow_public", "daemon.http_max_connections",
                                "daemon.max_receive_bytes", "daemon.admission_workers",
                                "daemon.max_active_jobs", "daemon.shutdown_grace_s", "daemon.state_dir", "queue.url",
                                "queue.max_input_bytes", "queue.max_unfinished_jobs", "queue.max_attempts", "queue.max_kept_results",
                                "queue.lease_s", "queue.heartbeat_s", "queue.poll_ms", "queue.claim_partitions",
                                "engine.budget",
                                "engine.budget_fraction", "engine.synthesis_workers", "engine.prover_workers",
                                "engine.finalizer_workers", "engine.channel_capacity", "engine.urgent_priority", "engine.urgent_synthesis_workers", "engine.self_verify", "engine.max_partitions", "engine.max_kept_jobs", "engine.max_input_bytes",
                                "engine.result_ttl_s", "engine.device", "engine.gpus", "engine.gpu_resident", "log.level", "log.format"});
      !s.ok()) {
    return Status::invalid_argument("config: " + s.message());
  }
  DaemonConfig c;
  std::int64_t grace = c.shutdown_grace.count(), ttl = 600, lease = c.queue_lease.count(),
               heartbeat = c.queue_heartbeat.count(), poll = c.queue_poll.count();
  for (Status s : {r.string("daemon", "listen", c.listen), r.string("daemon", "params_dir", c.params_dir),
                   r.boolean("daemon", "ni_partition_proofs", c.ni_partition_proofs),
                   r.string("daemon", "token", c.token), r.string("daemon", "tls_cert", c.tls_cert),
                   r.string("daemon", "tls_key", c.tls_key), r.string("daemon", "tls_client_ca", c.tls_client_ca),
                   r.boolean("daemon", "allow_token_over_plaintext", c.allow_token_over_plaintext),
                   r.string("daemon", "http_listen", c.http_listen), r.string("daemon", "http_tls_cert", c.http_tls_cert),
                   r.string("daemon", "http_tls_key", c.http_tls_key),
                   r.boolean("daemon", "http_allow_public", c.http_allow_public),
                   r.integer("daemon", "http_max_connections", c.http_max_connections, 1, 1024),
                   r.size("daemon", "max_message_bytes", c.max_message_bytes),
                   r.size("daemon", "max_receive_bytes", c.max_receive_bytes),
                   r.integer("daemon", "admission_workers", c.admission_workers, 1, 64),
                   r.integer("daemon", "max_active_jobs", c.max_active_jobs, 1, 1'000'000),
                   r.integer("daemon", "shutdown_grace_s", grace, 0, 7 * 24 * 3600),
                   r.string("daemon", "state_dir", c.state_dir), r.string("queue", "url", c.queue_url),
                   r.size("queue", "max_input_bytes", c.queue_max_input_bytes),
                   r.integer("queue", "max_unfinished_jobs", c.queue_max_unfinished_jobs, 1, 1'000'000'000),
                   r.integer("queue", "max_attempts", c.queue_max_attempts, 1, 1000),
                   r.integer("queue", "max_kept_results", c.queue_max_kept_results, 1, 1'000'000'000),
                   r.integer("queue", "lease_s", lease, 2, 24 * 3600),
                   r.integer("queue", "heartbeat_s", heartbeat, 1, 3600),
                   r.integer("queue", "poll_ms", poll, 10, 60'000),
                   r.integer("queue", "claim_partitions", c.queue_claim_partitions, 0, 1'000'000),
                   r.number("engine", "budget_fraction", c.engine.budget_fraction, 0.01, 1.0),
                   r.integer("engine", "synthesis_workers", c.engine.synthesis_workers, 0, 1024),
                   r.integer("engine", "prover_workers", c.engine.prover_workers, 0, 64),
                   r.integer("engine", "finalizer_workers", c.engine.finalizer_workers, 1, 64),
                   r.integer("engine", "channel_capacity", c.engine.channel_capacity, 1, 1024),
                   r.integer("engine", "urgent_priority", c.engine.urgent_priority, -1'000'000, 1'000'000),
                   r.integer("engine", "urgent_synthesis_workers", c.engine.urgent_synthesis_workers, 0, 64),
                   r.boolean("engine", "self_verify", c.engine.self_verify),
                   r.integer("engine", "max_partitions", c.engine.max_partitions, 1, 1u << 20),
                   r.integer("engine", "max_kept_jobs", c.engine.max_kept_jobs, 1, 1u << 24),
                   r.size("engine", "max_input_bytes", c.engine.max_input_bytes),
                   r.integer("engine", "result_ttl_s", ttl, 1, 7 * 24 * 3600),
                   r.string("engine", "device", c.device), r.string("engine", "gpus", c.gpus),
                   r.string("log", "level", c.log_level), r.string("log", "format", c.log_format)}) {
    if (!s.ok()) return Status::invalid_argument("config: " + s.message());
  }
  std::optional<std::uint64_t> budget;
  for (Status s : {r.size_or_auto("engine", "budget", budget), r.size_or_auto("engine", "gpu_resident", c.gpu_resident)}) {
    if (!s.ok()) return Status::invalid_argument("config: " + s.message());
  }
  if (budget == std::optional<std::uint64_t>(0)) {
    return Status::invalid_argument("config: 'engine.budget' must be positive, or \"auto\"");
  }
  c.engine.budget_bytes = budget.value_or(0);
  c.shutdown_grace = std::chrono::seconds(grace);
  c.engine.result_ttl = std::chrono::seconds(ttl);
  c.queue_lease = std::chrono::seconds(lease);
  c.queue_heartbeat = std::chrono::seconds(heartbeat);
  c.queue_poll = std::chrono::milliseconds(poll);
  if (c.queue_heartbeat * 2 > c.queue_lease) {
    return Status::invalid_argument("config: 'queue.heartbeat_s' (" + std::to_string(heartbeat) +
                                    ") must be at most half of 'queue.lease_s' (" + std::to_string(lease) +
                                    "): a lease must survive a late heartbeat");
  }
  if (!c.queue_url.empty() && c.queue_url.rfind("postgresql://", 0) != 0 && c.queue_url.rfind("postgres://", 0) != 0) {
    return Status::invalid_argument("config: 'queue.url' = '" + c.queue_url +
                                    "' (expected empty for the embedded store, or postgresql://...)");
  }
  if (c.device != "auto" && c.device != "cpu" && c.device != "gpu")
    return Status::invalid_argument("config: 'engine.device' = '" + c.device + "' (expected auto, cpu or gpu)");
  static const std::set<std::string> levels = {"trace", "debug", "info", "warn", "error", "off"};
  if (!levels.count(c.log_level)) {
    return Status::invalid_argument("config: 'log.level' = '" + c.log_level +
                                    "' (expected trace, debug, info, warn, error or off)");
  }
  if (c.log_format != "text" && c.log_format != "json")
    return Status::invalid_argument("config: 'log.format' = '" + c.log_format + "' (expected text or json)");
  if (c.max_message_bytes < 4096 || c.max_message_bytes > (2ull << 30) - 1)
    return Status::invalid_argument("config: 'daemon.max_message_bytes' must be in [4 KiB, 2 GiB)");
  if (c.max_receive_bytes != 0 && c.max_receive_bytes < c.max_message_bytes) {
    return Status::invalid_argument("config: 'daemon.max_receive_bytes' (" + std::to_string(c.max_receive_bytes) +
                                    ") must be at least daemon.max_message_bytes (" +
                                    std::to_string(c.max_message_bytes) + "), or 0 for twice that");
  }
  return c;
}

Result<DaemonConfig> load_config(const std::string& path) {
  // A configuration file is small: 16 MiB is far more than any real one.
  auto text = read_text_file(path, std::uint64_t{16} << 20);
  if (!text.ok()) return Status(text.status().code(), "the config file: " + text.status().message());
  auto c = parse_config(*text);
  if (!c.ok()) return Status(c.status().code(), path + ": " + c.status().message());
  return c;
}

}  // namespace zk::server
