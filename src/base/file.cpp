#include "base/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace zk {

namespace {

const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  return "not a regular file";
}

Status open_error(const std::filesystem::path& path, int err) {
  if (err == ENOENT) return Status::not_found("cannot open " + path.string() + ": no such file");
  return Status::io_error("cannot open " + path.string() + ": " + std::strerror(err));
}

/// An open descriptor that closes itself.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

template <class Buffer>
Status read_into(const std::filesystem::path& path, std::uint64_t max_bytes, Buffer& out) {
  Fd f;
  // O_NONBLOCK: opening a FIFO without a writer must not hang; the type is checked right after.
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (f.fd < 0) return open_error(path, errno);
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return Status::io_error("cannot stat " + path.string() + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) {
    return Status::invalid_argument(path.string() + " is " + kind_of(st.st_mode) + ", not a regular file");
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) {
    return Status::resource_exhausted(path.string() + " holds " + std::to_string(size) +
                                      " bytes, more than the " + std::to_string(max_bytes) +
                                      " this reader accepts");
  }
  out.resize(static_cast<std::size_t>(size));
  std::uint64_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(f.fd, reinterpret_cast<char*>(out.data()) + done, static_cast<std::size_t>(size - done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::io_error("cannot read " + path.string() + ": " + std::strerror(errno));
    }
    if (n == 0) return Status::io_error(path.string() + " shrank while it was read");
    done += static_cast<std::uint64_t>(n);
  }
  char extra = 0;
  if (::read(f.fd, &extra, 1) > 0) return Status::io_error(path.string() + " grew while it was read");
  return {};
}

}  // namespace

std::uint64_t default_max_read_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return std::uint64_t{1} << 36;  // 64 GiB when the OS cannot tell
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

Result<std::uint64_t> regular_file_size(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return open_error(path, errno);
  if (!S_ISREG(st.st_mode)) {
    return Status::invalid_argument(path.string() + " is " + kind_of(st.st_mode) + ", not a regular file");
  }
  return static_cast<std::uint64_t>(st.st_size);
}

Result<std::vector<std::uint8_t>> read_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  std::vector<std::uint8_t> out;
  if (Status s = guarded("reading a file", [&] { return read_into(path, max_bytes, out); }); !s.ok()) return s;
  return out;
}

Result<std::string> read_text_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  std::string out;
  if (Status s = guarded("reading a file", [&] { return read_into(path, max_bytes, out); }); !s.ok()) return s;
  return out;
}

}  // namespace zk
