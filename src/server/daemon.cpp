#include "server/daemon.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <thread>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "base/build_info.hpp"
#include "gpu/gpu.hpp"
#include "gpu/pool.hpp"
#include "server/http_pages.hpp"
#include "server/tls.hpp"
#include "store/pg_job_store.hpp"
#include "store/sqlite_job_store.hpp"

namespace zk::server {
namespace {

/// %* : the message as a JSON string body (quotes, backslashes and control characters escaped).
class JsonEscaped : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
    const std::string_view v(msg.payload.data(), msg.payload.size());
    for (char c : v) {
      switch (c) {
        case '"':
          dest.append(std::string_view("\\\""));
          break;
        case '\\':
          dest.append(std::string_view("\\\\"));
          break;
        case '\n':
          dest.append(std::string_view("\\n"));
          break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", c);
            dest.append(std::string_view(buf));
          } else {
            dest.push_back(c);
          }
      }
    }
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<JsonEscaped>(); }
};

/// The socket's directory must be one that nobody else can write into: else another user could
/// replace the socket (or the lock beside it) and receive the clients' jobs. Allowed: owned by us
/// or root and writable by nobody else, or sticky (others cannot remove our files) and ours.
Status check_socket_dir(const std::filesystem::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return Status::io_error("cannot stat " + dir.string() + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) return Status::invalid_argument(dir.string() + " is not a directory");
  const uid_t me = ::geteuid();
  if (st.st_uid != me && st.st_uid != 0) {
    return Status::invalid_argument("the socket directory " + dir.string() + " belongs to another user (uid " +
                                    std::to_string(st.st_uid) + "); choose a directory of your own for --listen");
  }
  const bool others_write = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
  const bool sticky_ours = (st.st_mode & S_ISVTX) != 0 && st.st_uid == me;
  if (others_write && !sticky_ours) {
    return Status::invalid_argument("the socket directory " + dir.string() +
                                    " is writable by other users, who could replace the socket; use a private "
                                    "directory (e.g. $XDG_RUNTIME_DIR, or one made with mode 0700)");
  }
  return {};
}

Status prepare_socket_dir(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.size() >= sizeof(sockaddr_un{}.sun_path)) {
    return Status::invalid_argument("socket path " + path + " is too long for a unix socket");
  }
  const fs::path parent = fs::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty() && !fs::exists(parent, ec)) {
    const mode_t old_mask = ::umask(077);  // created owner-only, never world-writable in between
    fs::create_directories(parent, ec);
    ::umask(old_mask);
    if (ec) return Status::io_error("cannot create " + parent.string() + ": " + ec.message());
  }
  return check_socket_dir(parent.empty() ? fs::path(".") : parent);
}

/// Under the lock: a live socket at the path is refused, a stale one replaced, anything else kept.
Status prepare_socket(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};  // nothing there
  if (!S_ISSOCK(st.st_mode)) {
    return Status::already_exists(path + " exists and is not a socket; refusing to replace it");
  }
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return Status::io_error(std::string("socket(): ") + std::strerror(errno));
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  const int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr));
  const int err = errno;
  ::close(fd);
  if (rc == 0) {
    return Status::already_exists("another process is serving on " + path +
                                  " (a running zkpipe daemon?); stop it, or choose another --listen");
  }
  if (err != ECONNREFUSED && err != ENOENT) {
    return Status::io_error("cannot probe " + path + ": " + std::strerror(err));
  }
  spdlog::info("replacing stale socket {}", path);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return Status::io_error("cannot remove the stale socket " + path + ": " + std::strerror(errno));
  }
  return {};
}

/// An exclusive lock on `<socket>.lock`, held for the daemon's life: two daemons started at once
/// on one path cannot both pass the stale-socket probe, and neither unlinks the other's socket.
Result<int> lock_socket(const std::string& socket_path) {
  const std::string lock_path = socket_path + ".lock";
  const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return Status::io_error("cannot open the lock " + lock_path + ": " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK) {
      return Status::already_exists("another zkpipe daemon holds " + lock_path + " (it serves on " + socket_path +
                                    "); stop it, or choose another --listen");
    }
    return Status::io_error("cannot lock " + lock_path + ": " + std::strerror(err));
  }
  return fd;
}

}  // namespace

std::uint64_t receive_bytes(const DaemonConfig& config) {
  return config.max_receive_bytes != 0 ? config.max_receive_bytes : 2 * config.max_message_bytes;
}

std::string unix_socket_path(const std::string& address) {
  if (address.rfind("unix://", 0) == 0) return address.substr(7);
  if (address.rfind("unix:", 0) == 0) return address.substr(5);
  return "";
}

