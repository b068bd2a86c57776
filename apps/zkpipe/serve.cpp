#include "serve.hpp"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>
#include <tuple>

#include <google/protobuf/util/json_util.h>
#include <grpcpp/grpcpp.h>
#include <nlohmann/json.hpp>

#include "output.hpp"
#include <spdlog/spdlog.h>

#include "engine/ledger.hpp"
#include "groth16/io.hpp"
#include "groth16/snarkjs.hpp"
#include "base/decimal.hpp"
#include "server/config.hpp"
#include "server/daemon.hpp"
#include "server/tls.hpp"
#include "zkpipe/v1/proving.grpc.pb.h"

namespace zk::app {
namespace {

namespace pb = ::zkpipe::v1;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;


std::string fmt_bytes(std::uint64_t b) { return engine::format_bytes(b); }

std::string client_address(const ClientArgs& c) {
  std::string addr = c.addr.empty() ? server::default_listen() : c.addr;
  // gRPC reads "unix://relative/path" as an authority: make socket paths absolute.
  if (const std::string path = server::unix_socket_path(addr); !path.empty() && path.front() != '/') {
    addr = "unix://" + std::filesystem::absolute(path).string();
  }
  return addr;
}

/// Plain for a unix socket, TLS (and a client certificate) as the TLS options say; their files
/// are read and checked here, once per command.
Result<std::shared_ptr<grpc::ChannelCredentials>> client_credentials(const ClientArgs& c) {
  const server::ClientTlsFiles files{.tls = c.tls, .ca = c.tls_ca, .cert = c.tls_cert, .key = c.tls_key};
  if (!files.enabled()) return grpc::InsecureChannelCredentials();
  const std::string addr = client_address(c);
  if (!server::unix_socket_path(addr).empty()) {
    return Status::invalid_argument("--tls, --tls-ca, --tls-cert and --tls-key are for a daemon on TCP (host:port); " +
                                    addr + " is a unix socket");
  }
  return server::client_tls_credentials(files);
}

struct Client {
  std::string addr, token;
  bool tls = false;
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<pb::ProvingEngine::Stub> stub;
  Client(const ClientArgs& c, const std::shared_ptr<grpc::ChannelCredentials>& credentials) {
    addr = client_address(c);
    tls = server::ClientTlsFiles{.tls = c.tls, .ca = c.tls_ca, .cert = c.tls_cert, .key = c.tls_key}.enabled();
    token = c.token;
    if (token.empty()) {
      if (const char* t = std::getenv("ZKPIPE_TOKEN")) token = t;
    }
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(1 << 30);
    args.SetMaxSendMessageSize(1 << 30);
    // Its own connection, even beside another Client with the same credentials (bench's clients).
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    channel = grpc::CreateCustomChannel(addr, credentials, args);
    stub = pb::ProvingEngine::NewStub(channel);
  }
  void prepare(grpc::ClientContext& ctx, std::chrono::milliseconds deadline = std::chrono::hours(24 * 365)) const {
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
    ctx.set_deadline(std::chrono::system_clock::now() + deadline);
  }
  std::string explain(const grpc::Status& s) const {
    if (s.error_code() == grpc::StatusCode::UNAVAILABLE && s.error_message().find("shutting down") == std::string::npos &&
        s.error_message().find("stopping") == std::string::npos) {
      std::string hint = "start one with `zkpipe serve`, or pass --addr";
      if (server::unix_socket_path(addr).empty()) {
        hint += tls ? "; with TLS: --tls-ca must name the CA that signed the daemon's certificate, and a daemon "
                      "with a client CA wants --tls-cert and --tls-key"
                    : "; a daemon serving TLS wants --tls-ca (or --tls)";
      }
      return "cannot reach a zkpipe daemon at " + addr + " (" + s.error_message() + "); " + hint;
    }
    static const char* names[] = {"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
                                  "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
                                  "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
                                  "UNAUTHENTICATED"};
    const int c = static_cast<int>(s.error_code());
    return std::string(c >= 0 && c <= 16 ? names[c] : "ERROR") + ": " + s.error_message();
  }
};

std::string json_of(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions o;
  o.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, o);
  return out;
}

const char* job_status_name(pb::JobStatus s) {
  switch (s) {
    case pb::JOB_STATUS_COMPLETED:
      return "completed";
    case pb::JOB_STATUS_FAILED:
      return "failed";
    case pb::JOB_STATUS_CANCELLED:
      return "cancelled";
    default:
      return "unknown";
  }
}

}  // namespace

