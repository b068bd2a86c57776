#pragma once

// The `porep` circuit family (circuits/porep.hpp) as an engine workload, on BLS12-381: shape = a
// preset name (tiny, small, bench), input = the C1 JSON of `zkpipe gen-input` (every partition's
// openings; the job has the shape's partition count). The input is parsed and checked (openings
// against the commitments) once at submit; partitions reuse the parsed input, kept for the few
// most recent jobs. Keys: a .params file through the ParamsCache, or owned.

#include <memory>
#include <string>
#include <utility>

#include "circuits/porep_input.hpp"
#include "engine/groth16_workload.hpp"
#include "engine/recent_inputs.hpp"

namespace zk::engine {

class PorepWorkload : public Groth16Workload<groth16::Bls12_381> {
 public:
  using E = groth16::Bls12_381;
  PorepWorkload(circuits::porep::Shape shape, ParamsCache& cache, std::string params_path)
      : Groth16Workload<E>(cache, std::move(params_path)), shape_(std::move(shape)) {}
  PorepWorkload(circuits::porep::Shape shape, std::shared_ptr<const groth16::ProvingKey<E>> pk)
      : Groth16Workload<E>(std::move(pk)), shape_(std::move(shape)) {}

  Status validate(const JobRequest& job) override;
  Result<std::unique_ptr<Synthesized>> synthesize(const JobRequest& job, std::size_t partition) override;
  Result<std::vector<Fr>> public_inputs(const JobRequest& job, std::size_t partition) const override;

  const circuits::porep::Shape& shape() const { return shape_; }

 private:
  /// The parsed input of a job (from the small cache, or parsed now).
  Result<std::shared_ptr<const circuits::porep::C1>> input(const JobRequest& job, bool check_openings) const;
  circuits::porep::Shape shape_;
  mutable RecentInputs<std::string, circuits::porep::C1> recent_;  // keyed by the input bytes
};

}  // namespace zk::engine
