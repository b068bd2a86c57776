#pragma once

// What the engine runs: a Workload per circuit kind (the one place where the curve and the
// circuit are type-erased). The engine never looks inside a partition; it asks the workload how
// many bytes one will need (before synthesis starts) and calls the three stages.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "gpu/pool.hpp"

namespace zk::engine {

struct JobRequest {
  std::string circuit;              // workload kind, e.g. "synthetic"
  std::string shape;                // shape or params id, meaning defined by the workload
  std::vector<std::uint8_t> input;  // kind-specific input bytes
  int priority = 0;                 // higher runs first
  std::string request_id;           // with the payload, the idempotency key (a failed job: a retry); empty: every submit is new
  std::size_t partitions = 1;
  /// The job's id when it was given one before (by the job store); 0: the engine draws one.
  std::uint64_t id = 0;
  /// Engine::validate passed for this very request in this process: submit skips the workload's
  /// validation (seconds for a large C1) and only sizes the job.
  bool validated = false;
};

/// The bytes one partition holds, by buffer class, from the start of its synthesis: a/b (at most
/// `abc`, in whatever form synthesis keeps them) until prove_start has computed H; assignments,
/// densities and pending-proof scratch until prove_finish. `prove_room`: what prove_start allocates
/// beyond that while it runs (the dense a, b and c the quotient transforms) — the engine holds it
/// once per prover worker, not per partition (docs/engine.md "Prove-start room").
struct WorkingSet {
  std::uint64_t abc = 0, aux = 0, density = 0, pending = 0, prove_room = 0;
  /// The partition's own bytes (prove_room is not among them).
  std::uint64_t total() const { return abc + aux + density + pending; }
};

/// Opaque stage outputs.
struct Synthesized {
  virtual ~Synthesized() = default;
  /// The bytes its a/b really hold (<= WorkingSet::abc), when the workload tracks them: the engine
  /// then gives back the rest of the partition's a/b reservation while it waits for a prover.
  virtual std::optional<std::uint64_t> abc_bytes() const { return std::nullopt; }
  /// The bytes its assignments really hold (<= WorkingSet::aux: a compact witness is mostly bits),
  /// when the workload tracks them: the engine gives back the rest of the aux reservation after
  /// synthesis, for the partition's remaining life (to the end of prove_finish).
  virtual std::optional<std::uint64_t> aux_bytes() const { return std::nullopt; }
  /// The job and partition (set by the engine before prove_start): shown beside the GPU they are on.
  gpu::WorkLabel label;
};
struct Pending {
  virtual ~Pending() = default;
};

class Workload {
 public:
  virtual ~Workload() = default;
  /// Cheap checks at submit time (shape known, input well-formed): a clear error, not a failed job.
  virtual Status validate(const JobRequest& job) = 0;
  /// The partition count this input asks for when the request gives none (0: no opinion, the
  /// kind's default applies). A PoRep C1 names its registered proof, which fixes it (NI: 13/126).
  virtual std::size_t partitions_of(const JobRequest& /*job*/) { return 0; }
  /// The registered proof (filecoin-proofs' numbering) the input names, when it names one (a PoRep
  /// C1): a request that says another is refused. nullopt: the input names none.
  virtual std::optional<std::uint64_t> registered_proof_of(const JobRequest& /*job*/) { return std::nullopt; }
  /// Exact working set of one partition of this job.
  virtual Result<WorkingSet> working_set(const JobRequest& job) = 0;
  virtual Result<std::unique_ptr<Synthesized>> synthesize(const JobRequest& job, std::size_t partition) = 0;
  /// The device half; the partition's a/b/c are freed when it returns.
  virtual Result<std::unique_ptr<Pending>> prove_start(std::unique_ptr<Synthesized> s) = 0;
  /// The CPU half; returns the proof bytes of the partition.
  virtual Result<std::vector<std::uint8_t>> prove_finish(std::unique_ptr<Pending> p) = 0;
  /// True when this kind's proofs are checked before any answer whatever EngineConfig::self_verify
  /// says: a PoRep or SnapDeals proof goes on chain (and Curio, retrying a failed sector, submits
  /// what it is given), so a wrong one costs the sector.
  virtual bool always_verify() const { return false; }
  /// Checks a finished partition's proof (EngineConfig::self_verify). The default cannot verify.
  virtual Result<bool> verify(const JobRequest& /*job*/, std::size_t /*partition*/,
                              const std::vector<std::uint8_t>& /*proof*/) {
    return Status::unavailable("this workload cannot verify its proofs");
  }
  /// The public inputs of one partition of a job (without ONE), as decimal strings, for clients
  /// that verify or write public.json. Computed once, by the finalizer, when the partition's proof
  /// is done (never on a gRPC or watcher thread). The default cannot tell (UNAVAILABLE: the result
  /// then carries no public inputs).
  virtual Result<std::vector<std::string>> public_inputs_decimal(const JobRequest& /*job*/, std::size_t /*partition*/) {
    return Status::unavailable("this workload cannot name its public inputs");
  }
  /// The job's answer from its partitions' proofs (in partition order), once all are done; runs on
  /// the finalizer thread that finished the last one. Default: the proofs concatenated. A
  /// non-interactive PoRep's: their SnarkPack aggregate (FilecoinWorkload).
  virtual Result<std::vector<std::uint8_t>> combine(const JobRequest& /*job*/,
                                                    const std::vector<std::vector<std::uint8_t>>& proofs) {
    std::vector<std::uint8_t> out;
    for (const auto& p : proofs) out.insert(out.end(), p.begin(), p.end());
    return out;
  }
  /// "bls12-381" or "bn254": how to read the proof bytes (groth16::read_proofs).
  virtual std::string curve() const = 0;
  /// The ParamsCache id of the key this job's partitions load ("" when it owns its key): while one of
  /// its partitions waits for memory, the engine evicts unused cached keys except this one.
  virtual std::string key_id(const JobRequest& /*job*/) const { return {}; }
};

}  // namespace zk::engine
