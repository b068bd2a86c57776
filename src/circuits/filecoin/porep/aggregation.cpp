#include "circuits/filecoin/porep/aggregation.hpp"

#include <openssl/sha.h>

#include <vector>

namespace zk::circuits::filecoin {

sdr::Bytes32 seal_transcript_input(std::span<const AggregatedSector> sectors, bool non_interactive) {
  std::vector<std::uint8_t> bytes;
  bytes.reserve(sectors.size() * 64);
  for (const AggregatedSector& s : sectors) {
    if (!non_interactive) bytes.insert(bytes.end(), s.seed.begin(), s.seed.end());
    bytes.insert(bytes.end(), s.comm_r.begin(), s.comm_r.end());
  }
  sdr::Bytes32 out;
  SHA256(bytes.data(), bytes.size(), out.data());
  return out;
}

}  // namespace zk::circuits::filecoin
