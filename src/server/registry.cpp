#include "server/registry.hpp"

#include <filesystem>
#include <optional>

#include "circuits/filecoin/proof_kind.hpp"
#include "engine/aggregation_workload.hpp"
#include "engine/filecoin_workload.hpp"
#include "engine/synthetic_workload.hpp"
#include "engine/zkey_workload.hpp"
#include "gpu/gpu.hpp"
#include "snarkpack/srs.hpp"

namespace zk::server {
namespace {

bool safe_name(const std::string& s) {
  if (s.empty() || s.size() > 200 || s == "." || s == "..") return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_')) return false;
  }
  return s.find("..") == std::string::npos;
}

}  // namespace

WorkloadRegistry::WorkloadRegistry(engine::Engine& engine, std::string params_dir, engine::ProverDevice device,
                                   std::shared_ptr<gpu::DevicePool> gpus, bool ni_partition_proofs)
    : engine_(engine), dir_(std::move(params_dir)), device_(device), ni_partition_proofs_(ni_partition_proofs) {
  if (device == engine::ProverDevice::kGpu) {
    if (!gpus) {
      std::vector<int> all;
      for (const auto& d : gpu::devices()) all.push_back(d.ordinal);
      gpus = *gpu::DevicePool::for_devices(all);  // the default capacity: no error
    }
    pool_ = std::move(gpus);
  }
  using engine::ParamsCache;
  using Bls = groth16::Bls12_381;
  using Bn = groth16::Bn254;
  // With the GPU, bellman keys load with their G1 queries pinned (fast uploads in prove_start).
  const bool pin = device == engine::ProverDevice::kGpu;
  caches_[kBellmanBls] = std::make_unique<ParamsCache>(
      engine.budget(), engine.ledger(), engine::Groth16Workload<Bls>::params_file_bytes,
      pin ? engine::Groth16Workload<Bls>::load_params_file_pinned : engine::Groth16Workload<Bls>::load_params_file);
  caches_[kBellmanBn] = std::make_unique<ParamsCache>(
      engine.budget(), engine.ledger(), engine::Groth16Workload<Bn>::params_file_bytes,
      pin ? engine::Groth16Workload<Bn>::load_params_file_pinned : engine::Groth16Workload<Bn>::load_params_file);
  caches_[kZkeyBls] =
      std::make_unique<ParamsCache>(engine.budget(), engine.ledger(), engine::ZkeyWorkload<Bls>::zkey_file_bytes,
                                    engine::ZkeyWorkload<Bls>::load_zkey_file);
  caches_[kZkeyBn] =
      std::make_unique<ParamsCache>(engine.budget(), engine.ledger(), engine::ZkeyWorkload<Bn>::zkey_file_bytes,
                                    engine::ZkeyWorkload<Bn>::load_zkey_file);
  for (int c = 0; c < kCaches; ++c) {
    evictors_[c] = engine.add_key_evictor(
        [cache = caches_[c].get()](const std::string& keep) { return cache->evict_one_unused_except(keep); });
  }
}

WorkloadRegistry::~WorkloadRegistry() {
  for (std::uint64_t handle : evictors_) engine_.remove_key_evictor(handle);
  evict_all_unused();
}

