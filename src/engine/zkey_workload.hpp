#pragma once

// The `zkey` circuit kind: circom circuits proved from a snarkjs Groth16 .zkey, on either curve.
// Shape = the zkey's id (its path); input = the .wtns bytes; one partition per job. The key loads
// through the ParamsCache (budgeted, shared, evictable like every other key). Stages: synthesis =
// the witness parsed and checked, rows a, b, c = a b evaluated; prove_start = H on the odd coset and
// the G1 MSMs (on the CPU or the GPU, set_device); prove_finish = the B2 MSM on G2 and the proof
// (write_proofs layout, 1 proof).

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/groth16_workload.hpp"
#include "engine/params_cache.hpp"
#include "engine/workload.hpp"
#include "groth16/snarkjs.hpp"

namespace zk::engine {

template <class E>
class ZkeyWorkload : public Workload {
 public:
  /// Reads only the zkey's header now; the key loads through `cache` when a job needs it.
  static Result<std::shared_ptr<ZkeyWorkload>> open(ParamsCache& cache, const std::string& zkey_path);
  /// The cache callbacks for zkey files of this curve.
  static Result<std::uint64_t> zkey_file_bytes(const std::string& path);
  static Result<LoadedParams> load_zkey_file(const std::string& path);

  Status validate(const JobRequest& job) override;
  Result<WorkingSet> working_set(const JobRequest& job) override;
  Result<std::unique_ptr<Synthesized>> synthesize(const JobRequest& job, std::size_t partition) override;
  Result<std::unique_ptr<Pending>> prove_start(std::unique_ptr<Synthesized> s) override;
  Result<std::vector<std::uint8_t>> prove_finish(std::unique_ptr<Pending> p) override;
  /// Checks the proof against the zkey's verifying key and the witness's public signals.
  Result<bool> verify(const JobRequest& job, std::size_t partition, const std::vector<std::uint8_t>& proof) override;

  Result<std::vector<std::string>> public_inputs_decimal(const JobRequest& job, std::size_t partition) override;
  std::string curve() const override { return E::kName; }
  std::string key_id(const JobRequest& /*job*/) const override { return path_; }

  const std::string& shape() const { return path_; }
  const groth16::snarkjs::ZkeyInfo& info() const { return info_; }
  /// prove_start's device and what it shares there, as Groth16Workload::set_device.
  void set_device(ProverDevice d, std::shared_ptr<gpu::DevicePool> pool = nullptr) { placement_.set(d, std::move(pool)); }
  ProverDevice device() const { return placement_.device(); }
  /// The public signals of a job (witness values 1..nPublic).
  Result<std::vector<typename E::Fr>> public_inputs(const JobRequest& job) const;

  ZkeyWorkload(ParamsCache& cache, std::string path, groth16::snarkjs::ZkeyInfo info)
      : cache_(cache), path_(std::move(path)), info_(std::move(info)) {}

 private:
  Result<std::vector<typename E::Fr>> witness(const JobRequest& job) const;
  Result<std::shared_ptr<const groth16::snarkjs::Zkey<E>>> key() const;
  ParamsCache& cache_;
  std::string path_;
  groth16::snarkjs::ZkeyInfo info_;
  LazyPreparedKey<E> pvk_;
  ProverPlacement placement_;
};

}  // namespace zk::engine
