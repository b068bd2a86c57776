#include "engine/planner.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <deque>
#include <queue>

namespace zk::engine {

WorkloadProfile WorkloadProfile::porep_32g_reference() {
  // cuzk-reference.md section 7: 10 partitions per proof; synthesis 29-36.5 s per partition under
  // load; Phase 9 GPU: prep_msm ~1.9 s CPU, gpu_total ~1.8 s, b_g2 ~0.5 s; ~16 GiB per partition
  // while synthesizing and ~4 GiB after prove_start (the "20 GiB per pw" rule of thumb includes
  // allocator slack); baseline 69 GiB = SRS 44 + PCE 25.7 (treated here as params + idle).
  constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
  WorkloadProfile p;
  p.name = "porep-32g-reference";
  p.partitions_per_proof = 10;
  p.synthesis_s = 33;
  p.prove_cpu_s = 1.9;
  p.prove_device_s = 1.8;
  p.finish_s = 0.5;
  p.bytes_synth = 20 * kGiB;
  p.bytes_after = 4 * kGiB;
  p.params_bytes = 44 * kGiB;
  p.idle_bytes = 25 * kGiB + kGiB * 7 / 10;
  // 96 cores; the measured throughput stops growing near 10 concurrent syntheses (s/proof flat
  // from pw = 10 on), i.e. one synthesis keeps about 10 cores busy.
  p.cores = 96;
  p.synthesis_threads = 10;
  return p;
}

WorkloadProfile WorkloadProfile::winning_32g_reference() {
  constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
  WorkloadProfile p;
  p.name = "winning-32g-reference";
  p.partitions_per_proof = 1;
  p.synthesis_s = 0.052;
  p.prove_cpu_s = 0;
  p.prove_device_s = 0.666;
  p.finish_s = 0;
  p.bytes_synth = kGiB / 2;
  p.bytes_after = kGiB / 4;
  p.params_bytes = 184 * (std::uint64_t{1} << 20);
  return p;
}

WorkloadProfile WorkloadProfile::porep_32g_zkpipe() {
  // docs/synthesis.md, steps 5 and 6 (synthetic 32 GiB C1, this 2-core VM, `bench
  // --synthesis-only --json`): synthesis 27.1 core-seconds on one thread (mean of five runs);
  // after synthesis the partition holds a/b 1.496 GB (compact), the witness 0.103 GB (compact),
  // densities 0.033 GB. At admission it reserves the witness's bound (one full element per variable: 4.26 GB as
  // CompactColumn::max_bytes) and an a/b estimate a quarter above what they hold
  // (Engine::abc_estimate), and gives back the rest after synthesis. Pending scratch: the G1 MSM
  // plan's scratch at 2^27 (162 MB) + 1 MiB, as Groth16Workload::working_set. The room on a GPU:
  // dense a and b, 2 x 2^27 x 32 B, and the witness made dense for the kernels (130,170,221 x 32 B).
  // Stage times on the device, the keys (the same .params file, mapped: page cache) and the cores
  // are the reference's: zkpipe's GPU path has not run on a GPU yet.
  constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
  constexpr std::uint64_t kAbc = 1'495'856'352, kAuxBound = 4'264'613'424, kAuxHeld = 103'350'168;
  constexpr std::uint64_t kDensityPending = 32'542'528 + 162'187'264 + (1 << 20);
  WorkloadProfile p = porep_32g_reference();
  p.name = "porep-32g-zkpipe";
  p.synthesis_s = 27.1;
  p.synthesis_threads = 1;
  p.bytes_synth = kAuxBound + kDensityPending + kAbc + kAbc / 4;
  p.bytes_waiting = kAuxHeld + kDensityPending + kAbc;
  p.bytes_after = kAuxHeld + kDensityPending;
  p.prove_room = 2 * (std::uint64_t{1} << 27) * 32 + std::uint64_t{130'170'221} * 32;
  p.idle_bytes = kGiB / 2;
  return p;
}

Result<WorkloadProfile> WorkloadProfile::from_bench_json(const std::string& text) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Status::invalid_argument("profile: not a JSON object");
  try {
    WorkloadProfile p;
    p.name = "bench " + j.at("curve").get<std::string>();
    if (j.contains("constraints")) p.name += " n=" + std::to_string(j.at("constraints").get<std::size_t>());
    if (j.contains("what")) p.name += ": " + j.at("what").get<std::string>();
    p.partitions_per_proof = j.at("partitions_per_job").get<std::size_t>();
    const auto& st = j.at("stages_ms");
    p.synthesis_s = st.at("synthesis").at("mean").get<double>() / 1000;
    // On a CPU-only machine prove_start is all "device" time: the prover stage is the device.
    p.prove_cpu_s = 0;
    p.prove_device_s = st.at("prove_start").at("mean").get<double>() / 1000;
    p.finish_s = st.at("prove_finish").at("mean").get<double>() / 1000;
    const auto& ws = j.at("working_set");
    const std::uint64_t abc = ws.at("abc").get<std::uint64_t>(), rest = ws.at("aux").get<std::uint64_t>() +
                                                                        ws.at("density").get<std::uint64_t>() +
                                                                        ws.at("pending").get<std::uint64_t>();
    p.bytes_synth = abc + rest;
    p.bytes_synth_unseen = abc + rest;
    p.prove_room = ws.value("prove_room", std::uint64_t{0});
    // Syntheses share the machine's cores (one thread each); stage times were measured on it.
    p.cores = j.value("cores", 0.0);
    p.synthesis_threads = 1;
    p.bytes_after = rest;
    // What a partition held once synthesized: the engine admits later partitions of the shape with
    // a quarter more a/b than that (Engine::abc_estimate), gives back the rest of a/b and the
    // witness's bound after synthesis, and holds the compact witness until prove_finish.
    if (j.contains("held_after_synthesis")) {
      const auto& h = j.at("held_after_synthesis");
      const std::uint64_t abc_held = h.at("abc").get<std::uint64_t>(), aux_held = h.at("aux").get<std::uint64_t>();
      const std::uint64_t aux = ws.at("aux").get<std::uint64_t>();
      const std::uint64_t others = rest - aux;  // density and pending
      if (abc_held != 0) p.bytes_synth = std::min(abc, abc_held + abc_held / 4) + rest;
      const std::uint64_t aux_after = aux_held != 0 ? std::min(aux, aux_held) : aux;
      p.bytes_waiting = (abc_held != 0 ? std::min(abc, abc_held) : abc) + aux_after + others;
      p.bytes_after = aux_after + others;
    }
    p.params_bytes = j.at("params_bytes").get<std::uint64_t>();
    // The idle RSS was sampled with the key already loaded.
    const std::uint64_t idle = j.at("rss").at("idle").get<std::uint64_t>();
    p.idle_bytes = idle > p.params_bytes ? idle - p.params_bytes : 0;
    return p;
  } catch (const nlohmann::json::exception& e) {
    return Status::invalid_argument(std::string("profile: missing or malformed field (") + e.what() +
                                    "); write profiles with `zkpipe bench --json`");
  }
}

