#include "commands.hpp"

#include "aggregate.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "output.hpp"

#include "base/cpu.hpp"
#include "base/mapped_file.hpp"
#include "circuits/synthetic.hpp"
#include "engine/groth16_workload.hpp"
#include "gpu/pool.hpp"
#include "gpu/gpu.hpp"
#include "groth16/gpu_backend.hpp"
#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/public_inputs.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"

namespace zk::app {
namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

Status check_curve(const std::string& curve) {
  if (curve == "bls12-381" || curve == "bn254") return {};
  return Status::invalid_argument("unknown curve '" + curve + "' (expected bls12-381 or bn254)");
}

Status check_synthetic(const std::string& circuit, std::size_t constraints, const std::string& curve) {
  if (circuit != "synthetic") {
    return Status::invalid_argument("unknown circuit '" + circuit +
                                    "' (available: synthetic; Filecoin's circuits take --kind and --sector-size)");
  }
  if (constraints < 2) return Status::invalid_argument("--constraints must be at least 2");
  // QAP rows = constraints + 3 inputs; the domain must fit the field's two-adicity and this tool
  // keeps setups below 2^26 rows (about 30 GiB of keys).
  const unsigned max_log = 26;
  if (constraints + 3 > (std::size_t{1} << max_log)) {
    return Status::invalid_argument("--constraints " + std::to_string(constraints) + " is too large for " + curve +
                                    " here (at most 2^26 - 3)");
  }
  return {};
}

std::string base_name(const std::string& curve, std::size_t constraints) {
  return "synthetic-" + curve + "-n" + std::to_string(constraints);
}

template <class E>
int setup(const SetupArgs& a) {
  using Fr = typename E::Fr;
  const auto t0 = Clock::now();
  r1cs::ShapeRecorder<Fr> rec;
  const std::string name = base_name(a.curve, a.constraints), title = "synthetic";
  {
    circuits::SyntheticCircuit<Fr> circuit(a.constraints, a.seed);
    if (Status s = circuit.synthesize(rec); !s.ok()) return fail(s.to_string(), a.json);
  }
  const double shape_ms = ms_since(t0);
  Rng rng(a.seed ^ 0x736574757021ull);  // development trapdoor, derived from the seed
  const auto t1 = Clock::now();
  auto pk = groth16::generate_parameters<E>(rec.shape(), groth16::Trapdoor<E>::random(rng));
  if (!pk.ok()) return fail(pk.status().to_string(), a.json);
  const double keys_ms = ms_since(t1);
  std::error_code ec;
  std::filesystem::create_directories(a.out_dir, ec);
  if (ec) return fail("cannot create " + a.out_dir + ": " + ec.message(), a.json);
  const auto stem = std::filesystem::path(a.out_dir) / name;
  const auto t2 = Clock::now();
  const auto params = groth16::write_parameters(*pk);
  const auto vk = groth16::write_verifying_key(pk->vk);
  const auto params_path = stem.string() + ".params", vk_path = stem.string() + ".vk";
  if (Status s = groth16::write_file(params_path, params); !s.ok()) return fail(s.to_string(), a.json);
  if (Status s = groth16::write_file(vk_path, vk); !s.ok()) return fail(s.to_string(), a.json);
  const double write_ms = ms_since(t2);
  const auto& sh = rec.shape();
  if (a.json) {
    Json j{{"ok", true},
           {"circuit", title},
           {"curve", a.curve},
           {"constraints", sh.num_constraints()},
           {"inputs", sh.num_inputs},
           {"aux", sh.num_aux},
           {"domain", pk->domain_size()},
           {"params", params_path},
           {"vk", vk_path},
           {"params_bytes", params.size()},
           {"ms", {{"shape", shape_ms}, {"keys", keys_ms}, {"write", write_ms}, {"total", ms_since(t0)}}},
           {"insecure_development_setup", true}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("DEVELOPMENT SETUP: the trapdoor derives from the seed; anyone can forge proofs for these keys.\n");
    std::printf("circuit %s (%s): %zu constraints, %zu inputs (with ONE), %zu aux, domain 2^%u\n", title.c_str(),
                a.curve.c_str(), sh.num_constraints(), sh.num_inputs, sh.num_aux,
                groth16::domain_log_size(sh.qap_rows()));
    std::printf("wrote %s (%zu bytes) and %s (%zu bytes)\n", params_path.c_str(), params.size(), vk_path.c_str(),
                vk.size());
    std::printf("time: shape %.1f ms, keys %.1f ms, write %.1f ms, total %.1f ms\n", shape_ms, keys_ms, write_ms,
                ms_since(t0));
  }
  return 0;
}

template <class E>
typename E::Fr random_scalar(std::random_device& rd) {
  // r and s hide the witness: uniform field elements by rejection sampling on 256 bits from the OS
  // (std::random_device reads getrandom/urandom on Linux).
  using Fr = typename E::Fr;
  for (;;) {
    typename Fr::Repr limbs{};
    for (auto& l : limbs) l = (std::uint64_t{rd()} << 32) | rd();
    limbs.back() &= (std::uint64_t{1} << (Fr::kBits - 64 * (Fr::kLimbs - 1))) - 1;
    if (auto x = Fr::from_canonical(limbs); x.ok()) return *x;
  }
}

/// --device resolved (auto: the GPU when this build has CUDA and the machine a device).
Result<bool> use_gpu(const std::string& device) {
  auto d = engine::parse_prover_device(device);
  if (!d.ok()) return d.status();
  auto r = engine::resolve_prover_device(*d);
  if (!r.ok()) return r.status();
  return *r == engine::ProverDevice::kGpu;
}

template <class E>
int prove(const ProveArgs& a) {
  using Fr = typename E::Fr;
  auto gpu_on = use_gpu(a.device);
  if (!gpu_on.ok()) return fail(gpu_on.status().message(), a.json);
  gpu::DevicePool gpus({});  // device 0, no resident bases: one proof
  if (!a.json) std::printf("prove_start on the %s\n", *gpu_on ? "GPU" : "CPU");
  const auto t0 = Clock::now();
  auto bytes = groth16::read_file(a.params);
  if (!bytes.ok()) return fail(bytes.status().message(), a.json);
  auto pk = groth16::read_parameters<E>(*bytes, {.check_subgroup = false});
  std::vector<std::uint8_t>().swap(*bytes);
  if (!pk.ok()) {
    return fail(a.params + ": " + pk.status().message() + " (is it a " + a.curve + " parameter file? see --curve)",
                a.json);
  }
  const double load_ms = ms_since(t0);
  const std::size_t partitions = a.partitions;
  std::random_device rd;
  std::vector<groth16::Proof<E>> proofs;
  std::vector<std::vector<Fr>> publics;
  Json parts = Json::array();
  double synth_total = 0;
  groth16::ProveTimings sum;
  for (std::size_t k = 0; k < partitions; ++k) {
    const auto ts = Clock::now();
    r1cs::ProvingSystem<Fr> cs({.inputs = pk->vk.ic.size(), .aux = pk->l.size(), .constraints = a.constraints});
    std::vector<Fr> pub;
    {
      circuits::SyntheticCircuit<Fr> circuit(a.constraints, a.seed + k);
      if (Status s = circuit.synthesize(cs); !s.ok()) return fail(s.to_string(), a.json);
      pub = circuit.public_inputs();
    }
    auto partition = std::move(cs).finish();
    const auto pbytes = partition.bytes();
    const double synth_ms = ms_since(ts);
    synth_total += synth_ms;
    groth16::ProveTimings t;
    auto proof = [&]() -> Result<groth16::Proof<E>> {
      const Fr r = random_scalar<E>(rd), s = random_scalar<E>(rd);
      if (!*gpu_on) return groth16::prove(*pk, std::move(partition), r, s, &t);
      auto pending =
          groth16::prove_start<E, groth16::GpuBackend>(*pk, std::move(partition), r, s, &t, groth16::GpuBackend(gpus));
      if (!pending.ok()) return pending.status();
      return groth16::prove_finish(*pk, std::move(*pending), &t);
    }();
    if (!proof.ok()) return fail("partition " + std::to_string(k) + ": " + proof.status().message(), a.json);
    proofs.push_back(*proof);
    publics.push_back(std::move(pub));
    parts.push_back({{"partition", k},
                     {"bytes", {{"abc", pbytes.abc}, {"assignment", pbytes.assignment}, {"density", pbytes.density}}},
                     {"synthesis", synth_ms},
                     {"quotient", t.quotient},
                     {"msm_h", t.msm_h},
                     {"msm_l", t.msm_l},
                     {"msm_a", t.msm_a},
                     {"msm_b_g1", t.msm_b_g1},
                     {"msm_b_g2", t.msm_b_g2 + t.msm_b_g2_device},
                     {"msm_b_g2_device", t.msm_b_g2_device},
                     {"assembly", t.assembly}});
    sum.quotient += t.quotient, sum.msm_h += t.msm_h, sum.msm_l += t.msm_l, sum.msm_a += t.msm_a;
    sum.msm_b_g1 += t.msm_b_g1, sum.msm_b_g2 += t.msm_b_g2 + t.msm_b_g2_device, sum.assembly += t.assembly;
    if (!a.json) {
      std::printf(
          "partition %zu: synthesis %.1f ms (a/b %.1f MiB, assignment %.1f MiB) | quotient H %.1f | MSM H %.1f, "
          "L %.1f, A %.1f, B_G1 %.1f | B_G2 %.1f | assembly %.1f ms\n",
          k, synth_ms, static_cast<double>(pbytes.abc) / (1 << 20), static_cast<double>(pbytes.assignment) / (1 << 20),
          t.quotient, t.msm_h, t.msm_l, t.msm_a, t.msm_b_g1, t.msm_b_g2 + t.msm_b_g2_device, t.assembly);
    }
  }
  if (Status s = groth16::write_file(a.out, groth16::write_proofs<E>(proofs)); !s.ok())
    return fail(s.message(), a.json);
  if (!a.public_out.empty()) {
    const auto text = groth16::public_inputs_to_json(publics);
    if (Status s = groth16::write_file(a.public_out,
                                       std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
        !s.ok()) {
      return fail(s.message(), a.json);
    }
  }
  const double total = ms_since(t0);
  if (a.json) {
    std::printf("%s\n", Json{{"ok", true},
                             {"curve", a.curve},
                             {"cpu_paths", cpu::kernel_paths()},
                             {"partitions", partitions},
                             {"proof", a.out},
                             {"public", a.public_out},
                             {"ms", {{"load_params", load_ms}, {"total", total}}},
                             {"stages", parts}}
                            .dump()
                            .c_str());
  } else {
    const double msm = sum.msm_h + sum.msm_l + sum.msm_a + sum.msm_b_g1 + sum.msm_b_g2;
    std::printf("wrote %s (%zu x %zu bytes)%s%s\n", a.out.c_str(), proofs.size(), groth16::proof_bytes<E>(),
                a.public_out.empty() ? "" : " and ", a.public_out.c_str());
    std::printf("time: load params %.1f ms, synthesis %.1f ms, quotient %.1f ms, MSMs %.1f ms, total %.1f ms\n",
                load_ms, synth_total, sum.quotient, msm, total);
  }
  return 0;
}

template <class E>
int verify(const VerifyArgs& a) {
  using Fr = typename E::Fr;
  auto vk_bytes = groth16::read_file(a.vk);
  if (!vk_bytes.ok()) return fail(vk_bytes.status().message(), a.json);
  std::size_t used = 0;
  auto vk = groth16::read_verifying_key<E>(*vk_bytes, &used);
  if (!vk.ok()) return fail(a.vk + ": " + vk.status().message(), a.json);
  // A .vk is read whole; a .params file serves as a key too (its vk comes first), but anything
  // else after the key is an error, not silently ignored.
  if (used != vk_bytes->size() && !groth16::parameters_extent<E>(*vk_bytes).ok()) {
    return fail(a.vk + ": " + std::to_string(vk_bytes->size() - used) +
                    " bytes after the verifying key that are not the rest of a parameter file",
                a.json);
  }
  auto proof_bytes = groth16::read_file(a.proof);
  if (!proof_bytes.ok()) return fail(proof_bytes.status().message(), a.json);
  auto proofs = groth16::read_proofs<E>(*proof_bytes);
  if (!proofs.ok()) return fail(a.proof + ": " + proofs.status().message(), a.json);
  if (a.public_inputs.empty()) {
    return fail("verify needs --public (Filecoin's proofs: --kind with the sector's public values or --c1)", a.json);
  }
  auto pub_bytes = groth16::read_file(a.public_inputs);
  if (!pub_bytes.ok()) return fail(pub_bytes.status().message(), a.json);
  auto publics = groth16::public_inputs_from_json<Fr>(
      std::string_view(reinterpret_cast<const char*>(pub_bytes->data()), pub_bytes->size()));
  if (!publics.ok()) return fail(a.public_inputs + ": " + publics.status().message(), a.json);
  if (publics->size() != proofs->size()) {
    return fail(a.proof + " holds " + std::to_string(proofs->size()) + " proofs but there are " +
                    std::to_string(publics->size()) + " public input sets",
                a.json);
  }
  const auto pvk = groth16::prepare_verifying_key(*vk);
  std::vector<bool> valid;
  for (std::size_t k = 0; k < proofs->size(); ++k) {
    auto ok = groth16::verify(pvk, (*proofs)[k], (*publics)[k]);
    if (!ok.ok()) return fail("partition " + std::to_string(k) + ": " + ok.status().message(), a.json);
    valid.push_back(*ok);
  }
  return report_verification(valid, "", a.json);
}

template <class E>
bool describe(std::span<const std::uint8_t> b, Json& out) {
  if (b.size() % groth16::proof_bytes<E>() == 0 && !b.empty()) {
    if (auto p = groth16::read_proofs<E>(b); p.ok()) {
      out = {{"kind", "proofs"}, {"curve", E::kName}, {"partitions", p->size()}, {"bytes", b.size()}};
      return true;
    }
  }
  std::size_t used = 0;
  if (auto vk = groth16::read_verifying_key<E>(b, &used); vk.ok() && used == b.size()) {
    out = {{"kind", "verifying key"},
           {"curve", E::kName},
           {"inputs_with_one", vk->ic.size()},
           {"bytes", b.size()},
           {"checked", "every point's encoding, on the curve and in the subgroup"}};
    return true;
  }
  if (auto pk = groth16::read_parameters<E>(b, {.check_subgroup = false}); pk.ok()) {
    out = {{"kind", "parameters"},
           {"curve", E::kName},
           {"inputs_with_one", pk->vk.ic.size()},
           {"domain", pk->domain_size()},
           {"h", pk->h.size()},
           {"l", pk->l.size()},
           {"a", pk->a.size()},
           {"b_g1", pk->b_g1.size()},
           {"b_g2", pk->b_g2.size()},
           {"bytes", b.size()},
           {"checked",
            "every point's encoding and that it is on the curve; the verifying key's points in the "
            "subgroup; not whether the queries belong to one setup (a proof made with them and verified "
            "tells that: the daemon verifies every proof)"}};
    if (Status st = groth16::check_verifying_key(pk->vk); !st.ok()) out["invalid"] = st.message();
    return true;
  }
  return false;
}

template <class E>
int setup_r1cs(const SetupArgs& a, const std::vector<std::uint8_t>& bytes) {
  const auto t0 = Clock::now();
  auto r1cs = groth16::snarkjs::read_r1cs<E>(bytes);
  if (!r1cs.ok()) return fail(a.r1cs + ": " + r1cs.status().message(), a.json);
  const double read_ms = ms_since(t0);
  if (!a.json) {
    std::fprintf(stderr, "read %s: %zu constraints, %u wires, %u public signals (%.0f ms); making keys...\n",
                 a.r1cs.c_str(), r1cs->constraints.size(), r1cs->n_wires, r1cs->n_public(), read_ms);
  }
  std::random_device rd;
  Rng rng(a.seed_given ? a.seed ^ 0x736574757021ull : (std::uint64_t{rd()} << 32 | rd()));
  const auto t1 = Clock::now();
  auto zk = groth16::snarkjs::setup_zkey<E>(*r1cs, groth16::Trapdoor<E>::random(rng));
  if (!zk.ok()) return fail(zk.status().message(), a.json);
  const double keys_ms = ms_since(t1);
  const auto t2 = Clock::now();
  const auto zkey = groth16::snarkjs::write_zkey<E>(*zk);
  const auto vk = groth16::snarkjs::verifying_key_to_json<E>(zk->vk);
  if (Status s = groth16::write_file(a.zkey_out, zkey); !s.ok()) return fail(s.message(), a.json);
  if (Status s = groth16::write_file(a.vk_out, std::span(reinterpret_cast<const std::uint8_t*>(vk.data()), vk.size()));
      !s.ok()) {
    return fail(s.message(), a.json);
  }
  const double write_ms = ms_since(t2);
  if (a.json) {
    std::printf("%s\n",
                Json{{"ok", true},
                     {"curve", groth16::snarkjs::curve_name<E>()},
                     {"constraints", r1cs->constraints.size()},
                     {"wires", r1cs->n_wires},
                     {"public", r1cs->n_public()},
                     {"domain", zk->domain_size},
                     {"zkey", a.zkey_out},
                     {"zkey_bytes", zkey.size()},
                     {"vk", a.vk_out},
                     {"ms", {{"read", read_ms}, {"keys", keys_ms}, {"write", write_ms}, {"total", ms_since(t0)}}},
                     {"insecure_development_setup", true}}
                    .dump()
                    .c_str());
  } else {
    std::printf("DEVELOPMENT SETUP: %s; anyone who knows it can forge proofs. Never use this key in production.\n",
                a.seed_given ? "the trapdoor derives from --seed"
                             : "the trapdoor was drawn and thrown away, but no ceremony vouches for it");
    std::printf("circuit %s (%s): %zu constraints, %u wires, %u public, domain %u\n", a.r1cs.c_str(),
                groth16::snarkjs::curve_name<E>(), r1cs->constraints.size(), r1cs->n_wires, r1cs->n_public(),
                zk->domain_size);
    std::printf("wrote %s (%zu bytes) and %s\n", a.zkey_out.c_str(), zkey.size(), a.vk_out.c_str());
    std::printf("time: read %.1f ms, keys %.1f ms, write %.1f ms, total %.1f ms\n", read_ms, keys_ms, write_ms,
                ms_since(t0));
  }
  return 0;
}

int run_setup_r1cs(const SetupArgs& a) {
  if (a.zkey_out.empty() || a.vk_out.empty())
    return fail("--r1cs needs --zkey-out circuit.zkey and --vk-out verification_key.json", a.json);
  if (!a.out_dir.empty())
    return fail("--out is for built-in circuits; with --r1cs use --zkey-out and --vk-out", a.json);
  auto bytes = groth16::read_file(a.r1cs);
  if (!bytes.ok()) return fail(bytes.status().message(), a.json);
  auto curve = groth16::snarkjs::detect_curve(*bytes);
  if (!curve.ok()) return fail(a.r1cs + ": " + curve.status().message(), a.json);
  const std::string ours = *curve == "bn128" ? "bn254" : "bls12-381";
  if (a.curve_given && a.curve != ours) {
    return fail(a.r1cs + " is a circuit over " + ours + "'s scalar field, not " + a.curve +
                    " (circom --prime bn128 or bls12381 decides)",
                a.json);
  }
  return ours == "bn254" ? setup_r1cs<groth16::Bn254>(a, *bytes) : setup_r1cs<groth16::Bls12_381>(a, *bytes);
}

}  // namespace

int run_setup(const SetupArgs& a) {
  if (Status s = check_curve(a.curve); !s.ok()) return fail(s.message(), a.json);
  if (!a.r1cs.empty()) return run_setup_r1cs(a);
  if (a.out_dir.empty()) return fail("setup needs --out DIR (or --r1cs with --zkey-out and --vk-out)", a.json);
  if (Status s = check_synthetic(a.circuit, a.constraints, a.curve); !s.ok()) return fail(s.message(), a.json);
  return a.curve == "bn254" ? setup<groth16::Bn254>(a) : setup<groth16::Bls12_381>(a);
}

/// Frees a vector's storage (clear() keeps it).
template <class V>
void release(V& v) {
  V empty;
  std::swap(v, empty);
}

template <class E>
int prove_zkey(const ProveArgs& a, const std::string& proof_path, const std::string& public_path) {
  const auto t0 = Clock::now();
  // One proof: the MSM bases are read where they lie in the mapped file (no copy, no zeroed pages).
  auto zk = groth16::snarkjs::read_zkey_file<E>(a.zkey, groth16::snarkjs::ZkeyPoints::kMapped);
  if (!zk.ok()) return fail(zk.status().message(), a.json);
  const double load_ms = ms_since(t0);
  const auto tw = Clock::now();
  Result<std::vector<typename E::Fr>> w = Status::internal("unread");
  {
    auto wfile = MappedFile::open(a.witness);  // decoded from the page cache, no copy
    if (!wfile.ok()) return fail(wfile.status().message(), a.json);
    w = groth16::snarkjs::read_wtns<E>((*wfile)->bytes());
  }
  if (!w.ok()) return fail(a.witness + ": " + w.status().message(), a.json);
  auto rows = groth16::snarkjs::evaluate_rows<E>(*zk, *w);
  if (!rows.ok()) return fail(a.witness + ": " + rows.status().message() + " (a witness for another circuit?)", a.json);
  // This process proves once, so each part of the key is freed when the last stage reading it is
  // done: the coefficients after the rows, the G1 queries after prove_start (prove_finish reads B2
  // and the verifying key only). Peak RSS is then the quotient's or the H MSM's working set beside
  // the points, not the whole key beside the G2 MSM's buckets (docs/snarkjs.md, "Memory").
  release(zk->coefs);
  const double witness_ms = ms_since(tw);
  std::random_device rd;
  auto gpu_on = use_gpu(a.device);
  if (!gpu_on.ok()) return fail(gpu_on.status().message(), a.json);
  gpu::DevicePool gpus({});  // device 0, no resident bases: one proof
  const auto t1 = Clock::now();
  groth16::ProveTimings t;
  const auto r = random_scalar<E>(rd), s = random_scalar<E>(rd);
  auto pending = *gpu_on ? groth16::snarkjs::prove_start<E, groth16::GpuBackend>(*zk, *w, std::move(*rows), r, s, &t,
                                                                                 groth16::GpuBackend(gpus))
                         : groth16::snarkjs::prove_start<E>(*zk, *w, std::move(*rows), r, s, &t);
  if (!pending.ok()) return fail(pending.status().message(), a.json);
  release(zk->a), release(zk->b1), release(zk->c), release(zk->h);
  const auto proof = groth16::snarkjs::prove_finish<E>(*zk, *w, *pending, &t);
  const double prove_ms = ms_since(t1);
  const auto pj = groth16::snarkjs::proof_to_json<E>(proof);
  const auto pub = groth16::snarkjs::public_to_json<E>(std::span(*w).subspan(1, zk->n_public));
  auto as_bytes = [](const std::string& text) {
    return std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  };
  if (Status s = groth16::write_file(proof_path, as_bytes(pj)); !s.ok()) return fail(s.message(), a.json);
  if (Status s = groth16::write_file(public_path, as_bytes(pub)); !s.ok()) return fail(s.message(), a.json);
  if (a.json) {
    std::printf("%s\n", Json{{"ok", true},
                             {"curve", groth16::snarkjs::curve_name<E>()},
                             {"proof", proof_path},
                             {"public", public_path},
                             {"cpu_paths", cpu::kernel_paths()},
                             {"ms",
                              {{"load", load_ms},
                               {"witness", witness_ms},
                               {"quotient", t.quotient},
                               {"msm_h", t.msm_h},
                               {"msm_c", t.msm_l},
                               {"msm_a", t.msm_a},
                               {"msm_b_g1", t.msm_b_g1},
                               {"msm_b_g2", t.msm_b_g2},
                               {"prove", prove_ms},
                               {"total", ms_since(t0)}}}}
                            .dump()
                            .c_str());
  } else {
    std::printf("wrote %s and %s (%s, domain %u, %u signals, %u public)\n", proof_path.c_str(), public_path.c_str(),
                groth16::snarkjs::curve_name<E>(), zk->domain_size, zk->n_vars, zk->n_public);
    std::printf(
        "time: load zkey %.1f ms, witness + rows %.1f ms | quotient H %.1f | MSM H %.1f, C %.1f, A %.1f, "
        "B1 %.1f | B2 %.1f ms | total %.1f ms\n",
        load_ms, witness_ms, t.quotient, t.msm_h, t.msm_l, t.msm_a, t.msm_b_g1, t.msm_b_g2, ms_since(t0));
  }
  return 0;
}

int run_prove_zkey(ProveArgs a) {
  if (!a.positional.empty()) {
    if (a.positional.size() != 4) {
      return fail("the positional form is: zkpipe prove circuit.zkey witness.wtns proof.json public.json", a.json);
    }
    a.zkey = a.positional[0], a.witness = a.positional[1], a.proof_json = a.positional[2],
    a.public_json = a.positional[3];
  }
  if (a.zkey.empty() || a.witness.empty() || a.proof_json.empty() || a.public_json.empty()) {
    return fail("snarkjs mode needs --zkey, --witness, --proof and --public", a.json);
  }
  auto info = groth16::snarkjs::read_zkey_info(a.zkey);
  if (!info.ok()) return fail(a.zkey + ": " + info.status().message(), a.json);
  return info->curve == "bn128" ? prove_zkey<groth16::Bn254>(a, a.proof_json, a.public_json)
                                : prove_zkey<groth16::Bls12_381>(a, a.proof_json, a.public_json);
}

template <class E>
int verify_snarkjs(const VerifyArgs& a, const std::string& vk_text) {
  using Fr = typename E::Fr;
  auto vk = groth16::snarkjs::verifying_key_from_json<E>(vk_text);
  if (!vk.ok()) return fail(a.vk + ": " + vk.status().message(), a.json);
  auto pbytes = groth16::read_file(a.proof);
  if (!pbytes.ok()) return fail(pbytes.status().message(), a.json);
  auto proof = groth16::snarkjs::proof_from_json<E>(std::string(pbytes->begin(), pbytes->end()));
  if (!proof.ok()) return fail(a.proof + ": " + proof.status().message(), a.json);
  auto ubytes = groth16::read_file(a.public_inputs);
  if (!ubytes.ok()) return fail(ubytes.status().message(), a.json);
  auto pub = groth16::public_inputs_from_json<Fr>(std::string(ubytes->begin(), ubytes->end()));
  if (!pub.ok() || pub->size() != 1) {
    return fail(a.public_inputs + ": " + (pub.ok() ? std::string("expected one flat array") : pub.status().message()),
                a.json);
  }
  auto ok = groth16::verify(groth16::prepare_verifying_key(*vk), *proof, (*pub)[0]);
  if (!ok.ok()) return fail(ok.status().message(), a.json);
  if (a.json) {
    std::printf("%s\n", Json{{"ok", true}, {"valid", *ok}}.dump().c_str());
  } else {
    std::printf("%s\n", *ok ? "valid" : "INVALID");
  }
  return *ok ? 0 : 1;
}

int run_prove(const ProveArgs& a) {
  if (!a.zkey.empty() || !a.positional.empty()) return run_prove_zkey(a);
  if (a.params.empty() || a.out.empty()) {
    return fail(
        "prove needs --params and --out with --constraints (synthetic); or --zkey and --witness; "
        "Filecoin's proofs take --kind (e.g. --kind porep --c1 c1.json --params-dir DIR)",
        a.json);
  }
  if (Status s = check_curve(a.curve); !s.ok()) return fail(s.message(), a.json);
  if (Status s = check_synthetic(a.circuit, a.constraints, a.curve); !s.ok()) return fail(s.message(), a.json);
  if (a.partitions == 0 || a.partitions > 1024) return fail("--partitions must be between 1 and 1024", a.json);
  return a.curve == "bn254" ? prove<groth16::Bn254>(a) : prove<groth16::Bls12_381>(a);
}

int run_devices(bool json) {
  const auto list = gpu::devices();
  const Status usable = gpu::require_device();
  if (json) {
    Json d = Json::array();
    for (const auto& x : list) {
      d.push_back({{"ordinal", x.ordinal},
                   {"name", x.name},
                   {"sm", std::to_string(x.sm_major) + std::to_string(x.sm_minor)},
                   {"multiprocessors", x.multiprocessors},
                   {"total_bytes", x.total_bytes},
                   {"free_bytes", x.free_bytes}});
    }
    Json out{{"ok", true}, {"built_with_cuda", gpu::built_with_cuda()}, {"devices", d}};
    if (!usable.ok()) out["reason"] = usable.message();
    std::printf("%s\n", out.dump().c_str());
    return 0;
  }
  std::printf("built with CUDA: %s\n", gpu::built_with_cuda() ? "yes" : "no");
  if (list.empty()) std::printf("no GPU: %s\nprove_start runs on the CPU (device auto)\n", usable.message().c_str());
  for (const auto& x : list) {
    std::printf("gpu %d: %s, sm_%d%d, %d multiprocessors, %.1f GiB (%.1f GiB free)\n", x.ordinal, x.name.c_str(),
                x.sm_major, x.sm_minor, x.multiprocessors, static_cast<double>(x.total_bytes) / (1ull << 30),
                static_cast<double>(x.free_bytes) / (1ull << 30));
  }
  return 0;
}

int run_verify(const VerifyArgs& a) {
  if (Status s = check_curve(a.curve); !s.ok()) return fail(s.message(), a.json);
  // A snarkjs verification_key.json (JSON object) selects the snarkjs mode; its "curve" field says which.
  if (auto vk = groth16::read_file(a.vk); vk.ok() && !vk->empty() && (*vk)[0] == '{') {
    const std::string text(vk->begin(), vk->end());
    const auto j = Json::parse(text, nullptr, false);
    const std::string curve =
        j.is_object() && j.contains("curve") && j["curve"].is_string() ? j["curve"].get<std::string>() : "";
    if (curve == "bn128") return verify_snarkjs<groth16::Bn254>(a, text);
    if (curve == "bls12381") return verify_snarkjs<groth16::Bls12_381>(a, text);
    return fail(a.vk + ": a JSON verification key needs \"curve\": \"bn128\" or \"bls12381\"", a.json);
  }
  return a.curve == "bn254" ? verify<groth16::Bn254>(a) : verify<groth16::Bls12_381>(a);
}

namespace {

/// Why a key file could not be read, as `prove` would say it (the failing section and point): read
/// as the curve whose verifying key its first bytes are, as the kind its sections or name suggest.
template <class E>
std::string why_as(std::span<const std::uint8_t> b, bool params_by_name, bool vk_by_name) {
  const std::string as = std::string("; as a ") + E::kName;
  std::size_t used = 0;
  auto vk = groth16::read_verifying_key<E>(b, &used);
  if (!vk.ok()) return as + (params_by_name ? " parameter file: " : " verifying key: ") + vk.status().message();
  if (groth16::parameter_sections<E>(b).ok() || params_by_name || !vk_by_name) {
    if (auto pk = groth16::read_parameters<E>(b, {.check_subgroup = false}); !pk.ok()) {
      return as + " parameter file: " + pk.status().message();
    }
  }
  if (used != b.size()) return as + " verifying key: " + std::to_string(b.size() - used) + " bytes follow the IC points";
  return {};
}

std::string why_unreadable(const std::string& path, std::span<const std::uint8_t> b) {
  const std::string ext = std::filesystem::path(path).extension().string();
  const bool params = ext == ".params", vk = ext == ".vk";
  // The curve whose verifying key the file starts with; BLS12-381 (Filecoin's) when neither.
  std::size_t used = 0;
  if (!groth16::read_verifying_key<groth16::Bls12_381>(b, &used).ok() &&
      groth16::read_verifying_key<groth16::Bn254>(b, &used).ok()) {
    return why_as<groth16::Bn254>(b, params, vk);
  }
  if (!params && !vk && !groth16::read_verifying_key<groth16::Bls12_381>(b, &used).ok()) return {};
  return why_as<groth16::Bls12_381>(b, params, vk);
}

}  // namespace

int run_inspect(const std::string& path, bool json) {
  auto bytes = groth16::read_file(path);
  if (!bytes.ok()) return fail(bytes.status().message(), json);
  if (looks_like_aggregate(*bytes)) {
    InspectAggregateArgs a;
    a.json = json;
    return run_inspect_aggregate(path, *bytes, a);
  }
  Json out;
  if (!describe<groth16::Bls12_381>(*bytes, out) && !describe<groth16::Bn254>(*bytes, out)) {
    return fail(path + ": not a Groth16 proof, verifying key or parameter file zkpipe can read (" +
                    std::to_string(bytes->size()) + " bytes)" + why_unreadable(path, *bytes),
                json);
  }
  out["file"] = path;
  if (out.contains("invalid")) return fail(path + ": " + out["invalid"].get<std::string>(), json);
  if (json) {
    std::printf("%s\n", out.dump().c_str());
  } else {
    for (auto& [k, v] : out.items())
      std::printf("%-16s %s\n", k.c_str(), v.is_string() ? v.get<std::string>().c_str() : v.dump().c_str());
  }
  return 0;
}

}  // namespace zk::app
