#pragma once

// Filecoin's commands, one file per family: filecoin_circuit.cpp (circuit-info, setup --kind, params
// check), filecoin_prove.cpp (prove --kind, check), filecoin_verify.cpp (verify --kind),
// filecoin_generate.cpp (gen-c1, gen-vanilla), filecoin_synthesize.cpp (synthesize). The kinds
// themselves are described once, in circuits/filecoin/proof_kind.hpp.

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/proof_kind.hpp"

namespace zk::app {

struct CircuitInfoArgs {
  std::string kind = "porep";
  std::string sector_size;
  std::string api_version;  // porep: 1.0, 1.1 or 1.2 (checked; the circuit is the same for each)
  bool json = false;
};
int run_circuit_info(const CircuitInfoArgs& a);

struct FilecoinVerifyArgs {
  std::string kind, vk, proof;
  /// SnarkPack's SRS where the proof is an aggregate (NI-PoRep; default: beside --vk).
  std::string srs;
  circuits::filecoin::KindOptions options;  // the kind's public values (ProofKind::verify_options)
  bool json = false;
};
int run_verify_filecoin(const FilecoinVerifyArgs& a);

/// `zkpipe setup --kind porep --sector-size S --out DIR`: DEVELOPMENT keys for Filecoin's exact
/// circuit, written under Filecoin's parameter-file names.
struct FilecoinSetupArgs {
  std::string kind, sector_size, out_dir;
  std::uint64_t seed = 1;
  bool json = false;
};
int run_setup_filecoin(const FilecoinSetupArgs& a);

/// `zkpipe setup --srs --out DIR [--srs-proofs N]`: a DEVELOPMENT SnarkPack SRS (its secrets derive
/// from --seed) under Filecoin's file name, enough for aggregates of N proofs.
struct SrsSetupArgs {
  std::string out_dir;
  std::uint64_t seed = 1;
  std::size_t proofs = 8192;
  bool json = false;
};
int run_setup_srs(const SrsSetupArgs& a);

/// `zkpipe gen-c1` (the PoRep C1 of a sector of random data sealed in memory, 2 KiB or 8 MiB, or a
/// consistent synthetic C1 of any size, synthetic_c1.hpp) and `zkpipe gen-vanilla --kind` (a PoSt
/// partition's vanilla proofs, a SnapDeals update's input): the kind's test input
/// (ProofKind::generate) written to `out`.
struct GenerateArgs {
  std::string command;  // "gen-c1" or "gen-vanilla": the kinds it makes inputs for
  std::string kind;
  circuits::filecoin::KindOptions options;  // ProofKind::generate_options
  std::string out;
  bool json = false;
};
int run_generate(const GenerateArgs& a);

/// `zkpipe prove --kind porep --c1 FILE --params-dir DIR`: Filecoin's PoRep C2 in this process,
/// through the engine's workload (check, synthesize, prove, self-verify), partitions concatenated.
struct FilecoinProveArgs {
  std::string kind, params, params_dir, out, device = "auto";
  circuits::filecoin::KindOptions input;  // the kind's input options (ProofKind::input_options)
  /// SnarkPack's SRS for a non-interactive PoRep's aggregate ("": in --params-dir).
  std::string srs;
  /// Write the partition proofs even where Filecoin's answer is their aggregate (NI-PoRep).
  bool partition_proofs = false;
  bool json = false;
};
int run_prove_filecoin(const FilecoinProveArgs& a);

/// `zkpipe params check DIR`: per published PoRep sector size, which of Filecoin's files are in DIR,
/// whether their section counts fit the exact circuit, and (unless --no-digest) whether their
/// BLAKE2b digests are the published ones. Exit 0 all present files good, 1 otherwise.
struct ParamsCheckArgs {
  std::string dir;
  bool digest = true, json = false;
};
int run_params_check(const ParamsCheckArgs& a);

/// `zkpipe synthesize --kind porep --c1 FILE [--partition K] [--digest]`, also `zkpipe bench --circuit
/// porep --shape SIZE --input FILE --synthesis-only`: one partition's witness and a/b/c as the
/// prover needs them, measured (wall and CPU time, constraints, bytes, peak RSS during synthesis) —
/// no keys needed. The measure of the synthesis work (issue 19, docs/synthesis.md).
struct SynthesizeArgs {
  std::string kind, c1;
  std::string sector_size;  // when set, the C1 must be of this size
  std::size_t partition = 0;
  bool digest = false;  // SHA-256 of the partition (to compare synthesis paths)
  bool census = false;  // with json: how many aux / a / b / c values are 0, 1, < 2^64, full
  bool json = false;
};
int run_synthesize_filecoin(const SynthesizeArgs& a);

/// The daemon job of a C1 file: the sector size (its shape) and partitions; checked locally first.
struct FilecoinJob {
  std::string circuit;  // the daemon's circuit: porep, window-post, winning-post
  std::string shape;
  std::uint32_t partitions = 1;
  std::vector<std::uint8_t> input;
};
/// The job of `prove --kind`: the input the kind's options name (ProofKind::input_from_options),
/// parsed by the kind.
Result<FilecoinJob> filecoin_job(const FilecoinProveArgs& a);

/// `zkpipe check --kind KIND …`: the exact circuit's test constraint system run on a real input,
/// naming the first unsatisfied constraint, with the native check's verdict beside it and the
/// circuit's public inputs compared to those the public values derive. The kind's check options
/// (ProofKind::for_check) — PoSt: `--sector NUMBER:COMM_R` as the public values (default: the
/// vanilla proofs' own), `--sectors-per-partition` a smaller partition than production (a real
/// 32 GiB sector without a 125M-constraint synthesis). Exit 0 satisfied and matching, 1 not, 2
/// malformed input.
struct FilecoinCheckArgs {
  FilecoinProveArgs input;  // kind, and the kind's input and check options (PoSt: --sector, --sectors-per-partition)
  int partition = -1;       // one partition (default: every one the input proves)
  bool json = false;
};
int run_check_filecoin(const FilecoinCheckArgs& a);

}  // namespace zk::app
