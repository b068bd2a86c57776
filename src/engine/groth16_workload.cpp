#include "engine/groth16_workload.hpp"

#include <chrono>
#include <filesystem>
#include <random>

#include <spdlog/spdlog.h>

#include "field/decimal.hpp"
#include "gpu/gpu.hpp"
#include "groth16/gpu_backend.hpp"
#include "groth16/io.hpp"
#include "groth16/key_cache.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "msm/pippenger.hpp"

namespace zk::engine {
namespace {

template <class E>
struct SynthOut : Synthesized {
  std::shared_ptr<const groth16::ProvingKey<E>> pk;  // held until the proof is done (no eviction)
  r1cs::Partition<typename E::Fr> partition;
  std::optional<std::uint64_t> abc_bytes() const override { return partition.bytes().abc; }
  std::optional<std::uint64_t> aux_bytes() const override { return partition.bytes().assignment; }
};
template <class E>
struct PendingOut : Pending {
  std::shared_ptr<const groth16::ProvingKey<E>> pk;
  groth16::PendingProof<E> pending;
};

/// Bytes the key holds in the process's own memory: its owned queries and the verifying key (a
/// mapped query is page cache, outside the budget: groth16/key_cache.hpp).
template <class E>
std::uint64_t held_bytes(const groth16::ProvingKey<E>& pk) {
  auto owned = [](const auto& q) -> std::uint64_t { return q.mapped() ? 0 : q.size() * sizeof(q[0]); };
  return owned(pk.h) + owned(pk.l) + owned(pk.a) + owned(pk.b_g1) + owned(pk.b_g2) +
         pk.vk.ic.size() * sizeof(typename E::G1Affine) + 4096;
}

/// Parameter files from this size on are mapped through the key cache, never read whole (a 2 KiB
/// Filecoin PoRep key is 1.1 GB; a 32 GiB one 47 GB). Smaller ones are decoded into memory.
constexpr std::uint64_t kMapFromBytes = std::uint64_t{512} << 20;
/// What mapping a key costs the heap at most: the verifying key and the cache builder's chunks.
constexpr std::uint64_t kMappedKeyHeapBytes = std::uint64_t{64} << 20;

}  // namespace

Result<ProverDevice> parse_prover_device(const std::string& name) {
  if (name == "cpu") return ProverDevice::kCpu;
  if (name == "gpu") return ProverDevice::kGpu;
  if (name == "auto") return ProverDevice::kAuto;
  return Status::invalid_argument("unknown prover device '" + name + "' (auto, cpu or gpu)");
}

Result<ProverDevice> resolve_prover_device(ProverDevice wanted) {
  if (wanted == ProverDevice::kCpu) return wanted;
  const Status gpu = gpu::require_device();
  if (wanted == ProverDevice::kGpu) {
    if (!gpu.ok()) return Status::unavailable("device gpu was asked for: " + gpu.message());
    return wanted;
  }
  return gpu.ok() ? ProverDevice::kGpu : ProverDevice::kCpu;
}

template <class Fr>
Fr os_random_scalar() {
  thread_local std::random_device rd;
  for (;;) {
    typename Fr::Repr limbs{};
    for (auto& l : limbs) l = (std::uint64_t{rd()} << 32) | rd();
    limbs.back() &= (std::uint64_t{1} << (Fr::kBits - 64 * (Fr::kLimbs - 1))) - 1;
    if (auto x = Fr::from_canonical(limbs); x.ok()) return *x;
  }
}

template <class E>
Result<std::shared_ptr<const groth16::ProvingKey<E>>> Groth16Workload<E>::proving_key() const {
  if (cache_ == nullptr) return pk_;
  auto obj = cache_->acquire(params_path_);
  if (!obj.ok()) return obj.status();
  return std::static_pointer_cast<const groth16::ProvingKey<E>>(*obj);
}

template <class E>
std::uint64_t Groth16Workload<E>::key_bytes() const {
  auto pk = proving_key();
  return pk.ok() ? held_bytes(**pk) : 0;
}

template <class E>
Result<std::uint64_t> Groth16Workload<E>::params_file_bytes(const std::string& path) {
  // In memory a key holds about as many bytes as its file (affine points: 104 B per G1 point in
  // memory vs 96 on disk, 200 vs 192 for G2), plus the file buffer while it is decoded; a mapped
  // key only its verifying key and the cache builder's chunks.
  auto size = regular_file_size(path);
  if (!size.ok()) return size.status();
  if (*size >= kMapFromBytes) return kMappedKeyHeapBytes;
  return *size * 2 + (1 << 20);
}

namespace {
/// A key whose G1 queries (what prove_start uploads) are page-locked for the device; the pins are
/// members after the key, so they are released before the key's memory is freed.
template <class E>
struct PinnedKey {
  groth16::ProvingKey<E> pk;
  std::vector<std::unique_ptr<gpu::HostPin>> pins;
};

/// `loaded` (a ProvingKey<E>) with its G1 queries page-locked; `what` names it in the log.
template <class E>
LoadedParams pin_key(LoadedParams loaded, const std::string& what) {
  auto holder = std::make_shared<PinnedKey<E>>();
  holder->pk = std::move(*std::const_pointer_cast<groth16::ProvingKey<E>>(
      std::static_pointer_cast<const groth16::ProvingKey<E>>(loaded.object)));
  loaded.object.reset();
  std::uint64_t pinned = 0;
  // Each query separately (small ones may share a page with another and be refused as already
  // registered; a refusal leaves that query pageable, which is slower, never wrong).
  for (const auto* query : {&holder->pk.h, &holder->pk.l, &holder->pk.a, &holder->pk.b_g1}) {
    // A mapped query is page cache: pinning it would lock the whole file in memory. The device
    // keeps the bases it uploaded (gpu::ResidentCache), so only the first upload is pageable.
    if (query->mapped()) continue;
    auto pin = gpu::HostPin::pin(query->data(), query->size() * sizeof((*query)[0]));
    if (!pin.ok()) {
      spdlog::warn("{}: a key query stays in pageable memory (slower uploads): {}", what, pin.status().message());
      if (pin.status().code() == StatusCode::kUnavailable) break;  // no device: the others fail alike
      continue;
    }
    pinned += (*pin)->bytes();
    holder->pins.push_back(std::move(*pin));
  }
  if (pinned > 0) spdlog::info("{}: {} MiB of G1 queries pinned for the GPU", what, pinned >> 20);
  const groth16::ProvingKey<E>* pk = &holder->pk;
  loaded.object = std::shared_ptr<const void>(std::move(holder), pk);  // aliasing: the key, owned with its pins
  return loaded;
}
}  // namespace

template <class E>
Result<LoadedParams> Groth16Workload<E>::load_params_file_pinned(const std::string& path) {
  auto loaded = load_params_file(path);
  if (!loaded.ok()) return loaded;
  return pin_key<E>(std::move(*loaded), path);
}

template <class E>
Result<LoadedParams> Groth16Workload<E>::benchmark_params(const groth16::KeySizes& sizes, bool pin) {
  const auto t0 = std::chrono::steady_clock::now();
  auto pk = groth16::benchmark_key<E>(sizes, 0xbe4c);
  const std::uint64_t held = held_bytes(pk);
  spdlog::warn("benchmark key: {} MiB of random points made in {:.1f} s, NOT a setup: its proofs do not verify",
               held >> 20, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  LoadedParams loaded{std::make_shared<const groth16::ProvingKey<E>>(std::move(pk)), held};
  if (!pin) return loaded;
  return pin_key<E>(std::move(loaded), "benchmark key");
}

template <class E>
Result<LoadedParams> Groth16Workload<E>::load_params_file(const std::string& path) {
  auto size = regular_file_size(path);
  if (!size.ok()) return size.status();
  if (*size >= kMapFromBytes) {
    groth16::KeyCacheStats stats;
    const auto dir = groth16::default_key_cache_dir();
    if (!dir.ok()) return dir.status();
    const auto t0 = std::chrono::steady_clock::now();
    auto pk = groth16::map_parameters<E>(path, *dir, &stats);
    if (!pk.ok()) {
      if (pk.status().code() != StatusCode::kIoError) return pk.status();
      return Status::io_error(pk.status().message() + " (parameter files of " + std::to_string(kMapFromBytes >> 20) +
                              " MiB and more are mapped through a key cache: set ZKPIPE_KEY_CACHE to a writable "
                              "directory with room for about the file's size)");
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!stats.rebuilt_because.empty()) {
      spdlog::warn("{}: the key cache {} could not be used ({}); rebuilt", path, stats.file.string(),
                   stats.rebuilt_because);
    }
    if (stats.built) {
      spdlog::info("{}: key cache {} built ({} MiB, {:.1f} s); later loads map it", path, stats.file.string(),
                   stats.mapped_bytes >> 20, s);
    } else {
      spdlog::info("{}: mapped from the key cache {} ({} MiB, every block checked in {:.2f} s)", path,
                   stats.file.string(), stats.mapped_bytes >> 20, stats.seconds);
    }
    const std::uint64_t held = held_bytes(*pk);
    return LoadedParams{std::make_shared<const groth16::ProvingKey<E>>(std::move(*pk)), held};
  }
  auto bytes = groth16::read_file(path);
  if (!bytes.ok()) return bytes.status();
  auto pk = groth16::read_parameters<E>(*bytes, {.check_subgroup = false});
  if (!pk.ok()) return Status(pk.status().code(), path + ": " + pk.status().message());
  const std::uint64_t held = held_bytes(*pk);
  return LoadedParams{std::make_shared<const groth16::ProvingKey<E>>(std::move(*pk)), held};
}

template <class E>
Result<WorkingSet> Groth16Workload<E>::working_set(const JobRequest&) {
  auto pk = proving_key();
  if (!pk.ok()) return pk.status();
  const std::uint64_t n = (*pk)->domain_size();
  const std::uint64_t vars = (*pk)->vk.ic.size() + (*pk)->l.size();
  WorkingSet w;
  // Synthesis keeps a and b as compact columns (at most a dense row each, plus bitmaps); prove_start
  // expands them to the domain and, on the CPU, forms c = a o b beside them for the quotient (a GPU
  // forms it in device memory).
  w.abc = 2 * r1cs::CompactColumn<Fr>::max_bytes(n);
  // On a GPU only the inputs' scalars are made dense on the host (DeviceBackend::gather): the device
  // expands a, b and the witness from their compact columns.
  w.prove_room = placement_.on_gpu() ? ((*pk)->vk.ic.size() + 1) * sizeof(Fr) : 3 * n * sizeof(Fr);
  // The inputs (dense) and the compact witness, whatever its values; the engine keeps only what
  // the witness really holds once synthesized (aux_bytes).
  w.aux = (*pk)->vk.ic.size() * sizeof(Fr) + r1cs::CompactColumn<Fr>::max_bytes((*pk)->l.size());
  w.density = 3 * ((vars + 63) / 64) * 8 + (vars / 64 + 1) * 8;  // bitmaps + MSM prefix counts
  // Pending: the largest MSM's scratch (the H query) plus the pending proof's own copies.
  const auto plan = msm::make_plan<typename E::G1Config>(n, {}, 2);
  w.pending = msm::scratch_bytes<typename E::G1Config>(plan) + (1 << 20);
  return w;
}

template <class E>
std::unique_ptr<Synthesized> Groth16Workload<E>::wrap(std::shared_ptr<const groth16::ProvingKey<E>> pk,
                                                      r1cs::Partition<Fr> partition) {
  auto out = std::make_unique<SynthOut<E>>();
  out->pk = std::move(pk);
  out->partition = std::move(partition);
  return out;
}

template <class E>
Result<std::unique_ptr<Pending>> Groth16Workload<E>::prove_start(std::unique_ptr<Synthesized> s) {
  auto* in = dynamic_cast<SynthOut<E>*>(s.get());
  if (in == nullptr) return Status::internal("workload: foreign partition object");
  const Fr r = os_random_scalar<Fr>(), s_ = os_random_scalar<Fr>();
  auto pending = placement_.on_gpu()
                     ? groth16::prove_start<E, groth16::GpuBackend>(
                           *in->pk, std::move(in->partition), r, s_, nullptr,
                           groth16::GpuBackend(placement_.pool(), {}, in->pk, in->label))
                     : groth16::prove_start<E, groth16::CpuBackend>(*in->pk, std::move(in->partition), r, s_);
  if (!pending.ok()) return pending.status();
  auto out = std::make_unique<PendingOut<E>>();
  out->pk = std::move(in->pk);
  out->pending = std::move(*pending);
  return std::unique_ptr<Pending>(std::move(out));
}

template <class E>
Result<std::vector<std::uint8_t>> Groth16Workload<E>::prove_finish(std::unique_ptr<Pending> p) {
  auto* in = dynamic_cast<PendingOut<E>*>(p.get());
  if (in == nullptr) return Status::internal("workload: foreign pending object");
  auto proof = groth16::prove_finish(*in->pk, std::move(in->pending));
  if (!proof.ok()) return proof.status();
  // A key cache truncated or rewritten in place under us read as zeros where its pages were lost:
  // this proof is void, and so is the key (the next load rebuilds the cache). The daemon lives on.
  if (const std::uint64_t lost = groth16::mapped_lost_pages(*in->pk); lost > 0) {
    if (cache_ != nullptr) cache_->invalidate(params_path_);
    return Status::io_error("the key cache " + groth16::mapped_cache_file(*in->pk).string() +
                            " changed while it was mapped (" + std::to_string(lost) +
                            " page(s) no longer in the file: truncated or rewritten in place); this proof is void, "
                            "the key is loaded again for the next job");
  }
  return groth16::write_proofs<E>(std::span(&*proof, 1));
}

template <class E>
Result<bool> Groth16Workload<E>::verify(const JobRequest& job, std::size_t partition,
                                        const std::vector<std::uint8_t>& proof) {
  std::shared_ptr<const groth16::ProvingKey<E>> held;  // alive while the key is prepared
  auto pvk = pvk_.get([&]() -> Result<const groth16::VerifyingKey<E>*> {
    auto pk = proving_key();
    if (!pk.ok()) return pk.status();
    held = *pk;
    return &held->vk;
  });
  if (!pvk.ok()) return pvk.status();
  auto proofs = groth16::read_proofs<E>(proof);
  if (!proofs.ok()) return proofs.status();
  auto inputs = public_inputs(job, partition);
  if (!inputs.ok()) return inputs.status();
  auto ok = groth16::verify(**pvk, (*proofs)[0], *inputs);
  if (ok.ok() && !*ok) {
    // A proof from a sound key and a satisfied circuit verifies. With a mapped key, check its cache
    // again: a damaged block (a flipped bit on disk) would fail every proof until it is rebuilt.
    auto pk = proving_key();
    const std::filesystem::path file = pk.ok() ? groth16::mapped_cache_file(**pk) : std::filesystem::path();
    if (!file.empty()) {
      if (Status damaged = groth16::check_key_cache(file); !damaged.ok()) {
        std::error_code ec;
        std::filesystem::remove(file, ec);  // the mapping stays valid for its users; the next load rebuilds
        if (cache_ != nullptr) cache_->invalidate(params_path_);
        return Status::io_error(damaged.message() + " — removed; the key is rebuilt from " +
                                (params_path_.empty() ? std::string("its parameter file") : params_path_) +
                                " at its next load");
      }
    }
  }
  return ok;
}

template <class E>
Result<std::vector<std::string>> Groth16Workload<E>::public_inputs_decimal(const JobRequest& job,
                                                                           std::size_t partition) {
  auto in = public_inputs(job, partition);
  if (!in.ok()) return in.status();
  std::vector<std::string> row;
  row.reserve(in->size());
  for (const auto& x : *in) row.push_back(field::to_decimal(x));
  return row;
}

template class Groth16Workload<groth16::Bls12_381>;
template class Groth16Workload<groth16::Bn254>;
template groth16::Bls12_381::Fr os_random_scalar<groth16::Bls12_381::Fr>();
template groth16::Bn254::Fr os_random_scalar<groth16::Bn254::Fr>();

}  // namespace zk::engine
