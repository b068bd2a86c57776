#include "bench.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/engine.hpp"
#include "engine/synthetic_workload.hpp"

namespace zk::app {
namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

std::uint64_t rss_bytes() {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == "VmRSS:") {
      std::uint64_t kb = 0;
      in >> kb;
      return kb * 1024;
    }
    std::getline(in, key);
  }
  return 0;
}

struct Stats {
  double mean = 0, p50 = 0, p95 = 0;
};
Stats stats(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  for (double x : v) s.mean += x;
  s.mean /= static_cast<double>(v.size());
  s.p50 = v[v.size() / 2];
  s.p95 = v[std::min(v.size() - 1, (v.size() * 95) / 100)];
  return s;
}

template <class E>
int bench(const BenchArgs& a) {
  const auto t_setup = Clock::now();
  if (!a.json)
    std::fprintf(stderr, "bench: development setup for %zu constraints (%s)...\n", a.constraints, a.curve.c_str());
  auto wl = engine::SyntheticWorkload<E>::create(a.constraints, 1);
  if (!wl.ok()) {
    std::fprintf(stderr, "zkpipe: %s\n", wl.status().to_string().c_str());
    return 2;
  }
  const double setup_ms = std::chrono::duration<double, std::milli>(Clock::now() - t_setup).count();
  engine::EngineConfig cfg{.budget_bytes = static_cast<std::uint64_t>(a.budget_gib * (1ull << 30)),
                           .synthesis_workers = a.synthesis_workers,
                           .prover_workers = a.prover_workers,
                           .channel_capacity = a.channel_capacity,
                           .trace = !a.trace.empty()};
  engine::Engine eng(cfg, {{"synthetic", *wl}});
  const std::uint64_t idle_rss = rss_bytes();
  std::atomic<bool> sampling{true};
  std::atomic<std::uint64_t> peak_rss{idle_rss};
  std::thread sampler([&] {
    while (sampling) {
      const auto r = rss_bytes();
      if (r > peak_rss) peak_rss = r;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
  const auto t0 = Clock::now();
  std::vector<std::uint64_t> ids;
  for (std::size_t j = 0; j < a.jobs; ++j) {
    engine::JobRequest req;
    req.circuit = "synthetic";
    req.shape = (*wl)->shape();
    req.input = engine::SyntheticWorkload<E>::seed_input(1000 * (j + 1));
    req.partitions = a.partitions;
    auto id = eng.submit(req);
    if (!id.ok()) {
      sampling = false;
      sampler.join();
      std::fprintf(stderr, "zkpipe: %s\n", id.status().to_string().c_str());
      return 2;
    }
    ids.push_back(*id);
  }
  std::vector<double> queue, synth, channel, prove, finish;
  int failed = 0;
  for (std::size_t j = 0; j < ids.size(); ++j) {
    auto r = eng.await(ids[j], std::chrono::hours(24));
    if (!r.ok() || r->state != engine::JobState::kDone) {
      ++failed;
      std::fprintf(stderr, "job %zu: %s\n", j, r.ok() ? r->error.c_str() : r.status().to_string().c_str());
      continue;
    }
    for (const auto& p : r->partitions) {
      queue.push_back(p.queue_ms), synth.push_back(p.synthesis_ms), channel.push_back(p.channel_ms);
      prove.push_back(p.prove_ms), finish.push_back(p.finalize_ms);
    }
    if (!a.json) {
      const double el = std::chrono::duration<double>(Clock::now() - t0).count();
      std::fprintf(stderr, "  job %zu/%zu done at %.1f s\n", j + 1, ids.size(), el);
    }
  }
  const double wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  sampling = false;
  sampler.join();
  const auto st = eng.status();
  const std::size_t parts = synth.size();
  const Stats s_q = stats(queue), s_syn = stats(synth), s_ch = stats(channel), s_pr = stats(prove),
              s_fin = stats(finish);
  double prove_sum = 0;
  for (double x : prove) prove_sum += x;
  const double busy = prove_sum / 1000.0 / (wall_s * a.prover_workers);
  const double s_per_partition = parts ? wall_s / static_cast<double>(parts) : 0;
  const double bound = std::max(s_syn.mean / a.synthesis_workers, s_pr.mean / a.prover_workers) / 1000.0;
  if (!a.trace.empty()) {
    std::ofstream out(a.trace);
    out << eng.chrome_trace_json();
  }
  Json hw;
  for (std::size_t c = 0; c < engine::kBufferClasses; ++c) {
    hw[engine::buffer_class_name(static_cast<engine::BufferClass>(c))] = st.ledger.high_water.bytes[c];
  }
  auto js = [](const Stats& s) { return Json{{"mean", s.mean}, {"p50", s.p50}, {"p95", s.p95}}; };
  Json j{{"ok", failed == 0},
         {"curve", a.curve},
         {"constraints", a.constraints},
         {"jobs", a.jobs},
         {"partitions_per_job", a.partitions},
         {"synthesis_workers", a.synthesis_workers},
         {"prover_workers", a.prover_workers},
         {"budget_bytes", st.budget_total},
         {"setup_ms", setup_ms},
         {"wall_s", wall_s},
         {"s_per_partition", s_per_partition},
         {"bound_s_per_partition", bound},
         {"prover_busy", busy},
         {"stages_ms",
          {{"queue", js(s_q)},
           {"synthesis", js(s_syn)},
           {"channel", js(s_ch)},
           {"prove_start", js(s_pr)},
           {"prove_finish", js(s_fin)}}},
         {"rss", {{"idle", idle_rss}, {"peak", peak_rss.load()}}},
         {"budget_high_water", st.budget_high_water},
         {"ledger_high_water", hw}};
  if (a.json) {
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("%zu partitions of %zu constraints (%s) in %.2f s: %.3f s/partition (bound %.3f, %.0f %%)\n", parts,
                a.constraints, a.curve.c_str(), wall_s, s_per_partition, bound,
                s_per_partition > 0 ? 100.0 * bound / s_per_partition : 0.0);
    std::printf("workers: %u synthesis, %u prover; prover busy %.0f %%\n", a.synthesis_workers, a.prover_workers,
                100 * busy);
    std::printf("%-14s %10s %10s %10s\n", "stage (ms)", "mean", "p50", "p95");
    for (auto [name, s] : {std::pair{"queue", s_q},
                           {"synthesis", s_syn},
                           {"channel", s_ch},
                           {"prove_start", s_pr},
                           {"prove_finish", s_fin}}) {
      std::printf("%-14s %10.1f %10.1f %10.1f\n", name, s.mean, s.p50, s.p95);
    }
    std::printf("RSS: idle %s, peak %s; budget %s, high water %s\n", engine::format_bytes(idle_rss).c_str(),
                engine::format_bytes(peak_rss).c_str(), engine::format_bytes(st.budget_total).c_str(),
                engine::format_bytes(st.budget_high_water).c_str());
    if (!a.trace.empty()) std::printf("trace: %s (open in https://ui.perfetto.dev)\n", a.trace.c_str());
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace

int run_bench(const BenchArgs& a) {
  if (a.circuit != "synthetic") {
    std::fprintf(stderr, "zkpipe: unknown circuit '%s' (available: synthetic)\n", a.circuit.c_str());
    return 2;
  }
  if (a.constraints < 2 || a.constraints > (1u << 24) || a.jobs == 0 || a.partitions == 0 ||
      a.jobs * a.partitions > 100000) {
    std::fprintf(stderr, "zkpipe: --constraints must be in [2, 2^24], --jobs and --partitions at least 1\n");
    return 2;
  }
  if (a.curve == "bn254") return bench<groth16::Bn254>(a);
  if (a.curve == "bls12-381") return bench<groth16::Bls12_381>(a);
  std::fprintf(stderr, "zkpipe: unknown curve '%s'\n", a.curve.c_str());
  return 2;
}

}  // namespace zk::app
