#include "base/uninit_vector.hpp"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "base/env.hpp"

namespace zk::base {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

bool advise_huge_pages() {
  static const bool on = !env_flag("ZKPIPE_NO_HUGEPAGES");
  return on;
}

}  // namespace

void* allocate_large(std::size_t bytes) {
  if (bytes > std::numeric_limits<std::size_t>::max() - kHugePage) throw std::bad_alloc();
  const std::size_t size = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, size);
  if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice only: a kernel without THP (or with it off) ignores it, and so does this code.
  if (advise_huge_pages()) ::madvise(p, size, MADV_HUGEPAGE);
#endif
  return p;
}

void free_large(void* p) noexcept { std::free(p); }

}  // namespace zk::base
