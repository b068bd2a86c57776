// zkpipe: the command-line entry point. Subcommands arrive with the issues that build them; today:
// selftest, version, devices, the Groth16 commands setup, prove, verify and inspect (commands.cpp),
// Filecoin's commands (filecoin_*.cpp), bench and plan, and the daemon's serve and clients.

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <malloc.h>

#include <cstdio>
#include <fstream>
#include <iterator>

#include "base/build_info.hpp"
#include "base/cpu.hpp"
#include "base/decimal.hpp"
#include "base/file.hpp"
#include "bench.hpp"
#include "bench_mixed.hpp"
#include "commands.hpp"
#include "aggregate.hpp"
#include "filecoin.hpp"
#include "kind_cli.hpp"
#include "plan.hpp"
#include "selftest.hpp"
#include "serve.hpp"

namespace {

/// The TLS options of every command that talks to a daemon (prove/bench --addr, status, metrics, cancel).
void add_tls_client_options(CLI::App* c, zk::app::ClientArgs& client) {
  c->add_flag("--tls", client.tls, "connect with TLS, trusting the system's CA roots");
  c->add_option("--tls-ca", client.tls_ca,
                "connect with TLS, trusting this PEM CA (the one that signed the daemon's certificate)");
  c->add_option("--tls-cert", client.tls_cert, "mutual TLS: this client's PEM certificate (with --tls-key)");
  c->add_option("--tls-key", client.tls_key, "mutual TLS: this client's PEM private key");
}

/// Every integer option of every command is read strictly (base/decimal.hpp): digits only (a '-'
/// first for signed options), no spaces, no '+', no "0x", no leading zero, in range — CLI11 alone
/// reads " 1" and "+1" as 1, "0x10" as 16 and "010" as 8.
void strict_integers(CLI::App* app) {
  auto check = [](bool may_be_negative) {
    return CLI::Validator(
        [may_be_negative](std::string& text) -> std::string {
          std::string_view digits = text;
          if (may_be_negative && digits.size() > 1 && digits.front() == '-') digits.remove_prefix(1);
          auto v = zk::base::parse_decimal_u64(digits);
          if (!v.ok()) return v.status().message();
          // CLI11 converts with base 0: "010" would be octal 8.
          if (digits.size() > 1 && digits.front() == '0') return "'" + text + "' has a leading zero";
          return std::string();
        },
        "", may_be_negative ? "strict integer" : "strict unsigned integer");
  };
  for (CLI::Option* o : app->get_options()) {
    const std::string type = o->get_type_name();
    if (type == "UINT" || type == "INT") o->check(check(type == "INT"));
  }
  for (CLI::App* sub : app->get_subcommands({})) strict_integers(sub);
}

}  // namespace

