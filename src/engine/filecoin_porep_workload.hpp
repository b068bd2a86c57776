#pragma once

// Filecoin's PoRep C2 as an engine workload (circuits/filecoin/porep): shape = a sector size name
// ("2KiB" ... "64GiB"), input = the C1 (filecoin-proofs-api's SealCommitPhase1Output JSON or cuzk's
// wrapper), one job = the registered proof's partitions (1 for the test sizes, 10 at 32/64 GiB; non-interactive PoRep 13 / 126),
// proofs = the 192-byte partition proofs concatenated, as Filecoin expects. The C1 is parsed and
// checked natively once, at submit (check_c1: every vanilla proof, the challenges from the seed);
// partitions reuse the parsed input (a few recent jobs' are kept, keyed by the input's SHA-256).
// Keys: Filecoin's .params (or development keys under the same name) through the ParamsCache.

#include <array>
#include <memory>
#include <string>
#include <utility>

#include "circuits/filecoin/porep/c1.hpp"
#include "engine/groth16_workload.hpp"
#include "engine/recent_inputs.hpp"

namespace zk::engine {

class FilecoinPorepWorkload : public Groth16Workload<groth16::Bls12_381> {
 public:
  using E = groth16::Bls12_381;
  FilecoinPorepWorkload(circuits::filecoin::SectorSize size, ParamsCache& cache, std::string params_path)
      : Groth16Workload<E>(cache, std::move(params_path)), size_(size) {}
  FilecoinPorepWorkload(circuits::filecoin::SectorSize size, std::shared_ptr<const groth16::ProvingKey<E>> pk)
      : Groth16Workload<E>(std::move(pk)), size_(size) {}

  Status validate(const JobRequest& job) override;
  std::size_t partitions_of(const JobRequest& job) override;
  std::optional<std::uint64_t> registered_proof_of(const JobRequest& job) override;
  Result<std::unique_ptr<Synthesized>> synthesize(const JobRequest& job, std::size_t partition) override;
  Result<std::vector<Fr>> public_inputs(const JobRequest& job, std::size_t partition) const override;
  bool always_verify() const override { return !benchmark_key_; }  // a PoRep proof goes on chain
  /// Its key is a benchmark key (`zkpipe bench --params benchmark-key`: random points, so no proof
  /// can verify): the check every PoRep proof gets is off. Never set by the daemon.
  void set_benchmark_key() { benchmark_key_ = true; }

  const circuits::filecoin::SectorSize& sector_size() const { return size_; }

  struct Parsed {
    circuits::filecoin::C1Input input;
    circuits::filecoin::C1Context ctx;
  };
  /// The parsed and checked input of a job (from the small cache, or parsed and checked now).
  Result<std::shared_ptr<const Parsed>> input(const JobRequest& job) const;
  /// validate() for any PoRep workload of this size that keeps its parsed inputs in `recent`.
  static Status validate_input(const JobRequest& job, const circuits::filecoin::SectorSize& size,
                               RecentInputs<std::array<std::uint8_t, 32>, Parsed>& recent);
  static Result<std::shared_ptr<const Parsed>> input(const JobRequest& job, const circuits::filecoin::SectorSize& size,
                                                     RecentInputs<std::array<std::uint8_t, 32>, Parsed>& recent);

 private:
  circuits::filecoin::SectorSize size_;
  bool benchmark_key_ = false;
  mutable RecentInputs<std::array<std::uint8_t, 32>, Parsed> recent_;  // keyed by the input's SHA-256
};

/// The same synthesis with no key and no proof, for `zkpipe bench --synthesis-only --pipeline`: the
/// engine's pipeline (synthesis workers, budget, ledger) at sizes whose keys or prover this machine
/// does not have (32 GiB without a GPU). The working set comes from the pinned key-section table
/// (circuits/filecoin/parameter_files.hpp); prove_start drops the partition, prove_finish returns
/// no bytes. Never registered by the daemon.
class FilecoinPorepSynthesisWorkload : public Workload {
 public:
  using Fr = FilecoinPorepWorkload::Fr;
  explicit FilecoinPorepSynthesisWorkload(circuits::filecoin::SectorSize size) : size_(size) {}

  Status validate(const JobRequest& job) override;
  std::size_t partitions_of(const JobRequest& job) override;
  Result<WorkingSet> working_set(const JobRequest& job) override;
  Result<std::unique_ptr<Synthesized>> synthesize(const JobRequest& job, std::size_t partition) override;
  Result<std::unique_ptr<Pending>> prove_start(std::unique_ptr<Synthesized> s) override;
  Result<std::vector<std::uint8_t>> prove_finish(std::unique_ptr<Pending> p) override;
  std::string curve() const override { return "bls12-381"; }

 private:
  circuits::filecoin::SectorSize size_;
  RecentInputs<std::array<std::uint8_t, 32>, FilecoinPorepWorkload::Parsed> recent_;
};

}  // namespace zk::engine
