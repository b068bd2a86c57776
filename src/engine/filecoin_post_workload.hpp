#pragma once

// Filecoin's WindowPoSt and WinningPoSt as engine workloads (circuits/filecoin/post): shape = a
// sector size name ("2KiB" ... "64GiB"), input = one partition's PostInput JSON (registered PoSt
// proof, randomness, partition index, the sectors' bincode vanilla proofs; post_input.hpp), one job
// = one partition = one 192-byte proof, as cuzk's PoSt requests. The input is parsed and every
// vanilla proof checked natively at submit; synthesis and the public inputs reuse the parsed input.
// Keys: Filecoin's PoSt .params (or development keys under the same names) through the ParamsCache.

#include <array>
#include <memory>
#include <string>

#include "circuits/filecoin/post/post_input.hpp"
#include "engine/groth16_workload.hpp"
#include "engine/recent_inputs.hpp"

namespace zk::engine {

class FilecoinPostWorkload : public Groth16Workload<groth16::Bls12_381> {
 public:
  using E = groth16::Bls12_381;
  /// `winning`: WinningPoSt, else WindowPoSt.
  FilecoinPostWorkload(bool winning, circuits::filecoin::SectorSize size, ParamsCache& cache, std::string params_path)
      : Groth16Workload<E>(cache, std::move(params_path)), winning_(winning), size_(size) {}
  FilecoinPostWorkload(bool winning, circuits::filecoin::SectorSize size,
                       std::shared_ptr<const groth16::ProvingKey<E>> pk)
      : Groth16Workload<E>(std::move(pk)), winning_(winning), size_(size) {}

  Status validate(const JobRequest& job) override;
  Result<std::unique_ptr<Synthesized>> synthesize(const JobRequest& job, std::size_t partition) override;
  Result<std::vector<Fr>> public_inputs(const JobRequest& job, std::size_t partition) const override;

  /// The parsed and checked input of a job (from the small cache, or parsed and checked now).
  Result<std::shared_ptr<const circuits::filecoin::PostInput>> input(const JobRequest& job) const;
  const char* kind() const { return winning_ ? "winning-post" : "window-post"; }

 private:
  bool winning_;
  circuits::filecoin::SectorSize size_;
  mutable RecentInputs<std::array<std::uint8_t, 32>, circuits::filecoin::PostInput> recent_;
};

}  // namespace zk::engine
