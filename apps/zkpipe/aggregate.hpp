#pragma once

// SnarkPack aggregates on the command line (issue 44, src/snarkpack): `zkpipe inspect FILE` on an
// aggregate proof — its proof count, and with `--transcript-input HEX` the transcript's values
// (hcom, r, the GIPA challenges, final_r) and the verdict of the six SRS-free TIPP/MIPP equations
// (exit 0 all hold, 1 one does not, 2 malformed). The check real Filecoin aggregates get without
// the production SRS file (the KZG and Groth16 checks need the SRS and the key: `zkpipe verify
// --kind porep` on a sector's aggregate).
//
// `zkpipe aggregate`: seal proofs of one or more sectors made into one SnarkPack V2 aggregate, as
// Curio's ProveCommitAggregate (interactive) or a non-interactive batch does it: the proofs in
// order, padded to a power of two, bound to sha256 of the sectors' seeds and comm_rs (NI: comm_rs);
// here, or with --addr by a daemon (its "snarkpack" kind, engine/aggregation_workload.hpp).

#include <cstdint>
#include <string>
#include <vector>

#include "serve.hpp"

namespace zk::app {

struct InspectAggregateArgs {
  std::string transcript_input;  // hex; Filecoin: sha256 of the seeds and comm_rs (NI: of the comm_rs)
  std::string version = "v2";    // v1 or v2 (AggregateVersion)
  bool json = false;
};
/// Whether the bytes have an aggregate's length (2260 + 2976 log2 n for the n they name).
bool looks_like_aggregate(const std::vector<std::uint8_t>& bytes);
int run_inspect_aggregate(const std::string& path, const std::vector<std::uint8_t>& bytes,
                          const InspectAggregateArgs& a);

struct AggregateArgs {
  std::vector<std::string> proofs;          // per sector, its partition proofs (192 bytes each)
  std::vector<std::string> c1s;             // per sector, its C1: comm_r, seed, interactive or not, partitions
  std::vector<std::string> comm_rs, seeds;  // instead of C1s
  bool non_interactive = false;             // with --comm-r: no seeds
  std::string transcript_input;             // instead of both: the bytes, hex
  std::string srs, out;
  /// With client.addr: the daemon aggregates (zkpipe.v1 circuit "snarkpack", its params directory's
  /// SRS) instead of this process; --srs is then not used.
  ClientArgs client;
  std::uint32_t timeout_ms = 0;
  bool json = false;
};
int run_aggregate(const AggregateArgs& a);

}  // namespace zk::app
