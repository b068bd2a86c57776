#include "engine/porep_workload.hpp"

#include "circuits/porep_circuit.hpp"

namespace zk::engine {

Result<std::shared_ptr<const circuits::porep::C1>> PorepWorkload::input(const JobRequest& job,
                                                                        bool check_openings) const {
  std::string key(job.input.begin(), job.input.end());
  if (auto hit = recent_.find(key)) return hit;
  auto c1 = circuits::porep::c1_from_json(key, &shape_, check_openings);
  if (!c1.ok()) return Status::invalid_argument("porep input: " + c1.status().message());
  auto shared = std::make_shared<const circuits::porep::C1>(std::move(*c1));
  recent_.put(std::move(key), shared);
  return shared;
}

Status PorepWorkload::validate(const JobRequest& job) {
  if (job.shape != shape_.name) {
    return Status::invalid_argument("this porep workload serves shape '" + shape_.name + "', not '" + job.shape + "'");
  }
  if (job.partitions != shape_.partitions) {
    return Status::invalid_argument("a porep " + shape_.name + " job has " + std::to_string(shape_.partitions) +
                                    " partitions, not " + std::to_string(job.partitions));
  }
  // Parsed and checked once here (openings against the commitments); synthesis reuses it.
  return input(job, /*check_openings=*/true).status();
}

Result<std::unique_ptr<Synthesized>> PorepWorkload::synthesize(const JobRequest& job, std::size_t partition) {
  auto c1 = input(job, /*check_openings=*/true);
  if (!c1.ok()) return c1.status();
  if (partition >= (*c1)->partitions.size()) return Status::invalid_argument("no such partition");
  auto pub = (*c1)->public_inputs(static_cast<std::uint32_t>(partition));
  if (!pub.ok()) return pub.status();
  auto pk = proving_key();
  if (!pk.ok()) return pk.status();
  r1cs::ProvingSystem<Fr> cs({.inputs = (*pk)->vk.ic.size(), .aux = (*pk)->l.size(), .constraints = 0});
  if (Status s = circuits::porep::synthesize(cs, shape_, *pub, (*c1)->partitions[partition]); !s.ok()) return s;
  return wrap(std::move(*pk), std::move(cs).finish());
}

Result<std::vector<PorepWorkload::Fr>> PorepWorkload::public_inputs(const JobRequest& job,
                                                                    std::size_t partition) const {
  auto c1 = input(job, /*check_openings=*/true);
  if (!c1.ok()) return c1.status();
  auto pub = (*c1)->public_inputs(static_cast<std::uint32_t>(partition));
  if (!pub.ok()) return pub.status();
  return pub->to_field();
}

}  // namespace zk::engine
