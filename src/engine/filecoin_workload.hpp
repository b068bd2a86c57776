#pragma once

// Filecoin's proof kinds as engine workloads, one class over the kind table
// (circuits/filecoin/proof_kind.hpp): shape = a sector size name ("2KiB" ... "64GiB"), input = the
// kind's input bytes (a C1, a PoSt partition's input, a SnapDeals input), one job = the partitions
// the input proves, the answer = the 192-byte partition proofs concatenated, as Filecoin expects (a
// non-interactive PoRep's: their SnarkPack aggregate, as filecoin-proofs returns it). The
// input is parsed and checked natively once, at submit; partitions reuse it (a few recent jobs'
// are kept, keyed by the input's SHA-256). Keys: Filecoin's .params (or development keys under the
// same names) through the ParamsCache.

#include <array>
#include <memory>
#include <string>
#include <utility>

#include "circuits/filecoin/proof_kind.hpp"
#include "engine/groth16_workload.hpp"
#include "engine/recent_inputs.hpp"

namespace zk::engine {

/// The parsed and checked inputs of recent jobs of one kind and shape.
class FilecoinInputs {
 public:
  FilecoinInputs(const circuits::filecoin::ProofKind& kind, circuits::filecoin::KindShape shape)
      : kind_(kind), shape_(std::move(shape)) {}
  /// The job's input, parsed and checked (from the cache, or now).
  Result<std::shared_ptr<const circuits::filecoin::KindInput>> input(const JobRequest& job);
  /// The shape, the input and the partition count of a job.
  Status validate(const JobRequest& job);
  const circuits::filecoin::ProofKind& kind() const { return kind_; }
  const circuits::filecoin::KindShape& shape() const { return shape_; }

 private:
  const circuits::filecoin::ProofKind& kind_;
  circuits::filecoin::KindShape shape_;
  RecentInputs<std::array<std::uint8_t, 32>, circuits::filecoin::KindInput> recent_;  // by SHA-256
};

class FilecoinWorkload : public Groth16Workload<groth16::Bls12_381> {
 public:
  using E = groth16::Bls12_381;
  FilecoinWorkload(const circuits::filecoin::ProofKind& kind, circuits::filecoin::KindShape shape, ParamsCache& cache,
                   std::string params_path)
      : Groth16Workload<E>(cache, std::move(params_path)), inputs_(kind, std::move(shape)) {}
  FilecoinWorkload(const circuits::filecoin::ProofKind& kind, circuits::filecoin::KindShape shape,
                   std::shared_ptr<const groth16::ProvingKey<E>> pk)
      : Groth16Workload<E>(std::move(pk)), inputs_(kind, std::move(shape)) {}

  /// The input's answer is checked to be producible too: a non-interactive PoRep needs the SnarkPack
  /// SRS (set_srs_path) for its partitions' count.
  Status validate(const JobRequest& job) override;
  std::size_t partitions_of(const JobRequest& job) override;
  std::optional<std::uint64_t> registered_proof_of(const JobRequest& job) override;
  Result<std::unique_ptr<Synthesized>> synthesize(const JobRequest& job, std::size_t partition) override;
  Result<std::vector<Fr>> public_inputs(const JobRequest& job, std::size_t partition) const override;
  bool always_verify() const override { return inputs_.kind().always_verify() && !benchmark_key_; }
  /// Its key is a benchmark key (`zkpipe bench --params benchmark-key`: random points, so no proof
  /// can verify): the check a PoRep proof always gets is off. Never set by the daemon.
  void set_benchmark_key() { benchmark_key_ = true; }

  /// A non-interactive PoRep's answer: the SnarkPack aggregate of its partitions (V2, padded, as
  /// filecoin-proofs' seal_commit_phase2), unless partition proofs were asked for; others: the
  /// partition proofs concatenated.
  Result<std::vector<std::uint8_t>> combine(const JobRequest& job,
                                            const std::vector<std::vector<std::uint8_t>>& proofs) override;
  /// Filecoin's SRS file (v28-fil-inner-product-v1.srs, or a development one under that name) for
  /// the aggregates; the daemon's is in its params directory.
  void set_srs_path(std::string path) { srs_path_ = std::move(path); }
  /// Answer with the partition proofs even where Filecoin's answer is their aggregate.
  void set_partition_proofs(bool on) { partition_proofs_ = on; }

  const circuits::filecoin::KindShape& shape() const { return inputs_.shape(); }

 private:
  /// The aggregate's transcript input where this job's answer is an aggregate.
  Result<std::optional<std::array<std::uint8_t, 32>>> aggregated(const JobRequest& job) const;

  mutable FilecoinInputs inputs_;
  bool benchmark_key_ = false;
  std::string srs_path_;
  bool partition_proofs_ = false;
};

/// The same synthesis with no key and no proof, for `zkpipe bench --synthesis-only --pipeline`: the
/// engine's pipeline (synthesis workers, budget, ledger) at sizes whose keys or prover this machine
/// does not have (32 GiB without a GPU). The working set comes from the kind's pinned key sections
/// (circuits/filecoin/parameter_files.hpp); prove_start drops the partition, prove_finish returns
/// no bytes. Never registered by the daemon.
class FilecoinSynthesisWorkload : public Workload {
 public:
  using Fr = FilecoinWorkload::Fr;
  FilecoinSynthesisWorkload(const circuits::filecoin::ProofKind& kind, circuits::filecoin::KindShape shape)
      : inputs_(kind, std::move(shape)) {}

  Status validate(const JobRequest& job) override;
  std::size_t partitions_of(const JobRequest& job) override;
  Result<WorkingSet> working_set(const JobRequest& job) override;
  Result<std::unique_ptr<Synthesized>> synthesize(const JobRequest& job, std::size_t partition) override;
  Result<std::unique_ptr<Pending>> prove_start(std::unique_ptr<Synthesized> s) override;
  Result<std::vector<std::uint8_t>> prove_finish(std::unique_ptr<Pending> p) override;
  std::string curve() const override { return "bls12-381"; }

 private:
  Result<circuits::filecoin::KeySections> key() const;
  FilecoinInputs inputs_;
};

}  // namespace zk::engine