Status configure_logging(const std::string& level, const std::string& format) {
  auto lvl = spdlog::level::from_str(level);
  if (lvl == spdlog::level::off && level != "off") return Status::invalid_argument("unknown log level '" + level + "'");
  auto logger = std::make_shared<spdlog::logger>("zkpipe", std::make_shared<spdlog::sinks::stderr_sink_mt>());
  auto f = std::make_unique<spdlog::pattern_formatter>();
  if (format == "json") {
    f->add_flag<JsonEscaped>('*').set_pattern(
        R"({"time":"%Y-%m-%dT%H:%M:%S.%e%z","level":"%l","thread":%t,"msg":"%*"})");
  } else if (format == "text") {
    f->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%l] %v");
  } else {
    return Status::invalid_argument("unknown log format '" + format + "' (text or json)");
  }
  logger->set_formatter(std::move(f));
  logger->set_level(lvl);
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
  return {};
}

Result<std::shared_ptr<grpc::ServerCredentials>> listener_credentials(const DaemonConfig& config,
                                                                      const std::string& listen, bool unix_socket) {
  const bool tls = !config.tls_cert.empty() || !config.tls_key.empty() || !config.tls_client_ca.empty();
  if (unix_socket) {
    if (tls) {
      return Status::invalid_argument("daemon.tls_cert / tls_key / tls_client_ca are for a TCP listener; " + listen +
                                      " is a unix socket (owner-only, it needs no TLS): listen on host:port, or "
                                      "remove the TLS settings");
    }
    return grpc::InsecureServerCredentials();
  }
  if (tls) {
    return server_tls_credentials({.cert = config.tls_cert, .key = config.tls_key, .client_ca = config.tls_client_ca});
  }
  if (!config.token.empty() && !config.allow_token_over_plaintext) {
    return Status::invalid_argument(
        "daemon.token is set but " + listen +
        " is plain TCP: the token would travel in clear. Serve TLS (daemon.tls_cert and daemon.tls_key, or "
        "--tls-cert/--tls-key), listen on a unix socket, or, on a trusted network only, set "
        "daemon.allow_token_over_plaintext = true (--allow-token-over-plaintext)");
  }
  return grpc::InsecureServerCredentials();
}

Result<std::unique_ptr<store::JobStore>> open_job_store(const DaemonConfig& config) {
  store::StoreLimits limits;
  limits.max_input_bytes = config.queue_max_input_bytes;
  limits.max_unfinished_jobs = config.queue_max_unfinished_jobs;
  limits.max_attempts = config.queue_max_attempts;
  limits.max_kept_results = config.queue_max_kept_results;
  limits.result_ttl = std::chrono::duration_cast<std::chrono::seconds>(config.engine.result_ttl);
  if (!config.queue_url.empty()) {
    auto s = store::PgJobStore::open(config.queue_url, limits);
    if (!s.ok()) return s.status();
    if (!(*s)->notifies()) {
      spdlog::warn("job store {}: the server refuses LISTEN/NOTIFY (YugabyteDB's default); daemons find new jobs by "
                   "polling every queue.poll_ms",
                   (*s)->describe());
    }
    return std::unique_ptr<store::JobStore>(std::move(*s));
  }
  if (config.state_dir.empty()) return Status::invalid_argument("daemon.state_dir is empty");
  const std::string path = config.state_dir + "/jobs.db";
  auto s = store::SqliteJobStore::open(path, limits);
  if (!s.ok()) return s.status();
  if ((*s)->recovered() > 0) {
    spdlog::warn("job store {}: {} job(s) were running when the last daemon stopped without finishing them; they are "
                 "queued again",
                 path, (*s)->recovered());
  }
  return std::unique_ptr<store::JobStore>(std::move(*s));
}

