#include "engine/synthetic_workload.hpp"

#include "circuits/synthetic.hpp"
#include "groth16/setup.hpp"
#include "r1cs/shape.hpp"

namespace zk::engine {

template <class E>
Result<std::shared_ptr<SyntheticWorkload<E>>> SyntheticWorkload<E>::create(std::size_t constraints,
                                                                           std::uint64_t setup_seed) {
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
Result<std::unique_ptr<Synthesized>> SyntheticWorkload<E>::synthesize(const JobRequest& job, std::size_t partition) {
  auto seed = seed_of(job);
  if (!seed.ok()) return seed.status();
  auto pk = this->proving_key();
  if (!pk.ok()) return pk.status();
  circuits::SyntheticCircuit<Fr> circuit(n_, *seed + partition);
  r1cs::ProvingSystem<Fr> cs({.inputs = (*pk)->vk.ic.size(), .aux = (*pk)->l.size(), .constraints = n_});
  if (Status s = circuit.synthesize(cs); !s.ok()) return s;
  return this->wrap(std::move(*pk), std::move(cs).finish());
}

template <class E>
Result<std::vector<typename E::Fr>> SyntheticWorkload<E>::public_inputs(const JobRequest& job,
                                                                        std::size_t partition) const {
  auto seed = seed_of(job);
  if (!seed.ok()) return seed.status();
  return circuits::SyntheticCircuit<Fr>(n_, *seed + partition).public_inputs();
}

template class SyntheticWorkload<groth16::Bls12_381>;
template class SyntheticWorkload<groth16::Bn254>;

}  // namespace zk::engine
