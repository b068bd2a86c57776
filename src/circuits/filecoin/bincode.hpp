#pragma once

// bincode (1.x defaults: little-endian fixed-width integers, u64 lengths, u32 enum tags, domains as
// 32 raw bytes) as Filecoin's vanilla proofs use it: a bounds-checked reader whose errors name the
// field and the byte, and the MerkleProof enum (Single / Sub / Top) read and written — shared by
// the PoSt sector proofs (post/vanilla_post.cpp) and the SnapDeals partition proofs
// (update/partition_proof.cpp).

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/porep/vanilla.hpp"

namespace zk::circuits::filecoin::bincode {

/// A bounds-checked little-endian reader; errors name the field and the offset.
class BinReader {
 public:
  explicit BinReader(std::span<const std::uint8_t> b) : b_(b) {}
  std::size_t remaining() const { return b_.size() - off_; }
  std::size_t offset() const { return off_; }
  Status need(std::size_t n, const std::string& what) const {
    if (remaining() < n) {
      return Status::invalid_argument(what + ": truncated at byte " + std::to_string(off_) + " (" + std::to_string(n) +
                                      " bytes needed, " + std::to_string(remaining()) + " left)");
    }
    return {};
  }
  Result<std::uint64_t> uint(unsigned width, const std::string& what) {
    if (Status s = need(width, what); !s.ok()) return s;
    std::uint64_t v = 0;
    for (unsigned i = width; i-- > 0;) v = (v << 8) | b_[off_ + i];
    off_ += width;
    return v;
  }
  Result<std::uint64_t> u64(const std::string& what) { return uint(8, what); }
  Result<std::uint32_t> u32(const std::string& what) {
    auto v = uint(4, what);
    if (!v.ok()) return v.status();
    return static_cast<std::uint32_t>(*v);
  }
  Result<Bytes32> domain(const std::string& what) {
    if (Status s = need(32, what); !s.ok()) return s;
    Bytes32 out;
    std::copy_n(b_.begin() + static_cast<std::ptrdiff_t>(off_), 32, out.begin());
    off_ += 32;
    return out;
  }
  /// A u64 length whose elements take at least `min_element` bytes each, at most `max`.
  Result<std::uint64_t> length(const std::string& what, std::size_t min_element, std::uint64_t max) {
    auto n = uint(8, what + " length");
    if (!n.ok()) return n;
    if (*n > max || (min_element > 0 && *n > remaining() / min_element)) {
      return Status::invalid_argument(what + ": length " + std::to_string(*n) + " at byte " + std::to_string(off_ - 8) +
                                      " is more than the input can hold");
    }
    return n;
  }

 private:
  std::span<const std::uint8_t> b_;
  std::size_t off_ = 0;
};

/// A path (u64 count of elements; each: u64 count of 32-byte hashes, u64 index).
Result<std::vector<PathElement>> read_path(BinReader& r, const std::string& what);
/// A MerkleProof: u32 tag 0 Single { root, leaf, path }, 1 Sub { base, sub, root, leaf },
/// 2 Top { base, sub, top, root, leaf }.
Result<MerkleProof> read_merkle(BinReader& r, const std::string& what);

void put_uint(std::vector<std::uint8_t>& o, std::uint64_t v, unsigned width);
inline void put_u64(std::vector<std::uint8_t>& o, std::uint64_t v) { put_uint(o, v, 8); }
void put_domain(std::vector<std::uint8_t>& o, const Bytes32& d);
void put_path(std::vector<std::uint8_t>& o, const std::vector<PathElement>& path);
void put_merkle(std::vector<std::uint8_t>& o, const MerkleProof& m);

}  // namespace zk::circuits::filecoin::bincode
