// `zkpipe verify --kind`: Filecoin proofs checked from the public values a verifier has (a sector's
// commitments, seed and ticket; a PoSt's randomness and sectors; an update's three commitments).
// The kind turns its options into the partitions the proof file must hold and their public inputs
// (ProofKind::verify_plan); this file reads the key and the proofs and runs the pairings.

#include "base/file.hpp"
#include "filecoin.hpp"
#include "filecoin_common.hpp"
#include "groth16/io.hpp"
#include "groth16/verifier.hpp"
#include "output.hpp"

namespace zk::app {

Result<groth16::VerifyingKey<groth16::Bls12_381>> read_vk(const std::string& path) {
  auto bytes = read_file(path, std::uint64_t{1} << 30);
  if (!bytes.ok()) return bytes.status();
  std::size_t used = 0;
  auto vk = groth16::read_verifying_key<groth16::Bls12_381>(*bytes, &used);
  if (vk.ok() && used == bytes->size()) return vk;
  auto compressed = groth16::read_verifying_key_compressed(*bytes);
  if (compressed.ok()) return compressed;
  return Status::invalid_argument(path + ": neither an uncompressed (" +
                                  (vk.ok() ? std::string("trailing bytes") : vk.status().message()) +
                                  ") nor a compressed (" + compressed.status().message() + ") verifying key");
}

int run_verify_filecoin(const FilecoinVerifyArgs& a) {
  auto kind = fc::find_proof_kind(a.kind, "verify --kind");
  if (!kind.ok()) return fail(kind.status().message(), a.json);
  auto plan = (*kind)->verify_plan(a.options);
  if (!plan.ok()) return fail(plan.status().message(), a.json);
  auto vk = read_vk(a.vk);
  if (!vk.ok()) return fail(vk.status().message(), a.json);
  if (vk->ic.size() != plan->inputs) {
    return fail(a.vk + " has " + std::to_string(vk->ic.size()) + " IC points but " + plan->partition + " has " +
                    std::to_string(plan->inputs) + " inputs (wrong key?)",
                a.json);
  }
  auto bytes = read_file(a.proof, std::uint64_t{1} << 24);
  if (!bytes.ok()) return fail(bytes.status().message(), a.json);
  auto proofs = groth16::read_proofs<groth16::Bls12_381>(*bytes);
  if (!proofs.ok()) return fail(a.proof + ": " + proofs.status().message(), a.json);
  if (proofs->size() != plan->partitions.size()) {
    return fail(a.proof + " holds " + std::to_string(proofs->size()) + " proof(s); " + plan->expected, a.json);
  }
  const auto pvk = groth16::prepare_verifying_key(*vk);
  std::vector<bool> valid;
  for (std::size_t k = 0; k < proofs->size(); ++k) {
    const std::string partition = "partition " + std::to_string(plan->partitions[k]) + ": ";
    auto in = plan->public_inputs(k);
    if (!in.ok()) return fail(partition + in.status().message(), a.json);
    auto ok = groth16::verify(pvk, (*proofs)[k], *in);
    if (!ok.ok()) return fail(partition + ok.status().message(), a.json);
    valid.push_back(*ok);
  }
  return report_verification(valid, plan->what, a.json, plan->partitions.empty() ? 0 : plan->partitions.front());
}

}  // namespace zk::app
