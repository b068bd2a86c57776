#pragma once

// Filecoin proof kinds on the command line: `zkpipe circuit-info` (the exact circuits' sizes) and
// `zkpipe verify --kind porep` (a PoRep C2 proof checked from the sector's public values).

#include <cstdint>
#include <string>

namespace zk::app {

struct CircuitInfoArgs {
  std::string kind = "porep";
  std::string sector_size;
  bool json = false;
};
int run_circuit_info(const CircuitInfoArgs& a);

struct FilecoinVerifyArgs {
  std::string kind, sector_size, vk, proof;
  std::string prover_id, ticket, seed, comm_d, comm_r, porep_id;  // 32-byte hex (commitments: Filecoin's byte order)
  std::uint64_t sector_number = 0;
  int registered_proof = -1;   // filecoin-proofs-api / Curio numbering (0..19); sets porep_id and the graph
  std::string api_version = "1.1";  // with --porep-id: 1.0 uses the legacy expander graph
  bool json = false;
};
int run_verify_filecoin(const FilecoinVerifyArgs& a);

}  // namespace zk::app
