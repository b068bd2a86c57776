// `zkpipe verify --kind`: Filecoin proofs checked from the public values a verifier has (a sector's
// commitments, seed and ticket; a PoSt's randomness and sectors; an update's three commitments).
// The kind turns its options into the partitions the proof file must hold and their public inputs
// (ProofKind::verify_plan); this file reads the key and the proofs and runs the pairings. A
// non-interactive PoRep's proof may be the SnarkPack aggregate of its partitions (what Filecoin's
// C2 returns for it), recognised by its length and checked with the SRS.

#include <filesystem>

#include <nlohmann/json.hpp>

#include "base/file.hpp"
#include "filecoin.hpp"
#include "filecoin_common.hpp"
#include "groth16/io.hpp"
#include "groth16/verifier.hpp"
#include "output.hpp"
#include "snarkpack/filecoin.hpp"

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

namespace {

/// A non-interactive PoRep proof as Filecoin's C2 returns it: the SnarkPack aggregate of its
/// partitions. All eleven equations (TIPP/MIPP, the KZG openings, Groth16 over every partition's
/// public inputs); the verdict names the group that fails.
int verify_aggregate(const FilecoinVerifyArgs& a, const fc::VerifyPlan& plan,
                     const groth16::VerifyingKey<groth16::Bls12_381>& vk, const std::vector<std::uint8_t>& bytes) {
  const std::string srs =
      !a.srs.empty() ? a.srs : (std::filesystem::path(a.vk).parent_path() / snarkpack::kFilecoinSrsName).string();
  std::vector<std::vector<fc::Fr>> inputs;
  for (std::size_t k = 0; k < plan.partitions.size(); ++k) {
    auto in = plan.public_inputs(k);
    if (!in.ok()) return fail("partition " + std::to_string(plan.partitions[k]) + ": " + in.status().message(), a.json);
    inputs.push_back(std::move(*in));
  }
  auto v = snarkpack::verify_filecoin(srs, vk, inputs, bytes, *plan.aggregate_transcript_input);
  if (!v.ok()) return fail(a.proof + ": " + v.status().message(), a.json);
  const bool valid = v->valid();
  const std::size_t n = snarkpack::padded_count(plan.partitions.size());
  std::string failed;
  if (!v->srs_free.all()) failed += "the TIPP/MIPP equations";
  if (!v->kzg.all()) failed += std::string(failed.empty() ? "" : ", ") + "the KZG openings (another SRS?)";
  if (!v->groth16) failed += std::string(failed.empty() ? "" : ", ") + "the Groth16 equation";
  if (a.json) {
    std::printf("%s\n", nlohmann::json{{"ok", true},
                                       {"valid", valid},
                                       {"aggregate", true},
                                       {"partitions", plan.partitions.size()},
                                       {"aggregated_proofs", n},
                                       {"srs_free", v->srs_free.all()},
                                       {"kzg", v->kzg.all()},
                                       {"groth16", v->groth16}}
                            .dump()
                            .c_str());
  } else {
    const std::size_t k = plan.partitions.size();
    const std::string what = plan.what + "the SnarkPack aggregate of " + std::to_string(k) + " partition" +
                             (k == 1 ? "" : "s") + ", padded to " + std::to_string(n);
    if (valid) {
      std::printf("valid (%s)\n", what.c_str());
    } else {
      std::printf("INVALID: failed %s (%s)\n", failed.c_str(), what.c_str());
    }
  }
  return valid ? 0 : 1;
}

}  // namespace

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
  if (plan->aggregate_transcript_input && bytes->size() == snarkpack::aggregate_proof_bytes(static_cast<std::uint32_t>(
                                                               snarkpack::padded_count(plan->partitions.size())))) {
    return verify_aggregate(a, *plan, *vk, *bytes);
  }
  if (!a.srs.empty()) {
    return fail("--srs is for a SnarkPack aggregate; " + a.proof + " is not one of " + plan->what + "partitions",
                a.json);
  }
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
