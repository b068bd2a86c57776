#pragma once

// SnarkPack's Fiat-Shamir transcript, byte for byte as bellperson's (transcript.rs with blstrs'
// serde and bincode 1.x; ../shared/design/snarkpack.md section 2): SHA-256 over "snarkpack-v1",
// the tag, then each value written — G1 / G2 compressed, Fr 32 bytes little-endian, GT its 576
// uncompressed bytes, a byte string its u64 little-endian length then the bytes. A challenge
// absorbs a counter (u64 big-endian, from 1, every one kept) until SHA-256 of everything so far,
// its top bit cleared, read little-endian, is a field element other than 0 and 1.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "snarkpack/gt.hpp"

namespace zk::snarkpack {

class Transcript {
 public:
  explicit Transcript(std::string_view tag);
  Transcript& write(const G1Affine& p);
  Transcript& write(const G2Affine& p);
  Transcript& write(const Fr& x);
  Transcript& write(const Fq12& g);
  /// A byte string (bellperson's transcript_include: &[u8]).
  Transcript& write_bytes(std::span<const std::uint8_t> b);
  Fr challenge();

 private:
  void absorb(std::span<const std::uint8_t> b);
  std::vector<std::uint8_t> data_;  // everything absorbed (small: a few GT elements)
};

}  // namespace zk::snarkpack