Result<std::unique_ptr<Daemon>> Daemon::start(const DaemonConfig& config) {
  std::unique_ptr<Daemon> d(new Daemon());
  d->config_ = config;
  std::string listen = config.listen.empty() ? default_listen() : config.listen;
  if (listen.rfind("unix:", 0) == 0 && unix_socket_path(listen).empty())
    return Status::invalid_argument("--listen " + listen + ": no socket path");
  d->socket_path_ = unix_socket_path(listen);
  if (d->socket_path_.empty() && listen.find(':') == std::string::npos) {
    return Status::invalid_argument("--listen " + listen + ": expected unix:///path or host:port");
  }
  // Checked before anything is created or listens: a refused setting leaves no trace.
  auto credentials = listener_credentials(config, listen, !d->socket_path_.empty());
  if (!credentials.ok()) return credentials.status();
  if (!d->socket_path_.empty()) {
    if (d->socket_path_.front() != '/') d->socket_path_ = std::filesystem::absolute(d->socket_path_).string();
    // Directory checked (and made) first, then the lock, then the stale-socket probe under it.
    if (Status s = prepare_socket_dir(d->socket_path_); !s.ok()) return s;
    auto lock = lock_socket(d->socket_path_);
    if (!lock.ok()) return lock.status();
    d->lock_fd_ = *lock;
    if (Status s = prepare_socket(d->socket_path_); !s.ok()) return s;
    listen = "unix://" + d->socket_path_;
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(config.params_dir, ec)) {
    return Status::not_found("params directory " + config.params_dir + " does not exist");
  }
  auto wanted = engine::parse_prover_device(config.device);
  if (!wanted.ok()) return wanted.status();
  auto device = engine::resolve_prover_device(*wanted);
  if (!device.ok()) return device.status();
  std::shared_ptr<gpu::DevicePool> gpus;
  if (*device == engine::ProverDevice::kGpu) {
    auto ordinals = gpu::parse_device_list(config.gpus, static_cast<int>(gpu::devices().size()));
    if (!ordinals.ok()) return Status::invalid_argument("config: engine." + ordinals.status().message());
    auto pool = gpu::DevicePool::for_devices(*ordinals, config.gpu_resident);
    if (!pool.ok()) return Status::invalid_argument("config: engine.gpu_resident: " + pool.status().message());
    gpus = std::move(*pool);
  }
  engine::EngineConfig engine_config = config.engine;
  if (engine_config.prover_workers == 0) {
    engine_config.prover_workers = gpus ? 2 * static_cast<unsigned>(gpus->size()) : 1;
  }
  d->engine_ = std::make_unique<engine::Engine>(engine_config, std::map<std::string, std::shared_ptr<engine::Workload>>{});
  d->registry_ = std::make_unique<WorkloadRegistry>(*d->engine_, config.params_dir, *device, gpus,
                                                   config.ni_partition_proofs);
  d->device_ = *device == engine::ProverDevice::kGpu ? "gpu" : "cpu";
  if (gpus) {
    std::string list;
    for (const auto& g : gpus->status()) list += (list.empty() ? "" : ",") + std::to_string(g.ordinal);
    d->device_ += (gpus->size() > 1 ? "s " : " ") + list;
  }
  auto store = open_job_store(config);
  if (!store.ok()) {
    d->engine_->shutdown();
    return store.status();
  }
  d->store_ = std::move(*store);
  const bool shared_queue = !config.queue_url.empty();
  d->dispatcher_ = std::make_unique<Dispatcher>(
      *d->engine_, *d->registry_, *d->store_,
      DispatchOptions{.owner = default_owner(),
                      .lease = config.queue_lease,
                      .heartbeat = config.queue_heartbeat,
                      .poll = config.queue_poll,
                      .claim_partitions = config.queue_claim_partitions != 0 ? config.queue_claim_partitions
                                          : shared_queue ? 2 * std::max(1u, d->engine_->config().synthesis_workers)
                                                         : 0,
                      .max_active_jobs = config.max_active_jobs});
  d->service_ = std::make_unique<ProvingService>(
      *d->engine_, *d->registry_, *d->dispatcher_,
      ServiceOptions{.token = config.token,
                     .max_active_jobs = config.max_active_jobs,
                     .admission_workers = config.admission_workers,
                     .version = std::string("zkpipe ") + base::kVersion + " (" + base::kGitCommit + ")"});
  grpc::ServerBuilder b;
  int port = 0;
  b.AddListeningPort(listen, *credentials, &port);
  b.SetMaxReceiveMessageSize(static_cast<int>(config.max_message_bytes));
  b.SetMaxSendMessageSize(static_cast<int>(config.max_message_bytes));
  // gRPC reads a unary message whole before any handler (or interceptor) sees the call, so the
  // token cannot be checked first: the quota bounds what the transport holds for messages being
  // received over all connections (beyond it, gRPC resets streams: RESOURCE_EXHAUSTED).
  grpc::ResourceQuota quota("zkpipe-receive");
  quota.Resize(static_cast<std::size_t>(receive_bytes(config)));
  b.SetResourceQuota(quota);
  d->cuzk_ = std::make_unique<CuzkService>(*d->service_);
  b.RegisterService(d->service_.get());
  b.RegisterService(d->cuzk_.get());  // Curio's protocol (docs/curio.md)
  const mode_t old_mask = ::umask(077);  // the socket file is created owner-only
  d->server_ = b.BuildAndStart();
  ::umask(old_mask);
  if (!d->server_ || (d->socket_path_.empty() && port == 0)) {
    d->service_->stop();
    d->dispatcher_->pause_claims();
    d->engine_->shutdown();
    d->dispatcher_->stop();
    return Status::unavailable("cannot listen on " + listen + " (address in use, or not permitted?)");
  }
  if (!d->socket_path_.empty()) {
    ::chmod(d->socket_path_.c_str(), 0600);
    d->address_ = listen;
  } else {
    if (config.token.empty() && config.tls_client_ca.empty()) {
      spdlog::warn("listening on TCP {} without a token or client certificates: anyone who can reach this port can "
                   "submit jobs and read results (set daemon.token / --token, or daemon.tls_client_ca for mutual "
                   "TLS, or use TCP only on a trusted network)",
                   listen);
    }
    if (!config.token.empty() && config.tls_cert.empty()) {
      spdlog::warn("the token travels in clear on TCP {} (daemon.allow_token_over_plaintext is set): anyone on the "
                   "path can read it",
                   listen);
    }
    d->address_ = listen.substr(0, listen.rfind(':')) + ":" + std::to_string(port);
  }
  // The operators' HTTP listener: a bad setting or a port in use stops the start.
  if (!config.http_listen.empty()) {
    HttpListenerConfig hc;
    hc.listen = config.http_listen;
    hc.tls_cert = config.http_tls_cert;
    hc.tls_key = config.http_tls_key;
    hc.allow_public = config.http_allow_public;
    hc.max_connections = config.http_max_connections;
    Daemon* self = d.get();
    auto http = HttpListener::start(hc, [self, params_dir = config.params_dir](const std::string& path) {
      return operator_page(PagesContext{self->service_.get(), self->dispatcher_.get(), params_dir, self->address_},
                           path);
    });
    if (!http.ok()) return http.status();  // ~Daemon stops what was started (stop(0))
    d->http_ = std::move(*http);
  }
  const char* transport = !d->socket_path_.empty()         ? "unix socket"
                          : !config.tls_client_ca.empty() ? "mutual TLS"
                          : !config.tls_cert.empty()      ? "TLS"
                                                          : "plain TCP";
  spdlog::info("zkpipe daemon listening on {} ({}; params {}, budget {}, prove_start on the {}, {} prover workers, {} "
               "admission workers, gRPC receive quota {}; jobs in {} as {})",
               d->address_, transport, config.params_dir, engine::format_bytes(d->engine_->config().budget_bytes), d->device_,
               d->engine_->config().prover_workers, config.admission_workers,
               engine::format_bytes(receive_bytes(config)), d->store_->describe(), d->dispatcher_->owner());
  if (gpus) {
    const auto info = gpu::devices();
    for (const auto& g : gpus->status()) {
      std::string name = "?";
      std::uint64_t total = 0;
      for (const auto& i : info) {
        if (i.ordinal == g.ordinal) name = i.name, total = i.total_bytes;
      }
      spdlog::info("gpu {}: {}, {} of memory; key bases kept resident up to {} (engine.gpu_resident)", g.ordinal,
                   name, engine::format_bytes(total), engine::format_bytes(g.resident.capacity));
    }
  }
  if (d->http_) {
    spdlog::info("operators' HTTP on {}://{} (/metrics, /healthz, /readyz, status page at /)",
                 d->http_->tls() ? "https" : "http", d->http_->address());
  }
  return d;
}