int run_serve(const ServeArgs& a) {
  server::DaemonConfig cfg;
  if (!a.config.empty()) {
    auto c = server::load_config(a.config);
    if (!c.ok()) return fail(c.status().message(), false);
    cfg = std::move(*c);
  }
  if (!a.listen.empty()) cfg.listen = a.listen;
  if (!a.params_dir.empty()) cfg.params_dir = a.params_dir;
  if (!a.state_dir.empty()) cfg.state_dir = a.state_dir;
  if (!a.queue.empty()) cfg.queue_url = a.queue == "embedded" ? "" : a.queue;
  if (!a.token.empty()) cfg.token = a.token;
  if (!a.tls_cert.empty()) cfg.tls_cert = a.tls_cert;
  if (!a.tls_key.empty()) cfg.tls_key = a.tls_key;
  if (!a.tls_client_ca.empty()) cfg.tls_client_ca = a.tls_client_ca;
  if (a.allow_token_over_plaintext) cfg.allow_token_over_plaintext = true;
  if (!a.http_listen.empty()) cfg.http_listen = a.http_listen;
  if (a.ni_partition_proofs) cfg.ni_partition_proofs = true;
  if (!a.log_level.empty()) cfg.log_level = a.log_level;
  if (!a.log_format.empty()) cfg.log_format = a.log_format;
  if (Status s = server::configure_logging(cfg.log_level, cfg.log_format); !s.ok()) return fail(s.message(), false);
  // Test hooks (EngineConfig): never set in production; each says so in the log when it is.
  for (auto [name, field, what] :
       {std::tuple{"ZKPIPE_TEST_FAIL_SYNTHESES", &cfg.engine.test_fail_syntheses,
                   "the first N partition syntheses fail on purpose"},
        std::tuple{"ZKPIPE_TEST_SLOW_SYNTHESIS_MS", &cfg.engine.test_slow_synthesis_ms,
                   "every partition synthesis first sleeps N ms, deaf to a stop"}}) {
    const char* n = std::getenv(name);
    if (n == nullptr || *n == '\0') continue;
    auto v = base::parse_decimal_u64(n, UINT32_MAX);
    if (!v.ok()) return fail(std::string(name) + ": " + v.status().message(), false);
    *field = static_cast<std::uint32_t>(*v);
    spdlog::warn("{}={}: {} (a test hook)", name, *v, what);
  }
  // SIGINT/SIGTERM are taken by one thread (sigwait); every other thread, the engine's and gRPC's
  // included, inherits the blocked mask from here.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  auto d = server::Daemon::start(cfg);
  if (!d.ok()) return fail(d.status().message(), false);
  std::printf("zkpipe serving on %s\n", (*d)->address().c_str());
  if (const std::string http = (*d)->http_address(); !http.empty()) std::printf("zkpipe http on %s\n", http.c_str());
  std::fflush(stdout);
  int sig = 0;
  sigwait(&set, &sig);
  spdlog::info("{}: stopping (grace {} s; a second signal cancels at once)", sig == SIGINT ? "SIGINT" : "SIGTERM",
               cfg.shutdown_grace.count());
  std::atomic<bool> done{false};
  std::thread second([&] {
    // A second signal: the grace period ends now.
    timespec poll{0, 100'000'000};
    while (!done) {
      siginfo_t info;
      if (sigtimedwait(&set, &info, &poll) > 0) {
        spdlog::warn("second signal: cancelling the remaining jobs");
        (*d)->hurry();
      }
    }
  });
  (*d)->stop(cfg.shutdown_grace);
  done = true;
  second.join();
  if ((*d)->abandoned()) {
    // A stage could not be interrupted (Daemon::kStageBound): its jobs are back in the store, the
    // socket is gone; the engine's threads still run it, so the daemon is not destroyed.
    spdlog::info("zkpipe daemon exits without waiting for the stage under way");
    spdlog::shutdown();
    std::fflush(nullptr);
    std::_Exit(0);
  }
  return 0;
}

