#pragma once

// The engine's settings (the daemon's [engine] table): a plain struct, so that whoever parses them
// need not link the engine.

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace zk::engine {

struct EngineConfig {
  /// Memory budget in bytes; 0: budget_fraction of the memory available to the process.
  std::uint64_t budget_bytes = 0;
  double budget_fraction = 0.75;
  unsigned synthesis_workers = 0;  // 0: half the hardware threads (at least 1)
  unsigned prover_workers = 1;
  unsigned finalizer_workers = 1;
  /// Synthesized partitions that may wait for a prover (their memory stays reserved and counted).
  std::size_t channel_capacity = 1;
  /// Finished jobs are kept this long for await(), then forgotten.
  std::chrono::milliseconds result_ttl = std::chrono::minutes(10);
  /// Verify every partition's proof before the job is answered (a failure fails the job).
  bool self_verify = false;
  /// Most partitions one job may ask for (each costs bookkeeping until the result expires, whatever
  /// its size; a workload may allow fewer: a PoRep job has exactly its circuit's partitions).
  std::size_t max_partitions = 1024;
  /// Most finished jobs kept for await() at once: past it the oldest are forgotten before their
  /// result_ttl (each keeps its proofs and public inputs: ~0.1-110 KB per partition).
  std::size_t max_kept_jobs = 10000;
  /// Most bytes the inputs of unfinished jobs may hold together (a job's input is given back when
  /// it ends); more is RESOURCE_EXHAUSTED at submit. 0: a quarter of the budget (at least 1 MiB).
  std::uint64_t max_input_bytes = 0;
  /// PoSt deadlines under PoRep load (issue 41; docs/engine.md, "Urgent work"): jobs of at least
  /// this priority (the daemon gives WindowPoSt 10, WinningPoSt 20) are urgent. They are synthesized
  /// by urgent_synthesis_workers of their own (beside synthesis_workers, which they may also take)
  /// and enter the prover's channel ahead of other work, even when it is full — so an urgent
  /// partition waits at most for the prove_start under way, not behind syntheses and a full channel
  /// of PoRep partitions. Their memory is reserved from the same budget as any partition's.
  int urgent_priority = 10;
  unsigned urgent_synthesis_workers = 1;  // 0: urgent work shares the synthesis workers
  /// Record a span per stage and worker for chrome_trace_json() (Perfetto / chrome://tracing).
  bool trace = false;
  /// A fault hook for tests, never set in production: the first this-many partition syntheses
  /// after start fail on purpose (their jobs fail with a message that says so). `zkpipe serve` takes
  /// it from $ZKPIPE_TEST_FAIL_SYNTHESES, so that tests can fail a job through the wire protocols
  /// (a client's retry after a failure: issue 41).
  std::uint32_t test_fail_syntheses = 0;
  /// A test hook too ($ZKPIPE_TEST_SLOW_SYNTHESIS_MS): every partition synthesis first sleeps this
  /// long, without looking at a stop — a stage that cannot be interrupted, as a 32 GiB synthesis or
  /// prove_start on the CPU is for minutes (the daemon's stop bound is tested with it).
  std::uint32_t test_slow_synthesis_ms = 0;
};

}  // namespace zk::engine