namespace {

enum class Ev { kProveDone, kFinishDone };
struct Event {
  double t;
  Ev kind;
  std::size_t partition;
  bool operator>(const Event& o) const { return t > o.t || (t == o.t && partition > o.partition); }
};

}  // namespace

UrgentBound urgent_bound(const WorkloadProfile& other, const PlanResult& other_plan, const WorkloadProfile& urgent,
                         const PlanConfig& c) {
  UrgentBound b;
  b.alone_s = urgent.synthesis_s + urgent.prove_cpu_s + urgent.prove_device_s + urgent.finish_s;
  b.prover_wait_s = other.prove_cpu_s + other.prove_device_s;
  b.finalizer_wait_s = other.finish_s;
  b.bound_s = b.alone_s + b.prover_wait_s + b.finalizer_wait_s;
  // Both kinds' keys resident; the budget is what is left, as simulate() computes it.
  const std::uint64_t fixed = other.idle_bytes + other.params_bytes + urgent.params_bytes;
  b.budget_bytes = c.memory_bytes > fixed
                       ? static_cast<std::uint64_t>(static_cast<double>(c.memory_bytes - fixed) * c.budget_fraction)
                       : 0;
  b.urgent_bytes = std::max({urgent.bytes_synth, urgent.bytes_synth_unseen, urgent.bytes_after + urgent.prove_room});
  b.fits = other_plan.feasible && other_plan.peak_reserved + b.urgent_bytes <= b.budget_bytes;
  return b;
}

