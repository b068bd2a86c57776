#include "filecoin.hpp"

#include <openssl/evp.h>

#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "base/base64.hpp"
#include "base/file.hpp"
#include "base/rng.hpp"
#include "circuits/filecoin/commitment.hpp"
#include "circuits/filecoin/parameter_files.hpp"
#include "circuits/filecoin/porep/c1.hpp"
#include "circuits/filecoin/porep/sectors.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"
#include "circuits/filecoin/porep/synthetic_c1.hpp"
#include "circuits/filecoin/porep/vanilla.hpp"
#include "circuits/filecoin/post/fallback_circuit.hpp"
#include "circuits/filecoin/post/fallback_post.hpp"
#include "circuits/filecoin/post/post_input.hpp"
#include "circuits/filecoin/update/update_input.hpp"
#include "engine/filecoin_porep_workload.hpp"
#include "engine/filecoin_post_workload.hpp"
#include "engine/filecoin_update_workload.hpp"
#include "groth16/io.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "output.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/test_cs.hpp"

namespace zk::app {
namespace {

using Json = nlohmann::json;
namespace fc = circuits::filecoin;

Result<circuits::sdr::Bytes32> hex32(const std::string& name, const std::string& hex) {
  std::string h = hex.rfind("0x", 0) == 0 ? hex.substr(2) : hex;
  if (h.size() != 64) return Status::invalid_argument("--" + name + ": expected 32 bytes as 64 hex digits");
  circuits::sdr::Bytes32 out{};
  for (std::size_t i = 0; i < 32; ++i) {
    auto nib = [&](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    const int hi = nib(h[2 * i]), lo = nib(h[2 * i + 1]);
    if (hi < 0 || lo < 0) return Status::invalid_argument("--" + name + ": not hex");
    out[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return out;
}

/// A verifying key in bellman's layout (uncompressed) or with compressed points.
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

/// The proving key's sections for a counted circuit (after finish_with_input_rows), as bellperson
/// makes them: IC over the inputs, H over the domain minus one, L over every aux, A over every input
/// and the A-dense aux, B over the B-dense inputs and aux.
fc::KeySections key_sections(const r1cs::DensitySystem<fc::Fr>& m) {
  std::uint64_t domain = 1;
  while (domain < m.num_constraints()) domain *= 2;
  return fc::KeySections{m.num_inputs(), domain - 1, m.num_aux(), m.num_inputs() + m.a_aux_density(),
                         m.b_input_density() + m.b_aux_density()};
}

}  // namespace

int run_circuit_info(const CircuitInfoArgs& a) {
  auto size = fc::find_sector_size(a.sector_size);
  if (!size.ok()) return fail(size.status().message(), a.json);
  const bool porep = a.kind == "porep";
  const bool snap = a.kind == "snap-update";
  if (!porep && !snap && a.kind != "window-post" && a.kind != "winning-post") {
    return fail("circuit-info --kind: porep, window-post, winning-post or snap-update", a.json);
  }
  if (!a.api_version.empty()) {
    if (!porep) return fail("--api-version is for --kind porep", a.json);
    if (a.api_version != "1.0" && a.api_version != "1.1" && a.api_version != "1.2") {
      return fail("--api-version: 1.0, 1.1 or 1.2", a.json);
    }
  }
  Result<fc::UpdateShape> update = Status::internal("unused");
  if (snap) {
    update = fc::update_shape(size->bytes);
    if (!update.ok()) return fail(update.status().message(), a.json);
  }
  // PoSt: the V1_2 window proof (the circuit is the same for every API version) or the winning one.
  Result<fc::RegisteredPoStProof> post = Status::internal("unused");
  if (!porep && !snap) {
    post = fc::find_registered_post_proof(
        std::string(a.kind == "winning-post" ? "StackedDrgWinning" : "StackedDrgWindow") + size->name +
        (a.kind == "winning-post" ? "V1" : "V1_2"));
    if (!post.ok()) return fail(std::string("no ") + a.kind + " for " + size->name + " sectors", a.json);
  }
  const fc::StackedShape s = fc::stacked_shape(*size);
  const auto t0 = std::chrono::steady_clock::now();
  r1cs::DensitySystem<fc::Fr> m;
  if (porep) {
    if (Status st = fc::synthesize_stacked(m, s, fc::StackedWitness::blank(s)); !st.ok())
      return fail(st.message(), a.json);
  } else if (snap) {
    if (Status st = fc::synthesize_update(m, *update, fc::UpdateWitness::blank(*update)); !st.ok())
      return fail(st.message(), a.json);
  } else {
    const fc::FallbackShape f = fc::fallback_shape(*post);
    if (Status st = fc::synthesize_fallback(m, f, fc::FallbackWitness::blank(f)); !st.ok())
      return fail(st.message(), a.json);
  }
  const std::size_t constraints = m.num_constraints();
  m.finish_with_input_rows();  // what the key generator adds: one row per input
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::size_t with_inputs = m.num_constraints();
  unsigned log = 0;
  while ((std::size_t{1} << log) < with_inputs) ++log;
  const fc::KeySections key = key_sections(m);
  std::string params_file = porep && size->published ? fc::stacked_params_stem(*size) + ".params" : std::string();
  if (snap && fc::update_params_stem(*size).ok()) params_file = *fc::update_params_stem(*size) + ".params";
  if (post.ok()) params_file = fc::post_params_stem(*post) + ".params";
  if (a.json) {
    // The StackedCircuit is one circuit for API 1.0, 1.1 and 1.2 (they differ in the parent graph
    // and the public inputs, not in the constraints), so one key per sector size serves them all.
    Json shape = porep  ? Json{{"layers", s.layers},
                              {"challenges_per_partition", s.challenges},
                              {"partitions", size->partitions},
                              {"api_versions", Json::array({"1.0", "1.1", "1.2"})}}
                 : snap ? Json{{"partitions", update->partitions},
                               {"challenges_per_partition", update->challenges},
                               {"h", fc::update_h_default(*update)}}
                        : Json{{"registered_proof", post->name},
                               {"sectors_per_partition", post->sector_count},
                               {"challenges_per_sector", post->challenge_count}};
    std::printf("%s\n",
                Json{{"ok", true},
                     {"kind", a.kind},
                     {"sector_size", size->name},
                     {"constraints", constraints},
                     {"constraints_with_input_rows", with_inputs},
                     {"inputs", m.num_inputs()},
                     {"aux", m.num_aux()},
                     {"nonzeros", {{"a", m.nnz(0)}, {"b", m.nnz(1)}, {"c", m.nnz(2)}}},
                     {"density",
                      {{"a_aux", m.a_aux_density()}, {"b_input", m.b_input_density()}, {"b_aux", m.b_aux_density()}}},
                     {"key_points",
                      {{"ic", key.ic}, {"h", key.h}, {"l", key.l}, {"a", key.a}, {"b_g1", key.b}, {"b_g2", key.b}}},
                     {"domain_log", log},
                     {"shape", shape},
                     {"params_file", params_file},
                     {"seconds", seconds}}
                    .dump()
                    .c_str());
  } else {
    if (snap) {
      std::printf("snap-update %s (%u partitions, %u challenges per partition, h %u), one partition:\n", size->name,
                  update->partitions, update->challenges, fc::update_h_default(*update));
    } else if (porep) {
      std::printf("porep %s (%u layers, %u challenges per partition, %u partitions), one partition:\n", size->name,
                  s.layers, s.challenges, size->partitions);
    } else {
      std::printf("%s %s (%s: %u sectors per partition, %u challenges per sector), one partition:\n", a.kind.c_str(),
                  size->name, post->name.c_str(), post->sector_count, post->challenge_count);
    }
    std::printf("  constraints %zu (%zu with the input rows), inputs %zu (ONE included), aux %zu, domain 2^%u\n",
                constraints, with_inputs, m.num_inputs(), m.num_aux(), log);
    std::printf("  non-zeros (with the input rows): A %zu, B %zu, C %zu\n", m.nnz(0), m.nnz(1), m.nnz(2));
    std::printf("  density: a_aux %zu, b_input %zu, b_aux %zu\n", m.a_aux_density(), m.b_input_density(),
                m.b_aux_density());
    std::printf("  key points: ic %zu, h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu\n", m.num_inputs(), key.h, key.l, key.a,
                key.b, key.b);
    if (!params_file.empty()) std::printf("  parameter file: %s (.vk)\n", params_file.c_str());
    std::printf("  counted in %.1f s\n", seconds);
  }
  return 0;
}

namespace {

/// Reads and parses a C1 file (either form).
Result<fc::C1Input> read_c1_file(const std::string& path) {
  auto text = read_text_file(path, std::uint64_t{1} << 31);
  if (!text.ok()) return text.status();
  auto in = fc::parse_c1(*text);
  if (!in.ok()) return Status::invalid_argument(path + ": " + in.status().message());
  return in;
}

/// Proof file checks shared by the ways of naming the public values.
Result<std::vector<groth16::Proof<groth16::Bls12_381>>> read_partition_proofs(const std::string& path,
                                                                              const fc::SectorSize& size,
                                                                              std::size_t partitions) {
  auto bytes = read_file(path, std::uint64_t{1} << 20);
  if (!bytes.ok()) return bytes.status();
  auto proofs = groth16::read_proofs<groth16::Bls12_381>(*bytes);
  if (!proofs.ok()) return Status::invalid_argument(path + ": " + proofs.status().message());
  if (proofs->size() != partitions) {
    return Status::invalid_argument(path + " holds " + std::to_string(proofs->size()) + " proofs; this " + size.name +
                                    " PoRep has " + std::to_string(partitions) + " partitions");
  }
  return proofs;
}

Result<groth16::VerifyingKey<groth16::Bls12_381>> read_porep_vk(const std::string& path, const fc::SectorSize& size) {
  auto vk = read_vk(path);
  if (!vk.ok()) return vk.status();
  const fc::StackedShape s = fc::stacked_shape(size);
  if (vk->ic.size() != s.num_inputs()) {
    return Status::invalid_argument(path + " has " + std::to_string(vk->ic.size()) + " IC points but a " + size.name +
                                    " PoRep partition has " + std::to_string(s.num_inputs()) + " inputs (wrong key?)");
  }
  return vk;
}

/// Verifies every partition; `inputs(k)` gives partition k's public inputs.
template <class Inputs>
int verify_partitions(const FilecoinVerifyArgs& a, const fc::SectorSize& size, std::size_t partitions,
                      Inputs&& inputs) {
  auto vk = read_porep_vk(a.vk, size);
  if (!vk.ok()) return fail(vk.status().message(), a.json);
  auto proofs = read_partition_proofs(a.proof, size, partitions);
  if (!proofs.ok()) return fail(proofs.status().message(), a.json);
  const auto pvk = groth16::prepare_verifying_key(*vk);
  std::vector<bool> valid;
  for (std::size_t k = 0; k < proofs->size(); ++k) {
    Result<std::vector<fc::Fr>> in = inputs(k);
    if (!in.ok()) return fail(in.status().message(), a.json);
    auto ok = groth16::verify(pvk, (*proofs)[k], *in);
    if (!ok.ok()) return fail("partition " + std::to_string(k) + ": " + ok.status().message(), a.json);
    valid.push_back(*ok);
  }
  return report_verification(valid, std::string(size.name) + " PoRep, ", a.json);
}

}  // namespace

namespace {

/// WindowPoSt / WinningPoSt: `--sector NUMBER:COMM_R` values (comm_r as hex or a sealed CID).
Result<std::vector<fc::PoStSector>> parse_post_sectors(const std::vector<std::string>& values) {
  std::vector<fc::PoStSector> sectors;
  for (const auto& s : values) {
    auto ps = fc::parse_post_sector(s);
    if (!ps.ok()) return Status::invalid_argument("--sector '" + bounded_message(s, 80) + "': " + ps.status().message());
    sectors.push_back(*ps);
  }
  return sectors;
}

/// The proof file must hold exactly the partitions the sectors make (WindowPoSt: ceil(sectors /
/// sectors per partition), or the one partition --partition names; WinningPoSt: one).
int verify_post(const FilecoinVerifyArgs& a) {
  const bool winning = a.kind == "winning-post";
  if (a.registered_proof < 0) {
    return fail("--kind " + a.kind + " needs --registered-proof (0-4 Winning, 5-9 Window V1, 10-14 Window V1_1/V1_2)",
                a.json);
  }
  auto proof = fc::find_registered_post_proof(std::to_string(a.registered_proof));
  if (!proof.ok()) return fail("--registered-proof: " + proof.status().message(), a.json);
  if (proof->winning != winning) return fail(proof->name + " is not a " + a.kind + " proof", a.json);
  if (winning && a.partition_given && a.partition != 0) {
    return fail("--partition: a WinningPoSt has one partition (0)", a.json);
  }
  if (!a.sector_size.empty()) {
    auto size = fc::find_sector_size(a.sector_size);
    if (!size.ok()) return fail(size.status().message(), a.json);
    if (size->bytes != proof->size.bytes) return fail(proof->name + " is not a " + size->name + " proof", a.json);
  }
  auto randomness = hex32("randomness", a.randomness);
  if (!randomness.ok()) return fail(randomness.status().message(), a.json);
  auto parsed = parse_post_sectors(a.sectors);
  if (!parsed.ok()) return fail(parsed.status().message(), a.json);
  if (parsed->empty())
    return fail("--kind " + a.kind + " needs --sector NUMBER:COMM_R_HEX (repeat for each sector)", a.json);
  auto parts = fc::post_partitions(*proof, *randomness, *parsed,
                                   a.partition_given ? std::optional<std::size_t>(a.partition) : std::nullopt);
  if (!parts.ok()) return fail(parts.status().message(), a.json);
  auto vk = read_vk(a.vk);
  if (!vk.ok()) return fail(vk.status().message(), a.json);
  const std::size_t inputs = 1 + std::size_t{proof->sector_count} * (1 + proof->challenge_count);
  if (vk->ic.size() != inputs) {
    return fail(a.vk + " has " + std::to_string(vk->ic.size()) + " IC points but a " + proof->name + " partition has " +
                    std::to_string(inputs) + " inputs (wrong key?)",
                a.json);
  }
  auto bytes = read_file(a.proof, std::uint64_t{1} << 24);
  if (!bytes.ok()) return fail(bytes.status().message(), a.json);
  auto proofs = groth16::read_proofs<groth16::Bls12_381>(*bytes);
  if (!proofs.ok()) return fail(a.proof + ": " + proofs.status().message(), a.json);
  if (proofs->size() != parts->size()) {
    const std::string need =
        a.partition_given ? "partition " + std::to_string(a.partition) + " alone (--partition): 1 proof"
                          : std::to_string(parsed->size()) + " sector(s) at " +
                                std::to_string(winning ? 1 : proof->sector_count) + " per partition: " +
                                std::to_string(parts->size()) + " proof(s), one per partition";
    return fail(a.proof + " holds " + std::to_string(proofs->size()) + " proof(s); " + proof->name + " over " + need,
                a.json);
  }
  const auto pvk = groth16::prepare_verifying_key(*vk);
  std::vector<bool> valid;
  for (std::size_t k = 0; k < proofs->size(); ++k) {
    const fc::PoStPartition& p = (*parts)[k];
    auto ok = groth16::verify(pvk, (*proofs)[k], p.inputs);
    if (!ok.ok()) return fail("partition " + std::to_string(p.index) + ": " + ok.status().message(), a.json);
    valid.push_back(*ok);
  }
  const std::string what = proof->name + ", " + std::to_string(parsed->size()) + " sector" +
                           (parsed->size() == 1 ? "" : "s") + ", ";
  return report_verification(valid, what, a.json, parts->front().index);
}

}  // namespace

int verify_update(const FilecoinVerifyArgs& a) {
  if (a.registered_proof < 0)
    return fail("--kind snap-update needs --registered-proof (0-4: StackedDrg2KiBV1 ... 64GiBV1)", a.json);
  auto proof = fc::find_registered_update_proof(std::to_string(a.registered_proof));
  if (!proof.ok()) return fail("--registered-proof: " + proof.status().message(), a.json);
  auto shape = fc::update_shape(proof->size.bytes);
  if (!shape.ok()) return fail(shape.status().message(), a.json);
  fc::Fr comm[3];
  const std::string* given[3] = {&a.comm_r_old, &a.comm_d_new, &a.comm_r_new};
  const char* names[3] = {"--comm-r-old", "--comm-d-new", "--comm-r-new"};
  for (int i = 0; i < 3; ++i) {
    if (given[i]->empty()) return fail(std::string("--kind snap-update needs ") + names[i], a.json);
    auto b = fc::parse_commitment(*given[i], i == 1 ? fc::CommitmentKind::kUnsealed : fc::CommitmentKind::kSealed);
    if (!b.ok()) return fail(std::string(names[i]) + ": " + b.status().message(), a.json);
    auto f = fc::Fr::from_bytes(*b, field::Endian::kLittle);
    if (!f.ok()) return fail(std::string(names[i]) + ": not a field element", a.json);
    comm[i] = *f;
  }
  auto vk = read_vk(a.vk);
  if (!vk.ok()) return fail(vk.status().message(), a.json);
  if (vk->ic.size() != shape->num_inputs()) {
    return fail(a.vk + " has " + std::to_string(vk->ic.size()) + " IC points but a " + proof->name +
                    " update partition has " + std::to_string(shape->num_inputs()) + " inputs (wrong key?)",
                a.json);
  }
  auto bytes = read_file(a.proof, std::uint64_t{1} << 24);
  if (!bytes.ok()) return fail(bytes.status().message(), a.json);
  auto proofs = groth16::read_proofs<groth16::Bls12_381>(*bytes);
  if (!proofs.ok()) return fail(a.proof + ": " + proofs.status().message(), a.json);
  if (proofs->size() != shape->partitions) {
    return fail(a.proof + " holds " + std::to_string(proofs->size()) + " proofs; a " + proof->name + " update has " +
                    std::to_string(shape->partitions) + " partitions",
                a.json);
  }
  const auto pvk = groth16::prepare_verifying_key(*vk);
  std::vector<bool> valid;
  for (unsigned k = 0; k < proofs->size(); ++k) {
    auto in = fc::update_public_inputs(*shape, k, fc::update_h_default(*shape), comm[0], comm[1], comm[2]);
    if (!in.ok()) return fail(in.status().message(), a.json);
    auto ok = groth16::verify(pvk, (*proofs)[k], *in);
    if (!ok.ok()) return fail("partition " + std::to_string(k) + ": " + ok.status().message(), a.json);
    valid.push_back(*ok);
  }
  return report_verification(valid, proof->name + " update, ", a.json);
}

int run_verify_filecoin(const FilecoinVerifyArgs& a) {
  if (a.kind == "window-post" || a.kind == "winning-post") return verify_post(a);
  if (a.kind == "snap-update") return verify_update(a);
  if (a.kind != "porep") {
    return fail("verify --kind: porep, window-post, winning-post or snap-update", a.json);
  }
  if (!a.c1.empty()) {
    // The public values of a C1: replica_id, comm_d, comm_r, the seed and the registered proof.
    auto in = read_c1_file(a.c1);
    if (!in.ok()) return fail(in.status().message(), a.json);
    const auto& c1 = in->c1;
    if (!a.sector_size.empty()) {
      auto size = fc::find_sector_size(a.sector_size);
      if (!size.ok()) return fail(size.status().message(), a.json);
      if (size->bytes != c1.registered_proof.size.bytes) {
        return fail(a.c1 + " is a " + c1.registered_proof.name + " C1, not " + size->name, a.json);
      }
    }
    auto ctx = fc::c1_context(c1.registered_proof);
    if (!ctx.ok()) return fail(ctx.status().message(), a.json);
    return verify_partitions(a, c1.registered_proof.size, c1.registered_proof.partitions(),
                             [&](std::size_t k) { return fc::c1_public_inputs(c1, *ctx, k); });
  }
  auto size = fc::find_sector_size(a.sector_size);
  if (!size.ok()) return fail(size.status().message(), a.json);
  const fc::StackedShape s = fc::stacked_shape(*size);
  circuits::sdr::Bytes32 porep_id{};
  bool legacy = false;
  std::optional<fc::RegisteredSealProof> proof;  // with --registered-proof: its challenge mode
  if (a.registered_proof >= 0) {
    if (a.registered_proof > 19) return fail("--registered-proof: Filecoin's seal proofs are numbered 0..19", a.json);
    if (!a.porep_id.empty()) return fail("give --registered-proof or --porep-id, not both", a.json);
    proof = fc::registered_seal_proofs()[static_cast<std::size_t>(a.registered_proof)];
    if (proof->size.bytes != size->bytes) {
      return fail("--registered-proof " + std::to_string(a.registered_proof) + " is " + proof->name + ", not a " +
                      size->name + " proof",
                  a.json);
    }
    porep_id = proof->porep_id();
    legacy = proof->legacy_graph();  // StackedDrg*V1: API 1.0, the legacy expander graph
  } else {
    auto p = hex32("porep-id", a.porep_id.empty() ? std::string(64, '0') : a.porep_id);
    if (!p.ok()) return fail(p.status().message(), a.json);
    porep_id = *p;
    if (a.api_version != "1.0" && a.api_version != "1.1" && a.api_version != "1.2") {
      return fail("--api-version: 1.0, 1.1 or 1.2", a.json);
    }
    legacy = a.api_version == "1.0";
  }
  circuits::sdr::Bytes32 prover{}, ticket{}, seed{}, comm_d{}, comm_r{};
  for (auto [name, value, out] : {std::tuple{"prover-id", &a.prover_id, &prover},
                                  std::tuple{"ticket", &a.ticket, &ticket}, std::tuple{"seed", &a.seed, &seed}}) {
    auto v = hex32(name, *value);
    if (!v.ok()) return fail(v.status().message(), a.json);
    *out = *v;
  }
  // Commitments: hex or Filecoin CIDs.
  auto d = fc::parse_commitment(a.comm_d, fc::CommitmentKind::kUnsealed);
  if (!d.ok()) return fail("--comm-d: " + d.status().message(), a.json);
  auto r = fc::parse_commitment(a.comm_r, fc::CommitmentKind::kSealed);
  if (!r.ok()) return fail("--comm-r: " + r.status().message(), a.json);
  comm_d = *d, comm_r = *r;
  const auto replica_id = circuits::sdr::replica_id(prover, a.sector_number, ticket, comm_d, porep_id);
  if (proof) {
    // The registered proof decides how the challenges are drawn (interactive, synthetic, NI).
    fc::C1 pub;
    pub.registered_proof = *proof, pub.replica_id = replica_id, pub.comm_d = comm_d, pub.comm_r = comm_r;
    pub.seed = seed, pub.ticket = ticket;
    auto ctx = fc::c1_context(*proof);
    if (!ctx.ok()) return fail(ctx.status().message(), a.json);
    return verify_partitions(a, *size, proof->partitions(),
                             [&](std::size_t k) { return fc::c1_public_inputs(pub, *ctx, k); });
  }
  auto graph = circuits::sdr::ParentGraph::create(s.nodes, porep_id, legacy);
  if (!graph.ok()) return fail(graph.status().message(), a.json);
  return verify_partitions(a, *size, size->partitions, [&](std::size_t k) {
    const auto ch = circuits::sdr::challenges(replica_id, seed, s.nodes, static_cast<std::uint32_t>(k), s.challenges);
    return fc::porep_public_inputs(s, *graph, {replica_id, comm_d, comm_r}, ch);
  });
}

int run_setup_filecoin(const FilecoinSetupArgs& a) {
  if (a.kind != "porep" && a.kind != "window-post" && a.kind != "winning-post" && a.kind != "snap-update") {
    return fail("setup --kind: porep, window-post, winning-post or snap-update", a.json);
  }
  auto size = fc::find_sector_size(a.sector_size);
  if (!size.ok()) return fail(size.status().message(), a.json);
  if (!size->published) {
    return fail(std::string("Filecoin has no parameters for ") + size->name + " (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)",
                a.json);
  }
  if (a.out_dir.empty()) return fail("setup --kind " + a.kind + " needs --out DIR", a.json);
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); };
  const auto t0 = Clock::now();
  r1cs::ShapeRecorder<fc::Fr> rec;
  std::string file_stem;
  if (a.kind == "porep") {
    const fc::StackedShape s = fc::stacked_shape(*size);
    if (Status st = fc::synthesize_stacked(rec, s, fc::StackedWitness::blank(s)); !st.ok())
      return fail(st.message(), a.json);
    file_stem = fc::stacked_params_stem(*size);
  } else if (a.kind == "snap-update") {
    auto stem = fc::update_params_stem(*size);
    if (!stem.ok()) return fail(stem.status().message(), a.json);
    auto u = fc::update_shape(size->bytes);
    if (!u.ok()) return fail(u.status().message(), a.json);
    if (Status st = fc::synthesize_update(rec, *u, fc::UpdateWitness::blank(*u)); !st.ok())
      return fail(st.message(), a.json);
    file_stem = *stem;
  } else {
    const bool winning = a.kind == "winning-post";
    auto proof = fc::find_registered_post_proof(std::string(winning ? "StackedDrgWinning" : "StackedDrgWindow") +
                                                size->name + (winning ? "V1" : "V1_2"));
    if (!proof.ok()) return fail(proof.status().message(), a.json);
    const fc::FallbackShape f = fc::fallback_shape(*proof);
    if (Status st = fc::synthesize_fallback(rec, f, fc::FallbackWitness::blank(f)); !st.ok())
      return fail(st.message(), a.json);
    file_stem = fc::post_params_stem(*proof);
  }
  const double shape_ms = ms(t0);
  if (!a.json) {
    std::printf(
        "DEVELOPMENT SETUP of Filecoin's %s %s circuit (%zu constraints): the trapdoor derives from the seed; "
        "anyone can forge proofs for these keys. Filecoin's real keys: the published .params / .vk.\n",
        size->name, a.kind.c_str(), rec.shape().num_constraints());
    std::fflush(stdout);
  }
  Rng rng(a.seed ^ 0x736574757021ull);
  const auto t1 = Clock::now();
  auto pk =
      groth16::generate_parameters<groth16::Bls12_381>(rec.shape(), groth16::Trapdoor<groth16::Bls12_381>::random(rng));
  if (!pk.ok()) return fail(pk.status().to_string(), a.json);
  const double keys_ms = ms(t1);
  std::error_code ec;
  std::filesystem::create_directories(a.out_dir, ec);
  if (ec) return fail("cannot create " + a.out_dir + ": " + ec.message(), a.json);
  const std::string stem = (std::filesystem::path(a.out_dir) / file_stem).string();
  const auto params = groth16::write_parameters(*pk);
  const auto vk = groth16::write_verifying_key(pk->vk);
  if (Status st = groth16::write_file(stem + ".params", params); !st.ok()) return fail(st.message(), a.json);
  if (Status st = groth16::write_file(stem + ".vk", vk); !st.ok()) return fail(st.message(), a.json);
  if (a.json) {
    std::printf("%s\n", Json{{"ok", true},
                             {"kind", a.kind},
                             {"sector_size", size->name},
                             {"constraints", rec.shape().num_constraints()},
                             {"params", stem + ".params"},
                             {"vk", stem + ".vk"},
                             {"params_bytes", params.size()},
                             {"ms", {{"shape", shape_ms}, {"keys", keys_ms}, {"total", ms(t0)}}},
                             {"insecure_development_setup", true}}
                            .dump()
                            .c_str());
  } else {
    std::printf("wrote %s.params (%zu bytes) and .vk (%zu bytes)\n", stem.c_str(), params.size(), vk.size());
    std::printf("time: shape %.1f s, keys %.1f s\n", shape_ms / 1e3, keys_ms / 1e3);
  }
  return 0;
}

namespace {

std::string hex_of(const circuits::sdr::Bytes32& b) {
  std::string o;
  char buf[3];
  for (auto x : b) std::snprintf(buf, sizeof(buf), "%02x", x), o += buf;
  return o;
}

int gen_synthetic_c1(const GenC1Args& a, const fc::RegisteredSealProof& proof) {
  if (proof.challenges != fc::PorepChallenges::kInteractive) {
    return fail(proof.name + ": synthetic C1s are made for interactive PoRep (V1, V1_1)", a.json);
  }
  auto ctx = fc::c1_context(proof);
  if (!ctx.ok()) return fail(ctx.status().message(), a.json);
  const auto t0 = std::chrono::steady_clock::now();
  auto c1 = fc::synthetic_c1(proof, *ctx, a.data_seed);
  if (!c1.ok()) return fail(c1.status().message(), a.json);
  if (Status st = fc::check_c1(*c1, *ctx); !st.ok()) return fail("the options make an input that does not check (" + st.message() + ")", a.json);
  // Marked for whoever finds the file: serde and zkpipe ignore the unknown key.
  std::string text = fc::c1_json(*c1);
  text.insert(text.size() - 1, ",\"zkpipe_synthetic\":true");
  if (a.wrap) {
    auto in = fc::parse_c1(text);
    if (!in.ok()) return fail("the options make an input that does not check (" + in.status().message() + ")", a.json);
    text = fc::c1_wrapper_json(in->c1, a.sector_number);
  }
  if (Status st =
          groth16::write_file(a.out, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
      !st.ok()) {
    return fail(st.message(), a.json);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (a.json) {
    std::printf("%s\n", Json{{"ok", true},
                             {"registered_proof", proof.name},
                             {"synthetic", true},
                             {"out", a.out},
                             {"bytes", text.size()},
                             {"wrapped", a.wrap},
                             {"replica_id", hex_of(c1->replica_id)},
                             {"seed", hex_of(c1->seed)},
                             {"comm_d", hex_of(c1->comm_d)},
                             {"comm_r", hex_of(c1->comm_r)},
                             {"seconds", seconds}}
                            .dump()
                            .c_str());
  } else {
    std::printf(
        "SYNTHETIC %s C1 (%s, %u partitions): consistent paths and labels, but no sector behind it; wrote %s "
        "(%zu bytes) in %.1f s\n",
        proof.size.name, proof.name.c_str(), proof.size.partitions, a.out.c_str(), text.size(), seconds);
  }
  return 0;
}

}  // namespace

int run_gen_c1(const GenC1Args& a) {
  Result<fc::RegisteredSealProof> proof = Status::internal("unset");
  if (!a.sector_size.empty()) {
    auto size = fc::find_sector_size(a.sector_size);
    if (!size.ok()) return fail(size.status().message(), a.json);
    proof = fc::find_registered_seal_proof(std::string("StackedDrg") + size->name + "V1_1");
  } else {
    proof = fc::find_registered_seal_proof(a.registered_proof);
  }
  if (!proof.ok()) return fail(proof.status().message(), a.json);
  if (proof->size.bytes > (std::uint64_t{8} << 20) && !a.synthetic) {
    return fail(proof->name +
                    ": gen-c1 seals in memory, up to 8 MiB sectors (2KiB, 8MiB); --synthetic writes a "
                    "consistent synthetic C1 of any size",
                a.json);
  }
  if (a.out.empty()) return fail("gen-c1 needs --out FILE", a.json);
  if (a.synthetic) return gen_synthetic_c1(a, *proof);
  Rng rng(a.data_seed);
  auto random32 = [&] {
    circuits::sdr::Bytes32 b{};
    for (auto& x : b) x = static_cast<std::uint8_t>(rng.next());
    return b;
  };
  fc::SealInputs in;
  in.porep_id = proof->porep_id();
  in.sector_id = a.sector_number;
  in.prover_id = fc::prover_id_from_miner(a.miner_id);
  if (!a.prover_id.empty()) {
    auto p = hex32("prover-id", a.prover_id);
    if (!p.ok()) return fail(p.status().message(), a.json);
    in.prover_id = *p;
  }
  in.ticket = random32();
  circuits::sdr::Bytes32 seed = random32();
  for (auto [name, value, out] : {std::tuple{"ticket", &a.ticket, &in.ticket}, std::tuple{"seed", &a.seed, &seed}}) {
    if (value->empty()) continue;
    auto v = hex32(name, *value);
    if (!v.ok()) return fail(v.status().message(), a.json);
    *out = *v;
  }
  auto ctx = fc::c1_context(*proof);
  if (!ctx.ok()) return fail(ctx.status().message(), a.json);
  std::vector<circuits::sdr::Bytes32> data(ctx->shape.nodes);
  for (auto& d : data) {
    d = random32();
    d[31] &= 0x3f;  // Fr32 data, as after Filecoin's padding
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto sector = fc::seal_in_memory(ctx->shape, ctx->graph, std::move(data), in);
  if (!sector.ok()) return fail(sector.status().message(), a.json);
  auto c1 = fc::make_c1(*proof, *ctx, *sector, seed, in.ticket);
  if (!c1.ok()) return fail(c1.status().message(), a.json);
  if (Status st = fc::check_c1(*c1, *ctx); !st.ok()) return fail("the options make an input that does not check (" + st.message() + ")", a.json);
  const std::string text = a.wrap ? fc::c1_wrapper_json(*c1, a.sector_number) : fc::c1_json(*c1);
  if (Status st =
          groth16::write_file(a.out, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
      !st.ok()) {
    return fail(st.message(), a.json);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto hex = hex_of;
  if (a.json) {
    std::printf("%s\n", Json{{"ok", true},
                             {"registered_proof", proof->name},
                             {"out", a.out},
                             {"bytes", text.size()},
                             {"wrapped", a.wrap},
                             {"prover_id", hex(in.prover_id)},
                             {"sector_number", a.sector_number},
                             {"ticket", hex(in.ticket)},
                             {"seed", hex(seed)},
                             {"comm_d", hex(c1->comm_d)},
                             {"comm_r", hex(c1->comm_r)},
                             {"comm_d_cid", fc::commitment_cid(c1->comm_d, fc::CommitmentKind::kUnsealed)},
                             {"comm_r_cid", fc::commitment_cid(c1->comm_r, fc::CommitmentKind::kSealed)},
                             {"seconds", seconds}}
                            .dump()
                            .c_str());
  } else {
    std::printf("sealed a %s sector of random data (%s) in %.1f s; wrote %s (%zu bytes%s)\n", proof->size.name,
                proof->name.c_str(), seconds, a.out.c_str(), text.size(), a.wrap ? ", cuzk wrapper" : "");
    std::printf("prover id %s, sector %llu\nticket %s\nseed   %s\ncomm_d %s (%s)\ncomm_r %s (%s)\n",
                hex(in.prover_id).c_str(), static_cast<unsigned long long>(a.sector_number), hex(in.ticket).c_str(),
                hex(seed).c_str(), hex(c1->comm_d).c_str(),
                fc::commitment_cid(c1->comm_d, fc::CommitmentKind::kUnsealed).c_str(), hex(c1->comm_r).c_str(),
                fc::commitment_cid(c1->comm_r, fc::CommitmentKind::kSealed).c_str());
  }
  return 0;
}

namespace {

/// BLAKE2b-512 of a file, streamed; the first 32 hex digits (parameters.json's digest).
Result<std::string> file_digest(const std::string& path, bool progress) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Status::io_error("cannot open " + path);
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_blake2b512(), nullptr) != 1)
    return Status::internal("BLAKE2b unavailable");
  std::vector<char> buf(std::size_t{8} << 20);
  std::uint64_t done = 0, next_report = std::uint64_t{4} << 30;
  while (f) {
    f.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto n = static_cast<std::size_t>(f.gcount());
    if (n == 0) break;
    EVP_DigestUpdate(ctx.get(), buf.data(), n);
    done += n;
    if (progress && done >= next_report) {
      std::fprintf(stderr, "  ... %.0f GB hashed\n", static_cast<double>(done) / 1e9);
      next_report += std::uint64_t{4} << 30;
    }
  }
  if (f.bad()) return Status::io_error("cannot read " + path);
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx.get(), md, &len);
  std::string hex;
  char b[3];
  for (unsigned i = 0; i < 16 && i < len; ++i) std::snprintf(b, sizeof(b), "%02x", md[i]), hex += b;
  return hex;
}

}  // namespace

int run_params_check(const ParamsCheckArgs& a) {
  std::error_code ec;
  if (!std::filesystem::is_directory(a.dir, ec)) return fail(a.dir + " is not a directory", a.json);
  Json files = Json::array();
  int present = 0, bad = 0;
  // Every published circuit zkpipe knows: PoRep per size, then WinningPoSt and WindowPoSt per size
  // (Window V1 and V1_2 share their files), then SnapDeals per size.
  struct Circuit {
    std::string kind;
    fc::SectorSize size;
    std::string stem;
    std::size_t inputs;
    std::function<std::optional<fc::KeySections>()> expect;  // computed only when a .params is there
  };
  std::vector<Circuit> circuits;
  for (const auto& size : fc::sector_sizes()) {
    if (!size.published) continue;
    circuits.push_back({"porep", size, fc::stacked_params_stem(size), fc::stacked_shape(size).num_inputs(),
                        [size] { return fc::stacked_key_sections(size); }});
  }
  for (const auto& p : fc::registered_post_proofs()) {
    if (!p.winning && !p.api_1_2) continue;  // V1 shares V1_2's files
    circuits.push_back({p.winning ? "winning-post" : "window-post", p.size, fc::post_params_stem(p),
                        fc::fallback_shape(p).num_inputs(), [p]() -> std::optional<fc::KeySections> {
                          if (auto k = fc::fallback_key_sections(p)) return k;
                          const fc::FallbackShape f = fc::fallback_shape(p);
                          if (f.num_inputs() > 1000) return std::nullopt;  // the 64 GiB window: minutes to count
                          r1cs::DensitySystem<fc::Fr> m;
                          if (!fc::synthesize_fallback(m, f, fc::FallbackWitness::blank(f)).ok()) return std::nullopt;
                          m.finish_with_input_rows();
                          return key_sections(m);
                        }});
  }
  for (const auto& p : fc::registered_update_proofs()) {
    auto stem = fc::update_params_stem(p.size);
    auto shape = fc::update_shape(p.size.bytes);
    if (!stem.ok() || !shape.ok()) continue;
    circuits.push_back(
        {"snap-update", p.size, *stem, shape->num_inputs(), [u = *shape]() -> std::optional<fc::KeySections> {
           if (u.nodes > (std::uint64_t{8} << 20) / 32) return std::nullopt;  // larger: minutes to count
           r1cs::DensitySystem<fc::Fr> m;
           if (!fc::synthesize_update(m, u, fc::UpdateWitness::blank(u)).ok()) return std::nullopt;
           m.finish_with_input_rows();
           return key_sections(m);
         }});
  }
  for (const auto& circuit : circuits) {
    const auto& size = circuit.size;
    const std::string& stem = circuit.stem;
    for (const char* ext : {".params", ".vk"}) {
      const std::string name = stem + ext;
      const std::string path = (std::filesystem::path(a.dir) / name).string();
      Json e{{"kind", circuit.kind}, {"sector_size", size.name}, {"file", name}};
      std::vector<std::string> problems;
      auto bytes = regular_file_size(path);
      e["present"] = bytes.ok();
      if (!bytes.ok()) {
        if (bytes.status().code() != StatusCode::kNotFound) problems.push_back(bytes.status().message());
      } else {
        ++present;
        e["bytes"] = *bytes;
        if (std::string(ext) == ".params") {
          auto s = groth16::read_parameter_sections<groth16::Bls12_381>(path);
          if (!s.ok()) {
            problems.push_back(s.status().message());
          } else {
            e["sections"] = {{"ic", s->ic}, {"h", s->h},       {"l", s->l},
                             {"a", s->a},   {"b_g1", s->b_g1}, {"b_g2", s->b_g2}};
            const auto expect = circuit.expect();
            const bool fits = expect && s->ic == expect->ic && s->h == expect->h && s->l == expect->l &&
                              s->a == expect->a && s->b_g1 == expect->b && s->b_g2 == expect->b;
            if (!expect) {
              e["sections_checked"] = false;
              if (s->ic != circuit.inputs) {
                problems.push_back("its ic count " + std::to_string(s->ic) + " is not the circuit's " +
                                   std::to_string(circuit.inputs) + " inputs");
              }
            } else if (!fits) {
              problems.push_back("its sections (ic " + std::to_string(s->ic) + ", h " + std::to_string(s->h) + ", l " +
                                 std::to_string(s->l) + ", a " + std::to_string(s->a) + ", b " +
                                 std::to_string(s->b_g1) + ") are not those of Filecoin's " + size.name + " " +
                                 circuit.kind + " circuit (ic " + std::to_string(expect->ic) + ", h " +
                                 std::to_string(expect->h) + ", l " + std::to_string(expect->l) + ", a " +
                                 std::to_string(expect->a) + ", b " + std::to_string(expect->b) + ")");
            }
          }
        } else {
          auto vk = read_vk(path);
          if (!vk.ok()) {
            problems.push_back(vk.status().message());
          } else if (vk->ic.size() != circuit.inputs) {
            problems.push_back("it has " + std::to_string(vk->ic.size()) + " IC points; the circuit has " +
                               std::to_string(circuit.inputs) + " inputs");
          }
        }
        if (a.digest) {
          if (!a.json && *bytes > (std::uint64_t{1} << 30)) {
            std::fprintf(stderr, "hashing %s (%.1f GB)\n", name.c_str(), static_cast<double>(*bytes) / 1e9);
          }
          auto d = file_digest(path, !a.json);
          if (!d.ok()) {
            problems.push_back(d.status().message());
          } else {
            e["digest"] = *d;
            const auto pub = fc::find_published(name);
            e["published_digest"] = pub ? pub->digest : "";
            e["filecoins"] = pub && *d == pub->digest;
            if (!pub || *d != pub->digest) {
              problems.push_back("its digest " + *d + " is not the published " + (pub ? pub->digest : "?") +
                                 " (development keys, or a damaged download)");
            }
          }
        }
      }
      e["ok"] = problems.empty();
      e["problems"] = problems;
      bad += problems.empty() ? 0 : 1;
      if (!a.json) {
        const std::string label = circuit.kind + " " + size.name;
        if (!bytes.ok() && problems.empty()) {
          std::printf("%-20s %-7s missing\n", label.c_str(), ext + 1);
        } else if (problems.empty()) {
          std::printf("%-20s %-7s ok (%s)\n", label.c_str(), ext + 1,
                      a.digest ? "Filecoin's published file" : "sections fit the circuit; digest not checked");
        } else {
          for (const auto& p : problems) std::printf("%-20s %-7s PROBLEM: %s\n", label.c_str(), ext + 1, p.c_str());
        }
      }
      files.push_back(std::move(e));
    }
  }
  if (present == 0 && !a.json) std::printf("no Filecoin parameter files in %s\n", a.dir.c_str());
  if (a.json) {
    std::printf("%s\n", Json{{"ok", bad == 0 && present > 0}, {"dir", a.dir}, {"files", files}}.dump().c_str());
  }
  return bad == 0 && present > 0 ? 0 : 1;
}

namespace {

/// A byte count from /proc/self/status ("VmRSS:", "VmHWM:" = peak RSS), 0 where /proc is absent.
std::uint64_t proc_status_bytes(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == field) {
      std::uint64_t kb = 0;
      in >> kb;
      return kb * 1024;
    }
    std::getline(in, key);
  }
  return 0;
}

/// Restarts the kernel's peak-RSS count at the present RSS (Linux 4.0+, "5" > clear_refs), so the
/// peak read afterwards is the synthesis's; false where that is not possible.
bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

/// SHA-256 over everything the prover receives (counts, Montgomery limbs, density words), in a
/// fixed order: equal digests mean byte-identical partitions.
std::string partition_digest(const r1cs::Partition<fc::Fr>& p) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
  std::vector<unsigned char> buffer;  // values are put 32 bytes at a time: hashed in 1 MiB pieces
  auto flush = [&] {
    EVP_DigestUpdate(ctx.get(), buffer.data(), buffer.size());
    buffer.clear();
  };
  auto put = [&](const void* data, std::size_t n) {
    if (buffer.size() + n > (1 << 20)) flush();
    if (n > (1 << 20)) {
      EVP_DigestUpdate(ctx.get(), data, n);
      return;
    }
    const auto* p = static_cast<const unsigned char*>(data);
    buffer.insert(buffer.end(), p, p + n);
  };
  auto vec = [&](const auto& v) {
    const std::uint64_t n = v.size();
    put(&n, sizeof n);
    put(v.data(), v.size() * sizeof(v[0]));
  };
  static_assert(sizeof(fc::Fr) == 32 && std::is_trivially_copyable_v<fc::Fr>);
  vec(p.inputs);
  {  // the witness as the dense vector it was before it became compact: the same bytes
    const std::uint64_t n = p.aux.size();
    put(&n, sizeof n);
    p.aux.for_each([&](const fc::Fr& x) { put(&x, sizeof x); });
  }
  // a and b dense, then c as the prover forms it (a o b), in the layout of the builds that kept
  // dense a, b, c: digests stay comparable with theirs (docs/synthesis.md).
  const std::uint64_t rows = p.a.size();
  for (const auto* col : {&p.a, &p.b}) {
    put(&rows, sizeof rows);
    col->for_each([&](const fc::Fr& x) { put(&x, sizeof x); });
  }
  put(&rows, sizeof rows);
  {
    const auto b = p.b.expand(p.b.size());
    std::size_t i = 0;
    p.a.for_each([&](const fc::Fr& x) {
      const fc::Fr c = x * b[i++];
      put(&c, sizeof c);
    });
  }
  for (const auto* d : {&p.a_aux, &p.b_input, &p.b_aux}) {
    const std::uint64_t bits = d->size();
    put(&bits, sizeof bits);
    vec(d->words());
  }
  flush();
  unsigned char md[32];
  unsigned len = 0;
  EVP_DigestFinal_ex(ctx.get(), md, &len);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) out += {kHex[md[i] >> 4], kHex[md[i] & 15]};
  return out;
}