int run_status(const ClientArgs& c) {
  auto credentials = client_credentials(c);
  if (!credentials.ok()) return fail(credentials.status().message(), c.json);
  Client cl(c, *credentials);
  grpc::ClientContext ctx;
  cl.prepare(ctx, std::chrono::seconds(30));
  pb::GetStatusResponse st;
  const auto s = cl.stub->GetStatus(&ctx, pb::GetStatusRequest(), &st);
  if (!s.ok()) return fail(cl.explain(s), c.json);
  if (c.json) {
    std::printf("%s\n", json_of(st).c_str());
    return 0;
  }
  std::printf("%s at %s, up %.1f s%s\n", st.version().c_str(), cl.addr.c_str(), st.uptime_s(),
              st.draining() ? " (draining: no new jobs)" : "");
  std::printf("memory: budget %s used of %s (high water %s); RSS %s, peak %s\n",
              fmt_bytes(st.budget().used_bytes()).c_str(), fmt_bytes(st.budget().total_bytes()).c_str(),
              fmt_bytes(st.budget().high_water_bytes()).c_str(), fmt_bytes(st.rss_bytes()).c_str(),
              fmt_bytes(st.rss_peak_bytes()).c_str());
  const auto& t = st.totals();
  std::printf("jobs: %u active; %llu submitted, %llu completed, %llu failed, %llu cancelled\n", t.active(),
              static_cast<unsigned long long>(t.submitted()), static_cast<unsigned long long>(t.completed()),
              static_cast<unsigned long long>(t.failed()), static_cast<unsigned long long>(t.cancelled()));
  const auto& js = st.store();
  std::printf("job store: %s (this daemon: %s)\n", js.location().c_str(), js.owner().c_str());
  if (!js.error().empty()) {
    std::printf("  not readable now: %s\n", js.error().c_str());
  } else {
    std::printf("  jobs: %llu queued, %llu running, %llu done, %llu failed, %llu cancelled; inputs held %s\n",
                static_cast<unsigned long long>(js.queued()), static_cast<unsigned long long>(js.running()),
                static_cast<unsigned long long>(js.done()), static_cast<unsigned long long>(js.failed()),
                static_cast<unsigned long long>(js.cancelled()), fmt_bytes(js.input_bytes()).c_str());
    std::printf("  %-40s %16s %14s\n", "machine", "last heartbeat", "jobs running");
    for (const auto& m : js.machines()) {
      std::printf("  %-40s %14.1fs %14llu\n", m.owner().c_str(), m.seconds_since_heartbeat(),
                  static_cast<unsigned long long>(m.jobs_running()));
    }
  }
  std::printf("\n%-28s %8s %8s %18s\n", "queue (circuit:shape)", "queued", "running", "partitions queued");
  if (st.queues().empty()) std::printf("%-28s\n", "(none)");
  for (const auto& q : st.queues()) {
    std::printf("%-28s %8u %8u %18u\n", q.circuit().c_str(), q.jobs_queued(), q.jobs_running(), q.partitions_queued());
  }
  std::printf("\npartitions per stage:");
  for (const auto& x : st.stages()) std::printf(" %s %u", x.stage().c_str(), x.partitions());
  std::printf("\n\n%-14s %8s %10s %-24s %10s\n", "worker", "job", "partition", "circuit", "busy ms");
  for (const auto& w : st.workers()) {
    if (w.job_id() == 0) {
      std::printf("%-14s %8s\n", w.name().c_str(), "idle");
    } else {
      std::printf("%-14s %8llu %10u %-24s %10.0f\n", w.name().c_str(), static_cast<unsigned long long>(w.job_id()),
                  w.partition(), w.circuit().c_str(), w.busy_ms());
    }
  }
  if (!st.gpus().empty()) {
    std::printf("\n%-4s %-24s %8s %10s %8s %22s %12s %-32s\n", "gpu", "name", "turns", "busy s", "waiting",
                "resident (of)", "kernel mem", "proving now");
    for (const auto& g : st.gpus()) {
      const std::string now = g.job_id().empty() ? "idle"
                                                 : g.kind() + " job " + g.job_id() + " partition " +
                                                       std::to_string(g.partition());
      const std::string resident = fmt_bytes(g.resident_bytes()) + " (" + fmt_bytes(g.resident_capacity_bytes()) + ")";
      std::printf("%-4u %-24s %8llu %10.1f %8u %22s %12s %-32s\n", g.ordinal(), g.name().c_str(),
                  static_cast<unsigned long long>(g.turns()), g.busy_s(), g.waiting(), resident.c_str(),
                  fmt_bytes(g.pool_bytes()).c_str(), now.c_str());
    }
  }
  std::printf("\n%-48s %12s %6s\n", "params (cached keys)", "bytes", "users");
  if (st.params().empty()) std::printf("(none loaded)\n");
  for (const auto& p : st.params()) {
    std::printf("%-48s %12s %6lld\n", p.id().c_str(), fmt_bytes(p.bytes()).c_str(), static_cast<long long>(p.users()));
  }
  std::printf("\n%-10s %12s %12s %8s\n", "ledger", "now", "high water", "buffers");
  for (const auto& l : st.ledger()) {
    std::printf("%-10s %12s %12s %8lld\n", l.name().c_str(), fmt_bytes(static_cast<std::uint64_t>(l.bytes())).c_str(),
                fmt_bytes(static_cast<std::uint64_t>(l.high_water_bytes())).c_str(), static_cast<long long>(l.buffers()));
  }
  return 0;
}

