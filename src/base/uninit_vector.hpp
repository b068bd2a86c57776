#pragma once

// A std::vector whose size-only constructor and resize() leave the new elements unwritten, so the
// first touch of a large buffer (its page faults) happens in the parallel pass that fills it, not in
// a serial zero fill. Only for implicit-lifetime element types (trivially copyable and
// destructible, e.g. field elements): their storage begins their lifetime (C++20 [intro.object]).
// Every element must be written before it is read.

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace zk::base {

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
