#pragma once

// The `synthetic` circuit as an engine workload, on either curve: shape "n=<constraints>", input
// = the witness seed as 8 little-endian bytes (partition k proves seed + k). The proving key is
// made at construction by the development setup (tests and benchmarks only), handed in, or loaded
// from a .params file through the ParamsCache (groth16_workload.hpp).

#include <memory>
#include <string>

#include "engine/groth16_workload.hpp"

namespace zk::engine {

template <class E>
class SyntheticWorkload : public Groth16Workload<E> {
 public:
  using Fr = typename E::Fr;
  /// Development setup for `constraints` constraints from `setup_seed`.
  static Result<std::shared_ptr<SyntheticWorkload>> create(std::size_t constraints, std::uint64_t setup_seed);
  SyntheticWorkload(std::size_t constraints, std::shared_ptr<const groth16::ProvingKey<E>> pk)
      : Groth16Workload<E>(std::move(pk)), n_(constraints) {}
  /// Keys from a .params file, loaded through `cache` (so they are budgeted, shared and evictable).
  SyntheticWorkload(std::size_t constraints, ParamsCache& cache, std::string params_path)
      : Groth16Workload<E>(cache, std::move(params_path)), n_(constraints) {}

  Status validate(const JobRequest& job) override;
  Result<std::unique_ptr<Synthesized>> synthesize(const JobRequest& job, std::size_t partition) override;
  Result<std::vector<Fr>> public_inputs(const JobRequest& job, std::size_t partition) const override;

  std::string shape() const { return "n=" + std::to_string(n_); }
  static std::vector<std::uint8_t> seed_input(std::uint64_t seed);

 private:
  Result<std::uint64_t> seed_of(const JobRequest& job) const;
  std::size_t n_;
};

}  // namespace zk::engine
