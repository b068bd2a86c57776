#pragma once

// A regular file mapped read-only (mmap, MAP_SHARED): its pages are the kernel's page cache, read
// on first touch and reclaimable under memory pressure, never copied into the process's heap. How
// zkpipe opens parameter files and its own key caches that may be larger than the machine's memory.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "base/status.hpp"

namespace zk {

class MappedFile {
 public:
  /// What a read of a page that is no longer in the file does (the file was truncated or replaced
  /// in place while mapped: the kernel raises SIGBUS).
  enum class OnLostPage {
    kCrash,     // SIGBUS kills the process (the default: parameter files read once)
    kZeroPage,  // the page is replaced by zeros and counted (lost_pages()); the process goes on.
                // For mappings that live for hours under a daemon (the key cache): whoever uses
                // them checks lost_pages() after the work and fails that work only.
  };
  /// Maps a whole regular file (a directory, FIFO, device or empty file gets a clear error).
  static Result<std::shared_ptr<const MappedFile>> open(const std::filesystem::path& path,
                                                        OnLostPage on_lost = OnLostPage::kCrash);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }
  std::uint64_t size() const { return size_; }
  const std::filesystem::path& path() const { return path_; }
  /// Pages read after they left the file, replaced by zeros (OnLostPage::kZeroPage; else 0).
  std::uint64_t lost_pages() const;
  /// Modification time of the file when it was mapped (nanoseconds since the epoch).
  std::int64_t mtime_ns() const { return mtime_ns_; }
  /// Hints that [offset, offset + length) will be read once, in order (madvise SEQUENTIAL).
  void advise_sequential(std::uint64_t offset, std::uint64_t length) const;
  /// Maps [offset, offset + length) in one call (madvise POPULATE_READ) instead of a page fault per
  /// page on first touch; a no-op where the kernel lacks it (before 5.14).
  void populate(std::uint64_t offset, std::uint64_t length) const;
  /// Drops the whole pages inside [offset, offset + length) from this process (madvise DONTNEED):
  /// they stay in the page cache but no longer count in the process's RSS, so a file decoded once,
  /// front to back, costs the process only the pages being decoded. Reading them again is correct
  /// (a page cache hit, or a read from the file).
  void release(std::uint64_t offset, std::uint64_t length) const;
  /// Bytes of [offset, offset + length) now resident in memory (mincore), for accounting.
  std::uint64_t resident_bytes(std::uint64_t offset, std::uint64_t length) const;

 private:
  MappedFile() = default;
  const std::uint8_t* data_ = nullptr;
  std::uint64_t size_ = 0;
  std::int64_t mtime_ns_ = 0;
  std::filesystem::path path_;
  int guard_slot_ = -1;  // OnLostPage::kZeroPage: its entry in the SIGBUS handler's table
};

}  // namespace zk
