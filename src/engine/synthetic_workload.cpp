#include "engine/synthetic_workload.hpp"

#include <filesystem>
#include <random>

#include "circuits/synthetic.hpp"
#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"

namespace zk::engine {
namespace {

template <class E>
struct SynthOut : Synthesized {
  std::shared_ptr<const groth16::ProvingKey<E>> pk;  // held until the proof is done (no eviction)
  r1cs::Partition<typename E::Fr> partition;
};
template <class E>
struct PendingOut : Pending {
  std::shared_ptr<const groth16::ProvingKey<E>> pk;
  groth16::PendingProof<E> pending;
};

template <class Fr>
Fr random_scalar() {
  thread_local std::random_device rd;
  for (;;) {
    typename Fr::Repr limbs{};
    for (auto& l : limbs) l = (std::uint64_t{rd()} << 32) | rd();
    limbs.back() &= (std::uint64_t{1} << (Fr::kBits - 64 * (Fr::kLimbs - 1))) - 1;
    if (auto x = Fr::from_canonical(limbs); x.ok()) return *x;
  }
}

}  // namespace

template <class E>
Result<std::shared_ptr<SyntheticWorkload<E>>> SyntheticWorkload<E>::create(std::size_t constraints,
                                                                           std::uint64_t setup_seed) {
  using Fr = typename E::Fr;
  if (constraints < 2) return Status::invalid_argument("synthetic workload: at least 2 constraints");
  circuits::SyntheticCircuit<Fr> circuit(constraints, 1);
  r1cs::ShapeRecorder<Fr> rec;
  if (Status s = circuit.synthesize(rec); !s.ok()) return s;
  Rng rng(setup_seed);
  auto pk = groth16::generate_parameters<E>(rec.shape(), groth16::Trapdoor<E>::random(rng));
  if (!pk.ok()) return pk.status();
  return std::make_shared<SyntheticWorkload<E>>(constraints,
                                                std::make_shared<const groth16::ProvingKey<E>>(std::move(*pk)));
}

template <class E>
SyntheticWorkload<E>::SyntheticWorkload(std::size_t constraints, std::shared_ptr<const groth16::ProvingKey<E>> pk)
    : n_(constraints), pk_(std::move(pk)) {}

template <class E>
SyntheticWorkload<E>::SyntheticWorkload(std::size_t constraints, ParamsCache& cache, std::string params_path)
    : n_(constraints), cache_(&cache), params_path_(std::move(params_path)) {}

template <class E>
Result<std::shared_ptr<const groth16::ProvingKey<E>>> SyntheticWorkload<E>::proving_key() const {
  if (cache_ == nullptr) return pk_;
  auto obj = cache_->acquire(params_path_);
  if (!obj.ok()) return obj.status();
  return std::static_pointer_cast<const groth16::ProvingKey<E>>(*obj);
}

namespace {
template <class E>
std::uint64_t held_bytes(const groth16::ProvingKey<E>& pk) {
  return (pk.h.size() + pk.l.size() + pk.a.size() + pk.b_g1.size() + pk.vk.ic.size()) * sizeof(typename E::G1Affine) +
         pk.b_g2.size() * sizeof(typename E::G2Affine) + 4096;
}
}  // namespace

template <class E>
std::uint64_t SyntheticWorkload<E>::key_bytes() const {
  auto pk = proving_key();
  return pk.ok() ? held_bytes(**pk) : 0;
}

template <class E>
Result<std::uint64_t> SyntheticWorkload<E>::params_file_bytes(const std::string& path) {
  // In memory a key holds about as many bytes as its file (affine points: 104 B per G1 point in
  // memory vs 96 on disk, 200 vs 192 for G2), plus the file buffer while it is decoded.
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return Status::io_error("cannot stat " + path + ": " + ec.message());
  return static_cast<std::uint64_t>(size) * 2 + (1 << 20);
}

template <class E>
Result<LoadedParams> SyntheticWorkload<E>::load_params_file(const std::string& path) {
  auto bytes = groth16::read_file(path);
  if (!bytes.ok()) return bytes.status();
  auto pk = groth16::read_parameters<E>(*bytes, {.check_subgroup = false});
  if (!pk.ok()) return Status(pk.status().code(), path + ": " + pk.status().message());
  using G1A = typename E::G1Affine;
  using G2A = typename E::G2Affine;
  const std::uint64_t held =
      (pk->h.size() + pk->l.size() + pk->a.size() + pk->b_g1.size() + pk->vk.ic.size()) * sizeof(G1A) +
      pk->b_g2.size() * sizeof(G2A) + 4096;
  return LoadedParams{std::make_shared<const groth16::ProvingKey<E>>(std::move(*pk)), held};
}

template <class E>
std::vector<std::uint8_t> SyntheticWorkload<E>::seed_input(std::uint64_t seed) {
  std::vector<std::uint8_t> b(8);
  for (int i = 0; i < 8; ++i) b[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(seed >> (8 * i));
  return b;
}

template <class E>
Result<std::uint64_t> SyntheticWorkload<E>::seed_of(const JobRequest& job) const {
  if (job.input.size() != 8) {
    return Status::invalid_argument("synthetic job input must be the 8-byte little-endian seed, got " +
                                    std::to_string(job.input.size()) + " bytes");
  }
  std::uint64_t s = 0;
  for (int i = 7; i >= 0; --i) s = (s << 8) | job.input[static_cast<std::size_t>(i)];
  return s;
}

template <class E>
Status SyntheticWorkload<E>::validate(const JobRequest& job) {
  if (job.shape != shape()) {
    return Status::invalid_argument("synthetic workload serves shape '" + shape() + "', not '" + job.shape + "'");
  }
  return seed_of(job).status();
}

template <class E>
Result<WorkingSet> SyntheticWorkload<E>::working_set(const JobRequest&) {
  using Fr = typename E::Fr;
  auto pk = proving_key();
  if (!pk.ok()) return pk.status();
  const std::uint64_t n = (*pk)->domain_size();
  const std::uint64_t vars = (*pk)->vk.ic.size() + (*pk)->l.size();
  WorkingSet w;
  w.abc = 3 * n * sizeof(Fr);  // a, b, c zero-padded to the domain
  w.aux = vars * sizeof(Fr);
  w.density = 3 * ((vars + 63) / 64) * 8 + (vars / 64 + 1) * 8;  // bitmaps + MSM prefix counts
  // Pending: the largest MSM's scratch (the H query) plus the pending proof's own copies.
  const auto plan = msm::make_plan<typename E::G1Config>(n, {}, 2);
  w.pending = msm::scratch_bytes<typename E::G1Config>(plan) + (1 << 20);
  return w;
}

template <class E>
Result<std::unique_ptr<Synthesized>> SyntheticWorkload<E>::synthesize(const JobRequest& job, std::size_t partition) {
  using Fr = typename E::Fr;
  auto seed = seed_of(job);
  if (!seed.ok()) return seed.status();
  auto pk = proving_key();
  if (!pk.ok()) return pk.status();
  circuits::SyntheticCircuit<Fr> circuit(n_, *seed + partition);
  r1cs::ProvingSystem<Fr> cs({.inputs = (*pk)->vk.ic.size(), .aux = (*pk)->l.size(), .constraints = n_});
  if (Status s = circuit.synthesize(cs); !s.ok()) return s;
  auto out = std::make_unique<SynthOut<E>>();
  out->pk = *pk;
  out->partition = std::move(cs).finish();
  return std::unique_ptr<Synthesized>(std::move(out));
}

template <class E>
Result<std::unique_ptr<Pending>> SyntheticWorkload<E>::prove_start(std::unique_ptr<Synthesized> s) {
  using Fr = typename E::Fr;
  auto* in = dynamic_cast<SynthOut<E>*>(s.get());
  if (in == nullptr) return Status::internal("synthetic workload: foreign partition object");
  auto pending = groth16::prove_start(*in->pk, std::move(in->partition), random_scalar<Fr>(), random_scalar<Fr>());
  if (!pending.ok()) return pending.status();
  auto out = std::make_unique<PendingOut<E>>();
  out->pk = std::move(in->pk);
  out->pending = std::move(*pending);
  return std::unique_ptr<Pending>(std::move(out));
}

template <class E>
Result<std::vector<std::uint8_t>> SyntheticWorkload<E>::prove_finish(std::unique_ptr<Pending> p) {
  auto* in = dynamic_cast<PendingOut<E>*>(p.get());
  if (in == nullptr) return Status::internal("synthetic workload: foreign pending object");
  auto proof = groth16::prove_finish(*in->pk, std::move(in->pending));
  if (!proof.ok()) return proof.status();
  return groth16::write_proofs<E>(std::span(&*proof, 1));
}

template <class E>
Result<bool> SyntheticWorkload<E>::verify(const JobRequest& job, std::size_t partition,
                                          const std::vector<std::uint8_t>& proof) {
  std::shared_ptr<const groth16::PreparedVerifyingKey<E>> pvk;
  {
    std::lock_guard lock(pvk_m_);
    if (!pvk_) {
      auto pk = proving_key();
      if (!pk.ok()) return pk.status();
      pvk_ = std::make_shared<const groth16::PreparedVerifyingKey<E>>(groth16::prepare_verifying_key((*pk)->vk));
    }
    pvk = std::static_pointer_cast<const groth16::PreparedVerifyingKey<E>>(pvk_);
  }
  auto proofs = groth16::read_proofs<E>(proof);
  if (!proofs.ok()) return proofs.status();
  auto inputs = public_inputs(job, partition);
  if (!inputs.ok()) return inputs.status();
  return groth16::verify(*pvk, (*proofs)[0], *inputs);
}

template <class E>
Result<std::vector<typename E::Fr>> SyntheticWorkload<E>::public_inputs(const JobRequest& job,
                                                                        std::size_t partition) const {
  auto seed = seed_of(job);
  if (!seed.ok()) return seed.status();
  return circuits::SyntheticCircuit<typename E::Fr>(n_, *seed + partition).public_inputs();
}

template class SyntheticWorkload<groth16::Bls12_381>;
template class SyntheticWorkload<groth16::Bn254>;

}  // namespace zk::engine
