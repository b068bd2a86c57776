// Filecoin proofs made and checked on the command line: `zkpipe prove --kind` (a whole job in this
// process, through the engine's workload) and `zkpipe check --kind` (the exact circuit's test
// constraint system on a real input). The input options and every kind-specific rule come from the
// kind table (circuits/filecoin/proof_kind.hpp).

#include <chrono>
#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "engine/filecoin_workload.hpp"
#include "filecoin.hpp"
#include "filecoin_common.hpp"
#include "groth16/io.hpp"
#include "output.hpp"
#include "r1cs/test_cs.hpp"
#include "snarkpack/filecoin.hpp"

namespace zk::app {
namespace {

using Json = nlohmann::json;

/// A job's input named on the command line, parsed by its kind.
struct ParsedJob {
  const fc::ProofKind* kind;
  fc::NamedInput input;
  std::shared_ptr<const fc::KindInput> parsed;
};
Result<ParsedJob> parsed_job(const FilecoinProveArgs& a) {
  auto kind = fc::find_proof_kind(a.kind, "--kind must be one of");
  if (!kind.ok()) return kind.status();
  auto named = (*kind)->input_from_options(a.input);
  if (!named.ok()) return named.status();
  auto in = (*kind)->parse(std::string_view(reinterpret_cast<const char*>(named->bytes.data()), named->bytes.size()));
  if (!in.ok()) return Status::invalid_argument(named->where + ": " + in.status().message());
  return ParsedJob{*kind, std::move(*named), std::move(*in)};
}

}  // namespace

Result<FilecoinJob> filecoin_job(const FilecoinProveArgs& a) {
  auto job = parsed_job(a);
  if (!job.ok()) return job.status();
  return FilecoinJob{std::string(job->kind->name()), job->parsed->size().name, job->parsed->partitions(),
                     std::move(job->input.bytes)};
}

int run_prove_filecoin(const FilecoinProveArgs& a) {
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); };
  const auto t0 = Clock::now();
  const std::string what = "prove --kind " + a.kind;
  if (a.out.empty())
    return fail(what + " needs --out FILE (the partition proofs, concatenated; a non-interactive PoRep's aggregate)",
                a.json);
  auto job = parsed_job(a);
  if (!job.ok()) return fail(job.status().message(), a.json);
  const fc::ProofKind& kind = *job->kind;
  const auto size = job->parsed->size();
  auto shape = kind.shape(size);
  if (!shape.ok()) return fail(shape.status().message(), a.json);
  std::string params = a.params;
  if (params.empty()) {
    if (a.params_dir.empty()) return fail(what + " needs --params-dir DIR (or --params FILE)", a.json);
    if (shape->params_stem.empty()) {
      return fail("Filecoin publishes no " + std::string(kind.title()) + " parameters for " + size.name +
                      " sectors: name the key with --params FILE",
                  a.json);
    }
    params = (std::filesystem::path(a.params_dir) / (shape->params_stem + ".params")).string();
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
                                               std::string(kind.name()) + " --sector-size " + size.name + ")"
                                         : std::string()),
        a.json);
  }
  auto pk = std::static_pointer_cast<const groth16::ProvingKey<groth16::Bls12_381>>(loaded->object);
  const double load_ms = ms(t0);
  engine::FilecoinWorkload w(kind, *shape, pk);
  w.set_device(*resolved);
  const auto aggregate = job->parsed->aggregate_transcript_input();
  const bool aggregated = aggregate && !a.partition_proofs;
  if (aggregated) {
    const std::string srs =
        !a.srs.empty() ? a.srs
                       : (std::filesystem::path(a.params_dir.empty() ? std::filesystem::path(params).parent_path()
                                                                     : std::filesystem::path(a.params_dir)) /
                          snarkpack::kFilecoinSrsName)
                             .string();
    w.set_srs_path(srs);
  } else if (!aggregate && (!a.srs.empty() || a.partition_proofs)) {
    return fail("--srs and --partition-proofs are for a non-interactive PoRep C2 (its answer is an aggregate); " +
                    job->parsed->proof_name() + "'s is its partition proofs",
                a.json);
  }
  w.set_partition_proofs(a.partition_proofs);
  engine::JobRequest req;
  req.circuit = kind.name(), req.shape = size.name, req.input = std::move(job->input.bytes);
  req.partitions = job->parsed->partitions();
  const auto tc = Clock::now();
  if (Status st = w.validate(req); !st.ok()) return fail(job->input.where + ": " + st.message(), a.json);
  const double check_ms = ms(tc);
  std::vector<std::vector<std::uint8_t>> proofs;
  Json parts = Json::array();
  for (std::size_t k = 0; k < req.partitions; ++k) {
    const auto ts = Clock::now();
    auto s = w.synthesize(req, k);
    if (!s.ok()) return fail("partition " + std::to_string(k) + ": " + s.status().message(), a.json);
    const double synth_ms = ms(ts);
    const auto tp = Clock::now();
    auto pending = w.prove_start(std::move(*s));
    if (!pending.ok()) return fail("partition " + std::to_string(k) + ": " + pending.status().message(), a.json);
    auto proof = w.prove_finish(std::move(*pending));
    if (!proof.ok()) return fail("partition " + std::to_string(k) + ": " + proof.status().message(), a.json);
    const double prove_ms = ms(tp);
    auto ok = w.verify(req, k, *proof);
    if (!ok.ok() || !*ok) {
      return fail("partition " + std::to_string(k) + ": the proof does not verify under the key's own verifying key (" +
                      (ok.ok() ? std::string("invalid") : ok.status().message()) + ") — a damaged parameter file?",
                  a.json);
    }
    proofs.push_back(std::move(*proof));
    parts.push_back({{"partition", k}, {"synthesis_ms", synth_ms}, {"prove_ms", prove_ms}});
    if (!a.json)
      std::printf("partition %zu: synthesis %.1f s, prove %.1f s, verified\n", k, synth_ms / 1e3, prove_ms / 1e3);
  }
  // The job's answer: the proofs concatenated, or (NI-PoRep) their SnarkPack aggregate.
  const auto ta = Clock::now();
  auto answer = w.combine(req, proofs);
  if (!answer.ok()) return fail(answer.status().message(), a.json);
  const double aggregate_ms = aggregated ? ms(ta) : 0;
  if (Status st = groth16::write_file(a.out, *answer); !st.ok()) return fail(st.message(), a.json);
  const std::string holds = aggregated ? "the SnarkPack aggregate of " + std::to_string(req.partitions) +
                                             " partition proofs (V2, padded to " +
                                             std::to_string(snarkpack::padded_count(req.partitions)) + ")"
                                       : std::to_string(req.partitions) + " partition proofs";
  if (a.json) {
    std::printf(
        "%s\n",
        Json{{"ok", true},
             {"kind", kind.name()},
             {"sector_size", size.name},
             {"partitions", req.partitions},
             {"aggregate", aggregated},
             {"proof", a.out},
             {"proof_bytes", answer->size()},
             {"ms",
              {{"load_params", load_ms}, {"check_input", check_ms}, {"aggregate", aggregate_ms}, {"total", ms(t0)}}},
             {"stages", parts}}
            .dump()
            .c_str());
  } else {
    char note[64] = "";
    if (aggregated) std::snprintf(note, sizeof(note), ", aggregated in %.2f s", aggregate_ms / 1e3);
    std::printf("wrote %s (%s, %zu bytes); load params %.1f s, input checked in %.2f s%s, total %.1f s\n",
                a.out.c_str(), holds.c_str(), answer->size(), load_ms / 1e3, check_ms / 1e3, note, ms(t0) / 1e3);
  }
  return 0;
}

