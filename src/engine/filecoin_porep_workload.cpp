#include "engine/filecoin_porep_workload.hpp"

#include <openssl/sha.h>

#include "circuits/filecoin/parameter_files.hpp"
#include "r1cs/prover_cs.hpp"

namespace zk::engine {
Result<std::shared_ptr<const FilecoinPorepWorkload::Parsed>> FilecoinPorepWorkload::input(
    const JobRequest& job, const circuits::filecoin::SectorSize& size,
    RecentInputs<std::array<std::uint8_t, 32>, Parsed>& recent) {
  std::array<std::uint8_t, 32> key{};
  SHA256(job.input.data(), job.input.size(), key.data());
  if (auto hit = recent.find(key)) return hit;
  using namespace circuits::filecoin;
  auto in = parse_c1(std::string_view(reinterpret_cast<const char*>(job.input.data()), job.input.size()));
  if (!in.ok()) return in.status();
  const auto& proof = in->c1.registered_proof;
  if (proof.size.bytes != size.bytes) {
    return Status::invalid_argument("the C1 is a " + proof.name + " proof; this workload proves " + size.name +
                                    " sectors");
  }
  auto ctx = c1_context(proof);
  if (!ctx.ok()) return ctx.status();
  if (Status st = check_c1(in->c1, *ctx); !st.ok()) return st;
  auto parsed = std::make_shared<const Parsed>(Parsed{std::move(*in), std::move(*ctx)});
  recent.put(key, parsed);
  return parsed;
}

Result<std::shared_ptr<const FilecoinPorepWorkload::Parsed>> FilecoinPorepWorkload::input(const JobRequest& job) const {
  return input(job, size_, recent_);
}

Status FilecoinPorepWorkload::validate_input(const JobRequest& job, const circuits::filecoin::SectorSize& size,
                                             RecentInputs<std::array<std::uint8_t, 32>, Parsed>& recent) {
  if (job.shape != size.name) {
    return Status::invalid_argument(std::string("this workload proves ") + size.name + " PoRep, not '" +
                                    bounded_message(job.shape, 64) + "'");
  }
  auto parsed = input(job, size, recent);
  if (!parsed.ok()) return parsed.status();
  const auto& proof = (*parsed)->input.c1.registered_proof;
  if (job.partitions != proof.partitions()) {
    return Status::invalid_argument("a " + proof.name + " job has " + std::to_string(proof.partitions()) +
                                    " partitions, not " + std::to_string(job.partitions));
  }
  return {};
}

Status FilecoinPorepWorkload::validate(const JobRequest& job) { return validate_input(job, size_, recent_); }

std::size_t FilecoinPorepWorkload::partitions_of(const JobRequest& job) {
  // Parsed (and checked) once: validation then finds it in recent_.
  auto parsed = input(job);
  return parsed.ok() ? (*parsed)->input.c1.registered_proof.partitions() : 0;
}

std::optional<std::uint64_t> FilecoinPorepWorkload::registered_proof_of(const JobRequest& job) {
  auto parsed = input(job);  // parsed once, as for partitions_of
  return parsed.ok() ? std::optional<std::uint64_t>((*parsed)->input.c1.registered_proof.id) : std::nullopt;
}

Result<std::unique_ptr<Synthesized>> FilecoinPorepWorkload::synthesize(const JobRequest& job, std::size_t partition) {
  auto parsed = input(job);
  if (!parsed.ok()) return parsed.status();
  const auto& p = **parsed;
  auto w = circuits::filecoin::c1_witness(p.input.c1, p.ctx, partition);
  if (!w.ok()) return w.status();
  auto pk = proving_key();
  if (!pk.ok()) return pk.status();
  r1cs::ProvingSystem<Fr> cs({.inputs = (*pk)->vk.ic.size(), .aux = (*pk)->l.size(), .constraints = 0});
  if (Status s = circuits::filecoin::synthesize_stacked(cs, p.ctx.shape, *w); !s.ok()) return s;
  return wrap(std::move(*pk), std::move(cs).finish());
}

Result<std::vector<FilecoinPorepWorkload::Fr>> FilecoinPorepWorkload::public_inputs(const JobRequest& job,
                                                                                  std::size_t partition) const {
  auto parsed = input(job);
  if (!parsed.ok()) return parsed.status();
  return circuits::filecoin::c1_public_inputs((*parsed)->input.c1, (*parsed)->ctx, partition);
}

namespace {

/// A synthesized partition without a key: what it holds, for the engine's ledger.
struct KeylessPartition final : Synthesized {
  r1cs::Partition<FilecoinPorepWorkload::Fr> partition;
  std::optional<std::uint64_t> abc_bytes() const override { return partition.bytes().abc; }
  std::optional<std::uint64_t> aux_bytes() const override { return partition.bytes().assignment; }
};

}  // namespace

Status FilecoinPorepSynthesisWorkload::validate(const JobRequest& job) {
  if (!circuits::filecoin::stacked_key_sections(size_)) {
    return Status::unimplemented(std::string("no pinned key sections for ") + size_.name + " PoRep (the working set's source)");
  }
  return FilecoinPorepWorkload::validate_input(job, size_, recent_);
}

std::size_t FilecoinPorepSynthesisWorkload::partitions_of(const JobRequest& job) {
  auto parsed = FilecoinPorepWorkload::input(job, size_, recent_);
  return parsed.ok() ? (*parsed)->input.c1.registered_proof.partitions() : 0;
}

Result<WorkingSet> FilecoinPorepSynthesisWorkload::working_set(const JobRequest&) {
  const auto key = circuits::filecoin::stacked_key_sections(size_);
  if (!key) return Status::unimplemented(std::string("no pinned key sections for ") + size_.name + " PoRep");
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

Result<std::unique_ptr<Synthesized>> FilecoinPorepSynthesisWorkload::synthesize(const JobRequest& job,
                                                                                std::size_t partition) {
  auto parsed = FilecoinPorepWorkload::input(job, size_, recent_);
  if (!parsed.ok()) return parsed.status();
  const auto& p = **parsed;
  auto w = circuits::filecoin::c1_witness(p.input.c1, p.ctx, partition);
  if (!w.ok()) return w.status();
  const auto key = circuits::filecoin::stacked_key_sections(size_);
  if (!key) return Status::unimplemented(std::string("no pinned key sections for ") + size_.name + " PoRep");
  r1cs::ProvingSystem<Fr> cs({.inputs = key->ic, .aux = key->l, .constraints = key->l + key->l / 64});
  if (Status s = circuits::filecoin::synthesize_stacked(cs, p.ctx.shape, *w); !s.ok()) return s;
  auto out = std::make_unique<KeylessPartition>();
  out->partition = std::move(cs).finish();
  return std::unique_ptr<Synthesized>(std::move(out));
}

Result<std::unique_ptr<Pending>> FilecoinPorepSynthesisWorkload::prove_start(std::unique_ptr<Synthesized> s) {
  s.reset();  // the partition is dropped: nothing is proved
  return std::make_unique<Pending>();
}

Result<std::vector<std::uint8_t>> FilecoinPorepSynthesisWorkload::prove_finish(std::unique_ptr<Pending>) {
  return std::vector<std::uint8_t>();
}

}  // namespace zk::engine
