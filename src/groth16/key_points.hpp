#pragma once

// One query of a proving key (h, l, a, b_g1, b_g2): a read-only array of affine points that either
// owns its memory (a key made by setup or decoded from a small file) or views a mapped key cache
// (groth16/key_cache.hpp), whose pages the kernel reads on first touch and may reclaim. The prover
// only ever reads a query as a contiguous span, so both are the same to it.

#include <algorithm>
#include <memory>
#include <span>
#include <vector>

#include "base/mapped_file.hpp"

namespace zk::groth16 {

template <class T>
class KeyPoints {
 public:
  KeyPoints() = default;
  KeyPoints(std::vector<T> owned) : owned_(std::move(owned)), data_(owned_.data()), size_(owned_.size()) {}  // NOLINT
  /// A view of `size` points at byte `offset` of `mapping` (which stays mapped while viewed).
  KeyPoints(std::shared_ptr<const MappedFile> mapping, std::uint64_t offset, std::size_t size)
      : data_(reinterpret_cast<const T*>(mapping->bytes().data() + offset)), size_(size), keep_(std::move(mapping)) {}
  KeyPoints(KeyPoints&& o) noexcept { *this = std::move(o); }
  KeyPoints& operator=(KeyPoints&& o) noexcept {
    const bool owning = o.data_ == o.owned_.data();
    owned_ = std::move(o.owned_);
    data_ = owning ? owned_.data() : o.data_;
    size_ = o.size_;
    keep_ = std::move(o.keep_);
    o.data_ = nullptr, o.size_ = 0;
    return *this;
  }
  KeyPoints(const KeyPoints& o) { *this = o; }
  KeyPoints& operator=(const KeyPoints& o) {
    if (this == &o) return *this;
    const bool owning = o.data_ == o.owned_.data();
    owned_ = o.owned_;
    data_ = owning ? owned_.data() : o.data_;
    size_ = o.size_;
    keep_ = o.keep_;
    return *this;
  }

  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  operator std::span<const T>() const { return {data_, size_}; }  // NOLINT
  /// The same points (owned or mapped alike).
  friend bool operator==(const KeyPoints& x, const KeyPoints& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end());
  }
  /// Whether the points live in a mapping (not in the process's own memory).
  bool mapped() const { return keep_ != nullptr; }
  /// The mapping the points live in (null when owned).
  const MappedFile* mapping() const { return keep_.get(); }
  /// Bytes of a mapped query now resident in memory (0 when owned).
  std::uint64_t resident_bytes() const {
    if (keep_ == nullptr) return 0;
    const auto offset = static_cast<std::uint64_t>(reinterpret_cast<const std::uint8_t*>(data_) - keep_->bytes().data());
    return keep_->resident_bytes(offset, size_ * sizeof(T));
  }

 private:
  std::vector<T> owned_;
  const T* data_ = nullptr;
  std::size_t size_ = 0;
  std::shared_ptr<const MappedFile> keep_;
};

}  // namespace zk::groth16