int run_check_filecoin(const FilecoinCheckArgs& a) {
  using Fr = fc::Fr;
  auto job = parsed_job(a.input);
  if (!job.ok()) return fail(job.status().message(), a.json);
  auto in = job->kind->for_check(job->parsed, a.input.input);
  if (!in.ok()) return fail(in.status().message(), a.json);
  const fc::KindInput& input = **in;
  struct Outcome {
    std::size_t partition = 0, constraints = 0;
    std::string unsatisfied, inputs;  // empty: fine
  };
  std::vector<Outcome> outcomes;
  const Status native = input.check();
  const std::size_t parts = input.partitions();
  if (a.partition >= 0 && static_cast<std::size_t>(a.partition) >= parts) {
    return fail("--partition " + std::to_string(a.partition) + ": the input has " + std::to_string(parts) +
                    " partition" + (parts == 1 ? "" : "s"),
                a.json);
  }
  for (std::size_t k = 0; k < parts; ++k) {
    if (a.partition >= 0 && k != static_cast<std::size_t>(a.partition)) continue;
    // One partition through the test constraint system, its inputs compared with the expected ones.
    Outcome o;
    o.partition = input.partition_index(k);
    auto circuit = input.unchecked_circuit(k);
    auto want = input.public_inputs(k);
    if (!circuit.ok() || !want.ok()) {
      o.unsatisfied = "no witness: " + (circuit.ok() ? want.status() : circuit.status()).message();
      outcomes.push_back(std::move(o));
      continue;
    }
    r1cs::TestSystem<Fr> cs;
    if (Status st = (*circuit)->synthesize(cs); !st.ok()) o.unsatisfied = "synthesis failed: " + st.message();
    o.constraints = cs.num_constraints();
    if (o.unsatisfied.empty() && !cs.is_satisfied()) o.unsatisfied = cs.which_is_unsatisfied().value_or("?");
    if (cs.inputs().size() != want->size() + 1) {
      o.inputs =
          std::to_string(cs.inputs().size() - 1) + " inputs, the public values give " + std::to_string(want->size());
    } else {
      for (std::size_t i = 0; i < want->size() && o.inputs.empty(); ++i) {
        if (cs.inputs()[i + 1] != (*want)[i])
          o.inputs = "input " + std::to_string(i) + " differs from the public values'";
      }
    }
    outcomes.push_back(std::move(o));
  }
  bool good = native.ok();
  Json results = Json::array();
  for (const auto& o : outcomes) {
    good = good && o.unsatisfied.empty() && o.inputs.empty();
    results.push_back({{"partition", o.partition},
                       {"constraints", o.constraints},
                       {"satisfied", o.unsatisfied.empty()},
                       {"first_unsatisfied", o.unsatisfied},
                       {"inputs_match", o.inputs.empty()},
                       {"inputs", o.inputs}});
  }
  const std::string& proof_name = input.proof_name();
  if (a.json) {
    std::printf("%s\n", Json{{"ok", good},
                             {"registered_proof", proof_name},
                             {"native_check", native.ok() ? "ok" : native.message()},
                             {"partitions", results}}
                            .dump()
                            .c_str());
  } else {
    std::printf("%s: native check: %s\n", proof_name.c_str(),
                native.ok() ? "ok" : bounded_message(native.message()).c_str());
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

}  // namespace zk::app
