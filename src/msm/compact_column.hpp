#pragma once

// A vector of field values stored the way a Filecoin circuit's values actually are: mostly 0 and 1
// (booleanity rows, bits of SHA-256 words), a few full field elements (packed sums, Poseidon).
// Measured on a 32 GiB PoRep partition: a is 67 % zeros and ones, b 99.1 %, the witness (aux)
// 98.7 % (docs/synthesis.md). So an entry costs three bits (two flags, and a rank every 64), and
// only the other values are kept, in order: a 32 GiB partition's a and b take ~1.4 GB instead of 8.3 GB
// from synthesis until prove_start, which expands them into the dense vectors the quotient
// transforms in place, and its witness ~0.1 GB instead of 4.2 GB, which the MSMs read as it is
// (scalars 0 and 1 straight from the bits: msm/pippenger.hpp).
//
// Random access is O(1): every group of 64 entries holds its two flag words and the count of other
// values before it, so the i-th entry's value is one bit test, or a popcount and an index into the
// chunks. Other values are counted in 32 bits: at most 2^32 - 1 entries (a variable index's limit).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "base/uninit_vector.hpp"

namespace zk::msm {

template <class F>
class CompactColumn {
 public:
  /// Rows per block of the parallel expansion.
  static constexpr std::size_t kBlockRows = std::size_t{1} << 14;
  /// The other values are kept in chunks of 2^16 (2 MiB of 32-byte elements): no reallocation and
  /// copy as they grow past the first, and at most one chunk's slack.
  static constexpr unsigned kChunkLog = 16;

  void reserve(std::size_t rows) { groups_.reserve(rows / 64 + 1); }

  void push_back(const F& x) {
    const std::size_t bit = rows_ % 64;
    if (bit == 0) groups_.push_back(Group{0, 0, static_cast<std::uint32_t>(others_)});
    ++rows_;
    if (x.is_zero()) return;
    Group& g = groups_.back();
    if (x.is_one()) {
      g.ones |= std::uint64_t{1} << bit;
      return;
    }
    g.others |= std::uint64_t{1} << bit;
    if ((others_ >> kChunkLog) == chunks_.size()) {
      // The first chunk grows as a vector does (a small column holds little); the later ones are
      // reserved whole.
      chunks_.emplace_back();
      if (chunks_.size() > 1) chunks_.back().reserve(std::size_t{1} << kChunkLog);
    }
    chunks_.back().push_back(x);
    ++others_;
  }

  std::size_t size() const { return rows_; }
  /// Rows whose value is neither 0 nor 1 (kept as field elements).
  std::size_t others() const { return others_; }

  /// Row i's value is neither 0 nor 1 (then other_at(i) is it); otherwise it is is_one(i) ? 1 : 0.
  bool is_other(std::size_t i) const { return ((groups_[i / 64].others >> (i % 64)) & 1) != 0; }
  bool is_one(std::size_t i) const { return ((groups_[i / 64].ones >> (i % 64)) & 1) != 0; }
  /// The value of a row with is_other(i).
  const F& other_at(std::size_t i) const {
    const Group& g = groups_[i / 64];
    const std::uint64_t below = g.others & ((std::uint64_t{1} << (i % 64)) - 1);
    return other(g.rank + static_cast<std::size_t>(__builtin_popcountll(below)));
  }
  /// Row i's value (a copy: 0 and 1 are not stored).
  F get(std::size_t i) const { return is_other(i) ? other_at(i) : is_one(i) ? F::one() : F::zero(); }

  /// Bytes held (capacities: what the allocator holds for it).
  std::size_t bytes() const {
    std::size_t n = groups_.capacity() * sizeof(Group);
    for (const auto& c : chunks_) n += c.capacity() * sizeof(F);
    return n;
  }

  /// An upper bound of bytes() for a column of `rows` rows, whatever its values: every row another
  /// value (the first chunk at most twice its values, a power of two up to a whole chunk; one whole
  /// chunk of slack after it), and the bit groups at twice their size (vector growth without a
  /// reserve). What a budget reserves before the values are known.
  static std::size_t max_bytes(std::size_t rows) {
    constexpr std::size_t kChunk = std::size_t{1} << kChunkLog;
    const std::size_t values = rows <= kChunk ? std::min(2 * rows, kChunk) : ((rows >> kChunkLog) + 1) * kChunk;
    return values * sizeof(F) + 2 * (rows / 64 + 1) * sizeof(Group);
  }

  /// The dense values, zero-padded to n >= size() rows; in parallel by blocks, each row written once
  /// (the buffer is allocated unwritten: its first touch is this parallel pass).
  base::UninitVector<F> expand(std::size_t n) const {
    const std::size_t total = std::max(n, rows_);
    base::UninitVector<F> out(total);
    const std::size_t blocks = (total + kBlockRows - 1) / kBlockRows;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t k = r.begin(); k != r.end(); ++k) {
        const std::size_t begin = k * kBlockRows, end = std::min(total, begin + kBlockRows);
        std::size_t pos = begin < rows_ ? groups_[begin / 64].rank : 0;
        for (std::size_t i = begin; i < end; ++i) {
          if (i >= rows_) {
            out[i] = F::zero();
          } else if (is_other(i)) {
            out[i] = other(pos++);
          } else {
            out[i] = is_one(i) ? F::one() : F::zero();
          }
        }
      }
    });
    return out;
  }

  /// fn(value) for every row in order (digests, censuses, tests).
  template <class Fn>
  void for_each(Fn&& fn) const {
    std::size_t pos = 0;
    for (std::size_t i = 0; i < rows_; ++i) fn(is_other(i) ? other(pos++) : is_one(i) ? F::one() : F::zero());
  }

  /// 64 rows: which are 1, which are other values, and the count of other values before them.
  struct Group {
    std::uint64_t ones, others;
    std::uint32_t rank;
  };
  /// The raw layout, for copying the column as it is (the GPU forms the MSMs' scalars from it:
  /// msm/gpu_msm.hpp): one Group per 64 rows, and the other values in order, in chunks of
  /// 2^kChunkLog (the last one partial).
  std::span<const Group> groups() const { return groups_; }
  std::size_t chunk_count() const { return chunks_.size(); }
  std::span<const F> chunk(std::size_t k) const { return chunks_[k]; }

  /// Frees everything (the column is empty afterwards).
  void release() {
    std::vector<Group>().swap(groups_);
    std::vector<std::vector<F>>().swap(chunks_);
    rows_ = others_ = 0;
  }

 private:
  const F& other(std::size_t pos) const { return chunks_[pos >> kChunkLog][pos & ((std::size_t{1} << kChunkLog) - 1)]; }

  std::vector<Group> groups_;           // a row is 0 when neither of its bits is set
  std::vector<std::vector<F>> chunks_;  // the values of the rows with an `others` bit, in row order
  std::size_t rows_ = 0, others_ = 0;
};

}  // namespace zk::msm