/// How many values of a vector are 0, 1, other values below 2^64, and full field elements: what a
/// compact witness and compact a/b would store (docs/synthesis.md).
/// `each(visit)` calls visit(value) for every value.
template <class Each>
Json value_census(Each each) {
  std::size_t n = 0, zero = 0, one = 0, small = 0;
  each([&](const fc::Fr& x) {
    ++n;
    if (x.is_zero()) {
      ++zero;
    } else if (x.is_one()) {
      ++one;
    } else {
      const auto r = x.to_canonical();
      small += (r[1] | r[2] | r[3]) == 0 ? 1 : 0;
    }
  });
  return Json{{"zero", zero}, {"one", one}, {"u64", small}, {"full", n - zero - one - small}};
}
Json value_census(const r1cs::CompactColumn<fc::Fr>& v) {
  return value_census([&](auto visit) { v.for_each(visit); });
}

}  // namespace

int run_synthesize_filecoin(const SynthesizeArgs& a) {
  if (a.kind != "porep") return fail("synthesize --kind knows porep", a.json);
  using Clock = std::chrono::steady_clock;
  auto sec = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  auto cpu = [] {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  };
  const auto t0 = Clock::now();
  auto in = read_c1_file(a.c1);
  if (!in.ok()) return fail(in.status().message(), a.json);
  const auto& c1 = in->c1;
  if (!a.sector_size.empty()) {
    auto size = fc::find_sector_size(a.sector_size);
    if (!size.ok()) return fail(size.status().message(), a.json);
    if (size->bytes != c1.registered_proof.size.bytes) {
      return fail(a.c1 + " is a " + c1.registered_proof.name + " C1, not " + size->name, a.json);
    }
  }
  auto ctx = fc::c1_context(c1.registered_proof);
  if (!ctx.ok()) return fail(ctx.status().message(), a.json);
  if (Status st = fc::check_c1(c1, *ctx); !st.ok()) return fail(a.c1 + ": " + st.message(), a.json);
  if (a.partition >= c1.vanilla_proofs.size())
    return fail("--partition: the C1 has " + std::to_string(c1.vanilla_proofs.size()) + " partitions", a.json);
  const double read_s = sec(t0);
  const std::uint64_t rss_before = proc_status_bytes("VmRSS:");
  const bool peak_is_synthesis = reset_peak_rss();
  const double cpu0 = cpu();
  const auto t1 = Clock::now();
  auto w = fc::c1_witness(c1, *ctx, a.partition);
  if (!w.ok()) return fail(w.status().message(), a.json);
  const double witness_s = sec(t1);
  // Sizes from the pinned key-section table (derived from the circuit, no key read): inputs and aux
  // exactly, constraints an upper bound (aux + 1/64: every PoRep size has fewer).
  const auto key = fc::stacked_key_sections(c1.registered_proof.size);
  r1cs::SizeHint hint;
  if (key) hint = {.inputs = key->ic, .aux = key->l, .constraints = key->l + key->l / 64};
  const auto t2 = Clock::now();
  r1cs::ProvingSystem<fc::Fr> cs(hint);
  if (Status st = fc::synthesize_stacked(cs, ctx->shape, *w); !st.ok()) return fail(st.message(), a.json);
  auto partition = std::move(cs).finish();
  const double circuit_s = sec(t2), synth_s = sec(t1), synth_cpu = cpu() - cpu0;
  const std::uint64_t peak = proc_status_bytes("VmHWM:");
  const auto bytes = partition.bytes();
  const std::size_t rows = partition.a.size();
  const std::size_t constraints = rows - partition.inputs.size();
  const std::string digest = a.digest ? partition_digest(partition) : std::string();
  if (a.json) {
    Json j{
        {"ok", true},
        {"kind", "porep"},
        {"registered_proof", c1.registered_proof.name},
        {"sector_size", c1.registered_proof.size.name},
        {"partition", a.partition},
        {"constraints", constraints},
        {"rows", rows},
        {"inputs", partition.inputs.size()},
        {"aux", partition.aux.size()},
        {"bytes",
         {{"abc", bytes.abc}, {"assignment", bytes.assignment}, {"density", bytes.density}, {"total", bytes.total()}}},
        {"seconds",
         {{"read_and_check", read_s}, {"witness_input", witness_s}, {"circuit", circuit_s}, {"synthesis", synth_s}}},
        {"synthesis_cpu_seconds", synth_cpu},
        {"ns_per_constraint", 1e9 * synth_s / static_cast<double>(constraints)},
        {"rss_before_synthesis", rss_before},
        {"peak_rss", peak},
        {"peak_rss_is_synthesis", peak_is_synthesis},
        {"peak_rss_gib", static_cast<double>(peak) / (1 << 30)}};
    if (a.digest) j["digest"] = digest;
    if (a.census) {
      j["census"] = {{"aux", value_census(partition.aux)},
                     {"a", value_census(partition.a)},
                     {"b", value_census(partition.b)},
                     {"c", value_census([&](auto visit) {
                        const auto b = partition.b.expand(partition.b.size());
                        std::size_t i = 0;
                        partition.a.for_each([&](const fc::Fr& x) { visit(x * b[i++]); });
                      })}};
    }
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf(
        "%s partition %zu: %zu constraints (%zu rows), %zu inputs, %zu aux; read + check %.1f s; synthesis "
        "(witness + a/b) %.2f s wall (input witness %.2f s, circuit %.2f s), %.2f CPU-s, %.0f ns/constraint\n"
        "partition bytes: a/b %.2f GiB, assignment %.2f GiB, density %.1f MiB; RSS before synthesis %.2f GiB, "
        "peak %.2f GiB%s\n",
        c1.registered_proof.name.c_str(), a.partition, constraints, rows, partition.inputs.size(), partition.aux.size(),
        read_s, synth_s, witness_s, circuit_s, synth_cpu, 1e9 * synth_s / static_cast<double>(constraints),
        static_cast<double>(bytes.abc) / (1 << 30), static_cast<double>(bytes.assignment) / (1 << 30),
        static_cast<double>(bytes.density) / (1 << 20), static_cast<double>(rss_before) / (1 << 30),
        static_cast<double>(peak) / (1 << 30), peak_is_synthesis ? " (during synthesis)" : " (process)");
    if (a.digest) std::printf("digest %s\n", digest.c_str());
  }
  return 0;
}

