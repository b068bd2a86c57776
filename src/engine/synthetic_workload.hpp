#pragma once

// The `synthetic` circuit as an engine workload, on either curve: shape "n=<constraints>", input
// = the witness seed as 8 little-endian bytes (partition k proves seed + k). The proving key is
// made at construction by the development setup (tests and benchmarks only) or handed in.

#include <memory>
#include <mutex>
#include <string>

#include "engine/params_cache.hpp"
#include "engine/workload.hpp"
#include "groth16/keys.hpp"

namespace zk::engine {

template <class E>
class SyntheticWorkload : public Workload {
 public:
  /// Development setup for `constraints` constraints from `setup_seed`.
  static Result<std::shared_ptr<SyntheticWorkload>> create(std::size_t constraints, std::uint64_t setup_seed);
  SyntheticWorkload(std::size_t constraints, std::shared_ptr<const groth16::ProvingKey<E>> pk);
  /// Keys from a .params file, loaded through `cache` (so they are budgeted, shared and evictable).
  SyntheticWorkload(std::size_t constraints, ParamsCache& cache, std::string params_path);
  /// The cache callbacks for .params files of this curve (size from the file header, then load).
  static Result<std::uint64_t> params_file_bytes(const std::string& path);
  static Result<LoadedParams> load_params_file(const std::string& path);

  Status validate(const JobRequest& job) override;
  Result<WorkingSet> working_set(const JobRequest& job) override;
  Result<std::unique_ptr<Synthesized>> synthesize(const JobRequest& job, std::size_t partition) override;
  Result<std::unique_ptr<Pending>> prove_start(std::unique_ptr<Synthesized> s) override;
  Result<std::vector<std::uint8_t>> prove_finish(std::unique_ptr<Pending> p) override;
  Result<bool> verify(const JobRequest& job, std::size_t partition, const std::vector<std::uint8_t>& proof) override;

  /// Bytes the proving key holds in memory.
  std::uint64_t key_bytes() const;
  /// The key (loaded through the cache in the cache-backed mode).
  Result<std::shared_ptr<const groth16::ProvingKey<E>>> proving_key() const;
  std::string shape() const { return "n=" + std::to_string(n_); }
  /// The public inputs of partition `partition` of a job with this input.
  Result<std::vector<typename E::Fr>> public_inputs(const JobRequest& job, std::size_t partition) const;
  static std::vector<std::uint8_t> seed_input(std::uint64_t seed);

 private:
  Result<std::uint64_t> seed_of(const JobRequest& job) const;
  std::size_t n_;
  std::shared_ptr<const groth16::ProvingKey<E>> pk_;  // owned mode
  ParamsCache* cache_ = nullptr;                      // cache-backed mode
  std::string params_path_;
  std::mutex pvk_m_;
  std::shared_ptr<const void> pvk_;  // PreparedVerifyingKey<E>, made on first use
};

}  // namespace zk::engine
