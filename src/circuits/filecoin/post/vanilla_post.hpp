#pragma once

// One sector's FallbackPoSt vanilla proof as Filecoin's software sends it (the bytes Curio puts in
// each `vanilla_proofs` entry): bincode (1.x defaults: little-endian fixed-width integers, u64
// lengths, u32 enum tags, domains as 32 raw bytes) of filecoin-proofs' FallbackPoStSectorProof —
// sector_id u64, comm_r, then storage-proofs-post's Proof { sectors: [SectorProof {
// inclusion_proofs: [MerkleProof], comm_c, comm_r_last }] } with exactly one SectorProof.
// docs/filecoin-post.md has the byte map. Parsing bounds every length by the bytes left; checking
// opens every path natively against the challenges the randomness derives.

#include <cstdint>
#include <span>
#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/porep/vanilla.hpp"
#include "circuits/filecoin/post/fallback_circuit.hpp"
#include "circuits/filecoin/post/fallback_post.hpp"

namespace zk::circuits::filecoin {

struct PostSectorProof {
  std::uint64_t sector_id = 0;
  Bytes32 comm_r{};
  std::vector<MerkleProof> inclusion_proofs;  // one per challenge, in challenge order
  Bytes32 comm_c{}, comm_r_last{};
};

/// The bincode bytes of one FallbackPoStSectorProof; INVALID_ARGUMENT naming the field and offset.
Result<PostSectorProof> parse_post_sector_proof(std::span<const std::uint8_t> bytes);
std::vector<std::uint8_t> post_sector_proof_bytes(const PostSectorProof& p);

/// Everything the circuit will check, natively: the proof count (10 per WindowPoSt sector, 66 for
/// WinningPoSt), the tree's proof shape, every path to comm_r_last (the serialized one and every
/// root), each leaf index = the challenge that `randomness` derives for sector `sector_index` of the
/// proof (its position in the whole sector list), comm_r = Poseidon(comm_c, comm_r_last).
Status verify_post_sector_proof(const RegisteredPoStProof& proof, const std::array<std::uint8_t, 32>& randomness,
                                const PostSectorProof& p, std::size_t sector_index);

/// The vanilla proof of a sector sealed in memory (gen-vanilla, tests): the challenges `randomness`
/// derives for the sector at position `sector_index` of the proof, opened in its tree R-last.
Result<PostSectorProof> make_post_sector_proof(const RegisteredPoStProof& proof, const std::array<std::uint8_t, 32>& randomness,
                                               std::uint64_t sector_id, const StackedShape& shape,
                                               const SealedSector& sector, std::size_t sector_index);

/// The circuit's witness for this sector (checked first), with `challenges` paths.
Result<FallbackSectorWitness> post_sector_witness(const RegisteredPoStProof& proof, const PostSectorProof& p);

}  // namespace zk::circuits::filecoin