PlanResult simulate(const WorkloadProfile& p, const PlanConfig& c) {
  PlanResult r;
  const std::uint64_t fixed = p.idle_bytes + p.params_bytes;
  if (c.memory_bytes <= fixed) {
    r.feasible = false;
    r.why = "the memory does not even hold the idle process and the parameters";
    return r;
  }
  const auto budget = static_cast<std::uint64_t>(static_cast<double>(c.memory_bytes - fixed) * c.budget_fraction);
  const std::size_t parts = c.proofs * p.partitions_per_proof;
  const unsigned provers = std::max(1u, c.devices * c.prover_workers_per_device);
  // The engine's two ways (docs/engine.md, "Prove-start room"): the room held once per prover when
  // it fits beside a partition, else each partition holding prove_start's buffers itself.
  std::uint64_t admit = p.bytes_synth, held = p.bytes_waiting != 0 ? p.bytes_waiting : p.bytes_synth;
  std::uint64_t reserved = 0;
  if (p.prove_room != 0 && p.prove_room * provers + p.bytes_synth > budget) {
    admit = held = std::max(p.bytes_synth, p.bytes_after + p.prove_room);
  } else {
    reserved = p.prove_room * provers;
  }
  held = std::min(held, admit);
  const std::uint64_t after = std::min(p.bytes_after, held);
  // Before the first synthesis ends the engine knows only the bounds.
  const std::uint64_t admit_unseen = std::max(admit, p.bytes_synth_unseen);
  bool seen = false;
  if (admit_unseen + reserved > budget) {
    r.feasible = false;
    r.why = "one partition's working set exceeds the budget";
    return r;
  }
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;  // prove and finish ends
  struct Running {
    std::size_t partition;
    double remaining;  // solo-speed seconds of synthesis left
    std::uint64_t admitted;
  };
  std::vector<Running> synthesizing;
  std::size_t next = 0;  // next partition to schedule (priority order = index order)
  unsigned synth_idle = std::max(1u, c.synthesis_workers), prover_idle = provers,
           fin_idle = std::max(1u, c.finalizer_workers);
  std::deque<std::size_t> channel, blocked, finals;  // blocked: synthesized, waiting for channel room
  std::vector<double> device_free(std::max(1u, c.devices), 0.0);
  std::vector<std::size_t> done_per_proof(c.proofs, 0);
  std::vector<double> proof_done(c.proofs, 0);
  double device_busy = 0, t = 0;
  auto peak = [&] {
    r.peak_bytes = std::max(r.peak_bytes, fixed + reserved);
    r.peak_reserved = std::max(r.peak_reserved, reserved);
  };
  auto rate = [&] {
    if (p.cores <= 0 || synthesizing.empty()) return 1.0;
    return std::min(1.0, p.cores / (static_cast<double>(synthesizing.size()) * p.synthesis_threads));
  };

  auto schedule = [&] {
    while (next < parts && synth_idle > 0) {
      const std::uint64_t need = seen ? admit : admit_unseen;
      if (budget - reserved < need) break;
      --synth_idle;
      reserved += need;
      peak();
      synthesizing.push_back({next++, p.synthesis_s, need});
    }
  };
  auto prove = [&] {
    while (!channel.empty() && prover_idle > 0) {
      const std::size_t k = channel.front();
      channel.pop_front();
      if (!blocked.empty()) {  // a waiting synthesis worker hands its partition over and is free
        channel.push_back(blocked.front());
        blocked.pop_front();
        ++synth_idle;
      }
      --prover_idle;
      auto dev = std::min_element(device_free.begin(), device_free.end());
      const double start = std::max(t + p.prove_cpu_s, *dev);
      *dev = start + p.prove_device_s;
      device_busy += p.prove_device_s;
      events.push({*dev, Ev::kProveDone, k});
    }
  };
  auto finish = [&] {
    while (!finals.empty() && fin_idle > 0) {
      --fin_idle;
      events.push({t + p.finish_s, Ev::kFinishDone, finals.front()});
      finals.pop_front();
    }
  };

  schedule();
  while (!events.empty() || !synthesizing.empty()) {
    // The next synthesis to finish at the current sharing rate.
    const double rt = rate();
    double t_synth = INFINITY;
    std::size_t first = 0;
    for (std::size_t i = 0; i < synthesizing.size(); ++i) {
      const double end = t + synthesizing[i].remaining / rt;
      if (end < t_synth) t_synth = end, first = i;
    }
    const double t_event = events.empty() ? INFINITY : events.top().t;
    const double t_next = std::min(t_synth, t_event);
    for (auto& s : synthesizing) s.remaining -= (t_next - t) * rt;
    t = t_next;
    if (t_synth <= t_event) {
      const std::size_t k = synthesizing[first].partition;
      reserved -= synthesizing[first].admitted - held;  // a/b and the witness shrunk to what they hold
      synthesizing.erase(synthesizing.begin() + static_cast<std::ptrdiff_t>(first));
      seen = true;
      if (channel.size() < std::max<std::size_t>(1, c.channel_capacity)) {
        channel.push_back(k);
        ++synth_idle;
      } else {
        blocked.push_back(k);  // keeps its worker and its reservation
      }
    } else {
      const Event e = events.top();
      events.pop();
      if (e.kind == Ev::kProveDone) {
        reserved -= held - after;
        ++prover_idle;
        finals.push_back(e.partition);
      } else {
        reserved -= after;
        ++fin_idle;
        const std::size_t proof = e.partition / p.partitions_per_proof;
        if (++done_per_proof[proof] == p.partitions_per_proof) proof_done[proof] = t;
      }
    }
    finish();
    prove();
    schedule();
  }
  r.makespan_s = t;
  std::sort(proof_done.begin(), proof_done.end());
  const std::size_t half = c.proofs / 2;
  if (c.proofs >= 4) {
    r.s_per_proof = (proof_done.back() - proof_done[half - 1]) / static_cast<double>(c.proofs - half);
  } else {
    r.s_per_proof = t / static_cast<double>(std::max<std::size_t>(1, c.proofs));
  }
  r.device_busy = t > 0 ? device_busy / (t * static_cast<double>(device_free.size())) : 0;
  return r;
}

std::vector<SweepRow> sweep(const WorkloadProfile& p, PlanConfig base, unsigned max_workers, std::size_t* recommended) {
  std::vector<SweepRow> rows;
  std::size_t best = SIZE_MAX;
  for (unsigned gw = 1; gw <= 2; ++gw) {
    for (unsigned w = 1; w <= max_workers; ++w) {
      base.synthesis_workers = w;
      base.prover_workers_per_device = gw;
      const PlanResult r = simulate(p, base);
      rows.push_back({w, gw, r});
      if (!r.feasible || r.peak_bytes > base.memory_bytes) continue;
      if (best == SIZE_MAX) {
        best = rows.size() - 1;
        continue;
      }
      const PlanResult& b = rows[best].result;
      if (r.s_per_proof < b.s_per_proof * 0.99 ||
          (r.s_per_proof <= b.s_per_proof * 1.01 && r.peak_bytes < b.peak_bytes)) {
        best = rows.size() - 1;
      }
    }
  }
  if (recommended != nullptr) *recommended = best;
  return rows;
}

}  // namespace zk::engine
