// `zkpipe bench --circuit mixed`: PoSt deadlines under PoRep load (issue 41, part 2). The engine
// in-process with the three Filecoin kinds a storage provider's daemon serves together, at their
// daemon priorities (WinningPoSt 20, WindowPoSt 10, PoRep 0):
//   1. alone: WindowPoSt and WinningPoSt jobs one at a time on an idle engine (their latency alone);
//   2. alone: a stream of PoRep C2 jobs keeping every worker busy for --seconds (throughput alone);
//   3. mixed: the same PoRep stream, a WindowPoSt partition every --window-every seconds and a
//      WinningPoSt at random times (uniform around --winning-every), for --seconds.
// Reported per kind: latency p50 / p99 / max (submit to answer) alone and under load, PoRep
// throughput alone and under load, and the bound the issue sets for WinningPoSt: its p99 alone plus
// the steps under way it cannot take over — the longest PoRep prove_start (the prover) and
// prove_finish (the finalizer) seen — as `zkpipe plan --urgent-profile` predicts it
// (engine::urgent_bound).

#include "bench_mixed.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "circuits/filecoin/proof_kind.hpp"
#include "engine/engine.hpp"
#include "engine/filecoin_workload.hpp"
#include "groth16/io.hpp"
#include "output.hpp"

namespace zk::app {
namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;
namespace fc = circuits::filecoin;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
Clock::duration seconds(double s) { return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s)); }

struct Latencies {
  std::vector<double> s;
  // The longest prove_start and prove_finish among these jobs (what urgent work may find under way
  // on the prover and the finalizer: engine::urgent_bound).
  double longest_prove_s = 0, longest_finish_s = 0;
  double prover_s = 0;  // prove_start + prove_finish seconds, all partitions: the kind's share of the provers
  std::size_t failed = 0;
  Json json() const {
    auto v = s;
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v.empty() ? 0.0 : v[std::min(v.size() - 1, static_cast<std::size_t>(q * v.size()))]; };
    return {{"n", v.size()}, {"p50_s", at(0.5)}, {"p99_s", at(0.99)}, {"max_s", v.empty() ? 0.0 : v.back()},
            {"failed", failed}};
  }
};

/// Submits jobs and records, per kind, how long each took from submit to answer (a thread per job
/// waits for it: the count in flight is small).
class Driver {
 public:
  explicit Driver(engine::Engine& e) : e_(e) {}
  ~Driver() { join(); }
  void submit(const std::string& kind, engine::JobRequest req) {
    const auto t0 = Clock::now();
    auto id = e_.submit(std::move(req));
    ++in_flight_[kind];
    threads_.emplace_back([this, kind, t0, id] {
      Result<engine::JobResult> r = id.ok() ? e_.await(*id, std::chrono::hours(2)) : Result<engine::JobResult>(id.status());
      const double s = seconds_since(t0);
      std::lock_guard lock(m_);
      --in_flight_[kind];
      auto& l = done_[kind];
      if (!r.ok() || r->state != engine::JobState::kDone) {
        ++l.failed;
        if (first_error_.empty()) first_error_ = r.ok() ? r->error : r.status().message();
      } else {
        l.s.push_back(s);
        for (const auto& p : r->partitions) {
          l.longest_prove_s = std::max(l.longest_prove_s, p.prove_ms / 1e3);
          l.longest_finish_s = std::max(l.longest_finish_s, p.finalize_ms / 1e3);
          l.prover_s += (p.prove_ms + p.finalize_ms) / 1e3;
        }
      }
      cv_.notify_all();
    });
  }
  std::size_t in_flight(const std::string& kind) {
    std::lock_guard lock(m_);
    return in_flight_[kind];
  }
  /// Waits until fewer than `n` jobs of `kind` are in flight, or `until` passes.
  void wait_below(const std::string& kind, std::size_t n, Clock::time_point until) {
    std::unique_lock lock(m_);
    cv_.wait_until(lock, until, [&] { return in_flight_[kind] < n; });
  }
  void join() {
    for (auto& t : threads_) t.join();
    threads_.clear();
  }
  Latencies take(const std::string& kind) {
    std::lock_guard lock(m_);
    Latencies l = std::move(done_[kind]);
    done_[kind] = {};
    return l;
  }
  std::string first_error() {
    std::lock_guard lock(m_);
    return first_error_;
  }

 private:
  engine::Engine& e_;
  std::mutex m_;
  std::condition_variable cv_;
  std::map<std::string, std::size_t> in_flight_;
  std::map<std::string, Latencies> done_;
  std::string first_error_;
  std::vector<std::thread> threads_;
};

}  // namespace