Result<FilecoinJob> filecoin_job(const FilecoinProveArgs& a) {
  if (a.kind == "porep") {
    if (a.c1.empty()) return Status::invalid_argument("--kind porep needs --c1 FILE");
    auto bytes = read_file(a.c1, std::uint64_t{1} << 31);
    if (!bytes.ok()) return bytes.status();
    auto in = fc::parse_c1(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
    if (!in.ok()) return Status::invalid_argument(a.c1 + ": " + in.status().message());
    const auto& size = in->c1.registered_proof.size;
    return FilecoinJob{"porep", size.name, in->c1.registered_proof.partitions(), std::move(*bytes)};
  }
  if (a.kind == "snap-update") {
    if (a.update_input.empty()) return Status::invalid_argument("--kind snap-update needs --update-input FILE");
    auto bytes = read_file(a.update_input, std::uint64_t{1} << 30);
    if (!bytes.ok()) return bytes.status();
    auto in = fc::parse_update_input(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
    if (!in.ok()) return Status::invalid_argument(a.update_input + ": " + in.status().message());
    return FilecoinJob{"snap-update", in->proof.size.name, in->shape.partitions, std::move(*bytes)};
  }
  if (a.kind != "window-post" && a.kind != "winning-post") {
    return Status::invalid_argument("--kind must be porep, window-post, winning-post or snap-update");
  }
  std::vector<std::uint8_t> text;
  std::string where = a.post_input;
  if (!a.post_input.empty()) {
    auto bytes = read_file(a.post_input, std::uint64_t{1} << 30);
    if (!bytes.ok()) return bytes.status();
    text = std::move(*bytes);
  } else {
    if (a.vanilla.empty() || a.randomness.empty() || a.registered_proof.empty()) {
      return Status::invalid_argument("--kind " + a.kind +
                                      " needs --post-input FILE, or --vanilla FILE... with "
                                      "--randomness HEX and --registered-proof N [--partition K]");
    }
    auto proof = fc::find_registered_post_proof(a.registered_proof);
    if (!proof.ok()) return Status::invalid_argument("--registered-proof: " + proof.status().message());
    auto r = hex32("randomness", a.randomness);
    if (!r.ok()) return r.status();
    std::string json = "{\"registered_proof\":" + std::to_string(proof->id) + ",\"randomness\":\"" + hex_of(*r) +
                       "\",\"partition\":" + std::to_string(a.partition) + ",\"vanilla_proofs\":[";
    for (std::size_t i = 0; i < a.vanilla.size(); ++i) {
      auto bytes = read_file(a.vanilla[i], std::uint64_t{64} << 20);
      if (!bytes.ok()) return bytes.status();
      json += (i ? ",\"" : "\"") + base64_encode(*bytes) + "\"";
    }
    json += "]}";
    text.assign(json.begin(), json.end());
    where = "--vanilla";
  }
  auto in = fc::parse_post_input(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()));
  if (!in.ok()) return Status::invalid_argument(where + ": " + in.status().message());
  if (in->proof.winning != (a.kind == "winning-post")) {
    return Status::invalid_argument(where + ": " + in->proof.name + " is not a " + a.kind + " proof");
  }
  return FilecoinJob{a.kind, in->proof.size.name, 1, std::move(text)};
}

int run_prove_filecoin(const FilecoinProveArgs& a) {
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); };
  const auto t0 = Clock::now();
  const std::string what = "prove --kind " + a.kind;
  if (a.out.empty()) return fail(what + " needs --out FILE (the partition proofs, concatenated)", a.json);
  auto job = filecoin_job(a);
  if (!job.ok()) return fail(job.status().message(), a.json);
  const auto size = *fc::find_sector_size(job->shape);
  std::string stem;
  if (job->circuit == "porep") {
    stem = fc::stacked_params_stem(size);
  } else if (job->circuit == "snap-update") {
    auto st = fc::update_params_stem(size);
    if (!st.ok()) return fail(st.status().message(), a.json);
    stem = *st;
  } else {
    auto in =
        fc::parse_post_input(std::string_view(reinterpret_cast<const char*>(job->input.data()), job->input.size()));
    if (!in.ok()) return fail(in.status().message(), a.json);
    stem = fc::post_params_stem(in->proof);
  }
  std::string params = a.params;
  if (params.empty()) {
    if (a.params_dir.empty()) return fail(what + " needs --params-dir DIR (or --params FILE)", a.json);
    params = (std::filesystem::path(a.params_dir) / (stem + ".params")).string();
  }
  auto device = engine::parse_prover_device(a.device);
  if (!device.ok()) return fail(device.status().message(), a.json);
  auto resolved = engine::resolve_prover_device(*device);
  if (!resolved.ok()) return fail(resolved.status().message(), a.json);
  auto loaded = engine::Groth16Workload<groth16::Bls12_381>::load_params_file(params);
  if (!loaded.ok()) {
    return fail(
        loaded.status().message() + (loaded.status().code() == StatusCode::kNotFound
                                         ? " (Filecoin's parameters, or development keys: zkpipe setup --kind " +
                                               job->circuit + " --sector-size " + size.name + ")"
                                         : std::string()),
        a.json);
  }
  auto pk = std::static_pointer_cast<const groth16::ProvingKey<groth16::Bls12_381>>(loaded->object);
  const double load_ms = ms(t0);
  std::unique_ptr<engine::Groth16Workload<groth16::Bls12_381>> w;
  if (job->circuit == "porep") {
    w = std::make_unique<engine::FilecoinPorepWorkload>(size, pk);
  } else if (job->circuit == "snap-update") {
    w = std::make_unique<engine::FilecoinUpdateWorkload>(size, pk);
  } else {
    w = std::make_unique<engine::FilecoinPostWorkload>(job->circuit == "winning-post", size, pk);
  }
  w->set_device(*resolved);
  engine::JobRequest req;
  req.circuit = job->circuit, req.shape = job->shape, req.input = std::move(job->input);
  req.partitions = job->partitions;
  const std::string input_name = job->circuit == "porep"         ? a.c1
                                 : job->circuit == "snap-update" ? a.update_input
                                                                 : (a.post_input.empty() ? "--vanilla" : a.post_input);
  const auto tc = Clock::now();
  if (Status st = w->validate(req); !st.ok()) return fail(input_name + ": " + st.message(), a.json);
  const double check_ms = ms(tc);
  std::vector<std::uint8_t> proofs;
  Json parts = Json::array();
  for (std::size_t k = 0; k < req.partitions; ++k) {
    const auto ts = Clock::now();
    auto s = w->synthesize(req, k);
    if (!s.ok()) return fail("partition " + std::to_string(k) + ": " + s.status().message(), a.json);
    const double synth_ms = ms(ts);
    const auto tp = Clock::now();
    auto pending = w->prove_start(std::move(*s));
    if (!pending.ok()) return fail("partition " + std::to_string(k) + ": " + pending.status().message(), a.json);
    auto proof = w->prove_finish(std::move(*pending));
    if (!proof.ok()) return fail("partition " + std::to_string(k) + ": " + proof.status().message(), a.json);
    const double prove_ms = ms(tp);
    auto ok = w->verify(req, k, *proof);
    if (!ok.ok() || !*ok) {
      return fail("partition " + std::to_string(k) + ": the proof does not verify under the key's own verifying key (" +
                      (ok.ok() ? std::string("invalid") : ok.status().message()) + ") — a damaged parameter file?",
                  a.json);
    }
    proofs.insert(proofs.end(), proof->begin(), proof->end());
    parts.push_back({{"partition", k}, {"synthesis_ms", synth_ms}, {"prove_ms", prove_ms}});
    if (!a.json)
      std::printf("partition %zu: synthesis %.1f s, prove %.1f s, verified\n", k, synth_ms / 1e3, prove_ms / 1e3);
  }
  if (Status st = groth16::write_file(a.out, proofs); !st.ok()) return fail(st.message(), a.json);
  if (a.json) {
    std::printf("%s\n", Json{{"ok", true},
                             {"kind", job->circuit},
                             {"sector_size", size.name},
                             {"partitions", req.partitions},
                             {"proof", a.out},
                             {"proof_bytes", proofs.size()},
                             {"ms", {{"load_params", load_ms}, {"check_input", check_ms}, {"total", ms(t0)}}},
                             {"stages", parts}}
                            .dump()
                            .c_str());
  } else {
    std::printf(
        "wrote %s (%zu partition proofs, %zu bytes); load params %.1f s, input checked in %.2f s, total %.1f s\n",
        a.out.c_str(), static_cast<std::size_t>(req.partitions), proofs.size(), load_ms / 1e3, check_ms / 1e3,
        ms(t0) / 1e3);
  }
  return 0;
}