Result<WorkloadRegistry::Entry> WorkloadRegistry::locate(const std::string& circuit, const std::string& shape) {
  if (!safe_name(shape)) {
    return Status::invalid_argument("shape '" + shape +
                                    "' is not a plain name (letters, digits, '.', '-', '_'; no paths)");
  }
  const std::string kind = circuit + ":" + shape;
  {
    std::lock_guard lock(m_);
    if (auto it = made_.find(kind); it != made_.end()) return it->second;
  }
  namespace fs = std::filesystem;
  auto need = [&](const fs::path& p, const std::string& how) -> Status {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return {};
    return Status::not_found("no keys for " + circuit + " '" + shape + "': " + p.string() + " does not exist (" + how +
                             ")");
  };
  Entry e;
  e.r.kind = kind;
  std::shared_ptr<engine::Workload> w;
  if (circuit == "synthetic") {
    // "<curve>-n<N>"
    const auto dash = shape.rfind("-n");
    const std::string curve = dash == std::string::npos ? "" : shape.substr(0, dash);
    std::size_t n = 0;
    try {
      n = dash == std::string::npos ? 0 : std::stoul(shape.substr(dash + 2));
    } catch (...) {
      n = 0;
    }
    if ((curve != "bls12-381" && curve != "bn254") || n < 2) {
      return Status::invalid_argument("synthetic shape '" + shape +
                                      "' must be <curve>-n<constraints>, e.g. bn254-n65533");
    }
    const fs::path p = fs::path(dir_) / ("synthetic-" + shape + ".params");
    if (Status s = need(p, "zkpipe setup --circuit synthetic --curve " + curve + " --constraints " + std::to_string(n) +
                               " --out " + dir_);
        !s.ok()) {
      return s;
    }
    e.r.params_path = p.string();
    e.r.job_shape = "n=" + std::to_string(n);
    if (curve == "bn254") {
      e.cache = kBellmanBn;
      auto s = std::make_shared<engine::SyntheticWorkload<groth16::Bn254>>(n, *caches_[e.cache], e.r.params_path);
      s->set_device(device_, pool_);
      w = s;
    } else {
      e.cache = kBellmanBls;
      auto s = std::make_shared<engine::SyntheticWorkload<groth16::Bls12_381>>(n, *caches_[e.cache], e.r.params_path);
      s->set_device(device_, pool_);
      w = s;
    }
  } else if (auto kind = circuits::filecoin::find_proof_kind(circuit); kind.ok()) {
    // Filecoin's kinds: Filecoin's parameter file (or development keys under its name).
    auto size = circuits::filecoin::find_sector_size(shape);
    if (!size.ok()) return size.status();
    auto ks = (*kind)->shape(*size);
    if (!ks.ok()) return ks.status();
    if (ks->params_stem.empty()) {
      return Status::invalid_argument("Filecoin publishes no " + std::string((*kind)->title()) + " parameters for " +
                                      size->name + " sectors (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)");
    }
    const fs::path p = fs::path(dir_) / (ks->params_stem + ".params");
    if (Status st = need(p, "Filecoin's parameters, or development keys: zkpipe setup --kind " + circuit +
                                " --sector-size " + size->name + " --out " + dir_);
        !st.ok()) {
      return st;
    }
    e.r.params_path = p.string();
    e.r.job_shape = size->name;
    e.r.partitions = ks->partitions;
    e.cache = kBellmanBls;
    auto fw = std::make_shared<engine::FilecoinWorkload>(**kind, *ks, *caches_[e.cache], e.r.params_path);
    fw->set_device(device_, pool_);
    fw->set_srs_path((fs::path(dir_) / snarkpack::kFilecoinSrsName).string());  // NI-PoRep's aggregates
    fw->set_partition_proofs(ni_partition_proofs_);
    w = fw;
  } else if (circuit == "zkey") {
    const fs::path p = fs::path(dir_) / shape;
    if (Status st = need(p, "copy the .zkey there, or make one with zkpipe setup --r1cs"); !st.ok()) return st;
    e.r.params_path = p.string();
    e.r.job_shape = e.r.params_path;
    auto info = groth16::snarkjs::read_zkey_info(e.r.params_path);
    if (!info.ok()) return Status::invalid_argument(shape + ": " + info.status().message());
    if (info->curve == "bn128") {
      e.cache = kZkeyBn;
      auto z = engine::ZkeyWorkload<groth16::Bn254>::open(*caches_[e.cache], e.r.params_path);
      if (!z.ok()) return z.status();
      (*z)->set_device(device_, pool_);
      w = *z;
    } else {
      e.cache = kZkeyBls;
      auto z = engine::ZkeyWorkload<groth16::Bls12_381>::open(*caches_[e.cache], e.r.params_path);
      if (!z.ok()) return z.status();
      (*z)->set_device(device_, pool_);
      w = *z;
    }
  } else if (circuit == "snarkpack") {
    // Aggregation (engine/aggregation_workload.hpp): no key; Filecoin's SRS in the params directory.
    if (shape != "v2") {
      return Status::invalid_argument("snarkpack's shape is \"v2\" (Filecoin's AggregateVersion), not '" + shape + "'");
    }
    const fs::path p = fs::path(dir_) / snarkpack::kFilecoinSrsName;
    if (Status st = need(p, "Filecoin's SRS, or a development one: zkpipe setup --srs --out " + dir_); !st.ok()) {
      return st;
    }
    e.r.params_path = p.string();
    e.r.job_shape = shape;
    w = std::make_shared<engine::AggregationWorkload>(e.r.params_path);
  } else {
    std::string known = "synthetic";
    for (const auto* k : circuits::filecoin::proof_kinds()) known += ", " + std::string(k->name());
    return Status::invalid_argument("unknown circuit '" + circuit + "' (this daemon serves " + known +
                                    ", zkey, snarkpack)");
  }
  std::lock_guard lock(m_);
  if (auto it = made_.find(kind); it != made_.end()) return it->second;  // made by a concurrent call
  engine_.add_workload(kind, w);
  made_.emplace(kind, e);
  return e;
}

Result<Resolved> WorkloadRegistry::resolve(const std::string& circuit, const std::string& shape) {
  auto e = locate(circuit, shape);
  if (!e.ok()) return e.status();
  return e->r;
}

Result<WorkloadRegistry::Preloaded> WorkloadRegistry::preload(const std::string& circuit, const std::string& shape) {
  auto e = locate(circuit, shape);
  if (!e.ok()) return e.status();
  if (e->cache == kCaches) return Status::invalid_argument(circuit + " loads no key to preload");
  auto& cache = *caches_[e->cache];
  Preloaded p;
  for (const auto& x : cache.entries()) p.already_loaded = p.already_loaded || x.id == e->r.params_path;
  auto obj = cache.acquire(e->r.params_path);
  if (!obj.ok()) return obj.status();
  for (const auto& x : cache.entries()) {
    if (x.id == e->r.params_path) p.bytes = x.bytes;
  }
  return p;
}

Result<WorkloadRegistry::Evicted> WorkloadRegistry::evict(const std::string& circuit, const std::string& shape) {
  auto e = locate(circuit, shape);
  if (!e.ok()) return e.status();
  if (e->cache == kCaches) return Evicted{};  // no key: nothing to evict
  auto& cache = *caches_[e->cache];
  Evicted out;
  for (const auto& x : cache.entries()) {
    if (x.id == e->r.params_path) out.was_loaded = true, out.freed_bytes = x.bytes;
  }
  if (!out.was_loaded) return out;
  if (Status s = cache.evict(e->r.params_path); !s.ok()) return s;
  return out;
}

std::vector<engine::ParamsEntryInfo> WorkloadRegistry::params() const {
  std::vector<engine::ParamsEntryInfo> out;
  for (const auto& c : caches_) {
    for (auto& e : c->entries()) out.push_back(std::move(e));
  }
  return out;
}

void WorkloadRegistry::evict_all_unused() {
  for (auto& c : caches_) {
    if (c) c->evict_unused();
  }
}

}  // namespace zk::server