int run_metrics(const ClientArgs& c) {
  auto credentials = client_credentials(c);
  if (!credentials.ok()) return fail(credentials.status().message(), c.json);
  Client cl(c, *credentials);
  grpc::ClientContext ctx;
  cl.prepare(ctx, std::chrono::seconds(30));
  pb::GetMetricsResponse m;
  const auto s = cl.stub->GetMetrics(&ctx, pb::GetMetricsRequest(), &m);
  if (!s.ok()) return fail(cl.explain(s), c.json);
  std::fputs(m.prometheus_text().c_str(), stdout);
  return 0;
}

int run_cancel(const ClientArgs& c, std::uint64_t job) {
  auto credentials = client_credentials(c);
  if (!credentials.ok()) return fail(credentials.status().message(), c.json);
  Client cl(c, *credentials);
  grpc::ClientContext ctx;
  cl.prepare(ctx, std::chrono::seconds(30));
  pb::CancelProofRequest req;
  req.set_job_id(job);
  pb::CancelProofResponse resp;
  const auto s = cl.stub->CancelProof(&ctx, req, &resp);
  if (!s.ok()) return fail(cl.explain(s), c.json);
  if (c.json) {
    std::printf("%s\n", Json{{"ok", true}, {"job", job}, {"was_active", resp.was_active()}}.dump().c_str());
  } else {
    std::printf("job %llu: %s\n", static_cast<unsigned long long>(job),
                resp.was_active() ? "cancelled" : "already finished (nothing to cancel)");
  }
  return 0;
}

namespace {

pb::SubmitProofRequest submit_request(const RemoteJob& j) {
  pb::SubmitProofRequest r;
  r.set_circuit(j.circuit);
  r.set_shape(j.shape);
  r.set_input(std::string(j.input.begin(), j.input.end()));
  r.set_partitions(j.partitions);
  r.set_priority(j.priority);
  return r;
}

template <class E>
Status write_snarkjs(const pb::ProofResult& r, const std::string& proof_json, const std::string& public_json) {
  auto proofs = groth16::read_proofs<E>(std::span(reinterpret_cast<const std::uint8_t*>(r.proof().data()), r.proof().size()));
  if (!proofs.ok()) return proofs.status();
  if (proofs->size() != 1) return Status::internal("expected one proof");
  const std::string pj = groth16::snarkjs::proof_to_json<E>((*proofs)[0]);
  Json pub = Json::array();
  if (r.public_inputs_size() > 0) {
    for (const auto& v : r.public_inputs(0).values()) pub.push_back(v);
  }
  const std::string pubs = pub.dump(1) + "\n";
  auto bytes = [](const std::string& t) { return std::span(reinterpret_cast<const std::uint8_t*>(t.data()), t.size()); };
  if (Status s = groth16::write_file(proof_json, bytes(pj)); !s.ok()) return s;
  return groth16::write_file(public_json, bytes(pubs));
}

}  // namespace

