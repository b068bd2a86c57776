#pragma once

#include <cstdint>
#include <string>

namespace zk::app {

struct BenchArgs {
  std::string circuit = "synthetic";  // synthetic, or zkey (with zkey and witness)
  std::string zkey, witness;
  std::string shape, input, params;  // porep: preset, C1 JSON, .params file
  std::size_t constraints = 1 << 14;
  std::string curve = "bls12-381";
  std::size_t jobs = 4;
  std::size_t partitions = 2;
  unsigned synthesis_workers = 1;
  unsigned prover_workers = 0;  // 0: as the daemon, 2 per GPU when prove_start runs there, else 1
  std::size_t channel_capacity = 1;
  double budget_gib = 0;  // 0: the engine's default (a fraction of the available memory)
  std::string trace;
  std::string plot;        // SVG timeline with the RSS curve and the budget line
  unsigned sweep_max = 0;  // > 0: run synthesis workers 1..sweep_max and print the table
  bool verify = false;     // the engine verifies every proof before answering
  std::string device = "auto";  // prove_start: auto, cpu or gpu (synthetic, porep)
  std::string gpu_resident = "auto";  // key bases kept per GPU: auto, a size, or 0 (engine.gpu_resident)
  bool synthesis_only = false;  // porep with a sector size: one partition synthesized, no keys, no engine
  bool pipeline = false;        // with synthesis_only: jobs through the engine, partitions dropped unproved
  std::size_t partition = 0;    // with synthesis_only
  bool digest = false;          // with synthesis_only: SHA-256 of the partition
  bool json = false;
};

/// `zkpipe bench`: the engine in-process on the synthetic circuit or a circom zkey + witness;
/// prints throughput, per-stage statistics, the prover's busy fraction, peak RSS and the ledger's
/// high-water marks.
int run_bench(const BenchArgs& a);

}  // namespace zk::app