int run_check_filecoin(const FilecoinCheckArgs& a) {
  using Fr = fc::Fr;
  auto job = filecoin_job(a.input);
  if (!job.ok()) return fail(job.status().message(), a.json);
  const std::string_view text(reinterpret_cast<const char*>(job->input.data()), job->input.size());
  struct Outcome {
    std::size_t partition = 0, constraints = 0;
    std::string unsatisfied, inputs;  // empty: fine
  };
  std::vector<Outcome> outcomes;
  std::string native;  // the native check's error, if any
  std::string kind_name;
  // One partition through the test constraint system, its inputs compared with the expected ones.
  auto run = [&](std::size_t k, auto&& synth, const std::vector<Fr>& want) {
    r1cs::TestSystem<Fr> cs;
    Outcome o;
    o.partition = k;
    if (Status st = synth(cs); !st.ok()) o.unsatisfied = "synthesis failed: " + st.message();
    o.constraints = cs.num_constraints();
    if (o.unsatisfied.empty() && !cs.is_satisfied()) o.unsatisfied = cs.which_is_unsatisfied().value_or("?");
    if (cs.inputs().size() != want.size() + 1) {
      o.inputs =
          std::to_string(cs.inputs().size() - 1) + " inputs, the public values give " + std::to_string(want.size());
    } else {
      for (std::size_t i = 0; i < want.size() && o.inputs.empty(); ++i) {
        if (cs.inputs()[i + 1] != want[i]) o.inputs = "input " + std::to_string(i) + " differs from the public values'";
      }
    }
    outcomes.push_back(std::move(o));
  };
  if (job->circuit == "porep") {
    auto in = fc::parse_c1(text);
    if (!in.ok()) return fail(in.status().message(), a.json);
    auto ctx = fc::c1_context(in->c1.registered_proof);
    if (!ctx.ok()) return fail(ctx.status().message(), a.json);
    kind_name = in->c1.registered_proof.name;
    if (Status st = fc::check_c1(in->c1, *ctx); !st.ok()) native = st.message();
    const std::size_t parts = in->c1.vanilla_proofs.size();
    if (a.porep_partition >= 0 && static_cast<std::size_t>(a.porep_partition) >= parts) {
      return fail(
          "--partition " + std::to_string(a.porep_partition) + ": the C1 has " + std::to_string(parts) + " partitions",
          a.json);
    }
    for (std::size_t k = 0; k < parts; ++k) {
      if (a.porep_partition >= 0 && k != static_cast<std::size_t>(a.porep_partition)) continue;
      auto w = fc::c1_witness(in->c1, *ctx, k);
      auto want = fc::c1_public_inputs(in->c1, *ctx, k);
      if (!w.ok() || !want.ok()) {
        outcomes.push_back({k, 0, "no witness: " + (w.ok() ? want.status() : w.status()).message(), ""});
        continue;
      }
      run(
          k, [&](auto& cs) { return fc::synthesize_stacked(cs, ctx->shape, *w); }, *want);
    }
  } else if (job->circuit == "snap-update") {
    auto in = fc::parse_update_input(text);
    if (!in.ok()) return fail(in.status().message(), a.json);
    kind_name = in->proof.name;
    if (Status st = fc::check_update_input(*in); !st.ok()) native = st.message();
    for (unsigned k = 0; k < in->shape.partitions; ++k) {
      // The witness straight from the proof (unchecked), so the circuit names what the native check refuses.
      const auto& p = in->partitions[k];
      auto want = fc::update_input_public_inputs(*in, k);
      auto w = fc::update_witness_from_proof(in->shape, k, in->h(), in->comm_r_old, in->comm_d_new, in->comm_r_new, p);
      if (!w.ok() || !want.ok()) {
        outcomes.push_back({k, 0, "no witness: " + (w.ok() ? want.status() : w.status()).message(), ""});
        continue;
      }
      run(
          k, [&](auto& cs) { return fc::synthesize_update(cs, in->shape, *w); }, *want);
    }
  } else {
    auto in = fc::parse_post_input(text);
    if (!in.ok()) return fail(in.status().message(), a.json);
    kind_name = in->proof.name;
    if (Status st = fc::check_post_input(*in); !st.ok()) native = st.message();
    fc::PostInput shaped = *in;
    if (a.sectors_per_partition != 0) {
      if (in->proof.winning) return fail("--sectors-per-partition is for WindowPoSt", a.json);
      if (a.sectors_per_partition < in->sectors.size() || a.sectors_per_partition > in->proof.sector_count) {
        return fail("--sectors-per-partition must be between the input's " + std::to_string(in->sectors.size()) +
                        " sectors and " + std::to_string(in->proof.sector_count),
                    a.json);
      }
      shaped.proof.sector_count = a.sectors_per_partition;
    }
    auto given = parse_post_sectors(a.sectors);
    if (!given.ok()) return fail(given.status().message(), a.json);
    std::vector<fc::PoStSector> pub = *given;
    if (pub.empty()) {
      for (const auto& p : in->sectors) pub.push_back({p.sector_id, p.comm_r});
    }
    // The challenges of API 1.0 count the sector's position in the production partition.
    auto want =
        fc::fallback_partition_inputs(shaped.proof, in->randomness, pub, in->partition * in->proof.sector_count);
    if (!want.ok()) return fail(want.status().message(), a.json);
    auto w = fc::post_witness(shaped);
    if (!w.ok()) {
      outcomes.push_back({in->partition, 0, "no witness: " + w.status().message(), ""});
    } else {
      run(
          in->partition, [&](auto& cs) { return fc::synthesize_fallback(cs, fc::fallback_shape(shaped.proof), *w); },
          *want);
    }
  }
  bool good = native.empty();
  Json parts = Json::array();
  for (const auto& o : outcomes) {
    good = good && o.unsatisfied.empty() && o.inputs.empty();
    parts.push_back({{"partition", o.partition},
                     {"constraints", o.constraints},
                     {"satisfied", o.unsatisfied.empty()},
                     {"first_unsatisfied", o.unsatisfied},
                     {"inputs_match", o.inputs.empty()},
                     {"inputs", o.inputs}});
  }
  if (a.json) {
    std::printf("%s\n", Json{{"ok", good},
                             {"registered_proof", kind_name},
                             {"native_check", native.empty() ? "ok" : native},
                             {"partitions", parts}}
                            .dump()
                            .c_str());
  } else {
    std::printf("%s: native check: %s\n", kind_name.c_str(), native.empty() ? "ok" : bounded_message(native).c_str());
    for (const auto& o : outcomes) {
      std::printf("partition %zu: %zu constraints, %s; public inputs %s\n", o.partition, o.constraints,
                  o.unsatisfied.empty()
                      ? "satisfied"
                      : ("NOT satisfied: first unsatisfied " + bounded_message(o.unsatisfied)).c_str(),
                  o.inputs.empty() ? "match" : ("do NOT match: " + o.inputs).c_str());
    }
  }
  return good ? 0 : 1;
}