int run_remote_prove(const ClientArgs& c, const RemoteProveArgs& a) {
  auto credentials = client_credentials(c);
  if (!credentials.ok()) return fail(credentials.status().message(), c.json);
  Client cl(c, *credentials);
  grpc::ClientContext ctx;
  cl.prepare(ctx);
  pb::ProveRequest req;
  *req.mutable_submit() = submit_request(a.job);
  req.set_timeout_ms(a.timeout_ms);
  pb::ProofResult r;
  const auto t0 = Clock::now();
  const auto s = cl.stub->Prove(&ctx, req, &r);
  if (!s.ok()) return fail(cl.explain(s), c.json);
  const double wall = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (r.status() != pb::JOB_STATUS_COMPLETED) {
    return fail("job " + std::to_string(r.job_id()) + " " + job_status_name(r.status()) + ": " + r.error(), c.json, 1);
  }
  auto bytes = [](const std::string& t) { return std::span(reinterpret_cast<const std::uint8_t*>(t.data()), t.size()); };
  if (a.job.circuit == "zkey") {
    const Status st = r.curve() == "bn254" ? write_snarkjs<groth16::Bn254>(r, a.proof_json, a.public_json)
                                           : write_snarkjs<groth16::Bls12_381>(r, a.proof_json, a.public_json);
    if (!st.ok()) return fail(st.message(), c.json);
  } else {
    if (Status st = groth16::write_file(a.out, bytes(r.proof())); !st.ok()) return fail(st.message(), c.json);
    if (!a.public_out.empty()) {
      Json j = Json::array();
      for (const auto& p : r.public_inputs()) j.push_back(Json(std::vector<std::string>(p.values().begin(), p.values().end())));
      if (j.size() == 1) j = j[0];
      const std::string text = j.dump(1) + "\n";
      if (Status st = groth16::write_file(a.public_out, bytes(text)); !st.ok()) return fail(st.message(), c.json);
    }
  }
  const auto& t = r.timings();
  if (c.json) {
    std::printf("%s\n", Json{{"ok", true},
                             {"job", r.job_id()},
                             {"partitions", r.partitions()},
                             {"curve", r.curve()},
                             {"ms",
                              {{"queue", t.queue_ms()},
                               {"synthesis", t.synthesis_ms()},
                               {"prove", t.prove_ms()},
                               {"finalize", t.finalize_ms()},
                               {"total", t.total_ms()},
                               {"wall", wall}}}}
                            .dump()
                            .c_str());
  } else {
    std::printf("job %llu: %u partition(s) proved by %s in %.1f ms (queue %.1f, synthesis %.1f, prove %.1f, "
                "finalize %.1f ms, summed over partitions)\n",
                static_cast<unsigned long long>(r.job_id()), r.partitions(), cl.addr.c_str(), t.total_ms(),
                t.queue_ms(), t.synthesis_ms(), t.prove_ms(), t.finalize_ms());
    if (a.job.circuit == "zkey") {
      std::printf("wrote %s and %s\n", a.proof_json.c_str(), a.public_json.c_str());
    } else {
      std::printf("wrote %s (%zu bytes)%s%s\n", a.out.c_str(), r.proof().size(), a.public_out.empty() ? "" : " and ",
                  a.public_out.c_str());
    }
  }
  return 0;
}

