#include "base/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "base/file.hpp"

namespace zk {

namespace {
std::uint64_t page_size() { return static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)); }
}  // namespace

Result<std::shared_ptr<const MappedFile>> MappedFile::open(const std::filesystem::path& path) {
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
  return std::shared_ptr<const MappedFile>(std::move(m));
}

MappedFile::~MappedFile() {
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
