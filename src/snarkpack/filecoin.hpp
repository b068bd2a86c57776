#pragma once

// Filecoin's use of SnarkPack (rust-fil-proofs filecoin-proofs api/seal.rs and api/util.rs;
// ../shared/design/snarkpack.md): proofs padded to the next power of two (at least 2) by repeating
// the last one — and the verifier's public inputs the same way — V2 aggregates, the SRS read from
// Filecoin's file (v28-fil-inner-product-v1.srs, only the prefix the count needs). The statement's
// transcript input (sha256 of the seeds and comm_rs) comes from the caller
// (circuits/filecoin/porep/aggregation.hpp).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "snarkpack/prove.hpp"
#include "snarkpack/verify.hpp"

namespace zk::snarkpack {

/// Filecoin's limits: at most 8192 proofs in one aggregate (819 sectors of 10 partitions, padded).
inline constexpr std::size_t kFilecoinMaxAggregatedProofs = 8192;

/// The count an aggregate of n proofs holds: the next power of two, at least 2.
std::size_t padded_count(std::size_t n);

/// Aggregates Groth16 proofs (192-byte proofs concatenated, in order) as Filecoin does: padded, V2.
/// The aggregate's bytes.
Result<std::vector<std::uint8_t>> aggregate_filecoin(const Srs& srs, std::span<const std::uint8_t> proofs,
                                                     std::span<const std::uint8_t> transcript_input,
                                                     AggregateTimings* timings = nullptr);
/// The same with the SRS prefix the count needs read from `srs_path`.
Result<std::vector<std::uint8_t>> aggregate_filecoin(const std::string& srs_path, std::span<const std::uint8_t> proofs,
                                                     std::span<const std::uint8_t> transcript_input,
                                                     AggregateTimings* timings = nullptr);
/// The number of 192-byte proofs in `proofs` when it is a whole number of them, 1 to 8192.
Result<std::size_t> filecoin_proof_count(std::span<const std::uint8_t> proofs);

/// Verifies an aggregate's bytes against every proof's public inputs (unpadded: the last set is
/// repeated up to the aggregate's count), the verifying key, and the SRS's first powers from
/// `srs_path`. INVALID_ARGUMENT: malformed bytes, a count that does not pad to the aggregate's.
Result<Verdict> verify_filecoin(const std::string& srs_path, const Groth16VerifyingKey& vk,
                                std::span<const std::vector<Fr>> public_inputs, std::span<const std::uint8_t> aggregate,
                                std::span<const std::uint8_t> transcript_input, Version v = Version::kV2);

}  // namespace zk::snarkpack
