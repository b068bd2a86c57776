#pragma once

// SnarkPack aggregates on the command line (issue 44, src/snarkpack): `zkpipe inspect FILE` on an
// aggregate proof — its proof count, and with `--transcript-input HEX` the transcript's values
// (hcom, r, the GIPA challenges, final_r) and the verdict of the six SRS-free TIPP/MIPP equations
// (exit 0 all hold, 1 one does not, 2 malformed). The check real Filecoin aggregates get without
// the production SRS file; the KZG and Groth16 checks are not here yet.

#include <cstdint>
#include <string>
#include <vector>

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

}  // namespace zk::app
