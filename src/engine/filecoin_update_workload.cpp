#include "engine/filecoin_update_workload.hpp"

#include <openssl/sha.h>

#include "r1cs/prover_cs.hpp"

namespace zk::engine {

Result<unsigned> FilecoinUpdateWorkload::partitions(const circuits::filecoin::SectorSize& size) {
  auto s = circuits::filecoin::update_shape(size.bytes);
  if (!s.ok()) return s.status();
  return s->partitions;
}

Result<std::shared_ptr<const circuits::filecoin::UpdateInput>> FilecoinUpdateWorkload::input(const JobRequest& job) const {
  std::array<std::uint8_t, 32> key{};
  SHA256(job.input.data(), job.input.size(), key.data());
  if (auto hit = recent_.find(key)) return hit;
  using namespace circuits::filecoin;
  auto in = parse_update_input(std::string_view(reinterpret_cast<const char*>(job.input.data()), job.input.size()));
  if (!in.ok()) return in.status();
  if (in->proof.size.bytes != size_.bytes) {
    return Status::invalid_argument("the input is a " + in->proof.name + " update; this workload proves snap-update for " +
                                    size_.name + " sectors");
  }
  if (Status st = check_update_input(*in); !st.ok()) return st;
  auto parsed = std::make_shared<const UpdateInput>(std::move(*in));
  recent_.put(key, parsed);
  return parsed;
}

Status FilecoinUpdateWorkload::validate(const JobRequest& job) {
  if (job.shape != size_.name) {
    return Status::invalid_argument(std::string("this workload proves snap-update for ") + size_.name + " sectors, not '" +
                                    bounded_message(job.shape, 64) + "'");
  }
  auto n = partitions(size_);
  if (!n.ok()) return n.status();
  if (job.partitions != *n) {
    return Status::invalid_argument(std::string("a ") + size_.name + " snap-update job has " + std::to_string(*n) +
                                    " partitions, not " + std::to_string(job.partitions));
  }
  return input(job).status();
}

Result<std::unique_ptr<Synthesized>> FilecoinUpdateWorkload::synthesize(const JobRequest& job, std::size_t partition) {
  auto in = input(job);
  if (!in.ok()) return in.status();
  auto w = circuits::filecoin::update_input_witness(**in, static_cast<unsigned>(partition));
  if (!w.ok()) return w.status();
  auto pk = proving_key();
  if (!pk.ok()) return pk.status();
  r1cs::ProvingSystem<Fr> cs({.inputs = (*pk)->vk.ic.size(), .aux = (*pk)->l.size(), .constraints = 0});
  if (Status s = circuits::filecoin::synthesize_update(cs, (*in)->shape, *w); !s.ok()) return s;
  return wrap(std::move(*pk), std::move(cs).finish());
}

Result<std::vector<FilecoinUpdateWorkload::Fr>> FilecoinUpdateWorkload::public_inputs(const JobRequest& job,
                                                                                    std::size_t partition) const {
  auto in = input(job);
  if (!in.ok()) return in.status();
  return circuits::filecoin::update_input_public_inputs(**in, static_cast<unsigned>(partition));
}

}  // namespace zk::engine
