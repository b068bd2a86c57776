#pragma once

// One field value per QAP row, stored the way a Filecoin circuit's rows actually are: mostly 0 and
// 1 (booleanity rows, bits of SHA-256 words), a few full field elements (packed sums, Poseidon).
// Measured on a 32 GiB PoRep partition: a is 67 % zeros and ones, b 99.1 % (docs/synthesis.md). So
// a row costs two bits, and only the other values are kept, in row order: a 32 GiB partition's a
// and b take ~1.4 GB instead of 8.3 GB from synthesis until prove_start, which expands them into
// the dense vectors the quotient transforms in place.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "base/uninit_vector.hpp"
#include "msm/density.hpp"

namespace zk::r1cs {

template <class F>
class CompactColumn {
 public:
  /// Rows per block of the parallel expansion (the others' position is recorded at each block).
  static constexpr std::size_t kBlockRows = std::size_t{1} << 14;
  /// The other values are kept in chunks of 2^16 (2 MiB of 32-byte elements): no reallocation and
  /// copy as they grow, and at most one chunk's slack.
  static constexpr unsigned kChunkLog = 16;

  void reserve(std::size_t rows) {
    ones_.reserve(rows);
    others_bits_.reserve(rows);
    block_start_.reserve(rows / kBlockRows + 1);
  }

  void push_back(const F& x) {
    if (rows_ % kBlockRows == 0) block_start_.push_back(others_);
    ++rows_;
    const bool zero = x.is_zero(), one = !zero && x.is_one();
    ones_.push_back(one);
    others_bits_.push_back(!zero && !one);
    if (zero || one) return;
    if ((others_ >> kChunkLog) == chunks_.size()) {
      chunks_.emplace_back();
      chunks_.back().reserve(std::size_t{1} << kChunkLog);
    }
    chunks_.back().push_back(x);
    ++others_;
  }

  std::size_t size() const { return rows_; }
  /// Rows whose value is neither 0 nor 1 (kept as field elements).
  std::size_t others() const { return others_; }

  /// Bytes held (capacities: what the allocator holds for it).
  std::size_t bytes() const {
    return ones_.bytes() + others_bits_.bytes() + (chunks_.size() << kChunkLog) * sizeof(F) +
           block_start_.capacity() * sizeof(std::size_t);
  }

  /// An upper bound of bytes() for a column of `rows` rows, whatever its values: every row another
  /// value, one chunk of slack, and the bitmaps and block table at twice their size (vector growth
  /// without a reserve). What a budget reserves before the values are known.
  static std::size_t max_bytes(std::size_t rows) {
    const std::size_t chunks = (rows >> kChunkLog) + 1;
    return (chunks << kChunkLog) * sizeof(F) + 2 * 2 * ((rows + 63) / 64) * 8 +
           2 * (rows / kBlockRows + 1) * sizeof(std::size_t);
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
        std::size_t pos = k < block_start_.size() ? block_start_[k] : 0;
        for (std::size_t i = begin; i < end; ++i) {
          if (i >= rows_) {
            out[i] = F::zero();
          } else if (others_bits_.test(i)) {
            out[i] = other(pos++);
          } else {
            out[i] = ones_.test(i) ? F::one() : F::zero();
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
    for (std::size_t i = 0; i < rows_; ++i) {
      fn(others_bits_.test(i) ? other(pos++) : ones_.test(i) ? F::one() : F::zero());
    }
  }

  /// Frees everything (the column is empty afterwards).
  void release() {
    ones_ = {};
    others_bits_ = {};
    std::vector<std::vector<F>>().swap(chunks_);
    std::vector<std::size_t>().swap(block_start_);
    rows_ = others_ = 0;
  }

 private:
  const F& other(std::size_t pos) const { return chunks_[pos >> kChunkLog][pos & ((std::size_t{1} << kChunkLog) - 1)]; }

  msm::DensityBitmap ones_, others_bits_;  // a row is 0 when neither bit is set
  std::vector<std::vector<F>> chunks_;     // the values of the rows with an others_bits_ bit, in row order
  std::vector<std::size_t> block_start_;   // count of other values before the first row of each block
  std::size_t rows_ = 0, others_ = 0;
};

}  // namespace zk::r1cs
