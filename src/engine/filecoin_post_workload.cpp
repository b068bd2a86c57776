#include "engine/filecoin_post_workload.hpp"

#include <openssl/sha.h>

#include "r1cs/prover_cs.hpp"

namespace zk::engine {

Result<std::shared_ptr<const circuits::filecoin::PostInput>> FilecoinPostWorkload::input(const JobRequest& job) const {
  std::array<std::uint8_t, 32> key{};
  SHA256(job.input.data(), job.input.size(), key.data());
  if (auto hit = recent_.find(key)) return hit;
  using namespace circuits::filecoin;
  auto in = parse_post_input(std::string_view(reinterpret_cast<const char*>(job.input.data()), job.input.size()));
  if (!in.ok()) return in.status();
  if (in->proof.winning != winning_ || in->proof.size.bytes != size_.bytes) {
    return Status::invalid_argument("the input is a " + in->proof.name + " proof; this workload proves " + kind() +
                                    " for " + size_.name + " sectors");
  }
  if (Status st = check_post_input(*in); !st.ok()) return st;
  auto parsed = std::make_shared<const PostInput>(std::move(*in));
  recent_.put(key, parsed);
  return parsed;
}

Status FilecoinPostWorkload::validate(const JobRequest& job) {
  if (job.shape != size_.name) {
    return Status::invalid_argument(std::string("this workload proves ") + kind() + " for " + size_.name +
                                    " sectors, not '" + bounded_message(job.shape, 64) + "'");
  }
  if (job.partitions != 1) {
    return Status::invalid_argument(std::string("a ") + kind() + " job proves one partition, not " +
                                    std::to_string(job.partitions) + " (one job per WindowPoSt partition)");
  }
  return input(job).status();
}

Result<std::unique_ptr<Synthesized>> FilecoinPostWorkload::synthesize(const JobRequest& job, std::size_t) {
  auto in = input(job);
  if (!in.ok()) return in.status();
  auto w = circuits::filecoin::post_witness(**in);
  if (!w.ok()) return w.status();
  auto pk = proving_key();
  if (!pk.ok()) return pk.status();
  r1cs::ProvingSystem<Fr> cs({.inputs = (*pk)->vk.ic.size(), .aux = (*pk)->l.size(), .constraints = 0});
  if (Status s = circuits::filecoin::synthesize_fallback(cs, circuits::filecoin::fallback_shape((*in)->proof), *w); !s.ok()) {
    return s;
  }
  return wrap(std::move(*pk), std::move(cs).finish());
}

Result<std::vector<FilecoinPostWorkload::Fr>> FilecoinPostWorkload::public_inputs(const JobRequest& job,
                                                                                std::size_t) const {
  auto in = input(job);
  if (!in.ok()) return in.status();
  return circuits::filecoin::post_public_inputs(**in);
}

}  // namespace zk::engine
