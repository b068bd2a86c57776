#pragma once

// `zkpipe plan`: a discrete-event model of the engine's pipeline with the same rules (priority
// order, whole working set reserved before synthesis, bounded channel holding reservations, the
// prove-start room held once per prover worker, a/b shrunk to what they hold after synthesis and
// released after prove_start, the rest after prove_finish), driven by a profile of stage times and
// buffer sizes. It predicts s/proof and peak memory for a machine and a worker configuration and
// sweeps configurations to recommend one (docs/engine.md, "Planner").

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.hpp"

namespace zk::engine {

struct WorkloadProfile {
  std::string name;
  std::size_t partitions_per_proof = 1;
  double synthesis_s = 1;          // per partition, one worker (as measured under the expected load)
  double prove_cpu_s = 0;          // prove_start's CPU preparation (overlaps other workers' device time)
  double prove_device_s = 1;       // prove_start's exclusive device time
  double finish_s = 0;             // prove_finish
  std::uint64_t bytes_synth = 0;    // reserved per partition when its synthesis starts
  /// Reserved instead by partitions that start before any partition of the shape has finished
  /// synthesis (the engine admits those with the working set's bounds; 0: bytes_synth).
  std::uint64_t bytes_synth_unseen = 0;
  std::uint64_t bytes_waiting = 0;  // held from the end of synthesis to the end of prove_start (0: bytes_synth)
  std::uint64_t bytes_after = 0;    // still held after prove_start, until prove_finish
  /// prove_start's buffers beyond the partition's own (WorkingSet::prove_room), held once per prover
  /// worker when that fits beside a partition, else by each partition itself: its reservation is
  /// then max(bytes_synth, bytes_after + prove_room) throughout, as in the engine.
  std::uint64_t prove_room = 0;
  std::uint64_t params_bytes = 0;  // resident proving keys
  std::uint64_t idle_bytes = 0;    // the process without partitions or keys
  // CPU contention among syntheses (processor sharing): with n running, each progresses at
  // min(1, cores / (n x synthesis_threads)) of its solo speed. cores = 0 turns it off.
  double cores = 0;
  double synthesis_threads = 1;

  /// The reference daemon's 32 GiB PoRep (cuzk-reference.md section 7).
  static WorkloadProfile porep_32g_reference();
  /// zkpipe's 32 GiB PoRep partition as measured (docs/synthesis.md), on the reference's GPU times:
  /// a projection, not a measurement (docs/engine.md, "Planner").
  static WorkloadProfile porep_32g_zkpipe();
  /// The reference daemon's 32 GiB WinningPoSt (cuzk-reference.md section 7: one partition, synthesis
  /// 52 ms, GPU 666 ms; 0.5 GiB reserved, 0.25 of it a/b/c).
  static WorkloadProfile winning_32g_reference();
  /// A profile from `zkpipe bench --json` output.
  static Result<WorkloadProfile> from_bench_json(const std::string& text);
};

struct PlanConfig {
  std::uint64_t memory_bytes = 0;  // RAM available to the process
  double budget_fraction = 0.9;    // of what is left after idle and params
  unsigned devices = 1;
  unsigned synthesis_workers = 1;
  unsigned prover_workers_per_device = 1;
  unsigned finalizer_workers = 1;
  std::size_t channel_capacity = 1;
  std::size_t proofs = 20;  // simulated; steady state from the second half
};

struct PlanResult {
  bool feasible = true;  // false: one partition does not fit the budget
  std::string why;
  double s_per_proof = 0;
  double makespan_s = 0;
  std::uint64_t peak_bytes = 0;     // idle + params + peak reserved
  std::uint64_t peak_reserved = 0;  // the budget's high-water mark (compare with the engine's)
  double device_busy = 0;           // fraction of the makespan the devices compute
};

PlanResult simulate(const WorkloadProfile& p, const PlanConfig& c);

/// Sweeps synthesis workers 1..max_workers and prover workers per device 1..2; returns one result
/// per configuration (in that order) and the index of the recommended one: the lowest s/proof
/// whose peak fits the memory, ties broken by lower memory.
struct SweepRow {
  unsigned synthesis_workers, prover_workers_per_device;
  PlanResult result;
};
/// How late urgent work (a PoSt partition, priority >= engine.urgent_priority) can be when it arrives
/// while `other` keeps the pipeline busy (docs/engine.md, "Urgent work"): its time alone plus the
/// steps of other work it may find under way and cannot take over — one prove_start on the prover
/// (its partition is proved next) and one prove_finish on the finalizer (its finish is next). It
/// has a synthesis worker of its own and is admitted before other work waiting for memory; the
/// bound holds when its working set fits beside the other work's peak reservation (`fits`), else
/// it also waits for memory that running partitions give back. On a CPU-only machine the stages
/// share the cores, which this does not model: measure with `zkpipe bench --circuit mixed`.
struct UrgentBound {
  double alone_s = 0;          // synthesis + prove_start + prove_finish of one urgent partition
  double prover_wait_s = 0;    // other work's prove_start (CPU preparation + device)
  double finalizer_wait_s = 0; // other work's prove_finish
  double bound_s = 0;          // alone_s + prover_wait_s + finalizer_wait_s
  bool fits = true;            // the urgent partition's reservation fits beside the peak
  std::uint64_t urgent_bytes = 0;
  std::uint64_t budget_bytes = 0;
};
UrgentBound urgent_bound(const WorkloadProfile& other, const PlanResult& other_plan, const WorkloadProfile& urgent,
                         const PlanConfig& c);

std::vector<SweepRow> sweep(const WorkloadProfile& p, PlanConfig base, unsigned max_workers, std::size_t* recommended);

}  // namespace zk::engine