int main(int argc, char** argv) {
  // glibc serves blocks above a threshold that starts at 128 KiB with fresh mmaps and unmaps them on
  // free (the threshold only rises after such a block is freed). A prover allocates the same large
  // scratch stage after stage (MSM bucket arrays of 0.3-2.4 MiB per task, rows, NTT buffers), so
  // every MSM faulted its scratch in anew: +10k minor faults and 2x the system time per 2^18 circom
  // proof once the zkey stopped going through a 32 MiB read buffer (docs/benchmarks.md, issue 22).
  // Fixed thresholds keep freed blocks in the heap for the next stage; peak RSS is unchanged.
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's maximum on 64-bit (DEFAULT_MMAP_THRESHOLD_MAX)
  ::mallopt(M_TRIM_THRESHOLD, 64 << 20);
  // Library log lines (e.g. a key cache being built) go to stderr: stdout is the commands' output
  // (--json documents, proofs). `serve` installs its own logger (--log-level, --log-format).
  spdlog::set_default_logger(
      std::make_shared<spdlog::logger>("zkpipe", std::make_shared<spdlog::sinks::stderr_sink_mt>()));
  CLI::App app{"zkpipe: a pipelined Groth16 proving engine (BLS12-381 and BN254)"};
  app.require_subcommand(1);
  bool json = false;

  auto* selftest = app.add_subcommand("selftest", "check the arithmetic core (pairings, encodings, MSM, NTT quotient)");
  selftest->add_flag("--json", json, "machine-readable output");
  auto* version = app.add_subcommand(
      "version", "print the version, the commit, the build type, the CUDA architectures and the CPU arithmetic paths");

  zk::app::SetupArgs setup_args;
  auto* setup = app.add_subcommand(
      "setup", "DEVELOPMENT (insecure) Groth16 setup for a built-in circuit: writes .params and .vk");
  setup->add_option("--circuit", setup_args.circuit, "built-in circuit: synthetic (Filecoin's: --kind)")
      ->capture_default_str();
  setup->add_option("--constraints", setup_args.constraints, "synthetic: number of constraints");
  setup->add_option("--curve", setup_args.curve, "bls12-381 or bn254")->capture_default_str();
  setup->add_option("--seed", setup_args.seed, "derives the trapdoor (development only)")->capture_default_str();
  setup->add_option("--out", setup_args.out_dir, "output directory (built-in circuits)");
  setup->add_option("--r1cs", setup_args.r1cs,
                    "circom .r1cs: write a snarkjs zkey instead (with --zkey-out, --vk-out)");
  setup->add_option("--zkey-out", setup_args.zkey_out, "circom mode: the .zkey to write");
  setup->add_option("--vk-out", setup_args.vk_out, "circom mode: the verification_key.json to write");
  setup->add_flag("--json", setup_args.json, "machine-readable output");
  zk::app::FilecoinSetupArgs fc_setup;
  setup->add_option(
      "--kind", fc_setup.kind,
      "Filecoin proof kind: porep, window-post, winning-post, snap-update (keys for Filecoin's exact circuit, "
      "under Filecoin's file names)");
  setup->add_option("--sector-size", fc_setup.sector_size, "with --kind: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB");
  bool setup_srs = false;
  zk::app::SrsSetupArgs srs_setup;
  setup->add_flag("--srs", setup_srs,
                  "a development SnarkPack SRS (aggregation) under Filecoin's name, v28-fil-inner-product-v1.srs");
  setup->add_option("--srs-proofs", srs_setup.proofs, "with --srs: the most proofs it aggregates")
      ->capture_default_str();

  zk::app::ProveArgs prove_args;
  auto* prove =
      app.add_subcommand("prove", "prove a built-in circuit with a .params file; prints the time of every stage");
  prove->add_option("--params", prove_args.params, "parameter file from `zkpipe setup`");
  prove->add_option("--circuit", prove_args.circuit, "built-in circuit: synthetic (Filecoin's: --kind)")
      ->capture_default_str();
  prove->add_option("--constraints", prove_args.constraints, "synthetic: number of constraints (as at setup)");
  prove->add_option("--curve", prove_args.curve, "bls12-381 or bn254")->capture_default_str();
  prove->add_option("--seed", prove_args.seed, "witness seed; partition k uses seed + k")->capture_default_str();
  prove->add_option("--partitions", prove_args.partitions, "number of partitions (proofs concatenated)")
      ->capture_default_str();
  prove->add_option("--out", prove_args.out, "proof file");
  prove->add_option("--zkey", prove_args.zkey, "snarkjs Groth16 .zkey (with --witness)");
  prove->add_option("--witness", prove_args.witness, "snarkjs/circom .wtns witness");
  prove->add_option("--proof", prove_args.proof_json, "snarkjs mode: proof.json to write");
  prove->add_option("--public", prove_args.public_json, "snarkjs mode: public.json to write");
  prove->add_option("files", prove_args.positional,
                    "rapidsnark form: circuit.zkey witness.wtns proof.json public.json");
  prove->add_option("--public-out", prove_args.public_out, "public inputs as JSON");
  zk::app::ClientArgs prove_client;
  std::uint32_t prove_timeout_ms = 0;
  prove->add_option("--addr", prove_client.addr,
                    "prove through a daemon (unix:///path or host:port); with --zkey, NAME is the zkey's name in "
                    "the daemon's params directory");
  prove->add_option("--token", prove_client.token, "the daemon's token (default: $ZKPIPE_TOKEN)");
  add_tls_client_options(prove, prove_client);
  prove->add_option("--timeout-ms", prove_timeout_ms, "with --addr: give up waiting after this long (0: never)");
  prove->add_option("--device", prove_args.device, "prove_start on: auto (GPU if present), cpu or gpu")
      ->capture_default_str();
  prove->add_flag("--json", prove_args.json, "machine-readable output");
  zk::app::FilecoinProveArgs fc_prove;
  prove->add_option("--kind", fc_prove.kind, "Filecoin proof kind: " + zk::circuits::filecoin::proof_kind_names() +
                                                  " (its input from the options below)");
  prove->add_option("--params-dir", fc_prove.params_dir,
                    "with --kind: the directory of Filecoin's parameter files (or zkpipe setup --kind's)");
  prove->add_option("--srs", fc_prove.srs,
                    "with --kind porep, a non-interactive C2: SnarkPack's SRS file for the aggregate (default: "
                    "v28-fil-inner-product-v1.srs in --params-dir)");
  prove->add_flag("--partition-proofs", fc_prove.partition_proofs,
                  "with --kind porep, a non-interactive C2: write the partition proofs, not their aggregate");
  const zk::app::KindCli prove_kind_options(prove, {[](const auto& k) { return k.input_options(); }});
  auto* devices = app.add_subcommand("devices", "whether this build has CUDA, and the machine's GPUs");
  devices->add_flag("--json", json, "machine-readable output");

  zk::app::VerifyArgs verify_args;
  auto* verify = app.add_subcommand("verify", "verify proofs: exit 0 valid, 1 invalid, 2 malformed input");
  verify->add_option("--vk", verify_args.vk, "verifying key: bellman layout, or snarkjs verification_key.json")
      ->required();
  verify->add_option("--proof", verify_args.proof, "proof file (one proof per partition)")->required();
  verify->add_option("--public", verify_args.public_inputs, "public inputs JSON (an array per partition)");
  verify->add_option("--curve", verify_args.curve, "bls12-381 or bn254")->capture_default_str();
  verify->add_flag("--json", verify_args.json, "machine-readable output");
  // Filecoin proofs, checked from the sector's public values (docs/filecoin-porep.md).
  zk::app::FilecoinVerifyArgs fc_verify;
  verify->add_option("--kind", fc_verify.kind,
                     "Filecoin proof kind: " + zk::circuits::filecoin::proof_kind_names() +
                         " (public inputs from the public values below)");
  verify->add_option("--srs", fc_verify.srs,
                     "with --kind porep, a non-interactive proof that is the SnarkPack aggregate of its partitions: "
                     "the SRS file (default: v28-fil-inner-product-v1.srs beside --vk)");
  const zk::app::KindCli verify_kind_options(verify, {[](const auto& k) { return k.verify_options(); }});

  zk::app::CircuitInfoArgs info_args;
  auto* circuit_info = app.add_subcommand("circuit-info", "the size of one partition of a Filecoin circuit");
  circuit_info->add_option("--kind", info_args.kind, "porep, window-post, winning-post or snap-update")
      ->capture_default_str();
  circuit_info->add_option("--sector-size", info_args.sector_size, "2KiB, 8MiB, 512MiB, 32GiB, 64GiB, ...")->required();
  circuit_info->add_option("--api-version", info_args.api_version,
                           "porep: 1.0, 1.1 or 1.2 (one circuit and key serve all three)");
  circuit_info->add_flag("--json", info_args.json, "machine-readable output");

  std::string inspect_path;
  bool inspect_json = false;
  auto* inspect = app.add_subcommand("inspect", "what a params/vk/proof file holds");
  inspect->add_option("file", inspect_path, "file to inspect")->required();
  inspect->add_flag("--json", inspect_json, "machine-readable output");
  zk::app::InspectAggregateArgs inspect_aggregate;
  inspect->add_option("--transcript-input", inspect_aggregate.transcript_input,
                      "a SnarkPack aggregate: the transcript input, hex (Filecoin: sha256 of the seeds and comm_rs; "
                      "NI-PoRep: of the comm_rs); runs the SRS-free checks");
  inspect->add_option("--version", inspect_aggregate.version, "a SnarkPack aggregate: v1 or v2")->capture_default_str();

  zk::app::AggregateArgs aggregate_args;
  auto* aggregate = app.add_subcommand(
      "aggregate",
      "SnarkPack V2 aggregate of sectors' seal proofs (Curio's ProveCommitAggregate, or non-interactive sectors)");
  aggregate->add_option("--proof", aggregate_args.proofs, "a sector's partition proofs; repeat, in sector order")
      ->required();
  aggregate->add_option("--c1", aggregate_args.c1s,
                        "each sector's C1 (comm_r, seed, interactive or not, partitions); repeat, same order");
  aggregate->add_option("--comm-r", aggregate_args.comm_rs, "instead: each sector's comm_r (hex or CID); repeat");
  aggregate->add_option("--seed", aggregate_args.seeds, "with --comm-r: each sector's interactive seed (hex); repeat");
  aggregate->add_flag("--non-interactive", aggregate_args.non_interactive,
                      "with --comm-r: non-interactive sectors (the statement binds comm_rs only)");
  aggregate->add_option("--transcript-input", aggregate_args.transcript_input,
                        "instead: the transcript input's bytes, hex");
  aggregate->add_option("--srs", aggregate_args.srs, "SnarkPack's SRS (v28-fil-inner-product-v1.srs)");
  aggregate->add_option("--addr", aggregate_args.client.addr,
                        "aggregate on a daemon instead (unix:///path or host:port; its params directory's SRS)");
  aggregate->add_option("--token", aggregate_args.client.token, "the daemon's token (default: $ZKPIPE_TOKEN)");
  add_tls_client_options(aggregate, aggregate_args.client);
  aggregate->add_option("--timeout-ms", aggregate_args.timeout_ms, "with --addr: give up waiting after this long");
  aggregate->add_option("--out", aggregate_args.out, "the aggregate proof to write")->required();
  aggregate->add_flag("--json", aggregate_args.json, "machine-readable output");

  // The test-input commands: each kind's options for the command that makes its inputs.
  auto generated_by = [](std::string command) {
    return [command](const zk::circuits::filecoin::ProofKind& k) {
      return k.generate_command() == command ? k.generate_options() : std::vector<zk::circuits::filecoin::KindOption>{};
    };
  };
  zk::app::GenerateArgs gen_c1_args;
  gen_c1_args.command = "gen-c1";
  for (const auto* k : zk::circuits::filecoin::proof_kinds()) {
    if (k->generate_command() == "gen-c1") gen_c1_args.kind = k->name();
  }
  auto* gen_c1 = app.add_subcommand(
      "gen-c1", "seal a sector of random data (2KiB or 8MiB) and write its Filecoin C1 (commit-phase-1 output) JSON");
  const zk::app::KindCli gen_c1_options(gen_c1, {generated_by("gen-c1")});
  gen_c1->add_option("--out", gen_c1_args.out, "the C1 file to write")->required();
  gen_c1->add_flag("--json", gen_c1_args.json, "machine-readable output");

  zk::app::FilecoinCheckArgs check_args;
  auto* check = app.add_subcommand(
      "check",
      "run a Filecoin circuit's test constraint system on a real input: the first unsatisfied constraint, "
      "the native check, the public inputs (exit 0 satisfied, 1 not, 2 malformed)");
  check->add_option("--kind", check_args.input.kind, zk::circuits::filecoin::proof_kind_names())->required();
  check->add_option("--partition", check_args.partition, "one partition (default: every one the input proves)");
  // The kind's input options, and its own for check; PoSt's --partition (the input's partition
  // index) is --post-partition here.
  const zk::app::KindCli check_kind_options(
      check, {[](const auto& k) { return k.input_options(); }, [](const auto& k) { return k.check_options(); }},
      {{"partition", "post-partition"}});
  check->add_flag("--json", check_args.json, "machine-readable output");

  zk::app::GenerateArgs gen_vanilla_args;
  gen_vanilla_args.command = "gen-vanilla", gen_vanilla_args.kind = "window-post";
  auto* gen_vanilla = app.add_subcommand(
      "gen-vanilla",
      "seal sectors of random data (2KiB or 8MiB) and write a PoSt partition's input (their vanilla proofs for a "
      "randomness) or a SnapDeals input (one sector updated with random data)");
  gen_vanilla->add_option("--kind", gen_vanilla_args.kind, "window-post, winning-post or snap-update")
      ->capture_default_str();
  const zk::app::KindCli gen_vanilla_options(gen_vanilla, {generated_by("gen-vanilla")});
  gen_vanilla->add_option("--out", gen_vanilla_args.out, "the input JSON to write")->required();
  gen_vanilla->add_flag("--json", gen_vanilla_args.json, "machine-readable output");

  zk::app::ParamsCheckArgs params_check_args;
  auto* params = app.add_subcommand("params", "Filecoin parameter files");
  params->require_subcommand(1);
  auto* params_check = params->add_subcommand(
      "check", "which of Filecoin's PoRep parameter files DIR holds, whether they fit the circuit and are Filecoin's");
  params_check->add_option("dir", params_check_args.dir, "the parameter directory")->required();
  bool params_no_digest = false;
  params_check->add_flag("--no-digest", params_no_digest,
                         "skip the BLAKE2b digests (development keys; a 47 GB file takes minutes to hash)");
  params_check->add_flag("--json", params_check_args.json, "machine-readable output");

  zk::app::SynthesizeArgs synth_args;
  auto* synthesize = app.add_subcommand(
      "synthesize", "one partition of a Filecoin proof synthesized as the prover needs it, measured (no keys)");
  synthesize->add_option("--kind", synth_args.kind, "porep")->required();
  synthesize->add_option("--c1", synth_args.c1, "the C1 file (gen-c1, or Filecoin's)")->required();
  synthesize->add_option("--partition", synth_args.partition, "which partition")->capture_default_str();
  synthesize->add_option("--sector-size", synth_args.sector_size, "refuse a C1 of another size");
  synthesize->add_flag("--digest", synth_args.digest,
                       "print the partition's SHA-256 (inputs, aux, a, b, c, densities)");
  synthesize->add_flag("--census", synth_args.census,
                       "with --json: how many aux, a, b and c values (and the aux values A's and B's density select: the A, B_G1 and B_G2 MSMs' scalars) are 0, 1, other below 2^64, full");
  synthesize->add_flag("--json", synth_args.json, "machine-readable output");

  zk::app::BenchArgs bench_args;
  auto* bench = app.add_subcommand(
      "bench", "run the proving engine in-process (synthetic circuit or a zkey) and report throughput");
  bench
      ->add_option("--circuit", bench_args.circuit,
                   "circuit kind: synthetic, porep, window-post, winning-post, snap-update, zkey, or mixed (PoSt "
                   "latency under PoRep load: --params-dir, --input C1, --window-input, --winning-input)")
      ->capture_default_str();
  zk::app::MixedBenchArgs mixed_args;
  bench->add_option("--params-dir", mixed_args.params_dir, "mixed: the directory of the three kinds' keys");
  bench->add_option("--window-input", mixed_args.window_input, "mixed: gen-vanilla's WindowPoSt input");
  bench->add_option("--winning-input", mixed_args.winning_input, "mixed: gen-vanilla's WinningPoSt input");
  bench->add_option("--seconds", mixed_args.seconds, "mixed: seconds per phase (PoRep alone, then with PoSt)")
      ->capture_default_str();
  bench->add_option("--window-every", mixed_args.window_every, "mixed: a WindowPoSt partition every N seconds")
      ->capture_default_str();
  bench->add_option("--winning-every", mixed_args.winning_every, "mixed: a WinningPoSt about every N seconds (random)")
      ->capture_default_str();
  bench->add_option("--post-alone", mixed_args.post_alone, "mixed: PoSt jobs of each kind measured alone")
      ->capture_default_str();
  bench->add_option("--zkey", bench_args.zkey, "zkey kind: the snarkjs Groth16 .zkey");
  bench->add_option("--witness", bench_args.witness, "zkey kind: the .wtns every job proves");
  bench->add_option("--shape", bench_args.shape, "Filecoin kinds: a sector size (2KiB ... 64GiB)");
  bench->add_option("--input", bench_args.input,
                    "Filecoin kinds: the input every job proves (porep: a C1 from gen-c1 or Filecoin's; "
                    "PoSt / snap-update: gen-vanilla's)");
  bench->add_option("--params", bench_args.params,
                    "Filecoin kinds: the .params file, or benchmark-key (porep: random points of the real key's sizes; proofs do not verify)");
  bench->add_option("--constraints", bench_args.constraints, "constraints per partition")->capture_default_str();
  bench->add_option("--curve", bench_args.curve, "bls12-381 or bn254")->capture_default_str();
  bench->add_option("--jobs", bench_args.jobs, "jobs submitted at once")->capture_default_str();
  bench->add_option("--partitions", bench_args.partitions, "partitions per job")->capture_default_str();
  bench->add_option("--synthesis-workers", bench_args.synthesis_workers, "synthesis workers")->capture_default_str();
  bench->add_option("--prover-workers", bench_args.prover_workers,
                    "prover workers (default 0: as the daemon, 2 per GPU with the GPU, else 1)")
      ->capture_default_str();
  bench->add_option("--channel", bench_args.channel_capacity, "synthesized partitions that may wait for a prover")
      ->capture_default_str();
  bench->add_option("--budget-gib", bench_args.budget_gib, "memory budget in GiB (0: 75 % of available memory)")
      ->capture_default_str();
  bench->add_option("--trace", bench_args.trace, "write a Chrome trace (Perfetto) of every stage");
  bench->add_flag("--verify", bench_args.verify,
                  "the engine verifies every proof before answering (self-verification)");
  bench->add_option("--plot", bench_args.plot, "write an SVG timeline (stages per worker, RSS, budget)");
  bench->add_option("--device", bench_args.device, "prove_start on: auto (GPU if present), cpu or gpu")
      ->capture_default_str();
  bench->add_option("--gpu-resident", bench_args.gpu_resident,
                    "with the GPU: key bases kept on each device across proofs, auto (half its memory), a size, "
                    "or 0 (none: bases stream with every MSM, as on a card that cannot hold the key)")
      ->capture_default_str();
  std::string sweep;
  bench->add_option("--sweep", sweep, "synthesis-workers=1..N: run each worker count and print the table");
  bench->add_flag("--synthesis-only", bench_args.synthesis_only,
                  "porep with a sector size: synthesize one partition (witness, a/b, densities) and report wall and "
                  "CPU time, constraints, bytes and peak RSS; no keys, no engine");
  bench->add_flag("--pipeline", bench_args.pipeline,
                  "with --synthesis-only: --jobs whole C1s through the engine's pipeline (synthesis workers, budget, "
                  "ledger; no keys), each partition dropped unproved; the report is bench's (a profile for `zkpipe plan`)");
  bench->add_option("--partition", bench_args.partition, "with --synthesis-only: which partition")
      ->capture_default_str();
  bench->add_flag("--digest", bench_args.digest, "with --synthesis-only: print the partition's SHA-256");
  bench->add_flag("--json", bench_args.json, "machine-readable output");
  zk::app::ClientArgs bench_client;
  std::size_t bench_clients = 1;
  bench->add_option("--addr", bench_client.addr, "bench a daemon instead (keys from its params directory)");
  bench->add_option("--token", bench_client.token, "the daemon's token (default: $ZKPIPE_TOKEN)");
  add_tls_client_options(bench, bench_client);
  bench->add_option("-j,--clients", bench_clients, "with --addr: concurrent clients")->capture_default_str();

  zk::app::ServeArgs serve_args;
  auto* serve = app.add_subcommand("serve", "run the proving daemon (gRPC zkpipe.v1.ProvingEngine)");
  serve->add_option("--config", serve_args.config, "TOML configuration (every key: zkpipe.example.toml)");
  serve->add_option("--listen", serve_args.listen, "unix:///path or host:port (overrides daemon.listen)");
  serve->add_option("--params-dir", serve_args.params_dir, "where keys are found (overrides daemon.params_dir)");
  serve->add_flag("--ni-partition-proofs", serve_args.ni_partition_proofs,
                  "non-interactive PoRep jobs answer with their partition proofs instead of their SnarkPack "
                  "aggregate (daemon.ni_partition_proofs)");
  serve->add_option("--state-dir", serve_args.state_dir,
                    "where the embedded job store keeps accepted jobs (overrides daemon.state_dir; default "
                    "$XDG_STATE_HOME/zkpipe)");
  serve->add_option("--queue", serve_args.queue,
                    "postgresql://... : share one job queue with every daemon on that database; embedded: the "
                    "store in --state-dir (overrides queue.url)");
  serve->add_option("--token", serve_args.token, "require this shared secret on every call (overrides daemon.token)");
  serve->add_option("--tls-cert", serve_args.tls_cert,
                    "TLS on TCP: the server's PEM certificate chain (daemon.tls_cert)");
  serve->add_option("--tls-key", serve_args.tls_key, "TLS on TCP: its PEM private key (daemon.tls_key)");
  serve->add_option("--tls-client-ca", serve_args.tls_client_ca,
                    "mutual TLS: accept only clients with a certificate this PEM CA signed (daemon.tls_client_ca)");
  serve->add_option("--http-listen", serve_args.http_listen,
                    "the operators' HTTP listener: /metrics, /healthz, /readyz, status page (daemon.http_listen; "
                    "e.g. 127.0.0.1:9821)");
  serve->add_flag("--allow-token-over-plaintext", serve_args.allow_token_over_plaintext,
                  "allow a token on TCP without TLS (it travels in clear; daemon.allow_token_over_plaintext)");
  serve->add_option("--log-level", serve_args.log_level, "trace, debug, info, warn, error or off");
  serve->add_option("--log-format", serve_args.log_format, "text or json");

  zk::app::ClientArgs client;
  auto add_client = [&](CLI::App* c) {
    c->add_option("--addr", client.addr, "the daemon (default: the default unix socket)");
    c->add_option("--token", client.token, "the daemon's token (default: $ZKPIPE_TOKEN)");
    add_tls_client_options(c, client);
    c->add_flag("--json", client.json, "machine-readable output");
  };
  auto* status = app.add_subcommand("status", "a daemon's queues, workers, memory, cached keys and totals");
  add_client(status);
  auto* metrics = app.add_subcommand("metrics", "a daemon's metrics in Prometheus text format");
  add_client(metrics);
  std::uint64_t cancel_job = 0;
  auto* cancel = app.add_subcommand("cancel", "cancel a job on a daemon");
  add_client(cancel);
  cancel->add_option("job", cancel_job, "job id")->required();

  zk::app::PlanArgs plan_args;
  auto* plan = app.add_subcommand(
      "plan", "predict s/proof and peak memory of the pipeline for a machine, and recommend settings");
  plan->add_option("--profile", plan_args.profile, "stage profile from `zkpipe bench --json`");
  plan->add_option("--reference", plan_args.reference,
                   "built-in profile: porep-32g (the reference daemon's workload) or porep-32g-zkpipe (zkpipe's "
                   "measured partition on the reference's GPU times: a projection)");
  plan->add_option("--urgent-profile", plan_args.urgent_profile,
                   "urgent work beside it (a PoSt kind's `zkpipe bench --json`): print how late it can be");
  plan->add_option("--urgent-reference", plan_args.urgent_reference,
                   "or a built-in urgent profile: winning-32g (the reference daemon's WinningPoSt)");
  plan->add_option("--memory-gib", plan_args.memory_gib, "memory of the machine in GiB")->required();
  plan->add_option("--devices", plan_args.devices, "provers (GPUs; 1 for the CPU)")->capture_default_str();
  plan->add_option("--synthesis-workers", plan_args.synthesis_workers, "simulate this one setting (default: sweep)");
  plan->add_option("--max-workers", plan_args.max_workers, "sweep synthesis workers 1..N")->capture_default_str();
  plan->add_option("--prover-workers-per-device", plan_args.prover_workers_per_device, "with --synthesis-workers")
      ->capture_default_str();
  plan->add_option("--channel", plan_args.channel_capacity, "synthesized partitions that may wait")
      ->capture_default_str();
  plan->add_option("--proofs", plan_args.proofs, "proofs simulated")->capture_default_str();
  plan->add_flag("--json", plan_args.json, "machine-readable output");

  strict_integers(&app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;  // usage errors are bad input
  }
  if (*version) {
    std::printf("zkpipe %s\ncommit %s\nbuild type %s\nCUDA architectures %s\nCPU arithmetic %s\n", zk::base::kVersion,
                zk::base::kGitCommit, zk::base::kBuildType, zk::base::kCudaArchitectures,
                zk::cpu::kernel_paths().c_str());
    return 0;
  }
  if (*selftest) return zk::app::run_selftest(json);
  if (*devices) return zk::app::run_devices(json);
  if (*setup && setup_srs) {
    srs_setup.out_dir = setup_args.out_dir, srs_setup.json = setup_args.json, srs_setup.seed = setup_args.seed;
    return zk::app::run_setup_srs(srs_setup);
  }
  if (*setup && !fc_setup.kind.empty()) {
    fc_setup.out_dir = setup_args.out_dir, fc_setup.json = setup_args.json, fc_setup.seed = setup_args.seed;
    return zk::app::run_setup_filecoin(fc_setup);
  }
  // The Filecoin kinds' options, as the kind named by --kind takes them.
  auto kind_options = [](const std::string& name, const zk::app::KindCli& cli,
                         zk::circuits::filecoin::KindOptions* out) -> bool {
    auto kind = zk::circuits::filecoin::find_proof_kind(name);
    auto given = kind.ok() ? cli.given(**kind) : zk::Result<zk::circuits::filecoin::KindOptions>(kind.status());
    if (!given.ok()) {
      std::fprintf(stderr, "zkpipe: %s\n", given.status().message().c_str());
      return false;
    }
    *out = std::move(*given);
    return true;
  };
  if (*gen_c1) {
    if (!kind_options(gen_c1_args.kind, gen_c1_options, &gen_c1_args.options)) return 2;
    return zk::app::run_generate(gen_c1_args);
  }
  if (*gen_vanilla) {
    if (!kind_options(gen_vanilla_args.kind, gen_vanilla_options, &gen_vanilla_args.options)) return 2;
    return zk::app::run_generate(gen_vanilla_args);
  }
  if (*check) {
    if (!kind_options(check_args.input.kind, check_kind_options, &check_args.input.input)) return 2;
    return zk::app::run_check_filecoin(check_args);
  }
  if (*prove && !fc_prove.kind.empty() && !kind_options(fc_prove.kind, prove_kind_options, &fc_prove.input)) return 2;
  if (*verify && !fc_verify.kind.empty() && !kind_options(fc_verify.kind, verify_kind_options, &fc_verify.options)) {
    return 2;
  }
  if (*synthesize) return zk::app::run_synthesize_filecoin(synth_args);
  if (*params_check) {
    params_check_args.digest = !params_no_digest;
    return zk::app::run_params_check(params_check_args);
  }
  if (*setup) {
    setup_args.curve_given = setup->count("--curve") > 0;
    setup_args.seed_given = setup->count("--seed") > 0;
    return zk::app::run_setup(setup_args);
  }
  // The TLS options only mean something for a daemon: without --addr they are an error, not ignored.
  for (const auto& [cmd, c] :
       {std::pair{prove, &prove_client}, std::pair{bench, &bench_client}, std::pair{aggregate, &aggregate_args.client}}) {
    if (*cmd && c->addr.empty() && (c->tls || !c->tls_ca.empty() || !c->tls_cert.empty() || !c->tls_key.empty())) {
      std::fprintf(stderr, "zkpipe: %s: --tls, --tls-ca, --tls-cert and --tls-key need --addr (a daemon)\n",
                   cmd->get_name().c_str());
      return 2;
    }
  }
  if (*aggregate) return zk::app::run_aggregate(aggregate_args);
  if (*prove && !prove_client.addr.empty()) {
    // A daemon proves with its own keys and SRS, and answers a non-interactive PoRep as it is
    // configured: these local options would be ignored there, so they are an error.
    if (!fc_prove.params_dir.empty() || !fc_prove.srs.empty() || fc_prove.partition_proofs) {
      std::fprintf(stderr,
                   "zkpipe: prove: --params-dir, --srs and --partition-proofs are for a local prove; a daemon "
                   "uses its own params directory and SRS, and answers a non-interactive PoRep with its "
                   "partition proofs only when started with --ni-partition-proofs\n");
      return 2;
    }
    zk::app::RemoteProveArgs r;
    r.timeout_ms = prove_timeout_ms;
    r.out = prove_args.out, r.public_out = prove_args.public_out;
    r.proof_json = prove_args.proof_json, r.public_json = prove_args.public_json;
    prove_client.json = prove_args.json;
    auto input = [&](const std::string& path) -> bool {
      auto bytes = zk::read_file(path);
      if (!bytes.ok()) std::fprintf(stderr, "zkpipe: %s\n", bytes.status().message().c_str());
      if (!bytes.ok()) return false;
      r.job.input = std::move(*bytes);
      return true;
    };
    if (!fc_prove.kind.empty()) {
      auto job = zk::app::filecoin_job(fc_prove);
      if (!job.ok()) {
        std::fprintf(stderr, "zkpipe: %s\n", zk::bounded_message(job.status().message()).c_str());
        return 2;
      }
      if (r.out.empty()) {
        std::fprintf(stderr, "zkpipe: prove --addr --kind %s needs --out\n", fc_prove.kind.c_str());
        return 2;
      }
      r.job.circuit = job->circuit, r.job.shape = job->shape, r.job.partitions = job->partitions;
      r.job.input = std::move(job->input);
    } else if (!prove_args.zkey.empty()) {
      r.job.circuit = "zkey", r.job.shape = prove_args.zkey;
      if (prove_args.witness.empty() || r.proof_json.empty() || r.public_json.empty()) {
        std::fprintf(stderr, "zkpipe: prove --addr --zkey NAME needs --witness, --proof and --public\n");
        return 2;
      }
      if (!input(prove_args.witness)) {
        std::fprintf(stderr, "zkpipe: cannot read %s\n", prove_args.witness.c_str());
        return 2;
      }
    } else {
      if (prove_args.circuit != "synthetic") {
        std::fprintf(stderr, "zkpipe: unknown circuit '%s' (synthetic; Filecoin's proofs take --kind)\n",
                     prove_args.circuit.c_str());
        return 2;
      }
      r.job.circuit = "synthetic";
      r.job.shape = prove_args.curve + "-n" + std::to_string(prove_args.constraints);
      r.job.partitions = static_cast<std::uint32_t>(prove_args.partitions);
      for (int i = 0; i < 8; ++i) r.job.input.push_back(static_cast<std::uint8_t>(prove_args.seed >> (8 * i)));
      if (r.out.empty()) {
        std::fprintf(stderr, "zkpipe: prove --addr needs --out\n");
        return 2;
      }
    }
    return zk::app::run_remote_prove(prove_client, r);
  }
  if (*prove && !fc_prove.kind.empty()) {
    fc_prove.out = prove_args.out, fc_prove.params = prove_args.params, fc_prove.device = prove_args.device;
    fc_prove.json = prove_args.json;
    return zk::app::run_prove_filecoin(fc_prove);
  }
  if (*prove) return zk::app::run_prove(prove_args);
  if (*serve) return zk::app::run_serve(serve_args);
  if (*status) return zk::app::run_status(client);
  if (*metrics) return zk::app::run_metrics(client);
  if (*cancel) return zk::app::run_cancel(client, cancel_job);
  if (*verify && !fc_verify.kind.empty()) {
    fc_verify.vk = verify_args.vk, fc_verify.proof = verify_args.proof, fc_verify.json = verify_args.json;
    return zk::app::run_verify_filecoin(fc_verify);
  }
  if (*verify) return zk::app::run_verify(verify_args);
  if (*circuit_info) return zk::app::run_circuit_info(info_args);
  if (*inspect) {
    inspect_aggregate.json = inspect_json;
    if (inspect->count("--transcript-input") > 0 || inspect->count("--version") > 0) {
      auto bytes = zk::read_file(inspect_path, std::uint64_t{1} << 24);
      if (!bytes.ok()) {
        std::fprintf(stderr, "zkpipe: %s\n", bytes.status().message().c_str());
        return 2;
      }
      return zk::app::run_inspect_aggregate(inspect_path, *bytes, inspect_aggregate);
    }
    return zk::app::run_inspect(inspect_path, inspect_json);
  }
  if (*plan) return zk::app::run_plan(plan_args);
  if (*bench && bench_args.circuit == "mixed") {
    mixed_args.shape = bench_args.shape.empty() ? mixed_args.shape : bench_args.shape;
    mixed_args.porep_input = bench_args.input;
    mixed_args.synthesis_workers = bench_args.synthesis_workers;
    mixed_args.json = bench_args.json;
    return zk::app::run_bench_mixed(mixed_args);
  }
  if (*bench && !bench_client.addr.empty()) {
    zk::app::RemoteJob job;
    job.circuit = bench_args.circuit;
    bench_client.json = bench_args.json;
    auto input = [&](const std::string& path) -> bool {
      auto bytes = zk::read_file(path);
      if (!bytes.ok()) std::fprintf(stderr, "zkpipe: %s\n", bytes.status().message().c_str());
      if (!bytes.ok()) return false;
      job.input = std::move(*bytes);
      return true;
    };
    if (job.circuit == "zkey") {
      job.shape = bench_args.zkey;
      if (!input(bench_args.witness)) {
        std::fprintf(stderr, "zkpipe: bench --addr --circuit zkey needs --zkey NAME and a readable --witness\n");
        return 2;
      }
    } else if (zk::circuits::filecoin::find_proof_kind(job.circuit).ok()) {
      // A Filecoin kind: every job proves the same input at the shape; the daemon counts its partitions.
      job.shape = bench_args.shape;
      if (job.shape.empty() || !input(bench_args.input)) {
        std::fprintf(stderr, "zkpipe: bench --addr --circuit %s needs --shape SECTOR-SIZE and a readable --input FILE\n",
                     job.circuit.c_str());
        return 2;
      }
    } else {
      job.shape = bench_args.curve + "-n" + std::to_string(bench_args.constraints);
      job.partitions = static_cast<std::uint32_t>(bench_args.partitions);
      for (int i = 0; i < 8; ++i) job.input.push_back(static_cast<std::uint8_t>(7 >> (8 * i)));
    }
    return zk::app::run_remote_bench(bench_client, job, bench_args.jobs, bench_clients);
  }
  if (*bench) {
    if (!sweep.empty()) {
      const std::string prefix = "synthesis-workers=1..";
      if (sweep.rfind(prefix, 0) != 0 || sweep.size() == prefix.size() ||
          sweep.find_first_not_of("0123456789", prefix.size()) != std::string::npos) {
        std::fprintf(stderr, "zkpipe: --sweep expects synthesis-workers=1..N\n");
        return 2;
      }
      bench_args.sweep_max = static_cast<unsigned>(std::stoul(sweep.substr(prefix.size())));
      if (bench_args.sweep_max == 0 || bench_args.sweep_max > 256) {
        std::fprintf(stderr, "zkpipe: --sweep N must be between 1 and 256\n");
        return 2;
      }
    }
    return zk::app::run_bench(bench_args);
  }
  return 2;
}
