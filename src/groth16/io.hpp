#pragma once

// bellman-layout files (docs/formats.md section 2, docs/groth16.md):
//   .vk      alpha_g1 | beta_g1 | beta_g2 | gamma_g2 | delta_g1 | delta_g2 | u32 BE n | n x ic
//   .params  vk | u32 BE count + h | l | a | b_g1 | b_g2 (G1 then G2 points); anything after b_g2
//            (e.g. the MPC transcript of Zcash files) is ignored
//   proofs   A | B | C per proof, k proofs concatenated for k partitions
// BLS12-381 keys use ZCash uncompressed points and proofs compressed ones (192 bytes), exactly as
// bellman/bellperson. BN254 has no standard container; zkpipe uses the same layout with BN254's
// uncompressed big-endian encoding (G1 64 B, G2 128 B, infinity = zeros) for keys and proofs
// (256-byte proofs), documented as zkpipe's own.
//
// Readers check every count against the bytes that remain before allocating, reject the identity
// where bellman does (ic, h, l, a, b_g1, b_g2, proof points), decode points on all threads of the
// caller's arena, and skip the subgroup checks of key points only when asked (bellperson loads
// large .params unchecked; verifying keys and proofs are always checked).

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "base/file.hpp"
#include "base/status.hpp"
#include "groth16/keys.hpp"

namespace zk::groth16 {

struct ReadOptions {
  /// Subgroup checks of the proving-key points (on-curve checks always run).
  bool check_subgroup = true;
};

template <class E>
struct Encoding;  // per-curve sizes and codecs, defined in io.cpp

template <class E>
Result<VerifyingKey<E>> read_verifying_key(std::span<const std::uint8_t> bytes, std::size_t* consumed = nullptr);
template <class E>
std::vector<std::uint8_t> write_verifying_key(const VerifyingKey<E>& vk);
/// A BLS12-381 verifying key with compressed points (alpha_g1, beta_g1, beta_g2, gamma_g2,
/// delta_g1, delta_g2, u32 big-endian IC count, IC), as Filecoin's test vectors and gnark's
/// bellman cases store it; every point checked, the whole input consumed (zero padding allowed).
Result<VerifyingKey<Bls12_381>> read_verifying_key_compressed(std::span<const std::uint8_t> bytes);

template <class E>
Result<ProvingKey<E>> read_parameters(std::span<const std::uint8_t> bytes, const ReadOptions& options = {});
/// The section counts of a parameter file that starts at `bytes` (vk, then h, l, a, b_g1, b_g2),
/// walked without decoding a point: the byte length of the parameters (what may follow, e.g. an
/// MPC transcript, is not counted), or an error if the counts do not fit in `bytes`.
template <class E>
Result<std::size_t> parameters_extent(std::span<const std::uint8_t> bytes);
/// The section counts of a parameter file (ic in the vk, then h, l, a, b_g1, b_g2) and its byte
/// length, walked without decoding a point — from bytes, or from a file by seeking (a 47 GB
/// Filecoin .params is never read for this).
struct ParameterSections {
  std::uint64_t ic = 0, h = 0, l = 0, a = 0, b_g1 = 0, b_g2 = 0;
  std::uint64_t bytes = 0;
  /// Byte offsets of the first point of h, l, a, b_g1, b_g2 (after each query's count).
  std::uint64_t h_at = 0, l_at = 0, a_at = 0, b_g1_at = 0, b_g2_at = 0;
};
/// Bytes of one key point in a parameter file: G1 (96 / 64) or G2 (192 / 128) on BLS12-381 / BN254.
template <class E>
std::size_t key_point_bytes(bool g2);
/// Decodes `out.size()` consecutive points of a proving-key query from `bytes` (exactly that many
/// encodings), in parallel: on-curve always checked, the subgroup when `options` ask, the identity
/// refused; a failure names `what`[first_index + i].
template <class E, class Affine>
Status decode_key_points(std::span<const std::uint8_t> bytes, std::span<Affine> out, const ReadOptions& options,
                         const std::string& what, std::size_t first_index);
template <class E>
Result<ParameterSections> parameter_sections(std::span<const std::uint8_t> bytes);
template <class E>
Result<ParameterSections> read_parameter_sections(const std::filesystem::path& path);
template <class E>
std::vector<std::uint8_t> write_parameters(const ProvingKey<E>& pk);

/// Bytes of one proof: 192 on BLS12-381, 256 on BN254.
template <class E>
std::size_t proof_bytes();
template <class E>
Result<std::vector<Proof<E>>> read_proofs(std::span<const std::uint8_t> bytes);
template <class E>
std::vector<std::uint8_t> write_proofs(std::span<const Proof<E>> proofs);

/// Whole-file helpers with messages naming the path (reading: base/file.hpp, regular files only).
using zk::read_file;
Status write_file(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);

}  // namespace zk::groth16
