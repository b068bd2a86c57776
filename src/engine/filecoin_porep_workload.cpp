#include "engine/filecoin_porep_workload.hpp"

#include <openssl/sha.h>

#include "r1cs/prover_cs.hpp"

namespace zk::engine {
Result<std::shared_ptr<const FilecoinPorepWorkload::Parsed>> FilecoinPorepWorkload::input(const JobRequest& job) const {
  std::array<std::uint8_t, 32> key{};
  SHA256(job.input.data(), job.input.size(), key.data());
  if (auto hit = recent_.find(key)) return hit;
  using namespace circuits::filecoin;
  auto in = parse_c1(std::string_view(reinterpret_cast<const char*>(job.input.data()), job.input.size()));
  if (!in.ok()) return in.status();
  const auto& proof = in->c1.registered_proof;
  if (proof.size.bytes != size_.bytes) {
    return Status::invalid_argument("the C1 is a " + proof.name + " proof; this workload proves " + size_.name +
                                    " sectors");
  }
  auto ctx = c1_context(proof);
  if (!ctx.ok()) return ctx.status();
  if (Status st = check_c1(in->c1, *ctx); !st.ok()) return st;
  auto parsed = std::make_shared<const Parsed>(Parsed{std::move(*in), std::move(*ctx)});
  recent_.put(key, parsed);
  return parsed;
}

Status FilecoinPorepWorkload::validate(const JobRequest& job) {
  if (job.shape != size_.name) {
    return Status::invalid_argument(std::string("this workload proves ") + size_.name + " PoRep, not '" +
                                    bounded_message(job.shape, 64) + "'");
  }
  auto parsed = input(job);
  if (!parsed.ok()) return parsed.status();
  const auto& proof = (*parsed)->input.c1.registered_proof;
  if (job.partitions != proof.partitions()) {
    return Status::invalid_argument("a " + proof.name + " job has " + std::to_string(proof.partitions()) +
                                    " partitions, not " + std::to_string(job.partitions));
  }
  return {};
}

std::size_t FilecoinPorepWorkload::partitions_of(const JobRequest& job) {
  // Parsed (and checked) once: validation then finds it in recent_.
  auto parsed = input(job);
  return parsed.ok() ? (*parsed)->input.c1.registered_proof.partitions() : 0;
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

}  // namespace zk::engine
