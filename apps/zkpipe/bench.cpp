#include "bench.hpp"
#include "filecoin.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/cpu.hpp"
#include "engine/engine.hpp"
#include "engine/synthetic_workload.hpp"
#include "circuits/filecoin/proof_kind.hpp"
#include "engine/filecoin_workload.hpp"
#include "engine/timeline.hpp"
#include "engine/zkey_workload.hpp"
#include "gpu/gpu.hpp"
#include "gpu/pool.hpp"
#include "groth16/io.hpp"
#include "server/config.hpp"

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

struct RssSample {
  double t_s;
  std::uint64_t bytes;
};

struct RunResult {
  bool ok = true;
  double wall_s = 0, s_per_partition = 0, bound = 0, busy = 0;
  std::size_t parts = 0;
  Stats q, syn, ch, pr, fin;
  std::uint64_t idle_rss = 0, peak_rss = 0;
  engine::EngineStatus status;
  std::vector<engine::TraceSpan> spans;
  std::vector<RssSample> rss;
  std::string trace_json;
  std::uint64_t key_bytes = 0;
  Result<engine::WorkingSet> working_set = Status::internal("not run");
};

/// SVG: one lane per worker with a box per stage span, and under it the RSS curve with the budget
/// line (or a note when the budget is far above the curve).
std::string plot_svg(const RunResult& r, const std::string& title) {
  const double width = 1000, left = 110, top = 40;
  const double chart_h = 160, t_max = std::max(r.wall_s, 1e-3);
  std::ostringstream lanes;
  const double lanes_h =
      engine::draw_stage_lanes(lanes, r.spans, 0, t_max, {.left = left, .top = top, .width = width - left - 20});
  const double rss_top = top + lanes_h + 30, height = rss_top + chart_h + 50;
  auto x = [&](double t_s) { return left + (width - left - 20) * t_s / t_max; };
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"10\" y=\"20\" font-size=\"14\">" << title << "</text>\n" << lanes.str();
  // RSS and budget.
  std::uint64_t peak = r.peak_rss;
  const std::uint64_t budget_line = r.idle_rss + r.status.budget_total;
  const std::uint64_t scale = std::max<std::uint64_t>(1, std::max(peak, std::min(budget_line, peak * 2)) * 11 / 10);
  auto y = [&](std::uint64_t b) {
    return rss_top + chart_h - chart_h * static_cast<double>(b) / static_cast<double>(scale);
  };
  o << "<text x=\"10\" y=\"" << rss_top + 10 << "\">RSS</text>\n";
  o << "<line x1=\"" << left << "\" y1=\"" << rss_top + chart_h << "\" x2=\"" << width - 20 << "\" y2=\""
    << rss_top + chart_h
    << "\" stroke=\"black\"/>\n<polyline fill=\"none\" stroke=\"#f28e2b\" stroke-width=\"1.5\" points=\"";
  for (const auto& p : r.rss) o << x(p.t_s) << "," << y(p.bytes) << " ";
  o << "\"/>\n";
  if (budget_line <= scale) {
    o << "<line x1=\"" << left << "\" y1=\"" << y(budget_line) << "\" x2=\"" << width - 20 << "\" y2=\""
      << y(budget_line) << "\" stroke=\"#e15759\" stroke-dasharray=\"6,4\"/>\n<text x=\"" << left + 4 << "\" y=\""
      << y(budget_line) - 4 << "\" fill=\"#e15759\">idle RSS + budget " << engine::format_bytes(budget_line)
      << "</text>\n";
  } else {
    o << "<text x=\"" << left + 4 << "\" y=\"" << rss_top + 10
      << "\" fill=\"#e15759\">idle RSS + budget = " << engine::format_bytes(budget_line)
      << " (above this chart)</text>\n";
  }
  o << "<text x=\"" << left << "\" y=\"" << rss_top + chart_h + 15 << "\">0 s</text><text x=\"" << width - 80
    << "\" y=\"" << rss_top + chart_h + 15 << "\">" << r.wall_s << " s</text>\n";
  o << "<text x=\"" << left + 60 << "\" y=\"" << rss_top + chart_h + 15 << "\">peak " << engine::format_bytes(peak)
    << ", idle " << engine::format_bytes(r.idle_rss) << "</text>\n";
  engine::draw_stage_legend(o, left, height - 25);
  o << "</svg>\n";
  return o.str();
}

