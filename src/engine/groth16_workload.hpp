#pragma once

// The shared half of every workload whose circuits are synthesized by zkpipe (bellman-style keys,
// `.params` files): where the proving key comes from (owned, or loaded through the ParamsCache so it
// is budgeted, shared and evictable), the working set computed from the key, prove_start /
// prove_finish, and self-verification against public inputs the subclass derives from the job.
// Subclasses (SyntheticWorkload, PorepWorkload) validate jobs, synthesize partitions and name their
// public inputs.

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/params_cache.hpp"
#include "gpu/pool.hpp"
#include "groth16/benchmark_key.hpp"
#include "engine/workload.hpp"
#include "groth16/keys.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/prover_cs.hpp"

namespace zk::engine {

/// Where prove_start runs. kAuto: the GPU when this build has CUDA and the machine a device,
/// else the CPU. kGpu without a device is refused where it is configured.
enum class ProverDevice { kCpu, kGpu, kAuto };
Result<ProverDevice> parse_prover_device(const std::string& name);
/// The device kAuto resolves to here, and a message when kGpu cannot be honoured.
Result<ProverDevice> resolve_prover_device(ProverDevice wanted);

/// Where a workload's prove_start runs and what it shares there. With kGpu: the host's devices (a
/// gate and resident bases per GPU; every workload whose prover workers share the GPUs should share
/// the pool — the dual-worker interlock; without one the workload makes its own over device 0,
/// keeping no bases resident).
class ProverPlacement {
 public:
  void set(ProverDevice d, std::shared_ptr<gpu::DevicePool> pool) {
    device_ = d;
    pool_ = d != ProverDevice::kGpu ? nullptr : pool ? std::move(pool) : std::make_shared<gpu::DevicePool>(gpu::DevicePool::Options{});
  }
  ProverDevice device() const { return device_; }
  bool on_gpu() const { return device_ == ProverDevice::kGpu; }
  gpu::DevicePool& pool() const { return *pool_; }  // on_gpu() only

 private:
  ProverDevice device_ = ProverDevice::kCpu;
  std::shared_ptr<gpu::DevicePool> pool_;
};

/// A verifying key prepared on first use (self-verification), shared by every later check.
template <class E>
class LazyPreparedKey {
 public:
  using Pvk = groth16::PreparedVerifyingKey<E>;
  /// The prepared key; `vk()` (a Result<const VerifyingKey<E>*>) is called on first use only.
  template <class GetVk>
  Result<std::shared_ptr<const Pvk>> get(GetVk&& vk) {
    std::lock_guard lock(m_);
    if (!pvk_) {
      auto k = vk();
      if (!k.ok()) return k.status();
      pvk_ = std::make_shared<const Pvk>(groth16::prepare_verifying_key(**k));
    }
    return pvk_;
  }

 private:
  std::mutex m_;
  std::shared_ptr<const Pvk> pvk_;
};

template <class E>
class Groth16Workload : public Workload {
 public:
  using Fr = typename E::Fr;
  explicit Groth16Workload(std::shared_ptr<const groth16::ProvingKey<E>> pk) : pk_(std::move(pk)) {}
  Groth16Workload(ParamsCache& cache, std::string params_path)
      : cache_(&cache), params_path_(std::move(params_path)) {}

  /// The cache callbacks for .params files of this curve (size from the file, then load).
  static Result<std::uint64_t> params_file_bytes(const std::string& path);
  static Result<LoadedParams> load_params_file(const std::string& path);
  /// The same, with the G1 queries page-locked for the GPU (gpu::HostPin; unpinned, with a
  /// warning, when pinning fails). For caches whose workloads run prove_start on the GPU.
  static Result<LoadedParams> load_params_file_pinned(const std::string& path);
  /// A benchmark key of these sizes as a cache entry (groth16/benchmark_key.hpp: random points,
  /// NOT a setup, proofs do not verify), its G1 queries pinned when `pin`. For `zkpipe bench` at
  /// sizes whose real key is not at hand.
  static Result<LoadedParams> benchmark_params(const groth16::KeySizes& sizes, bool pin);

  Result<WorkingSet> working_set(const JobRequest& job) override;
  Result<std::unique_ptr<Pending>> prove_start(std::unique_ptr<Synthesized> s) override;
  Result<std::vector<std::uint8_t>> prove_finish(std::unique_ptr<Pending> p) override;
  Result<bool> verify(const JobRequest& job, std::size_t partition, const std::vector<std::uint8_t>& proof) override;

  /// The public inputs (without ONE) of one partition of a job.
  virtual Result<std::vector<Fr>> public_inputs(const JobRequest& job, std::size_t partition) const = 0;
  Result<std::vector<std::string>> public_inputs_decimal(const JobRequest& job, std::size_t partition) override;
  std::string curve() const override { return E::kName; }
  std::string key_id(const JobRequest& /*job*/) const override { return cache_ != nullptr ? params_path_ : ""; }
  /// The key (loaded through the cache in the cache-backed mode).
  Result<std::shared_ptr<const groth16::ProvingKey<E>>> proving_key() const;
  /// Bytes the proving key holds in memory (0 if it cannot be loaded).
  std::uint64_t key_bytes() const;
  /// prove_start's device (resolved: kCpu or kGpu; default the CPU) and what it shares there
  /// (ProverPlacement).
  void set_device(ProverDevice d, std::shared_ptr<gpu::DevicePool> pool = nullptr) { placement_.set(d, std::move(pool)); }
  ProverDevice device() const { return placement_.device(); }

 protected:
  /// A synthesized partition for prove_start (keeps the key alive until the proof is done).
  static std::unique_ptr<Synthesized> wrap(std::shared_ptr<const groth16::ProvingKey<E>> pk,
                                           r1cs::Partition<Fr> partition);

 private:
  std::shared_ptr<const groth16::ProvingKey<E>> pk_;  // owned mode
  ParamsCache* cache_ = nullptr;                      // cache-backed mode
  std::string params_path_;
  LazyPreparedKey<E> pvk_;
  ProverPlacement placement_;
};

/// Uniform field element from the OS (r and s of a proof).
template <class Fr>
Fr os_random_scalar();


}  // namespace zk::engine
