#pragma once

// SnarkPack's structured reference string (bellperson groth16::aggregate srs.rs; Filecoin's
// v28-fil-inner-product-v1.srs, ../shared/design/snarkpack.md section 3): four vectors — g_alpha,
// g_beta (G1), h_alpha, h_beta (G2), the powers of two secrets alpha and beta times the generators
// — each a u32 big-endian length then its compressed points. Filecoin's file has 2^20 + 1 points in
// each (301,990,192 bytes). Aggregating n proofs needs g_*[0, 2n) and h_*[0, n); verifying needs g,
// h and the first power of each. Read by ranges (a few KB for 16 proofs), never whole.
//
// A development SRS (`development_srs`) derives alpha and beta from a seed: anyone who knows the
// seed can forge aggregates. For tests and benchmarks only; it is labelled so wherever it is made.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "snarkpack/gt.hpp"

namespace zk::snarkpack {

/// Filecoin's published SRS: its file name, size and digest (srs-inner-product.json: BLAKE2b-512,
/// the first 32 hex digits).
inline constexpr const char* kFilecoinSrsName = "v28-fil-inner-product-v1.srs";
inline constexpr std::uint64_t kFilecoinSrsBytes = 301'990'192;
inline constexpr const char* kFilecoinSrsDigest = "ae20310138f5ba81451d723f858e3797";
/// Points per vector in Filecoin's file (bellperson MAX_SRS_SIZE).
inline constexpr std::uint32_t kMaxSrsPoints = (1u << 20) + 1;

/// The four vectors (whole, or the prefix a proof count needs).
struct Srs {
  std::vector<G1Affine> g_alpha, g_beta;
  std::vector<G2Affine> h_alpha, h_beta;
};

/// The vector lengths a file holds, from its four length fields.
struct SrsHeader {
  std::uint32_t g_alpha = 0, g_beta = 0, h_alpha = 0, h_beta = 0;
  std::uint64_t bytes = 0;  // the file size they imply
};

/// Reads `out.size()` bytes at `offset` of the file (INVALID_ARGUMENT / IO_ERROR past its end).
using ReadAt = std::function<Status(std::uint64_t offset, std::span<std::uint8_t> out)>;

/// The four length fields (each at most kMaxSrsPoints), checked against the file size.
Result<SrsHeader> read_srs_header(const ReadAt& read, std::uint64_t file_bytes);
/// What aggregating `nproofs` needs: g_alpha, g_beta [0, 2 nproofs), h_alpha, h_beta [0, nproofs),
/// every point checked, the first of each the group's generator.
Result<Srs> read_srs_prefix(const ReadAt& read, std::uint64_t file_bytes, std::size_t nproofs);
/// The same from a file.
Result<Srs> read_srs_file(const std::string& path, std::size_t nproofs);
/// A file's four lengths only (cheap: how many proofs it can aggregate, without reading points).
Result<SrsHeader> read_srs_file_header(const std::string& path);
/// The most proofs an SRS of these lengths aggregates.
std::size_t srs_capacity(const SrsHeader& h);
/// Whether the file aggregates `nproofs` (its lengths only: a submit-time check; the points are read
/// and checked when the aggregate is made): the header's error, or INVALID_ARGUMENT naming both counts.
Status check_srs_file_capacity(const std::string& path, std::size_t nproofs);
/// The file bytes of an SRS.
std::vector<std::uint8_t> write_srs(const Srs& srs);
/// A DEVELOPMENT SRS: alpha and beta derived from `seed` (insecure), `g_points` powers in G1 and
/// `h_points` in G2.
Srs development_srs(std::uint64_t seed, std::size_t g_points, std::size_t h_points);

}  // namespace zk::snarkpack
