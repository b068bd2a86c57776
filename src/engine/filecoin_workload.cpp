#include "engine/filecoin_workload.hpp"

#include <openssl/sha.h>

#include "r1cs/prover_cs.hpp"
#include "snarkpack/filecoin.hpp"

namespace zk::engine {

namespace fc = circuits::filecoin;

Result<std::shared_ptr<const fc::KindInput>> FilecoinInputs::input(const JobRequest& job) {
  std::array<std::uint8_t, 32> key{};
  SHA256(job.input.data(), job.input.size(), key.data());
  if (auto hit = recent_.find(key)) return hit;
  auto in = kind_.parse(std::string_view(reinterpret_cast<const char*>(job.input.data()), job.input.size()));
  if (!in.ok()) return in.status();
  if ((*in)->size().bytes != shape_.size.bytes) {
    return Status::invalid_argument("the input is a " + (*in)->proof_name() + " proof; this workload proves " +
                                    std::string(kind_.name()) + " for " + shape_.size.name + " sectors");
  }
  if (Status st = (*in)->check(); !st.ok()) return st;
  recent_.put(key, *in);
  return in;
}

Status FilecoinInputs::validate(const JobRequest& job) {
  if (job.shape != shape_.size.name) {
    return Status::invalid_argument("this workload proves " + std::string(kind_.name()) + " for " + shape_.size.name +
                                    " sectors, not '" + bounded_message(job.shape, 64) + "'");
  }
  auto in = input(job);
  if (!in.ok()) return in.status();
  if (job.partitions != (*in)->partitions()) {
    return Status::invalid_argument("a " + (*in)->proof_name() + " job has " + std::to_string((*in)->partitions()) +
                                    " partition" + ((*in)->partitions() == 1 ? "" : "s") + ", not " +
                                    std::to_string(job.partitions));
  }
  return {};
}

Result<std::optional<std::array<std::uint8_t, 32>>> FilecoinWorkload::aggregated(const JobRequest& job) const {
  auto in = inputs_.input(job);
  if (!in.ok()) return in.status();
  if (partition_proofs_) return std::optional<std::array<std::uint8_t, 32>>();
  return (*in)->aggregate_transcript_input();
}

Status FilecoinWorkload::validate(const JobRequest& job) {
  if (Status st = inputs_.validate(job); !st.ok()) return st;
  auto agg = aggregated(job);
  if (!agg.ok()) return agg.status();
  if (!*agg) return {};
  // Its answer is an aggregate: the SRS must be there, long enough (its lengths only: combine reads
  // and checks the points).
  const std::string why = " (a non-interactive PoRep's answer is the SnarkPack aggregate of its partitions)";
  if (srs_path_.empty()) return Status::unavailable(std::string("no SnarkPack SRS is configured") + why);
  Status st = snarkpack::check_srs_file_capacity(srs_path_, snarkpack::padded_count(job.partitions));
  return st.ok() ? st : Status(st.code(), st.message() + why);
}

Result<std::vector<std::uint8_t>> FilecoinWorkload::combine(const JobRequest& job,
                                                            const std::vector<std::vector<std::uint8_t>>& proofs) {
  auto agg = aggregated(job);
  if (!agg.ok()) return agg.status();
  auto concatenated = Workload::combine(job, proofs);
  if (!concatenated.ok() || !*agg) return concatenated;
  return snarkpack::aggregate_filecoin(srs_path_, *concatenated, **agg);
}

std::size_t FilecoinWorkload::partitions_of(const JobRequest& job) {
  // Parsed (and checked) once: validation then finds it among the recent inputs.
  auto in = inputs_.input(job);
  return in.ok() ? (*in)->partitions() : 0;
}

std::optional<std::uint64_t> FilecoinWorkload::registered_proof_of(const JobRequest& job) {
  auto in = inputs_.input(job);
  return in.ok() ? std::optional<std::uint64_t>((*in)->proof_id()) : std::nullopt;
}

Result<std::unique_ptr<Synthesized>> FilecoinWorkload::synthesize(const JobRequest& job, std::size_t partition) {
  auto in = inputs_.input(job);
  if (!in.ok()) return in.status();
  auto circuit = (*in)->circuit(partition);
  if (!circuit.ok()) return circuit.status();
  auto pk = proving_key();
  if (!pk.ok()) return pk.status();
  r1cs::ProvingSystem<Fr> cs({.inputs = (*pk)->vk.ic.size(), .aux = (*pk)->l.size(), .constraints = 0});
  if (Status s = (*circuit)->synthesize(cs); !s.ok()) return s;
  return wrap(std::move(*pk), std::move(cs).finish());
}

Result<std::vector<FilecoinWorkload::Fr>> FilecoinWorkload::public_inputs(const JobRequest& job,
                                                                          std::size_t partition) const {
  auto in = inputs_.input(job);
  if (!in.ok()) return in.status();
  return (*in)->public_inputs(partition);
}

namespace {

/// A synthesized partition without a key: what it holds, for the engine's ledger.
struct KeylessPartition final : Synthesized {
  r1cs::Partition<FilecoinWorkload::Fr> partition;
  std::optional<std::uint64_t> abc_bytes() const override { return partition.bytes().abc; }
  std::optional<std::uint64_t> aux_bytes() const override { return partition.bytes().assignment; }
};

}  // namespace

Result<fc::KeySections> FilecoinSynthesisWorkload::key() const {
  const auto key = inputs_.kind().pinned_key_sections(inputs_.shape());
  if (!key) {
    return Status::unimplemented("no pinned key sections for " + std::string(inputs_.shape().size.name) + " " +
                                 std::string(inputs_.kind().title()) + " (the working set's source)");
  }
  return *key;
}

Status FilecoinSynthesisWorkload::validate(const JobRequest& job) {
  if (auto k = key(); !k.ok()) return k.status();
  return inputs_.validate(job);
}

std::size_t FilecoinSynthesisWorkload::partitions_of(const JobRequest& job) {
  auto in = inputs_.input(job);
  return in.ok() ? (*in)->partitions() : 0;
}

Result<WorkingSet> FilecoinSynthesisWorkload::working_set(const JobRequest&) {
  auto key = this->key();
  if (!key.ok()) return key.status();
  // As Groth16Workload's from a key, without prove_start: a and b compact over the rows (the key's
  // a section bounds them: inputs + aux columns, constraints + inputs rows below the domain), the
  // inputs dense and the witness compact at its bound, the bitmaps.
  const std::uint64_t vars = key->ic + key->l;
  const std::uint64_t rows = key->h + 1;  // the domain size (the H section has one point less)
  WorkingSet w;
  w.abc = 2 * r1cs::CompactColumn<Fr>::max_bytes(rows);
  w.aux = key->ic * sizeof(Fr) + r1cs::CompactColumn<Fr>::max_bytes(key->l);
  w.density = 3 * ((vars + 63) / 64) * 8 + (vars / 64 + 1) * 8;
  return w;
}

Result<std::unique_ptr<Synthesized>> FilecoinSynthesisWorkload::synthesize(const JobRequest& job,
                                                                           std::size_t partition) {
  auto in = inputs_.input(job);
  if (!in.ok()) return in.status();
  auto circuit = (*in)->circuit(partition);
  if (!circuit.ok()) return circuit.status();
  auto key = this->key();
  if (!key.ok()) return key.status();
  r1cs::ProvingSystem<Fr> cs({.inputs = key->ic, .aux = key->l, .constraints = key->l + key->l / 64});
  if (Status s = (*circuit)->synthesize(cs); !s.ok()) return s;
  auto out = std::make_unique<KeylessPartition>();
  out->partition = std::move(cs).finish();
  return std::unique_ptr<Synthesized>(std::move(out));
}

Result<std::unique_ptr<Pending>> FilecoinSynthesisWorkload::prove_start(std::unique_ptr<Synthesized> s) {
  s.reset();  // the partition is dropped: nothing is proved
  return std::make_unique<Pending>();
}

Result<std::vector<std::uint8_t>> FilecoinSynthesisWorkload::prove_finish(std::unique_ptr<Pending>) {
  return std::vector<std::uint8_t>();
}

}  // namespace zk::engine
