#include "plan.hpp"

#include <cstdio>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/budget.hpp"
#include "engine/planner.hpp"
#include "groth16/io.hpp"

namespace zk::app {

namespace {

/// A profile from a bench --json file or one of the built-in references; nullopt (after saying
/// why) when neither names one.
std::optional<engine::WorkloadProfile> load_profile(const std::string& file, const std::string& reference,
                                                    const char* option) {
  if (!file.empty()) {
    auto bytes = groth16::read_file(file);
    if (!bytes.ok()) {
      std::fprintf(stderr, "zkpipe: %s\n", bytes.status().message().c_str());
      return std::nullopt;
    }
    auto p = engine::WorkloadProfile::from_bench_json(std::string(bytes->begin(), bytes->end()));
    if (!p.ok()) {
      std::fprintf(stderr, "zkpipe: %s: %s\n", file.c_str(), p.status().message().c_str());
      return std::nullopt;
    }
    return *p;
  }
  if (reference == "porep-32g") return engine::WorkloadProfile::porep_32g_reference();
  if (reference == "porep-32g-zkpipe") return engine::WorkloadProfile::porep_32g_zkpipe();
  if (reference == "winning-32g") return engine::WorkloadProfile::winning_32g_reference();
  const std::string unknown = reference.empty() ? "" : " (not " + reference + ")";
  std::fprintf(stderr,
               "zkpipe: give --%sprofile FILE (from `zkpipe bench --json`) or --%sreference "
               "porep-32g|porep-32g-zkpipe|winning-32g%s\n",
               option, option, unknown.c_str());
  return std::nullopt;
}

}  // namespace

int run_plan(const PlanArgs& a) {
  using Json = nlohmann::json;
  const auto loaded = load_profile(a.profile, a.reference, "");
  if (!loaded) return 2;
  const engine::WorkloadProfile profile = *loaded;
  std::optional<engine::WorkloadProfile> urgent;
  if (!a.urgent_profile.empty() || !a.urgent_reference.empty()) {
    urgent = load_profile(a.urgent_profile, a.urgent_reference, "urgent-");
    if (!urgent) return 2;
  }
  if (a.memory_gib <= 0 || a.devices == 0 || a.max_workers == 0 || a.max_workers > 256 || a.proofs == 0 ||
      a.proofs > 10000) {
    std::fprintf(
        stderr,
        "zkpipe: --memory-gib must be positive; --devices, --max-workers (<= 256), --proofs (<= 10000) at least 1\n");
    return 2;
  }
  engine::PlanConfig cfg;
  cfg.memory_bytes = static_cast<std::uint64_t>(a.memory_gib * static_cast<double>(std::uint64_t{1} << 30));
  cfg.devices = a.devices;
  cfg.prover_workers_per_device = a.prover_workers_per_device;
  cfg.channel_capacity = a.channel_capacity;
  cfg.proofs = a.proofs;
  auto row_json = [](unsigned w, unsigned gw, const engine::PlanResult& r) {
    return Json{{"synthesis_workers", w},      {"prover_workers_per_device", gw},
                {"feasible", r.feasible},      {"s_per_proof", r.s_per_proof},
                {"peak_bytes", r.peak_bytes},  {"peak_reserved_bytes", r.peak_reserved},
                {"device_busy", r.device_busy},  {"makespan_s", r.makespan_s}};
  };
  // With --urgent-*: how late urgent work can be beside the configuration chosen.
  auto urgent_json = [&](const engine::PlanResult& r, const engine::PlanConfig& c) {
    const auto b = engine::urgent_bound(profile, r, *urgent, c);
    return Json{{"profile", urgent->name},        {"alone_s", b.alone_s},
                {"prover_wait_s", b.prover_wait_s}, {"finalizer_wait_s", b.finalizer_wait_s},
                {"bound_s", b.bound_s},           {"fits_beside", b.fits},
                {"urgent_bytes", b.urgent_bytes}, {"budget_bytes", b.budget_bytes}};
  };
  auto print_urgent = [&](const engine::PlanResult& r, const engine::PlanConfig& c) {
    const auto b = engine::urgent_bound(profile, r, *urgent, c);
    std::printf("urgent work (%s) beside it: at most %.2f s = %.2f s alone + %.2f s (a prove_start under way) + "
                "%.2f s (a prove_finish under way)\n",
                urgent->name.c_str(), b.bound_s, b.alone_s, b.prover_wait_s, b.finalizer_wait_s);
    if (!b.fits) {
      std::printf("  its %s do not fit beside the peak reservation in the %s budget: it may also wait for memory; "
                  "leave room for it (fewer synthesis workers, or more memory)\n",
                  engine::format_bytes(b.urgent_bytes).c_str(), engine::format_bytes(b.budget_bytes).c_str());
    }
  };
  if (a.synthesis_workers > 0) {
    cfg.synthesis_workers = a.synthesis_workers;
    const auto r = engine::simulate(profile, cfg);
    if (a.json) {
      Json j{{"profile", profile.name}, {"result", row_json(a.synthesis_workers, a.prover_workers_per_device, r)}};
      if (urgent) j["urgent"] = urgent_json(r, cfg);
      std::printf("%s\n", j.dump().c_str());
    } else if (!r.feasible) {
      std::printf("%s: not feasible: %s\n", profile.name.c_str(), r.why.c_str());
    } else {
      std::printf(
          "%s, %.0f GiB, %u device(s), %u synthesis workers: %.3f s/proof, peak %s (reserved %s), device busy %.0f "
          "%%%s\n",
          profile.name.c_str(), a.memory_gib, a.devices, a.synthesis_workers, r.s_per_proof,
          engine::format_bytes(r.peak_bytes).c_str(), engine::format_bytes(r.peak_reserved).c_str(),
          100 * r.device_busy, r.peak_bytes > cfg.memory_bytes ? " (EXCEEDS MEMORY)" : "");
      if (urgent) print_urgent(r, cfg);
    }
    return r.feasible ? 0 : 1;
  }
  auto config_of = [&](const engine::SweepRow& row) {
    engine::PlanConfig c = cfg;
    c.synthesis_workers = row.synthesis_workers;
    c.prover_workers_per_device = row.prover_workers_per_device;
    return c;
  };
  std::size_t best = SIZE_MAX;
  const auto rows = engine::sweep(profile, cfg, a.max_workers, &best);
  if (a.json) {
    Json j{{"profile", profile.name}, {"memory_bytes", cfg.memory_bytes}, {"rows", Json::array()}};
    for (const auto& row : rows)
      j["rows"].push_back(row_json(row.synthesis_workers, row.prover_workers_per_device, row.result));
    if (best != SIZE_MAX) {
      j["recommended"] =
          row_json(rows[best].synthesis_workers, rows[best].prover_workers_per_device, rows[best].result);
      if (urgent) j["recommended"]["urgent"] = urgent_json(rows[best].result, config_of(rows[best]));
    }
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("profile %s on %.0f GiB, %u device(s): predicted steady state\n", profile.name.c_str(), a.memory_gib,
                a.devices);
    std::printf("%8s %8s %12s %12s %12s\n", "synth", "gw", "s/proof", "peak", "device busy");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& row = rows[i];
      if (!row.result.feasible) continue;
      std::printf("%8u %8u %12.2f %12s %11.0f %%%s%s\n", row.synthesis_workers, row.prover_workers_per_device,
                  row.result.s_per_proof, engine::format_bytes(row.result.peak_bytes).c_str(),
                  100 * row.result.device_busy, row.result.peak_bytes > cfg.memory_bytes ? "  exceeds memory" : "",
                  i == best ? "  <- recommended" : "");
    }
    if (best == SIZE_MAX) std::printf("no configuration fits in %.0f GiB\n", a.memory_gib);
    if (best != SIZE_MAX && urgent) print_urgent(rows[best].result, config_of(rows[best]));
  }
  return best == SIZE_MAX ? 1 : 0;
}

}  // namespace zk::app
