#pragma once

// Which workload serves a request: (circuit, shape) -> an engine kind "<circuit>:<shape>" whose
// workload is made on first use from the keys in the params directory and registered with the
// engine. Keys load through ParamsCaches that share the engine's budget and ledger (one per file
// format and curve), so GetStatus lists them and PreloadParams / EvictParams act on them.
//   synthetic  "<curve>-n<N>"     synthetic-<curve>-n<N>.params   input: 8-byte seed
//   porep      "2KiB" ... "64GiB" v28-stacked-proof-of-replication-…params (Filecoin's name)
//                                                                input: Filecoin's C1 (or cuzk's wrapper)
//   window-post / winning-post / snap-update  "2KiB" ... "64GiB"  Filecoin's names; input: gen-vanilla's
//                                                                (or Curio's) vanilla proofs
//   zkey       "<name>.zkey"      <name>.zkey                      input: .wtns

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "engine/engine.hpp"
#include "engine/groth16_workload.hpp"
#include "engine/params_cache.hpp"

namespace zk::server {

struct Resolved {
  std::string kind;  // the engine's workload key
  std::string job_shape;  // the shape the workload expects in a JobRequest
  std::size_t partitions = 1;  // the kind's partition count for this shape
  std::string params_path;
};

class WorkloadRegistry {
 public:
  /// `device`: where the Groth16 workloads' prove_start runs (already resolved: kCpu or kGpu);
  /// `gpus`: with kGpu, the devices their prover workers share (null: every device of the host).
  /// `ni_partition_proofs`: non-interactive PoRep jobs answer with their partition proofs, not
  /// their aggregate (DaemonConfig::ni_partition_proofs).
  WorkloadRegistry(engine::Engine& engine, std::string params_dir,
                   engine::ProverDevice device = engine::ProverDevice::kCpu,
                   std::shared_ptr<gpu::DevicePool> gpus = nullptr, bool ni_partition_proofs = false);
  ~WorkloadRegistry();

  /// The engine kind serving (circuit, shape), made and registered on first use. NOT_FOUND when the
  /// keys are missing (with the command that makes them), INVALID_ARGUMENT for an unknown circuit
  /// or a malformed shape.
  Result<Resolved> resolve(const std::string& circuit, const std::string& shape);
  struct Preloaded {
    bool already_loaded = false;
    std::uint64_t bytes = 0;
  };
  Result<Preloaded> preload(const std::string& circuit, const std::string& shape);
  struct Evicted {
    bool was_loaded = false;
    std::uint64_t freed_bytes = 0;
  };
  Result<Evicted> evict(const std::string& circuit, const std::string& shape);
  std::vector<engine::ParamsEntryInfo> params() const;
  /// Drops every cached key that is not in use (before the engine goes).
  void evict_all_unused();
  /// The GPUs prove_start uses (each one's gate and resident bases, for metrics and status); null
  /// when prove_start runs on the CPU.
  const gpu::DevicePool* gpus() const { return pool_.get(); }

 private:
  enum CacheId { kBellmanBls, kBellmanBn, kZkeyBls, kZkeyBn, kCaches };
  struct Entry {
    Resolved r;
    CacheId cache = kCaches;  // kCaches: the kind loads no key (snarkpack)
  };
  Result<Entry> locate(const std::string& circuit, const std::string& shape);

  engine::Engine& engine_;
  std::string dir_;
  engine::ProverDevice device_;
  bool ni_partition_proofs_ = false;
  std::shared_ptr<gpu::DevicePool> pool_;  // with kGpu: shared by every workload (the interlock)
  std::unique_ptr<engine::ParamsCache> caches_[kCaches];
  std::uint64_t evictors_[kCaches] = {};  // engine handles (Engine::add_key_evictor)
  mutable std::mutex m_;
  std::map<std::string, Entry> made_;  // kind -> entry
};

}  // namespace zk::server