namespace {

/// gen-vanilla --kind snap-update: one sector sealed in memory, updated with random data, every
/// partition's PartitionProof, written as the SnapDeals input.
int gen_vanilla_update(const GenVanillaArgs& a) {
  Result<fc::RegisteredUpdateProof> proof = Status::internal("unset");
  if (!a.registered_proof.empty()) {
    proof = fc::find_registered_update_proof(a.registered_proof);
  } else {
    auto size = fc::find_sector_size(a.sector_size);
    if (!size.ok()) return fail(size.status().message(), a.json);
    proof = fc::update_proof_for_size(*size);
  }
  if (!proof.ok()) return fail(proof.status().message(), a.json);
  if (proof->size.bytes > (std::uint64_t{8} << 20)) {
    return fail(proof->name + ": gen-vanilla seals in memory, up to 8 MiB sectors (2KiB, 8MiB)", a.json);
  }
  if (a.out.empty()) return fail("gen-vanilla needs --out FILE", a.json);
  auto seal_proof = fc::find_registered_seal_proof(std::string("StackedDrg") + proof->size.name + "V1_1");
  if (!seal_proof.ok()) return fail(seal_proof.status().message(), a.json);
  auto ctx = fc::c1_context(*seal_proof);
  if (!ctx.ok()) return fail(ctx.status().message(), a.json);
  auto shape = fc::update_shape(proof->size.bytes);
  if (!shape.ok()) return fail(shape.status().message(), a.json);
  Rng rng(a.data_seed);
  auto random32 = [&] {
    circuits::sdr::Bytes32 b{};
    for (auto& x : b) x = static_cast<std::uint8_t>(rng.next());
    return b;
  };
  const auto t0 = std::chrono::steady_clock::now();
  fc::SealInputs si;
  si.porep_id = seal_proof->porep_id();
  si.sector_id = a.first_sector;
  si.prover_id = fc::prover_id_from_miner(a.miner_id);
  si.ticket = random32();
  std::vector<circuits::sdr::Bytes32> data(ctx->shape.nodes);
  for (auto& d : data) {
    d = random32();
    d[31] &= 0x3f;  // Fr32 data
  }
  auto sector = fc::seal_in_memory(ctx->shape, ctx->graph, std::move(data), si);
  if (!sector.ok()) return fail(sector.status().message(), a.json);
  std::vector<fc::Fr> replica_old, data_new;
  for (const auto& node : sector->replica.replica)
    replica_old.push_back(*fc::Fr::from_bytes(node, field::Endian::kLittle));
  for (std::uint64_t i = 0; i < shape->nodes; ++i) {
    auto b = random32();
    b[31] &= 0x3f;
    data_new.push_back(*fc::Fr::from_bytes(b, field::Endian::kLittle));
  }
  const fc::Fr comm_c = *fc::Fr::from_bytes(sector->replica.comm_c, field::Endian::kLittle);
  auto u =
      fc::update_in_memory(*shape, fc::update_h_default(*shape), comm_c, std::move(replica_old), std::move(data_new));
  if (!u.ok()) return fail(u.status().message(), a.json);
  fc::UpdateInput in{*proof, *shape, u->comm_r_old, u->comm_d_new, u->comm_r_new, {}};
  for (unsigned k = 0; k < shape->partitions; ++k) {
    auto p = fc::make_update_partition_proof(*shape, *u, k);
    if (!p.ok()) return fail(p.status().message(), a.json);
    in.partitions.push_back(std::move(*p));
  }
  if (Status st = fc::check_update_input(in); !st.ok()) return fail("the options make an input that does not check (" + st.message() + ")", a.json);
  const std::string text = fc::update_input_json(in);
  if (Status st =
          groth16::write_file(a.out, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
      !st.ok()) {
    return fail(st.message(), a.json);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto r_old = fc::update_commitment_bytes(in.comm_r_old), d_new = fc::update_commitment_bytes(in.comm_d_new),
             r_new = fc::update_commitment_bytes(in.comm_r_new);
  if (a.json) {
    std::printf("%s\n", Json{{"ok", true},
                             {"registered_proof", proof->name},
                             {"registered_proof_id", proof->id},
                             {"out", a.out},
                             {"bytes", text.size()},
                             {"partitions", shape->partitions},
                             {"comm_r_old", hex_of(r_old)},
                             {"comm_d_new", hex_of(d_new)},
                             {"comm_r_new", hex_of(r_new)},
                             {"seconds", seconds}}
                            .dump()
                            .c_str());
  } else {
    std::printf(
        "sealed a %s sector, updated it with random data and wrote its %s input (%u partition(s)) to %s "
        "(%zu bytes) in %.1f s\n",
        proof->size.name, proof->name.c_str(), shape->partitions, a.out.c_str(), text.size(), seconds);
    std::printf("registered_proof %llu\ncomm_r_old %s\ncomm_d_new %s\ncomm_r_new %s\n",
                static_cast<unsigned long long>(proof->id), hex_of(r_old).c_str(), hex_of(d_new).c_str(),
                hex_of(r_new).c_str());
  }
  return 0;
}

}  // namespace

int run_gen_vanilla(const GenVanillaArgs& a) {
  if (a.kind == "snap-update") return gen_vanilla_update(a);
  if (a.kind != "window-post" && a.kind != "winning-post") {
    return fail("gen-vanilla --kind: window-post, winning-post or snap-update", a.json);
  }
  const bool winning = a.kind == "winning-post";
  Result<fc::RegisteredPoStProof> proof = Status::internal("unset");
  if (!a.registered_proof.empty()) {
    proof = fc::find_registered_post_proof(a.registered_proof);
  } else {
    auto size = fc::find_sector_size(a.sector_size);
    if (!size.ok()) return fail(size.status().message(), a.json);
    proof = fc::find_registered_post_proof(std::string(winning ? "StackedDrgWinning" : "StackedDrgWindow") +
                                           size->name + (winning ? "V1" : "V1_2"));
  }
  if (!proof.ok()) return fail(proof.status().message(), a.json);
  if (proof->winning != winning) return fail(proof->name + " is not a " + a.kind + " proof", a.json);
  if (proof->size.bytes > (std::uint64_t{8} << 20)) {
    return fail(proof->name + ": gen-vanilla seals in memory, up to 8 MiB sectors (2KiB, 8MiB)", a.json);
  }
  if (a.out.empty()) return fail("gen-vanilla needs --out FILE", a.json);
  if (a.sectors == 0 || a.sectors > proof->sector_count || (winning && a.sectors != 1)) {
    return fail("--sectors: a " + proof->name + " partition holds 1 to " +
                    std::to_string(winning ? 1u : proof->sector_count) + " sectors",
                a.json);
  }
  if (winning && a.partition != 0) return fail("a WinningPoSt has one partition (0)", a.json);
  Rng rng(a.data_seed);
  auto random32 = [&] {
    circuits::sdr::Bytes32 b{};
    for (auto& x : b) x = static_cast<std::uint8_t>(rng.next());
    return b;
  };
  fc::PostInput in;
  in.proof = *proof;
  in.partition = a.partition;
  in.randomness = random32();
  in.randomness[31] &= 0x3f;  // as Filecoin draws it (a field element's bytes)
  if (!a.randomness.empty()) {
    auto r = hex32("randomness", a.randomness);
    if (!r.ok()) return fail(r.status().message(), a.json);
    in.randomness = *r;
  }
  auto seal_proof = fc::find_registered_seal_proof(std::string("StackedDrg") + proof->size.name + "V1_1");
  if (!seal_proof.ok()) return fail(seal_proof.status().message(), a.json);
  auto ctx = fc::c1_context(*seal_proof);
  if (!ctx.ok()) return fail(ctx.status().message(), a.json);
  const auto t0 = std::chrono::steady_clock::now();
  Json sectors = Json::array();
  for (std::uint64_t i = 0; i < a.sectors; ++i) {
    fc::SealInputs si;
    si.porep_id = seal_proof->porep_id();
    si.sector_id = a.first_sector + i;
    si.prover_id = fc::prover_id_from_miner(a.miner_id);
    si.ticket = random32();
    std::vector<circuits::sdr::Bytes32> data(ctx->shape.nodes);
    for (auto& d : data) {
      d = random32();
      d[31] &= 0x3f;  // Fr32 data
    }
    auto sector = fc::seal_in_memory(ctx->shape, ctx->graph, std::move(data), si);
    if (!sector.ok()) return fail(sector.status().message(), a.json);
    const std::size_t index = static_cast<std::size_t>(a.partition * proof->sector_count + i);
    auto p = fc::make_post_sector_proof(*proof, in.randomness, si.sector_id, ctx->shape, *sector, index);
    if (!p.ok()) return fail(p.status().message(), a.json);
    sectors.push_back({{"number", si.sector_id},
                       {"comm_r", hex_of(sector->replica.comm_r)},
                       {"comm_r_cid", fc::commitment_cid(sector->replica.comm_r, fc::CommitmentKind::kSealed)}});
    in.sectors.push_back(std::move(*p));
  }
  if (Status st = fc::check_post_input(in); !st.ok()) return fail("the options make an input that does not check (" + st.message() + ")", a.json);
  const std::string text = fc::post_input_json(in);
  if (Status st =
          groth16::write_file(a.out, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
      !st.ok()) {
    return fail(st.message(), a.json);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (a.json) {
    std::printf("%s\n", Json{{"ok", true},
                             {"registered_proof", proof->name},
                             {"registered_proof_id", proof->id},
                             {"out", a.out},
                             {"bytes", text.size()},
                             {"randomness", hex_of(in.randomness)},
                             {"partition", a.partition},
                             {"sectors", sectors},
                             {"seconds", seconds}}
                            .dump()
                            .c_str());
  } else {
    std::printf(
        "sealed %llu %s sector(s) of random data and wrote their %s vanilla proofs to %s (%zu bytes) in %.1f s\n",
        static_cast<unsigned long long>(a.sectors), proof->size.name, proof->name.c_str(), a.out.c_str(), text.size(),
        seconds);
    std::printf("randomness %s, partition %llu\n", hex_of(in.randomness).c_str(),
                static_cast<unsigned long long>(a.partition));
    for (const auto& s : sectors) {
      std::printf("sector %s:%s\n", std::to_string(s["number"].get<std::uint64_t>()).c_str(),
                  s["comm_r"].get<std::string>().c_str());
    }
  }
  return 0;
}

}  // namespace zk::app
