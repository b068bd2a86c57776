#pragma once

// One FallbackPoSt partition to prove, as a job's input: the registered PoSt proof, the randomness,
// the partition index and the partition's sectors' vanilla proofs (bincode FallbackPoStSectorProof,
// the bytes Curio puts in `vanilla_proofs`; WinningPoSt: its one sector). zkpipe's own JSON for it
// (docs/filecoin-post.md, "PoSt input"):
//   {"registered_proof": 10 | "StackedDrgWindow2KiBV1_2", "randomness": "<64 hex>", "partition": 0,
//    "vanilla_proofs": ["<base64 bincode>", ...]}
// Keys in any order, unknown keys ignored, duplicates refused. `check_post_input` verifies every
// vanilla proof natively (paths, roots, challenges from the randomness) before anything is proved.

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/post/fallback_circuit.hpp"
#include "circuits/filecoin/post/vanilla_post.hpp"

namespace zk::circuits::filecoin {

struct PostInput {
  RegisteredPoStProof proof;
  std::array<std::uint8_t, 32> randomness{};
  std::uint64_t partition = 0;           // WindowPoSt partition index (WinningPoSt: 0)
  std::vector<PostSectorProof> sectors;  // this partition's sectors, in order
};

/// Parses the JSON above (at most `max_sectors` vanilla proofs: the registered proof's
/// sectors per partition); INVALID_ARGUMENT naming the field.
Result<PostInput> parse_post_input(std::string_view json);
std::string post_input_json(const PostInput& in);

/// Counts (1..sectors per partition; WinningPoSt exactly 1), the partition index's bound, and every
/// sector's vanilla proof against the challenges of its position (partition · sectors per partition
/// + i) — errors name the sector.
Status check_post_input(const PostInput& in);
/// The circuit's witness (the partition padded with its last sector, as Filecoin pads; WinningPoSt's
/// 66 challenges as 66 one-challenge sectors). Call check_post_input first.
Result<FallbackWitness> post_witness(const PostInput& in);
/// The partition's public inputs (ONE excluded).
Result<std::vector<Fr>> post_public_inputs(const PostInput& in);

/// Most partitions a WindowPoSt is taken to have (a bound on the untrusted partition index: a 32 GiB
/// deadline holds far fewer).
inline constexpr std::uint64_t kMaxPostPartitions = 1 << 16;

}  // namespace zk::circuits::filecoin
