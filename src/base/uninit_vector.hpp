#pragma once

// A std::vector whose size-only constructor and resize() leave the new elements unwritten, so the
// first touch of a large buffer (its page faults) happens in the parallel pass that fills it, not in
// a serial zero fill. Only for implicit-lifetime element types (trivially copyable and
// destructible, e.g. field elements): their storage begins their lifetime (C++20 [intro.object]).
// Every element must be written before it is read.
//
// Buffers of kLargeAllocation bytes or more are 2 MiB-aligned and advised as transparent huge pages
// (madvise HUGEPAGE, where the kernel's THP mode is "madvise" or "always"): one page fault per 2 MiB
// instead of 512. On virtual machines whose page faults are slow this is most of a circom proof's
// system time (docs/snarkjs.md, "Memory"). ZKPIPE_NO_HUGEPAGES=1 leaves out the advice.

#include <cstddef>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace zk::base {

/// From this size on, UninitAllocator asks for huge pages.
inline constexpr std::size_t kLargeAllocation = std::size_t{8} << 20;
/// bytes (>= kLargeAllocation) rounded up to 2 MiB, 2 MiB-aligned, huge pages advised; throws
/// std::bad_alloc when the memory is not there.
void* allocate_large(std::size_t bytes);
/// Frees what allocate_large returned.
void free_large(void* p) noexcept;

template <class T>
struct UninitAllocator : std::allocator<T> {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  using value_type = T;
  template <class U>
  struct rebind {
    using other = UninitAllocator<U>;
  };
  UninitAllocator() = default;
  template <class U>
  UninitAllocator(const UninitAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_array_new_length();
    if (n * sizeof(T) >= kLargeAllocation) return static_cast<T*>(allocate_large(n * sizeof(T)));
    return std::allocator<T>::allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) >= kLargeAllocation) {
      free_large(p);
    } else {
      std::allocator<T>::deallocate(p, n);
    }
  }
  /// Value-initialisation (vector(n), resize(n)): nothing written.
  template <class U>
  void construct(U*) noexcept {}
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitVector = std::vector<T, UninitAllocator<T>>;

}  // namespace zk::base