int run_remote_bench(const ClientArgs& c, const RemoteJob& job, std::size_t jobs, std::size_t clients) {
  if (jobs == 0 || clients == 0 || clients > 1000) return fail("--jobs and -j must be at least 1 (-j at most 1000)", c.json);
  auto credentials = client_credentials(c);
  if (!credentials.ok()) return fail(credentials.status().message(), c.json);
  Client probe(c, *credentials);
  {
    grpc::ClientContext ctx;
    probe.prepare(ctx, std::chrono::seconds(30));
    pb::GetStatusResponse st;
    if (auto s = probe.stub->GetStatus(&ctx, pb::GetStatusRequest(), &st); !s.ok()) return fail(probe.explain(s), c.json);
  }
  std::atomic<std::size_t> next{0};
  std::mutex m;
  std::vector<pb::Timings> timings;
  std::vector<std::string> errors;
  std::size_t partitions = 0;
  const auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < clients; ++i) {
    threads.emplace_back([&] {
      Client cl(c, *credentials);  // one connection per client
      for (std::size_t k = next++; k < jobs; k = next++) {
        grpc::ClientContext ctx;
        cl.prepare(ctx);
        pb::ProveRequest req;
        *req.mutable_submit() = submit_request(job);
        pb::ProofResult r;
        const auto s = cl.stub->Prove(&ctx, req, &r);
        std::lock_guard lock(m);
        if (!s.ok()) {
          errors.push_back(cl.explain(s));
        } else if (r.status() != pb::JOB_STATUS_COMPLETED) {
          errors.push_back("job " + std::to_string(r.job_id()) + " " + job_status_name(r.status()) + ": " + r.error());
        } else {
          timings.push_back(r.timings());
          partitions += r.partitions();
          if (!c.json) {
            std::fprintf(stderr, "  job %zu/%zu done at %.1f s\n", timings.size(), jobs,
                         std::chrono::duration<double>(Clock::now() - t0).count());
          }
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  grpc::ClientContext ctx;
  probe.prepare(ctx, std::chrono::seconds(30));
  pb::GetStatusResponse st;
  (void)probe.stub->GetStatus(&ctx, pb::GetStatusRequest(), &st);
  auto stats = [&](auto get) {
    std::vector<double> v;
    for (const auto& t : timings) v.push_back(get(t));
    std::sort(v.begin(), v.end());
    double mean = 0;
    for (double x : v) mean += x;
    mean = v.empty() ? 0 : mean / static_cast<double>(v.size());
    const double p50 = v.empty() ? 0 : v[v.size() / 2];
    const double p95 = v.empty() ? 0 : v[std::min(v.size() - 1, v.size() * 95 / 100)];
    return std::array<double, 3>{mean, p50, p95};
  };
  const std::pair<const char*, std::array<double, 3>> rows[] = {
      {"queue", stats([](const pb::Timings& t) { return t.queue_ms(); })},
      {"synthesis", stats([](const pb::Timings& t) { return t.synthesis_ms(); })},
      {"prove_start", stats([](const pb::Timings& t) { return t.prove_ms(); })},
      {"prove_finish", stats([](const pb::Timings& t) { return t.finalize_ms(); })},
      {"total", stats([](const pb::Timings& t) { return t.total_ms(); })}};
  const double s_per_partition = partitions ? wall / static_cast<double>(partitions) : 0;
  if (c.json) {
    Json j{{"ok", errors.empty()},     {"addr", probe.addr},          {"jobs", jobs},
           {"clients", clients},       {"partitions", partitions},    {"wall_s", wall},
           {"s_per_partition", s_per_partition}, {"errors", errors}, {"server_rss_peak", st.rss_peak_bytes()},
           {"budget_high_water", st.budget().high_water_bytes()}};
    Json stages;
    for (const auto& [name, v] : rows) stages[name] = {{"mean", v[0]}, {"p50", v[1]}, {"p95", v[2]}};
    j["job_ms"] = stages;
    Json hw;
    for (const auto& l : st.ledger()) hw[l.name()] = l.high_water_bytes();
    j["ledger_high_water"] = hw;
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("%zu jobs (%zu partitions) from %zu clients against %s in %.2f s: %.3f s/partition\n", timings.size(),
                partitions, clients, probe.addr.c_str(), wall, s_per_partition);
    std::printf("%-14s %10s %10s %10s   (per job, summed over its partitions)\n", "stage (ms)", "mean", "p50", "p95");
    for (const auto& [name, v] : rows) std::printf("%-14s %10.1f %10.1f %10.1f\n", name, v[0], v[1], v[2]);
    std::printf("daemon: RSS peak %s; budget %s, high water %s\n", fmt_bytes(st.rss_peak_bytes()).c_str(),
                fmt_bytes(st.budget().total_bytes()).c_str(), fmt_bytes(st.budget().high_water_bytes()).c_str());
    std::printf("ledger high water:");
    for (const auto& l : st.ledger()) {
      std::printf(" %s %s", l.name().c_str(), fmt_bytes(static_cast<std::uint64_t>(l.high_water_bytes())).c_str());
    }
    std::printf("\n");
    for (const auto& e : errors) std::fprintf(stderr, "zkpipe: %s\n", e.c_str());
  }
  return errors.empty() ? 0 : 1;
}

}  // namespace zk::app
