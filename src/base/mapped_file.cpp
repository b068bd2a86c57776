#include "base/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <vector>

#include "base/file.hpp"

namespace zk {

namespace {
std::uint64_t page_size() { return static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)); }

// The mappings whose lost pages become zeros (OnLostPage::kZeroPage), for the SIGBUS handler. A
// signal handler is process-wide by nature, so this table is too (the one exception to "no
// process-wide mutable state"); it holds address ranges and counters only, read lock-free.
constexpr int kGuardSlots = 256;
struct GuardSlot {
  std::atomic<std::uintptr_t> begin{0}, end{0};
  std::atomic<std::uint64_t> lost{0};
};
GuardSlot g_guards[kGuardSlots];
struct sigaction g_previous_sigbus;
std::uintptr_t g_page = 4096;

void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (auto& g : g_guards) {
    const std::uintptr_t b = g.begin.load(std::memory_order_acquire), e = g.end.load(std::memory_order_acquire);
    if (b == 0 || addr < b || addr >= e) continue;
    // A page of a guarded mapping left its file: a private zero page takes its place, and the
    // faulting read is retried on it (mmap is a plain system call here, safe in a handler).
    void* page = reinterpret_cast<void*>(addr & ~(g_page - 1));
    if (::mmap(page, g_page, PROT_READ, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED) {
      g.lost.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    break;
  }
  // Not ours: whatever was there before (by default, the process ends with SIGBUS as it would have).
  if ((g_previous_sigbus.sa_flags & SA_SIGINFO) != 0 && g_previous_sigbus.sa_sigaction != nullptr) {
    g_previous_sigbus.sa_sigaction(sig, info, context);
    return;
  }
  if (g_previous_sigbus.sa_handler != SIG_DFL && g_previous_sigbus.sa_handler != SIG_IGN &&
      g_previous_sigbus.sa_handler != nullptr) {
    g_previous_sigbus.sa_handler(sig);
    return;
  }
  ::signal(SIGBUS, SIG_DFL);  // the retried access faults again and ends the process
}

Result<int> guard_range(const std::uint8_t* data, std::uint64_t size) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    g_page = static_cast<std::uintptr_t>(page_size());
    struct sigaction sa {};
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGBUS, &sa, &g_previous_sigbus);
  });
  for (int i = 0; i < kGuardSlots; ++i) {
    std::uintptr_t free = 0;
    if (g_guards[i].begin.compare_exchange_strong(free, 1)) {  // claimed (1: no address matches yet)
      g_guards[i].lost.store(0);
      g_guards[i].end.store(reinterpret_cast<std::uintptr_t>(data) + size, std::memory_order_release);
      g_guards[i].begin.store(reinterpret_cast<std::uintptr_t>(data), std::memory_order_release);
      return i;
    }
  }
  return Status::resource_exhausted("more than " + std::to_string(kGuardSlots) + " guarded mappings at once");
}

}  // namespace

Result<std::shared_ptr<const MappedFile>> MappedFile::open(const std::filesystem::path& path, OnLostPage on_lost) {
  // The same type and existence checks (and messages) as every other file zkpipe reads.
  auto size = regular_file_size(path);
  if (!size.ok()) return size.status();
  if (*size == 0) return Status::invalid_argument(path.string() + " is empty");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::io_error("cannot open " + path.string() + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
    ::close(fd);
    return Status::io_error("cannot stat " + path.string() + " (or it changed while it was opened)");
  }
  void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
  const int err = errno;
  ::close(fd);  // the mapping keeps the file
  if (p == MAP_FAILED) return Status::io_error("cannot map " + path.string() + ": " + std::strerror(err));
  std::shared_ptr<MappedFile> m(new MappedFile());
  m->data_ = static_cast<const std::uint8_t*>(p);
  m->size_ = static_cast<std::uint64_t>(st.st_size);
  m->mtime_ns_ = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  m->path_ = path;
  if (on_lost == OnLostPage::kZeroPage) {
    auto slot = guard_range(m->data_, m->size_);
    if (!slot.ok()) return slot.status();
    m->guard_slot_ = *slot;
  }
  return std::shared_ptr<const MappedFile>(std::move(m));
}

std::uint64_t MappedFile::lost_pages() const {
  return guard_slot_ >= 0 ? g_guards[guard_slot_].lost.load(std::memory_order_relaxed) : 0;
}

MappedFile::~MappedFile() {
  if (guard_slot_ >= 0) {
    // Out of the table before the range is unmapped (and maybe reused by another mapping).
    g_guards[guard_slot_].begin.store(1, std::memory_order_release);
    g_guards[guard_slot_].end.store(0, std::memory_order_release);
    g_guards[guard_slot_].begin.store(0, std::memory_order_release);
  }
  if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), static_cast<std::size_t>(size_));
}

void MappedFile::advise_sequential(std::uint64_t offset, std::uint64_t length) const {
  if (offset >= size_) return;
  const std::uint64_t start = offset / page_size() * page_size();
  const std::uint64_t end = std::min(size_, offset + length);
  ::madvise(const_cast<std::uint8_t*>(data_) + start, static_cast<std::size_t>(end - start), MADV_SEQUENTIAL);
}

void MappedFile::populate(std::uint64_t offset, std::uint64_t length) const {
#ifdef MADV_POPULATE_READ
  if (offset >= size_ || length == 0) return;
  const std::uint64_t ps = page_size();
  const std::uint64_t start = offset / ps * ps;
  const std::uint64_t end = std::min(size_, offset + length);
  ::madvise(const_cast<std::uint8_t*>(data_) + start, static_cast<std::size_t>(end - start), MADV_POPULATE_READ);
#else
  (void)offset, (void)length;
#endif
}

void MappedFile::release(std::uint64_t offset, std::uint64_t length) const {
  if (offset >= size_ || length == 0) return;
  const std::uint64_t ps = page_size();
  const std::uint64_t start = (offset + ps - 1) / ps * ps;  // whole pages only: a neighbour may still
  std::uint64_t end = std::min(size_, offset + length);     // be reading the partial ones
  if (end != size_) end = end / ps * ps;
  if (end <= start) return;
  ::madvise(const_cast<std::uint8_t*>(data_) + start, static_cast<std::size_t>(end - start), MADV_DONTNEED);
}

std::uint64_t MappedFile::resident_bytes(std::uint64_t offset, std::uint64_t length) const {
  if (offset >= size_ || length == 0) return 0;
  const std::uint64_t ps = page_size();
  const std::uint64_t start = offset / ps * ps;
  const std::uint64_t end = std::min(size_, offset + length);
  std::uint64_t resident = 0;
  constexpr std::uint64_t kPagesPerCall = 1 << 16;  // bounded scratch whatever the file's size
  std::vector<unsigned char> vec(kPagesPerCall);
  for (std::uint64_t at = start; at < end; at += kPagesPerCall * ps) {
    const std::uint64_t len = std::min(end - at, kPagesPerCall * ps);
    if (::mincore(const_cast<std::uint8_t*>(data_) + at, static_cast<std::size_t>(len), vec.data()) != 0) return 0;
    const std::uint64_t pages = (len + ps - 1) / ps;
    for (std::uint64_t i = 0; i < pages; ++i) resident += (vec[i] & 1) != 0 ? ps : 0;
  }
  return std::min(resident, end - offset);
}

}  // namespace zk
