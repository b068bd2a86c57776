#include "filecoin.hpp"

#include <chrono>

#include <nlohmann/json.hpp>

#include "base/file.hpp"
#include "circuits/filecoin/porep/sectors.hpp"
#include "circuits/filecoin/porep/vanilla.hpp"
#include "groth16/io.hpp"
#include "groth16/verifier.hpp"
#include "output.hpp"
#include "r1cs/constraint_system.hpp"

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

}  // namespace

int run_circuit_info(const CircuitInfoArgs& a) {
  if (a.kind != "porep") return fail("circuit-info knows --kind porep (PoSt and SnapDeals are not built yet)", a.json);
  auto size = fc::find_sector_size(a.sector_size);
  if (!size.ok()) return fail(size.status().message(), a.json);
  const fc::StackedShape s = fc::stacked_shape(*size);
  const auto t0 = std::chrono::steady_clock::now();
  r1cs::DensitySystem<fc::Fr> m;
  if (Status st = fc::synthesize_stacked(m, s, fc::StackedWitness::blank(s)); !st.ok()) return fail(st.message(), a.json);
  const std::size_t constraints = m.num_constraints();
  m.finish_with_input_rows();  // what the key generator adds: one row per input
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::size_t with_inputs = m.num_constraints();
  unsigned log = 0;
  while ((std::size_t{1} << log) < with_inputs) ++log;
  // The proving key's sections (bellperson: A over every input and the A-dense aux, B over the
  // B-dense inputs and aux, L over every aux, H over the domain minus one).
  const std::size_t key_a = m.num_inputs() + m.a_aux_density(), key_b = m.b_input_density() + m.b_aux_density();
  if (a.json) {
    std::printf("%s\n", Json{{"ok", true},
                             {"kind", "porep"},
                             {"sector_size", size->name},
                             {"constraints", constraints},
                             {"constraints_with_input_rows", with_inputs},
                             {"inputs", m.num_inputs()},
                             {"aux", m.num_aux()},
                             {"nonzeros", {{"a", m.nnz(0)}, {"b", m.nnz(1)}, {"c", m.nnz(2)}}},
                             {"density", {{"a_aux", m.a_aux_density()}, {"b_input", m.b_input_density()},
                                          {"b_aux", m.b_aux_density()}}},
                             {"key_points", {{"ic", m.num_inputs()}, {"h", (std::size_t{1} << log) - 1},
                                             {"l", m.num_aux()}, {"a", key_a}, {"b_g1", key_b}, {"b_g2", key_b}}},
                             {"domain_log", log},
                             {"layers", s.layers},
                             {"challenges_per_partition", s.challenges},
                             {"partitions", size->partitions},
                             {"seconds", seconds}}
                            .dump()
                            .c_str());
  } else {
    std::printf("porep %s (%u layers, %u challenges per partition, %u partitions), one partition:\n", size->name,
                s.layers, s.challenges, size->partitions);
    std::printf("  constraints %zu (%zu with the input rows), inputs %zu (ONE included), aux %zu, domain 2^%u\n",
                constraints, with_inputs, m.num_inputs(), m.num_aux(), log);
    std::printf("  non-zeros (with the input rows): A %zu, B %zu, C %zu\n", m.nnz(0), m.nnz(1), m.nnz(2));
    std::printf("  density: a_aux %zu, b_input %zu, b_aux %zu\n", m.a_aux_density(), m.b_input_density(),
                m.b_aux_density());
    std::printf("  key points: ic %zu, h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu\n", m.num_inputs(),
                (std::size_t{1} << log) - 1, m.num_aux(), key_a, key_b, key_b);
    std::printf("  counted in %.1f s\n", seconds);
  }
  return 0;
}

int run_verify_filecoin(const FilecoinVerifyArgs& a) {
  if (a.kind != "porep") return fail("verify --kind knows porep (PoSt and SnapDeals are not built yet)", a.json);
  auto size = fc::find_sector_size(a.sector_size);
  if (!size.ok()) return fail(size.status().message(), a.json);
  const fc::StackedShape s = fc::stacked_shape(*size);
  circuits::sdr::Bytes32 porep_id{};
  bool legacy = false;
  if (a.registered_proof >= 0) {
    if (a.registered_proof > 19) return fail("--registered-proof: Filecoin's seal proofs are numbered 0..19", a.json);
    if (!a.porep_id.empty()) return fail("give --registered-proof or --porep-id, not both", a.json);
    porep_id = circuits::sdr::porep_id(static_cast<std::uint64_t>(a.registered_proof));
    legacy = a.registered_proof <= 4;  // StackedDrg*V1: API 1.0, the legacy expander graph
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
  for (auto [name, value, out] : {std::tuple{"prover-id", &a.prover_id, &prover}, std::tuple{"ticket", &a.ticket, &ticket},
                                  std::tuple{"seed", &a.seed, &seed}, std::tuple{"comm-d", &a.comm_d, &comm_d},
                                  std::tuple{"comm-r", &a.comm_r, &comm_r}}) {
    auto v = hex32(name, *value);
    if (!v.ok()) return fail(v.status().message(), a.json);
    *out = *v;
  }
  auto vk = read_vk(a.vk);
  if (!vk.ok()) return fail(vk.status().message(), a.json);
  if (vk->ic.size() != s.num_inputs()) {
    return fail(a.vk + " has " + std::to_string(vk->ic.size()) + " IC points but a " + size->name +
                    " PoRep partition has " + std::to_string(s.num_inputs()) + " inputs (wrong key?)",
                a.json);
  }
  auto proof_bytes = read_file(a.proof, std::uint64_t{1} << 20);
  if (!proof_bytes.ok()) return fail(proof_bytes.status().message(), a.json);
  auto proofs = groth16::read_proofs<groth16::Bls12_381>(*proof_bytes);
  if (!proofs.ok()) return fail(a.proof + ": " + proofs.status().message(), a.json);
  if (proofs->size() != size->partitions) {
    return fail(a.proof + " holds " + std::to_string(proofs->size()) + " proofs; a " + size->name + " PoRep has " +
                    std::to_string(size->partitions) + " partitions",
                a.json);
  }
  auto graph = circuits::sdr::ParentGraph::create(s.nodes, porep_id, legacy);
  if (!graph.ok()) return fail(graph.status().message(), a.json);
  const auto replica_id = circuits::sdr::replica_id(prover, a.sector_number, ticket, comm_d, porep_id);
  const auto pvk = groth16::prepare_verifying_key(*vk);
  std::vector<bool> valid;
  for (std::size_t k = 0; k < proofs->size(); ++k) {
    const auto ch = circuits::sdr::challenges(replica_id, seed, s.nodes, static_cast<std::uint32_t>(k), s.challenges);
    auto inputs = fc::porep_public_inputs(s, *graph, {replica_id, comm_d, comm_r}, ch);
    if (!inputs.ok()) return fail(inputs.status().message(), a.json);
    auto ok = groth16::verify(pvk, (*proofs)[k], *inputs);
    if (!ok.ok()) return fail("partition " + std::to_string(k) + ": " + ok.status().message(), a.json);
    valid.push_back(*ok);
  }
  return report_verification(valid, std::string(size->name) + " PoRep, ", a.json);
}

}  // namespace zk::app