/// What a bench run proves: a workload of one kind and the request of job j.
struct Target {
  std::string kind;
  std::shared_ptr<engine::Workload> workload;
  std::function<engine::JobRequest(std::size_t job)> request;
  std::function<std::uint64_t()> key_bytes;
  std::string what;  // "2 partitions of 65533 constraints (bn254)"
  std::size_t partitions = 1;
  /// For keys that load through a cache: made with the engine's budget and ledger (attach sets
  /// `workload`), dropped before the engine goes (detach).
  std::function<Status(engine::Engine&)> attach;
  std::function<void()> detach;
};

RunResult run_once(const BenchArgs& a, Target& target, unsigned synth_workers, bool record) {
  RunResult out;
  engine::EngineConfig cfg{.budget_bytes = static_cast<std::uint64_t>(a.budget_gib * (1ull << 30)),
                           .synthesis_workers = synth_workers,
                           .prover_workers = a.prover_workers,
                           .channel_capacity = a.channel_capacity,
                           .self_verify = a.verify,
                           .trace = record};
  engine::Engine eng(cfg, {});
  if (target.attach) {
    if (Status st = target.attach(eng); !st.ok()) {
      std::fprintf(stderr, "zkpipe: %s\n", st.to_string().c_str());
      out.ok = false;
      return out;
    }
  }
  eng.add_workload(target.kind, target.workload);
  out.idle_rss = rss_bytes();
  const auto t0 = Clock::now();
  std::atomic<bool> sampling{true};
  std::atomic<std::uint64_t> peak_rss{out.idle_rss};
  std::mutex rss_m;
  std::thread sampler([&] {
    while (sampling) {
      const auto r = rss_bytes();
      if (r > peak_rss) peak_rss = r;
      {
        std::lock_guard lock(rss_m);
        out.rss.push_back({std::chrono::duration<double>(Clock::now() - t0).count(), r});
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
  std::vector<std::uint64_t> ids;
  for (std::size_t j = 0; j < a.jobs; ++j) {
    auto id = eng.submit(target.request(j));
    if (!id.ok()) {
      std::fprintf(stderr, "zkpipe: %s\n", id.status().to_string().c_str());
      out.ok = false;
      break;
    }
    ids.push_back(*id);
  }
  std::vector<double> queue, synth, channel, prove, finish;
  for (std::size_t j = 0; j < ids.size(); ++j) {
    auto r = eng.await(ids[j], std::chrono::hours(24));
    if (!r.ok() || r->state != engine::JobState::kDone) {
      out.ok = false;
      std::fprintf(stderr, "job %zu: %s\n", j, r.ok() ? r->error.c_str() : r.status().to_string().c_str());
      continue;
    }
    for (const auto& p : r->partitions) {
      queue.push_back(p.queue_ms), synth.push_back(p.synthesis_ms), channel.push_back(p.channel_ms);
      prove.push_back(p.prove_ms), finish.push_back(p.finalize_ms);
    }
    if (!a.json) {
      std::fprintf(stderr, "  job %zu/%zu done at %.1f s\n", j + 1, ids.size(),
                   std::chrono::duration<double>(Clock::now() - t0).count());
    }
  }
  out.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  sampling = false;
  sampler.join();
  out.peak_rss = peak_rss;
  out.status = eng.status();
  out.parts = synth.size();
  out.q = stats(queue), out.syn = stats(synth), out.ch = stats(channel), out.pr = stats(prove), out.fin = stats(finish);
  double prove_sum = 0;
  for (double x : prove) prove_sum += x;
  out.busy = prove_sum / 1000.0 / (out.wall_s * a.prover_workers);
  out.s_per_partition = out.parts ? out.wall_s / static_cast<double>(out.parts) : 0;
  out.bound = std::max(out.syn.mean / synth_workers, out.pr.mean / a.prover_workers) / 1000.0;
  if (record) {
    out.spans = eng.trace_spans();
    out.trace_json = eng.chrome_trace_json();
  }
  out.key_bytes = target.key_bytes();
  out.working_set = target.workload->working_set(target.request(0));
  eng.shutdown();
  if (target.detach) target.detach();
  return out;
}

int report(const BenchArgs& a, Target& target, double setup_ms) {
  if (a.sweep_max > 0) {
    Json rows = Json::array();
    if (!a.json)
      std::printf("%-18s %12s %10s %12s %12s\n", "synthesis workers", "s/partition", "bound", "prover busy",
                  "peak RSS");
    bool ok = true;
    for (unsigned w = 1; w <= a.sweep_max; ++w) {
      const RunResult r = run_once(a, target, w, false);
      ok = ok && r.ok;
      rows.push_back({{"synthesis_workers", w},
                      {"s_per_partition", r.s_per_partition},
                      {"bound", r.bound},
                      {"prover_busy", r.busy},
                      {"peak_rss", r.peak_rss},
                      {"idle_rss", r.idle_rss}});
      if (!a.json) {
        std::printf("%-18u %12.3f %10.3f %11.0f %% %12s\n", w, r.s_per_partition, r.bound, 100 * r.busy,
                    engine::format_bytes(r.peak_rss).c_str());
      }
    }
    if (a.json) std::printf("%s\n", Json{{"ok", ok}, {"setup_ms", setup_ms}, {"sweep", rows}}.dump().c_str());
    return ok ? 0 : 1;
  }

  const RunResult r = run_once(a, target, a.synthesis_workers, !a.trace.empty() || !a.plot.empty());
  if (!a.trace.empty()) std::ofstream(a.trace) << r.trace_json;
  if (!a.plot.empty()) {
    char title[256];
    std::snprintf(title, sizeof(title), "zkpipe bench: %zu jobs x %s, %u synthesis / %u prover workers", a.jobs,
                  target.what.c_str(), a.synthesis_workers, a.prover_workers);
    std::ofstream(a.plot) << plot_svg(r, title);
  }
  Json hw;
  for (std::size_t c = 0; c < engine::kBufferClasses; ++c) {
    hw[engine::buffer_class_name(static_cast<engine::BufferClass>(c))] = r.status.ledger.high_water.bytes[c];
  }
  auto js = [](const Stats& s) { return Json{{"mean", s.mean}, {"p50", s.p50}, {"p95", s.p95}}; };
  const auto& ws = r.working_set;
  if (a.json) {
    Json j{{"ok", r.ok},
           {"circuit", target.kind},
           {"what", target.what},
           {"curve", a.curve},
           {"jobs", a.jobs},
           {"partitions_per_job", target.partitions},
           {"synthesis_workers", a.synthesis_workers},
           {"prover_workers", a.prover_workers},
           {"cores", std::thread::hardware_concurrency()},
           {"cpu_paths", cpu::kernel_paths()},
           {"budget_bytes", r.status.budget_total},
           {"setup_ms", setup_ms},
           {"wall_s", r.wall_s},
           {"s_per_partition", r.s_per_partition},
           {"bound_s_per_partition", r.bound},
           {"prover_busy", r.busy},
           {"stages_ms",
            {{"queue", js(r.q)},
             {"synthesis", js(r.syn)},
             {"channel", js(r.ch)},
             {"prove_start", js(r.pr)},
             {"prove_finish", js(r.fin)}}},
           {"rss", {{"idle", r.idle_rss}, {"peak", r.peak_rss}}},
           {"budget_high_water", r.status.budget_high_water},
           {"ledger_high_water", hw},
           {"params_bytes", r.key_bytes}};
    // Filecoin's kinds: the circuit's size is in "what" (a sector size), not a constraint count.
    if (target.kind == "synthetic" || target.kind == "zkey") j["constraints"] = a.constraints;
    if (ws.ok())
      j["working_set"] = {{"abc", ws->abc}, {"aux", ws->aux}, {"density", ws->density}, {"pending", ws->pending}, {"prove_room", ws->prove_room}};
    // What a synthesized partition really held (the working set above is its bound at admission).
    const auto req = target.request(0);
    if (auto it = r.status.held_after_synthesis.find(req.circuit + "/" + req.shape);
        it != r.status.held_after_synthesis.end()) {
      j["held_after_synthesis"] = {{"abc", it->second.abc}, {"aux", it->second.aux}};
    }
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("%zu jobs x %s in %.2f s: %.3f s/partition (bound %.3f, %.0f %%)\n", a.jobs, target.what.c_str(),
                r.wall_s, r.s_per_partition, r.bound,
                r.s_per_partition > 0 ? 100.0 * r.bound / r.s_per_partition : 0.0);
    std::printf("workers: %u synthesis, %u prover; prover busy %.0f %%; CPU arithmetic %s\n", a.synthesis_workers,
                a.prover_workers, 100 * r.busy, cpu::kernel_paths().c_str());
    std::printf("%-14s %10s %10s %10s\n", "stage (ms)", "mean", "p50", "p95");
    for (auto [name, s] : {std::pair{"queue", r.q},
                           {"synthesis", r.syn},
                           {"channel", r.ch},
                           {"prove_start", r.pr},
                           {"prove_finish", r.fin}}) {
      std::printf("%-14s %10.1f %10.1f %10.1f\n", name, s.mean, s.p50, s.p95);
    }
    std::printf("RSS: idle %s, peak %s; budget %s, high water %s\n", engine::format_bytes(r.idle_rss).c_str(),
                engine::format_bytes(r.peak_rss).c_str(), engine::format_bytes(r.status.budget_total).c_str(),
                engine::format_bytes(r.status.budget_high_water).c_str());
    std::printf("ledger high water:");
    for (std::size_t c = 0; c < engine::kBufferClasses; ++c) {
      std::printf(" %s %s", engine::buffer_class_name(static_cast<engine::BufferClass>(c)),
                  engine::format_bytes(r.status.ledger.high_water.bytes[c]).c_str());
    }
    std::printf("\n");
    if (!a.trace.empty()) std::printf("trace: %s (open in https://ui.perfetto.dev)\n", a.trace.c_str());
    if (!a.plot.empty()) std::printf("plot: %s\n", a.plot.c_str());
  }
  return r.ok ? 0 : 1;
}


std::vector<int> every_device() {
  std::vector<int> all;
  for (const auto& g : gpu::devices()) all.push_back(g.ordinal);
  return all;
}

/// --gpu-resident: "auto" (nullopt: the daemon's default) or a size.
Result<std::optional<std::uint64_t>> gpu_resident(const BenchArgs& a) {
  auto r = server::parse_size_or_auto(a.gpu_resident);
  if (!r.ok()) return Status::invalid_argument("--gpu-resident: " + r.status().message());
  return r;
}

/// With the GPU: every device of the host, key bases kept on each across the run's proofs up to
/// --gpu-resident (as the daemon's engine.gpu_resident; prover_device checked it).
std::shared_ptr<gpu::DevicePool> device_pool(engine::ProverDevice d, const BenchArgs& a) {
  if (d != engine::ProverDevice::kGpu) return nullptr;
  auto pool = gpu::DevicePool::for_devices(every_device(), *gpu_resident(a));
  return pool.ok() ? *pool : nullptr;
}

/// Where prove_start runs; with the GPU, --gpu-resident checked against the devices.
Result<engine::ProverDevice> prover_device(const BenchArgs& a) {
  auto d = engine::parse_prover_device(a.device);
  if (!d.ok()) return d.status();
  auto r = engine::resolve_prover_device(*d);
  if (!r.ok()) return r;
  auto resident = gpu_resident(a);
  if (!resident.ok()) return resident.status();
  std::size_t capacity = 0;
  if (*r == engine::ProverDevice::kGpu) {
    auto c = gpu::resident_capacity(gpu::devices(), every_device(), *resident);
    if (!c.ok()) return Status::invalid_argument("--gpu-resident: " + c.status().message());
    capacity = *c;
  }
  if (!a.json) {
    if (*r == engine::ProverDevice::kGpu) {
      std::fprintf(stderr, "bench: prove_start on the GPU (key bases resident up to %s a device)\n",
                   engine::format_bytes(capacity).c_str());
    } else {
      std::fprintf(stderr, "bench: prove_start on the CPU\n");
    }
  }
  return r;
}

template <class E>
int bench_synthetic(const BenchArgs& a) {
  // --device and --gpu-resident first: a bad one exits before the setup's minutes.
  auto device = prover_device(a);
  if (!device.ok()) {
    std::fprintf(stderr, "zkpipe: %s\n", device.status().message().c_str());
    return 2;
  }
  const auto t_setup = Clock::now();
  if (!a.json)
    std::fprintf(stderr, "bench: development setup for %zu constraints (%s)...\n", a.constraints, a.curve.c_str());
  auto wl = engine::SyntheticWorkload<E>::create(a.constraints, 1);
  if (!wl.ok()) {
    std::fprintf(stderr, "zkpipe: %s\n", wl.status().to_string().c_str());
    return 2;
  }
  const double setup_ms = std::chrono::duration<double, std::milli>(Clock::now() - t_setup).count();
  (*wl)->set_device(*device, device_pool(*device, a));
  Target t;
  t.kind = "synthetic";
  t.workload = *wl;
  t.partitions = a.partitions;
  t.what = std::to_string(a.partitions) + " partitions of " + std::to_string(a.constraints) + " constraints (" +
           a.curve + ")";
  t.request = [shape = (*wl)->shape(), parts = a.partitions](std::size_t j) {
    engine::JobRequest req;
    req.circuit = "synthetic";
    req.shape = shape;
    req.input = engine::SyntheticWorkload<E>::seed_input(1000 * (j + 1));
    req.partitions = parts;
    return req;
  };
  t.key_bytes = [w = *wl] { return w->key_bytes(); };
  return report(a, t, setup_ms);
}

/// circom circuits: every job proves the same witness with the zkey, loaded through a ParamsCache
/// that shares the engine's budget (its load is part of the first job).
template <class E>
int bench_zkey(BenchArgs a, const groth16::snarkjs::ZkeyInfo& info) {
  auto input = groth16::read_file(a.witness);
  if (!input.ok()) {
    std::fprintf(stderr, "zkpipe: %s\n", input.status().to_string().c_str());
    return 2;
  }
  a.curve = info.curve == "bn128" ? "bn254" : "bls12-381";
  a.constraints = info.domain_size;
  auto device = prover_device(a);
  if (!device.ok()) {
    std::fprintf(stderr, "zkpipe: %s\n", device.status().message().c_str());
    return 2;
  }
  std::shared_ptr<engine::ParamsCache> cache;
  std::shared_ptr<engine::ZkeyWorkload<E>> wl;
  Target t;
  t.kind = "zkey";
  t.what = "1 partition of " + a.zkey + " (" + info.curve + ", domain " + std::to_string(info.domain_size) + ", " +
           std::to_string(info.n_vars) + " signals)";
  t.attach = [&](engine::Engine& eng) -> Status {
    wl.reset();
    cache = std::make_shared<engine::ParamsCache>(eng.budget(), eng.ledger(), engine::ZkeyWorkload<E>::zkey_file_bytes,
                                                  engine::ZkeyWorkload<E>::load_zkey_file);
    auto w = engine::ZkeyWorkload<E>::open(*cache, a.zkey);
    if (!w.ok()) return w.status();
    (*w)->set_device(*device, device_pool(*device, a));
    wl = *w;
    t.workload = wl;
    return {};
  };
  t.request = [&](std::size_t) {
    engine::JobRequest req;
    req.circuit = "zkey";
    req.shape = a.zkey;
    req.input = *input;
    return req;
  };
  t.key_bytes = [&]() -> std::uint64_t { return cache ? cache->bytes() : 0; };
  t.detach = [&] {
    wl.reset();
    t.workload.reset();
    if (cache) cache->evict_unused();
    cache.reset();
  };
  return report(a, t, 0);
}

/// `--params benchmark-key`: a key of the real key's sizes made of random points
/// (groth16/benchmark_key.hpp), for sizes whose key is not at hand (PoRep 32 GiB on a GPU machine).
constexpr const char* kBenchmarkKey = "benchmark-key";

/// Filecoin's kinds: every job proves the same input (all its partitions) with keys from a .params
/// file (or, where the kind pins its key's sections, a benchmark key of those sizes), loaded through
/// a ParamsCache that shares the engine's budget. PoRep proves a C1 (gen-c1's or Filecoin's), PoSt
/// and SnapDeals gen-vanilla's input.
int bench_filecoin_kind(BenchArgs a) {
  auto size = circuits::filecoin::find_sector_size(a.shape);
  if (!size.ok()) {
    std::fprintf(stderr, "zkpipe: --shape: %s\n", size.status().message().c_str());
    return 2;
  }
  auto kind = circuits::filecoin::find_proof_kind(a.circuit, "--circuit");
  auto shape = kind.ok() ? (*kind)->shape(*size) : Result<circuits::filecoin::KindShape>(kind.status());
  if (!shape.ok()) {
    std::fprintf(stderr, "zkpipe: %s\n", shape.status().message().c_str());
    return 2;
  }
  const bool benchmark_key = a.params == kBenchmarkKey;
  const auto sections = (*kind)->pinned_key_sections(*shape);
  if (benchmark_key && !sections) {
    std::fprintf(stderr, "zkpipe: --params %s: only for kinds whose key sizes are pinned (porep)\n", kBenchmarkKey);
    return 2;
  }
  if (benchmark_key && a.verify) {
    std::fprintf(stderr, "zkpipe: --verify with --params %s: its proofs do not verify (random points)\n", kBenchmarkKey);
    return 2;
  }
  std::string what = (*kind)->job_description(*shape);
  if (benchmark_key) what += ", BENCHMARK KEY (random points, not a setup: the proofs do not verify)";
  auto text = groth16::read_file(a.input);
  if (!text.ok()) {
    std::fprintf(stderr, "zkpipe: %s\n", text.status().message().c_str());
    return 2;
  }
  a.curve = "bls12-381";
  auto device = prover_device(a);
  if (!device.ok()) {
    std::fprintf(stderr, "zkpipe: %s\n", device.status().message().c_str());
    return 2;
  }
  using W = engine::FilecoinWorkload;
  std::shared_ptr<engine::ParamsCache> cache;
  Target t;
  t.kind = a.circuit;
  t.partitions = shape->partitions;
  t.what = what;
  t.attach = [&](engine::Engine& eng) -> Status {
    const bool pin = *device == engine::ProverDevice::kGpu;
    if (benchmark_key) {
      const groth16::KeySizes sizes{.ic = sections->ic, .h = sections->h, .l = sections->l, .a = sections->a, .b = sections->b};
      cache = std::make_shared<engine::ParamsCache>(
          eng.budget(), eng.ledger(),
          [sizes](const std::string&) -> Result<std::uint64_t> { return sizes.bytes<groth16::Bls12_381>() + 4096; },
          [sizes, pin](const std::string&) { return W::benchmark_params(sizes, pin); });
    } else {
      cache = std::make_shared<engine::ParamsCache>(eng.budget(), eng.ledger(), W::params_file_bytes,
                                                    pin ? W::load_params_file_pinned : W::load_params_file);
    }
    auto w = std::make_shared<W>(**kind, *shape, *cache, a.params);
    if (benchmark_key) w->set_benchmark_key();
    w->set_device(*device, device_pool(*device, a));
    t.workload = w;
    return {};
  };
  t.detach = [&] {
    t.workload.reset();
    if (cache) cache->evict_unused();
    cache.reset();
  };
  t.request = [&](std::size_t) {
    engine::JobRequest req;
    req.circuit = a.circuit;
    req.shape = size->name;
    req.input = *text;
    req.partitions = shape->partitions;
    return req;
  };
  t.key_bytes = [&]() -> std::uint64_t { return cache ? cache->bytes() : 0; };
  return report(a, t, 0);
}

/// `--synthesis-only --pipeline`: whole PoRep jobs through the engine with the keyless synthesis
/// workload (engine::FilecoinSynthesisWorkload): synthesis workers, budget and ledger as in
/// production, prove_start drops each partition.
int bench_porep_synthesis_pipeline(BenchArgs a, const circuits::filecoin::SectorSize& size) {
  auto text = groth16::read_file(a.input);
  if (!text.ok()) {
    std::fprintf(stderr, "zkpipe: %s\n", text.status().message().c_str());
    return 2;
  }
  a.curve = "bls12-381";
  Target t;
  t.kind = "porep";
  t.partitions = size.partitions;
  t.what = std::to_string(size.partitions) + " partition" + (size.partitions == 1 ? "" : "s") + " of Filecoin's " +
           size.name + " PoRep, synthesis only (dropped unproved)";
  const auto& porep = **circuits::filecoin::find_proof_kind("porep");
  auto shape = porep.shape(size);
  if (!shape.ok()) {
    std::fprintf(stderr, "zkpipe: %s\n", shape.status().message().c_str());
    return 2;
  }
  t.workload = std::make_shared<engine::FilecoinSynthesisWorkload>(porep, *shape);
  t.request = [&](std::size_t) {
    engine::JobRequest req;
    req.circuit = "porep";
    req.shape = size.name;
    req.input = *text;
    req.partitions = size.partitions;
    return req;
  };
  t.key_bytes = [] { return std::uint64_t{0}; };
  return report(a, t, 0);
}

}  // namespace

int run_bench(const BenchArgs& given) {
  BenchArgs a = given;
  if (a.prover_workers == 0) {
    // As the daemon: two per GPU (one's upload overlaps the other's kernels), one on the CPU.
    auto d = engine::parse_prover_device(a.device);
    auto r = d.ok() ? engine::resolve_prover_device(*d) : Result<engine::ProverDevice>(d.status());
    const auto gpus = static_cast<unsigned>(gpu::devices().size());
    a.prover_workers = r.ok() && *r == engine::ProverDevice::kGpu ? 2 * std::max(1u, gpus) : 1;
  }
  if (a.pipeline && !a.synthesis_only) {
    std::fprintf(stderr, "zkpipe: --pipeline goes with --synthesis-only (without it every bench runs the pipeline)\n");
    return 2;
  }
  if (a.synthesis_only) {
    if (a.circuit != "porep" || a.shape.empty() || a.input.empty() ||
        !circuits::filecoin::find_sector_size(a.shape).ok()) {
      std::fprintf(stderr, "zkpipe: --synthesis-only needs --circuit porep, --shape (a sector size such as 2KiB) and "
                           "--input c1.json\n");
      return 2;
    }
    if (a.pipeline) {
      if (a.jobs == 0 || a.jobs > 10000 || a.verify) {
        std::fprintf(stderr, "zkpipe: --pipeline needs --jobs in [1, 10000] and no --verify (nothing is proved)\n");
        return 2;
      }
      return bench_porep_synthesis_pipeline(a, *circuits::filecoin::find_sector_size(a.shape));
    }
    return run_synthesize_filecoin(SynthesizeArgs{
        .kind = "porep", .c1 = a.input, .sector_size = a.shape, .partition = a.partition, .digest = a.digest, .json = a.json});
  }
  if (auto kind = circuits::filecoin::find_proof_kind(a.circuit); kind.ok()) {
    if (a.shape.empty() || a.input.empty() || a.params.empty()) {
      std::fprintf(stderr, "zkpipe: --circuit %s needs --shape (a sector size such as 2KiB), --input FILE (zkpipe %s's) "
                           "and --params FILE.params\n",
                   a.circuit.c_str(), std::string((*kind)->generate_command()).c_str());
      return 2;
    }
    if (a.jobs == 0 || a.jobs > 10000) {
      std::fprintf(stderr, "zkpipe: --jobs must be in [1, 10000]\n");
      return 2;
    }
    return bench_filecoin_kind(a);
  }
  if (a.circuit == "zkey") {
    if (a.zkey.empty() || a.witness.empty()) {
      std::fprintf(stderr, "zkpipe: --circuit zkey needs --zkey circuit.zkey and --witness witness.wtns\n");
      return 2;
    }
    if (a.jobs == 0 || a.jobs > 100000) {
      std::fprintf(stderr, "zkpipe: --jobs must be in [1, 100000]\n");
      return 2;
    }
    auto info = groth16::snarkjs::read_zkey_info(a.zkey);
    if (!info.ok()) {
      std::fprintf(stderr, "zkpipe: %s: %s\n", a.zkey.c_str(), info.status().message().c_str());
      return 2;
    }
    return info->curve == "bn128" ? bench_zkey<groth16::Bn254>(a, *info) : bench_zkey<groth16::Bls12_381>(a, *info);
  }
  if (a.circuit != "synthetic") {
    std::fprintf(stderr, "zkpipe: unknown circuit '%s' (available: synthetic, zkey, porep, window-post, winning-post, "
                         "snap-update)\n", a.circuit.c_str());
    return 2;
  }
  if (a.constraints < 2 || a.constraints > (1u << 24) || a.jobs == 0 || a.partitions == 0 ||
      a.jobs * a.partitions > 100000) {
    std::fprintf(stderr, "zkpipe: --constraints must be in [2, 2^24], --jobs and --partitions at least 1\n");
    return 2;
  }
  if (a.curve == "bn254") return bench_synthetic<groth16::Bn254>(a);
  if (a.curve == "bls12-381") return bench_synthetic<groth16::Bls12_381>(a);
  std::fprintf(stderr, "zkpipe: unknown curve '%s'\n", a.curve.c_str());
  return 2;
}

}  // namespace zk::app