int run_bench_mixed(const MixedBenchArgs& a) {
  auto size = fc::find_sector_size(a.shape);
  if (!size.ok()) return fail("--shape: " + size.status().message(), a.json);
  if (a.params_dir.empty() || a.porep_input.empty() || a.window_input.empty() || a.winning_input.empty()) {
    return fail("--circuit mixed needs --params-dir DIR, --input c1.json (PoRep), --window-input and --winning-input "
                "(gen-vanilla's PoSt inputs)",
                a.json);
  }
  if (a.seconds < 10 || a.seconds > 86400 || a.window_every <= 0 || a.winning_every <= 0 || a.post_alone == 0 ||
      a.post_alone > 1000) {
    return fail("--seconds in [10, 86400], --window-every and --winning-every above 0, --post-alone in [1, 1000]", a.json);
  }
  std::map<std::string, std::vector<std::uint8_t>> inputs;
  for (auto [kind, path] : {std::pair{"porep", &a.porep_input}, std::pair{"window-post", &a.window_input},
                            std::pair{"winning-post", &a.winning_input}}) {
    auto bytes = groth16::read_file(*path);
    if (!bytes.ok()) return fail(bytes.status().message(), a.json);
    inputs[kind] = std::move(*bytes);
  }
  const std::string dir = a.params_dir + "/";
  engine::EngineConfig cfg;
  cfg.synthesis_workers = a.synthesis_workers;
  cfg.prover_workers = 1;
  engine::Engine eng(cfg, {});
  using W = engine::FilecoinWorkload;
  engine::ParamsCache cache(eng.budget(), eng.ledger(), W::params_file_bytes, W::load_params_file);
  std::map<std::string, int> priority;
  std::map<std::string, unsigned> partitions;
  for (const char* name : {"porep", "window-post", "winning-post"}) {
    const auto* kind = *fc::find_proof_kind(name);
    auto shape = kind->shape(*size);
    if (!shape.ok() || shape->params_stem.empty()) return fail("no " + std::string(name) + " keys for " + size->name, a.json);
    eng.add_workload(name, std::make_shared<W>(*kind, *shape, cache, dir + shape->params_stem + ".params"));
    priority[name] = kind->default_priority();
    partitions[name] = shape->partitions;
  }
  auto request = [&](const std::string& kind) {
    engine::JobRequest r;
    r.circuit = kind;
    r.shape = size->name;
    r.input = inputs[kind];
    r.priority = priority.at(kind);
    r.partitions = partitions.at(kind);
    return r;
  };
  for (const char* kind : {"porep", "window-post", "winning-post"}) {
    if (Status st = eng.validate(request(kind)); !st.ok()) return fail(std::string(kind) + ": " + st.message(), a.json);
  }
  Driver d(eng);
  auto progress = [&](const char* what) {
    if (!a.json) std::fprintf(stderr, "mixed bench: %s\n", what);
  };
  // 1. PoSt alone, one job at a time (the first of each loads its key; it is not counted).
  progress("PoSt alone");
  for (const char* kind : {"window-post", "winning-post"}) {
    for (std::size_t i = 0; i <= a.post_alone; ++i) {
      d.submit(kind, request(kind));
      d.wait_below(kind, 1, Clock::time_point::max());
      if (i == 0) d.take(kind);
    }
  }
  d.join();
  std::map<std::string, Latencies> alone = {{"window-post", d.take("window-post")}, {"winning-post", d.take("winning-post")}};
  // 2. and 3.: a PoRep stream keeping every worker busy (one job per synthesis worker, the prover's
  // and the channel's), alone, then with PoSt arriving.
  const std::size_t keep = a.synthesis_workers + 1 + cfg.channel_capacity;
  auto porep_stream = [&](bool with_post) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> jitter(0.5, 1.5);
    const Clock::time_point start = Clock::now(), end = start + seconds(a.seconds);
    Clock::time_point next_window = start + seconds(a.window_every);
    Clock::time_point next_winning = start + seconds(a.winning_every * jitter(rng));
    std::size_t submitted = 0;
    while (Clock::now() < end) {
      if (d.in_flight("porep") < keep) {
        d.submit("porep", request("porep"));
        ++submitted;
        continue;
      }
      Clock::time_point wake = end;
      if (with_post) wake = std::min({wake, next_window, next_winning});
      d.wait_below("porep", keep, wake);
      const auto now = Clock::now();
      if (with_post && now >= next_window && now < end) {
        d.submit("window-post", request("window-post"));
        next_window += seconds(a.window_every);
      }
      if (with_post && now >= next_winning && now < end) {
        d.submit("winning-post", request("winning-post"));
        next_winning += seconds(a.winning_every * jitter(rng));
      }
    }
    // Only what finished inside the window counts for throughput; the rest drains unmeasured.
    const double elapsed = seconds_since(start);
    const std::size_t finished = d.take("porep").s.size();  // those done by now
    d.join();
    Latencies porep = d.take("porep");
    return std::pair{static_cast<double>(finished) / elapsed, porep};
  };
  progress("PoRep alone");
  auto [porep_alone, porep_alone_lat] = porep_stream(false);
  progress("PoRep with PoSt arriving");
  auto [porep_mixed, porep_mixed_lat] = porep_stream(true);
  std::map<std::string, Latencies> mixed = {{"window-post", d.take("window-post")},
                                            {"winning-post", d.take("winning-post")}};
  if (!d.first_error().empty()) return fail("a job failed: " + d.first_error(), a.json);
  const double longest_prove = std::max(porep_mixed_lat.longest_prove_s, porep_alone_lat.longest_prove_s);
  const double longest_finish = std::max(porep_mixed_lat.longest_finish_s, porep_alone_lat.longest_finish_s);
  const double winning_alone_p99 = alone["winning-post"].json()["p99_s"].get<double>();
  const double winning_mixed_p99 = mixed["winning-post"].json()["p99_s"].get<double>();
  const double bound = winning_alone_p99 + longest_prove + longest_finish;
  // PoRep cannot have the prover time PoSt itself takes (prove_start and prove_finish of the PoSt
  // partitions finished in the phase): what scheduling loses is the rest.
  const double post_share =
      std::min(1.0, (mixed["window-post"].prover_s + mixed["winning-post"].prover_s) / a.seconds);
  const double porep_left = porep_alone * (1 - post_share);
  Json out = {{"shape", size->name},
              {"synthesis_workers", a.synthesis_workers},
              {"seconds", a.seconds},
              {"porep_jobs_per_hour", {{"alone", porep_alone * 3600}, {"mixed", porep_mixed * 3600}}},
              {"post_prover_share", post_share},
              {"porep_vs_left_to_it", porep_left > 0 ? porep_mixed / porep_left : 0.0},
              {"window_post", {{"alone", alone["window-post"].json()}, {"mixed", mixed["window-post"].json()}}},
              {"winning_post", {{"alone", alone["winning-post"].json()}, {"mixed", mixed["winning-post"].json()}}},
              {"porep", {{"alone", porep_alone_lat.json()}, {"mixed", porep_mixed_lat.json()}}},
              {"longest_porep_prove_start_s", longest_prove},
              {"longest_porep_prove_finish_s", longest_finish},
              {"winning_bound_s", bound},
              {"winning_bound_met", winning_mixed_p99 <= bound}};
  if (a.json) {
    std::printf("%s\n", out.dump().c_str());
    return 0;
  }
  std::printf("mixed load, %s sectors, %u synthesis worker(s), %.0f s per phase\n", size->name, a.synthesis_workers,
              a.seconds);
  std::printf("%-14s %-28s %-28s\n", "latency (s)", "alone: p50 / p99 / max (n)", "under PoRep load");
  for (const char* kind : {"window-post", "winning-post"}) {
    auto row = [](const Json& j) {
      char b[64];
      std::snprintf(b, sizeof b, "%.2f / %.2f / %.2f (%zu)", j["p50_s"].get<double>(), j["p99_s"].get<double>(),
                    j["max_s"].get<double>(), j["n"].get<std::size_t>());
      return std::string(b);
    };
    std::printf("%-14s %-28s %-28s\n", kind, row(alone[kind].json()).c_str(), row(mixed[kind].json()).c_str());
  }
  std::printf("porep          %.1f jobs/h alone, %.1f under PoSt (%.2fx); PoSt's own prover share %.0f %%, so "
              "%.2fx of what is left to PoRep\n",
              porep_alone * 3600, porep_mixed * 3600, porep_alone > 0 ? porep_mixed / porep_alone : 0.0,
              100 * post_share, porep_left > 0 ? porep_mixed / porep_left : 0.0);
  std::printf(
      "WinningPoSt p99 under load %.2f s; bound = p99 alone %.2f s + longest PoRep prove_start %.2f s + prove_finish "
      "%.2f s = %.2f s: %s\n",
      winning_mixed_p99, winning_alone_p99, longest_prove, longest_finish, bound,
      winning_mixed_p99 <= bound ? "met" : "NOT met");
  return 0;
}

}  // namespace zk::app