void Daemon::stop(std::chrono::milliseconds grace) {
  if (stopped_) return;
  stopped_ = true;
  service_->set_draining();
  dispatcher_->pause_claims();  // what is still queued in the store stays there for the next daemon
  const auto until = std::chrono::steady_clock::now() + grace;
  // A call being admitted (its input validated) when draining began becomes a job that the grace
  // period covers too; calls still queued for admission are refused (UNAVAILABLE) meanwhile.
  auto count_active = [&] { return engine_->status().jobs_active + service_->admissions(); };
  std::size_t active = count_active();
  if (active > 0) spdlog::info("draining: {} active job(s), waiting up to {} ms", active, grace.count());
  while (active > 0 && !hurry_ && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    active = count_active();
  }
  if (active > 0) spdlog::warn("grace period over: cancelling {} job(s)", active);
  // Cancels what is left; a stage under way is waited for kStageBound at most.
  if (!engine_->shutdown(kStageBound)) {
    abandoned_ = true;
    spdlog::warn("a stage under way did not end within {} ms of the cancel: the daemon exits without waiting for "
                 "it (its job goes back to the job store)",
                 kStageBound.count());
  }
  // Writes the last outcomes; the cancelled jobs' claims go back to the store (also those whose
  // stage is still running when abandoned).
  dispatcher_->stop(abandoned_);
  service_->stop();     // answers every call queued for admission and every waiter
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  server_->Wait();
  http_.reset();  // /readyz answered "draining" until here
  registry_->evict_all_unused();
  if (!socket_path_.empty()) ::unlink(socket_path_.c_str());  // ours: the lock is still held
  spdlog::info("zkpipe daemon stopped");
}

Daemon::~Daemon() {
  if (server_) stop(std::chrono::milliseconds(0));
  http_.reset();
  server_.reset();
  cuzk_.reset();
  service_.reset();
  dispatcher_.reset();
  store_.reset();
  registry_.reset();
  engine_.reset();
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the lock (the file stays: removing it would race)
}

}  // namespace zk::server
