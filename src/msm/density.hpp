#pragma once

// Density bitmaps with bellperson's DensityTracker semantics: bit i set means variable i has a base
// in the query; the query's bases hold exactly the set positions, in increasing order. Groth16's A
// and B queries are filtered this way (docs/formats.md, bellman parameters).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace zk::msm {

class DensityBitmap {
 public:
  DensityBitmap() = default;
  explicit DensityBitmap(std::size_t bits, bool value = false)
      : words_((bits + 63) / 64, value ? ~std::uint64_t{0} : 0), bits_(bits) {
    trim();
  }

  std::size_t size() const { return bits_; }
  void reserve(std::size_t bits) { words_.reserve((bits + 63) / 64); }
  bool test(std::size_t i) const { return ((words_[i / 64] >> (i % 64)) & 1) != 0; }
  void set(std::size_t i, bool value = true) {
    const std::uint64_t m = std::uint64_t{1} << (i % 64);
    words_[i / 64] = value ? (words_[i / 64] | m) : (words_[i / 64] & ~m);
  }
  /// Appends one bit (bellperson's add_element followed by an optional inc). Bits past size() are
  /// always 0 (the constructor trims), so a 0 costs nothing but the count.
  void push_back(bool value) {
    if (bits_ % 64 == 0) add_word();
    if (value) words_.back() |= std::uint64_t{1} << (bits_ % 64);
    ++bits_;
  }
  std::size_t popcount() const {
    std::size_t c = 0;
    for (auto w : words_) c += static_cast<std::size_t>(__builtin_popcountll(w));
    return c;
  }
  /// Set bits in [begin, end) (end <= size()).
  std::size_t count(std::size_t begin, std::size_t end) const {
    std::size_t c = 0, i = begin;
    for (; i < end && i % 64 != 0; ++i) c += test(i) ? 1 : 0;
    for (; i + 64 <= end; i += 64) c += static_cast<std::size_t>(__builtin_popcountll(words_[i / 64]));
    for (; i < end; ++i) c += test(i) ? 1 : 0;
    return c;
  }
  const std::vector<std::uint64_t>& words() const { return words_; }
  std::size_t bytes() const { return words_.size() * sizeof(std::uint64_t); }

 private:
  [[gnu::noinline]] void add_word() { words_.push_back(0); }  // once per 64 bits: keeps push_back inlined
  void trim() {
    if (bits_ % 64 != 0 && !words_.empty()) words_.back() &= (std::uint64_t{1} << (bits_ % 64)) - 1;
  }
  std::vector<std::uint64_t> words_;
  std::size_t bits_ = 0;
};

}  // namespace zk::msm
