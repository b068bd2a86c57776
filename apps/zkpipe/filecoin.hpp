#pragma once

// Filecoin proof kinds on the command line: `zkpipe circuit-info` (the exact circuits' sizes) and
// `zkpipe verify --kind porep` (a PoRep C2 proof checked from the sector's public values).

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.hpp"

namespace zk::app {

struct CircuitInfoArgs {
  std::string kind = "porep";
  std::string sector_size;
  std::string api_version;  // porep: 1.0, 1.1 or 1.2 (checked; the circuit is the same for each)
  bool json = false;
};
int run_circuit_info(const CircuitInfoArgs& a);

struct FilecoinVerifyArgs {
  std::string kind, sector_size, vk, proof;
  std::string c1;  // the public values from a C1 file instead of the options below
  // window-post / winning-post: the randomness, the sectors ("NUMBER:COMM_R_HEX"); with
  // partition_given, the proof file holds that one partition (else every partition the sectors make)
  std::string randomness;
  std::vector<std::string> sectors;
  std::size_t partition = 0;
  bool partition_given = false;
  std::string comm_r_old, comm_d_new, comm_r_new;  // snap-update (hex or CIDs; --registered-proof 0-4)
  std::string prover_id, ticket, seed, comm_d, comm_r, porep_id;  // 32-byte hex (commitments: Filecoin's byte order)
  std::uint64_t sector_number = 0;
  int registered_proof = -1;   // filecoin-proofs-api / Curio numbering (0..19); sets porep_id and the graph
  std::string api_version = "1.1";  // with --porep-id: 1.0 uses the legacy expander graph
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

/// `zkpipe gen-c1`: seals a sector of random data in memory (2 KiB, 8 MiB) and writes its C1 in
/// filecoin-proofs-api's JSON (or cuzk's wrapper); --synthetic: a consistent synthetic C1 of any
/// size (synthetic_c1.hpp), marked "zkpipe_synthetic" in the file.
struct GenC1Args {
  std::string registered_proof = "StackedDrg2KiBV1_1";  // number or name
  std::string sector_size;                              // instead: that size's V1_1 proof
  std::string prover_id;                                // hex; default from --miner-id
  std::uint64_t miner_id = 1000, sector_number = 1, data_seed = 1;
  std::string ticket, seed;  // hex; default derived from --data-seed
  std::string out;
  bool wrap = false, synthetic = false, json = false;
};
int run_gen_c1(const GenC1Args& a);

/// `zkpipe prove --kind porep --c1 FILE --params-dir DIR`: Filecoin's PoRep C2 in this process,
/// through the engine's workload (check, synthesize, prove, self-verify), partitions concatenated.
struct FilecoinProveArgs {
  std::string kind, c1, params, params_dir, out, device = "auto";
  // window-post / winning-post: zkpipe's PoSt input JSON (gen-vanilla's output), or its parts: the
  // sectors' bincode vanilla proofs, the randomness (hex), the registered PoSt proof, the partition.
  std::string post_input, randomness, registered_proof;
  std::string update_input;  // snap-update: zkpipe's SnapDeals input JSON (gen-vanilla --kind snap-update)
  std::vector<std::string> vanilla;
  std::uint64_t partition = 0;
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
  bool digest = false;      // SHA-256 of the partition (to compare synthesis paths)
  bool census = false;      // with json: how many aux / a / b / c values are 0, 1, < 2^64, full
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
/// The job of `prove --kind`: porep from --c1; window-post / winning-post from --post-input or
/// --vanilla + --randomness + --registered-proof [+ --partition].
Result<FilecoinJob> filecoin_job(const FilecoinProveArgs& a);

/// `zkpipe check --kind KIND …`: the exact circuit's test constraint system run on a real input,
/// naming the first unsatisfied constraint, with the native check's verdict beside it and the
/// circuit's public inputs compared to those the public values derive. PoSt: `sectors` (NUMBER:
/// COMM_R) are the public values (default: the vanilla proofs' own); `sectors_per_partition` checks
/// the sectors against a smaller partition than production (a real 32 GiB sector without a
/// 125M-constraint synthesis). Exit 0 satisfied and matching, 1 not, 2 malformed input.
struct FilecoinCheckArgs {
  FilecoinProveArgs input;  // kind, c1 / post_input / vanilla + randomness + registered_proof + partition
  std::vector<std::string> sectors;
  unsigned sectors_per_partition = 0;  // 0: the registered proof's
  int porep_partition = -1;            // porep: one partition (default: all)
  bool json = false;
};
int run_check_filecoin(const FilecoinCheckArgs& a);

/// `zkpipe gen-vanilla`: seals sectors of random data in memory (2 KiB, 8 MiB) and writes one PoSt
/// partition's input (post_input.hpp: the sectors' bincode vanilla proofs for the randomness, as
/// Curio sends them), for `prove --kind window-post|winning-post` and the daemon.
struct GenVanillaArgs {
  std::string kind = "window-post";  // or winning-post, snap-update (one sector updated in memory)
  std::string registered_proof;      // number or name; default: the kind at --sector-size (Window V1_2)
  std::string sector_size = "2KiB";
  std::uint64_t sectors = 1, first_sector = 1, miner_id = 1000, data_seed = 1, partition = 0;
  std::string randomness;  // hex; default derived from --data-seed
  std::string out;
  bool json = false;
};
int run_gen_vanilla(const GenVanillaArgs& a);

}  // namespace zk::app
