#pragma once

// Filecoin's SnapDeals (EmptySectorUpdate, SHA-256 tree D) as an engine workload
// (circuits/filecoin/update): shape = a sector size name ("2KiB" ... "64GiB"), input = the
// UpdateInput JSON (registered update proof, comm_r_old / comm_d_new / comm_r_new, every
// partition's bincode PartitionProof; update_input.hpp), one job = all the size's partitions (2 KiB
// 1, 32 GiB 16), proofs concatenated as filecoin-proofs does. The input is parsed and every
// partition checked natively at submit; synthesis and the public inputs reuse the parsed input.
// Keys: Filecoin's v28-empty-sector-update .params (or development keys under the same names).

#include <array>
#include <memory>
#include <string>

#include "circuits/filecoin/update/update_input.hpp"
#include "engine/groth16_workload.hpp"
#include "engine/recent_inputs.hpp"

namespace zk::engine {

class FilecoinUpdateWorkload : public Groth16Workload<groth16::Bls12_381> {
 public:
  using E = groth16::Bls12_381;
  FilecoinUpdateWorkload(circuits::filecoin::SectorSize size, ParamsCache& cache, std::string params_path)
      : Groth16Workload<E>(cache, std::move(params_path)), size_(size) {}
  FilecoinUpdateWorkload(circuits::filecoin::SectorSize size, std::shared_ptr<const groth16::ProvingKey<E>> pk)
      : Groth16Workload<E>(std::move(pk)), size_(size) {}

  Status validate(const JobRequest& job) override;
  Result<std::unique_ptr<Synthesized>> synthesize(const JobRequest& job, std::size_t partition) override;
  Result<std::vector<Fr>> public_inputs(const JobRequest& job, std::size_t partition) const override;
  bool always_verify() const override { return true; }  // a SnapDeals proof goes on chain

  /// The parsed and checked input of a job (from the small cache, or parsed and checked now).
  Result<std::shared_ptr<const circuits::filecoin::UpdateInput>> input(const JobRequest& job) const;
  /// The size's partition count (a job proves them all).
  static Result<unsigned> partitions(const circuits::filecoin::SectorSize& size);

 private:
  circuits::filecoin::SectorSize size_;
  mutable RecentInputs<std::array<std::uint8_t, 32>, circuits::filecoin::UpdateInput> recent_;
};

}  // namespace zk::engine
