#include "engine/zkey_workload.hpp"

#include "engine/groth16_workload.hpp"
#include "groth16/gpu_backend.hpp"

#include "field/decimal.hpp"
#include "groth16/io.hpp"
#include "groth16/verifier.hpp"
#include "msm/pippenger.hpp"

namespace zk::engine {
namespace {

namespace sj = groth16::snarkjs;

template <class E>
struct ZkeySynth : Synthesized {
  std::shared_ptr<const sj::Zkey<E>> key;  // held until the proof is done (no eviction)
  std::vector<typename E::Fr> witness;
  sj::Rows<E> rows;
};
template <class E>
struct ZkeyPending : Pending {
  std::shared_ptr<const sj::Zkey<E>> key;
  std::vector<typename E::Fr> witness;
  sj::PendingZkeyProof<E> pending;
};

}  // namespace

template <class E>
Result<std::shared_ptr<ZkeyWorkload<E>>> ZkeyWorkload<E>::open(ParamsCache& cache, const std::string& zkey_path) {
  auto info = sj::read_zkey_info(zkey_path);
  if (!info.ok()) return Status(info.status().code(), zkey_path + ": " + info.status().message());
  if (info->curve != sj::curve_name<E>()) {
    return Status::invalid_argument(zkey_path + " is a " + info->curve + " zkey, not " + sj::curve_name<E>());
  }
  return std::make_shared<ZkeyWorkload<E>>(cache, zkey_path, *info);
}

template <class E>
Result<std::uint64_t> ZkeyWorkload<E>::zkey_file_bytes(const std::string& path) {
  auto info = sj::read_zkey_info(path);
  if (!info.ok()) return info.status();
  // The decoded key plus a margin for the mapped pages in flight while it loads (read_zkey_file
  // drops each block after decoding it; the margin is kept from the buffered reader, on the safe side).
  return sj::zkey_memory_bytes(info->file_bytes) + info->file_bytes / 4;
}

template <class E>
Result<LoadedParams> ZkeyWorkload<E>::load_zkey_file(const std::string& path) {
  // Copied, not mapped: a daemon's key lives for hours, and a zkey rewritten in place meanwhile
  // must not change (or, truncated, fault) the points under its proofs.
  auto zk = sj::read_zkey_file<E>(path, sj::ZkeyPoints::kCopied);
  if (!zk.ok()) return zk.status();
  using Key = sj::Zkey<E>;
  const std::uint64_t held = (zk->a.size() + zk->b1.size() + zk->c.size() + zk->h.size()) * sizeof(typename Key::G1Point) +
                             zk->vk.ic.size() * sizeof(typename E::G1Affine) +
                             zk->b2.size() * sizeof(typename Key::G2Point) +
                             zk->coefs.size() * sizeof(typename Key::Coef) + 4096;
  return LoadedParams{std::make_shared<const sj::Zkey<E>>(std::move(*zk)), held};
}

template <class E>
Result<std::shared_ptr<const sj::Zkey<E>>> ZkeyWorkload<E>::key() const {
  auto obj = cache_.acquire(path_);
  if (!obj.ok()) return obj.status();
  return std::static_pointer_cast<const sj::Zkey<E>>(*obj);
}

template <class E>
Result<std::vector<typename E::Fr>> ZkeyWorkload<E>::witness(const JobRequest& job) const {
  auto w = sj::read_wtns<E>(job.input);
  if (!w.ok()) return Status::invalid_argument("witness: " + w.status().message());
  if (w->size() != info_.n_vars) {
    return Status::invalid_argument("witness has " + std::to_string(w->size()) + " values but " + path_ + " expects " +
                                    std::to_string(info_.n_vars) + " (a witness for another circuit?)");
  }
  if (!(*w)[0].is_one()) return Status::invalid_argument("witness[0] must be 1");
  return w;
}

template <class E>
Status ZkeyWorkload<E>::validate(const JobRequest& job) {
  if (job.shape != path_) {
    return Status::invalid_argument("this zkey workload serves '" + path_ + "', not '" + job.shape + "'");
  }
  if (job.partitions != 1) return Status::invalid_argument("a zkey job has exactly one partition (one witness)");
  return witness(job).status();
}

template <class E>
Result<WorkingSet> ZkeyWorkload<E>::working_set(const JobRequest&) {
  using Fr = typename E::Fr;
  const std::uint64_t n = info_.domain_size, vars = info_.n_vars;
  WorkingSet ws;
  ws.abc = 2 * n * sizeof(Fr);  // a and b, dense, from the witness's evaluation to the quotient
  ws.prove_room = placement_.on_gpu() ? 0 : n * sizeof(Fr);  // c = a o b, formed by the CPU's quotient
  ws.aux = vars * sizeof(Fr);                               // the witness, until prove_finish
  // The largest MSM's scratch: G1 over max(n, vars) points in prove_start, G2 over vars points in
  // prove_finish.
  const auto g1 = msm::make_plan<typename E::G1Config>(std::max(n, vars), {}, 2);
  const auto g2 = msm::make_plan<typename E::G2Config>(vars, {}, 2);
  ws.pending =
      std::max(msm::scratch_bytes<typename E::G1Config>(g1), msm::scratch_bytes<typename E::G2Config>(g2)) + (1 << 20);
  return ws;
}

template <class E>
Result<std::unique_ptr<Synthesized>> ZkeyWorkload<E>::synthesize(const JobRequest& job, std::size_t) {
  auto w = witness(job);
  if (!w.ok()) return w.status();
  auto k = key();
  if (!k.ok()) return k.status();
  auto rows = sj::evaluate_rows<E>(**k, *w);
  if (!rows.ok()) return rows.status();
  auto out = std::make_unique<ZkeySynth<E>>();
  out->key = std::move(*k);
  out->witness = std::move(*w);
  out->rows = std::move(*rows);
  return std::unique_ptr<Synthesized>(std::move(out));
}

template <class E>
Result<std::unique_ptr<Pending>> ZkeyWorkload<E>::prove_start(std::unique_ptr<Synthesized> s) {
  using Fr = typename E::Fr;
  auto* in = dynamic_cast<ZkeySynth<E>*>(s.get());
  if (in == nullptr) return Status::internal("zkey workload: foreign partition object");
  const Fr r = os_random_scalar<Fr>(), s_ = os_random_scalar<Fr>();
  auto pending = placement_.on_gpu() ? sj::prove_start<E, groth16::GpuBackend>(
                                           *in->key, in->witness, std::move(in->rows), r, s_, nullptr,
                                           groth16::GpuBackend(placement_.pool(), {}, in->key, in->label))
                                     : sj::prove_start<E>(*in->key, in->witness, std::move(in->rows), r, s_);
  if (!pending.ok()) return pending.status();
  auto out = std::make_unique<ZkeyPending<E>>();
  out->key = std::move(in->key);
  out->witness = std::move(in->witness);
  out->pending = *pending;
  return std::unique_ptr<Pending>(std::move(out));
}

template <class E>
Result<std::vector<std::uint8_t>> ZkeyWorkload<E>::prove_finish(std::unique_ptr<Pending> p) {
  auto* in = dynamic_cast<ZkeyPending<E>*>(p.get());
  if (in == nullptr) return Status::internal("zkey workload: foreign pending object");
  const auto proof = sj::prove_finish<E>(*in->key, in->witness, in->pending);
  return groth16::write_proofs<E>(std::span(&proof, 1));
}

template <class E>
Result<std::vector<typename E::Fr>> ZkeyWorkload<E>::public_inputs(const JobRequest& job) const {
  auto w = witness(job);
  if (!w.ok()) return w.status();
  if (std::uint64_t{info_.n_public} + 1 > w->size()) {
    return Status::invalid_argument("the zkey declares " + std::to_string(info_.n_public) +
                                    " public inputs but the witness holds " + std::to_string(w->size()) + " values");
  }
  return std::vector<typename E::Fr>(w->begin() + 1, w->begin() + 1 + info_.n_public);
}

template <class E>
Result<bool> ZkeyWorkload<E>::verify(const JobRequest& job, std::size_t, const std::vector<std::uint8_t>& proof) {
  std::shared_ptr<const sj::Zkey<E>> held;
  auto pvk = pvk_.get([&]() -> Result<const groth16::VerifyingKey<E>*> {
    auto k = key();
    if (!k.ok()) return k.status();
    held = *k;
    return &held->vk;
  });
  if (!pvk.ok()) return pvk.status();
  auto proofs = groth16::read_proofs<E>(proof);
  if (!proofs.ok()) return proofs.status();
  if (proofs->size() != 1) return Status::invalid_argument("a zkey job has one proof");
  auto inputs = public_inputs(job);
  if (!inputs.ok()) return inputs.status();
  return groth16::verify(**pvk, (*proofs)[0], *inputs);
}

template <class E>
Result<std::vector<std::string>> ZkeyWorkload<E>::public_inputs_decimal(const JobRequest& job, std::size_t) {
  auto in = public_inputs(job);
  if (!in.ok()) return in.status();
  std::vector<std::string> row;
  row.reserve(in->size());
  for (const auto& x : *in) row.push_back(field::to_decimal(x));
  return row;
}

template class ZkeyWorkload<groth16::Bls12_381>;
template class ZkeyWorkload<groth16::Bn254>;

}  // namespace zk::engine
