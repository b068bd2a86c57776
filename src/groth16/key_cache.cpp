#include "groth16/key_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/crc32c.hpp"
#include "base/mapped_file.hpp"
#include "groth16/io.hpp"

namespace zk::groth16 {

namespace {

constexpr std::uint64_t kAlign = 4096;           // every query starts on a page
constexpr std::size_t kChunkPoints = 1 << 16;    // points decoded per step while building (~6-13 MiB)
constexpr std::uint64_t kBlockBytes = 4 << 20;   // one CRC-32C per 4 MiB of points (11.5k for a 47 GB key)
constexpr char kMagic[8] = {'Z', 'K', 'K', 'E', 'Y', '0', '0', '2'};

/// The cache file's first page. Raw host-layout values: a cache is only ever read by the zkpipe
/// build that wrote it (the point sizes and curve name catch a different layout). Then the block
/// checksums (page-aligned), then the queries: every byte from data_at to the end is covered by a
/// CRC-32C per kBlockBytes, checked each time the cache is mapped (issue 47: a damaged interior
/// point is found, not only a changed first or last one).
struct Header {
  char magic[8];
  char curve[16];
  std::uint64_t g1_bytes, g2_bytes;         // sizeof the in-memory affine points
  std::uint64_t source_size;
  std::int64_t source_mtime_ns;
  std::uint64_t source_sample;              // FNV-1a of sampled bytes of the source
  std::uint64_t count[5], offset[5];        // h, l, a, b_g1, b_g2
  std::uint64_t block_bytes, blocks;        // the checksummed blocks of [data_at, total)
  std::uint64_t sums_at, data_at;           // where the checksums (u32 each) and the points start
  std::uint64_t total;                      // file size
};
static_assert(sizeof(Header) <= kAlign && std::is_trivially_copyable_v<Header>);

std::uint64_t align_up(std::uint64_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

/// FNV-1a over the size, the first and last 64 KiB and 64 KiB at 14 evenly spaced places: cheap for
/// a 47 GB file (no full read), and any replacement of the file shows here or in its size / mtime.
std::uint64_t sample_hash(std::span<const std::uint8_t> b) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::uint8_t x) { h = (h ^ x) * 1099511628211ull; };
  for (int i = 0; i < 8; ++i) mix(static_cast<std::uint8_t>(b.size() >> (8 * i)));
  constexpr std::uint64_t kPiece = 1 << 16, kPlaces = 16;
  for (std::uint64_t k = 0; k < kPlaces; ++k) {
    const std::uint64_t start = b.size() <= kPiece ? 0 : (b.size() - kPiece) / (kPlaces - 1) * k;
    const std::uint64_t end = std::min<std::uint64_t>(b.size(), start + kPiece);
    for (std::uint64_t i = start; i < end; ++i) mix(b[i]);
  }
  return h;
}

struct Query {
  const char* name;
  bool g2;
  std::uint64_t count, source_at;
};

template <class E>
std::array<Query, 5> queries(const ParameterSections& s) {
  return {Query{"h", false, s.h, s.h_at}, Query{"l", false, s.l, s.l_at}, Query{"a", false, s.a, s.a_at},
          Query{"b_g1", false, s.b_g1, s.b_g1_at}, Query{"b_g2", true, s.b_g2, s.b_g2_at}};
}

template <class E>
std::uint64_t mem_point_bytes(bool g2) {
  return g2 ? sizeof(typename E::G2Affine) : sizeof(typename E::G1Affine);
}

template <class E>
Header expected_header(const MappedFile& source, const ParameterSections& s) {
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  std::strncpy(h.curve, E::kName, sizeof h.curve - 1);
  h.g1_bytes = sizeof(typename E::G1Affine);
  h.g2_bytes = sizeof(typename E::G2Affine);
  h.source_size = source.size();
  h.source_mtime_ns = source.mtime_ns();
  h.source_sample = sample_hash(source.bytes());
  const auto qs = queries<E>(s);
  std::uint64_t data = 0;
  for (const auto& q : qs) data += align_up(q.count * mem_point_bytes<E>(q.g2));
  h.block_bytes = kBlockBytes;
  h.blocks = (data + kBlockBytes - 1) / kBlockBytes;
  h.sums_at = kAlign;
  h.data_at = h.sums_at + align_up(h.blocks * sizeof(std::uint32_t));
  std::uint64_t at = h.data_at;
  for (std::size_t q = 0; q < qs.size(); ++q) {
    h.count[q] = qs[q].count;
    h.offset[q] = at;
    at = align_up(at + qs[q].count * mem_point_bytes<E>(qs[q].g2));
  }
  h.total = at;
  return h;
}

/// The CRC-32C of every block of `bytes` (a cache's [data_at, total)), as they are written.
class BlockSums {
 public:
  explicit BlockSums(std::uint64_t block_bytes) : block_(block_bytes) {}
  void feed(std::span<const std::uint8_t> b) {
    while (!b.empty()) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(b.size(), block_ - filled_));
      crc_ = base::crc32c(b.first(n), crc_);
      filled_ += n;
      b = b.subspan(n);
      if (filled_ == block_) flush();
    }
  }
  std::vector<std::uint32_t> finish() {
    if (filled_ > 0) flush();
    return std::move(sums_);
  }

 private:
  void flush() {
    sums_.push_back(crc_);
    crc_ = 0, filled_ = 0;
  }
  std::uint64_t block_, filled_ = 0;
  std::uint32_t crc_ = 0;
  std::vector<std::uint32_t> sums_;
};

/// Every block of a mapped cache against its stored checksum, in parallel: "" when all agree,
/// else which block (and query) is damaged.
std::string damaged_block(const MappedFile& cache, const Header& h) {
  const auto bytes = cache.bytes();
  std::atomic<std::uint64_t> first_bad{UINT64_MAX};
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, h.blocks, 4), [&](const tbb::blocked_range<std::uint64_t>& r) {
    for (std::uint64_t k = r.begin(); k != r.end(); ++k) {
      const std::uint64_t at = h.data_at + k * h.block_bytes;
      const std::uint64_t n = std::min(h.block_bytes, h.total - at);
      std::uint32_t stored;
      std::memcpy(&stored, bytes.data() + h.sums_at + k * sizeof stored, sizeof stored);
      if (base::crc32c(bytes.subspan(at, n)) != stored) {
        std::uint64_t seen = first_bad.load();
        while (k < seen && !first_bad.compare_exchange_weak(seen, k)) {
        }
      }
    }
  });
  const std::uint64_t k = first_bad.load();
  if (k == UINT64_MAX) return {};
  const std::uint64_t at = h.data_at + k * h.block_bytes, end = std::min(at + h.block_bytes, h.total);
  static constexpr const char* kNames[5] = {"h", "l", "a", "b_g1", "b_g2"};
  std::string queries;  // those whose points the block holds
  for (int q = 0; q < 5; ++q) {
    const std::uint64_t q_end = q < 4 ? h.offset[q + 1] : h.total;
    if (h.count[q] > 0 && h.offset[q] < end && q_end > at) queries += (queries.empty() ? "" : ", ") + std::string(kNames[q]);
  }
  return "block " + std::to_string(k) + " of " + std::to_string(h.blocks) + ", bytes " + std::to_string(at) + "-" +
         std::to_string(end) + " (points of " + queries + "), fails its checksum";
}

/// Decodes points [first, first + n) of query q from the source into `out`.
template <class E, class Affine>
Status decode_range(const MappedFile& source, const Query& q, std::uint64_t first, std::span<Affine> out) {
  const std::uint64_t size = key_point_bytes<E>(q.g2);
  return decode_key_points<E, Affine>(source.bytes().subspan(q.source_at + first * size, out.size() * size), out, {.check_subgroup = false},
                                      q.name, first);
}

/// The cache agrees with its source at the first and last point of every query.
template <class E>
bool spot_check(const MappedFile& source, const MappedFile& cache, const Header& h, const ParameterSections& s) {
  const auto qs = queries<E>(s);
  for (std::size_t q = 0; q < qs.size(); ++q) {
    if (qs[q].count == 0) continue;
    for (const std::uint64_t i : {std::uint64_t{0}, qs[q].count - 1}) {
      auto same = [&]<class Affine>(Affine*) {
        Affine decoded;
        if (!decode_range<E, Affine>(source, qs[q], i, std::span(&decoded, 1)).ok()) return false;
        Affine cached;
        std::memcpy(&cached, cache.bytes().data() + h.offset[q] + i * sizeof(Affine), sizeof(Affine));
        return cached == decoded;
      };
      const bool ok = qs[q].g2 ? same(static_cast<typename E::G2Affine*>(nullptr))
                               : same(static_cast<typename E::G1Affine*>(nullptr));
      if (!ok) return false;
    }
  }
  return true;
}

/// A file descriptor closed (and its file removed unless kept) when it goes.
struct TempFile {
  std::filesystem::path path;
  int fd = -1;
  bool keep = false;
  ~TempFile() {
    if (fd >= 0) ::close(fd);
    if (!keep && !path.empty()) ::unlink(path.c_str());
  }
};

Status write_all(int fd, const void* data, std::size_t n, const std::filesystem::path& path) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status::io_error("cannot write the key cache " + path.string() + ": " + std::strerror(errno));
    }
    p += w, n -= static_cast<std::size_t>(w);
  }
  return {};
}

template <class E>
Status build_cache(const MappedFile& source, const Header& h, const ParameterSections& s,
                   const std::filesystem::path& file) {
  struct statvfs fs {};
  if (::statvfs(file.parent_path().c_str(), &fs) == 0) {
    const std::uint64_t room = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
    if (room < h.total) {
      return Status::io_error("the key cache for this parameter file needs " + std::to_string(h.total >> 20) +
                              " MiB in " + file.parent_path().string() + " but only " + std::to_string(room >> 20) +
                              " MiB are free (set ZKPIPE_KEY_CACHE to a larger disk)");
    }
  }
  TempFile tmp;
  tmp.path = file;
  tmp.path += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}());
  tmp.fd = ::open(tmp.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (tmp.fd < 0) return Status::io_error("cannot create the key cache " + tmp.path.string() + ": " + std::strerror(errno));
  std::vector<std::uint8_t> page(kAlign, 0);
  std::memcpy(page.data(), &h, sizeof h);
  if (Status st = write_all(tmp.fd, page.data(), page.size(), tmp.path); !st.ok()) return st;
  std::fill(page.begin(), page.end(), 0);  // from here on: zeros (the checksums' place, then pads)
  for (std::uint64_t at = h.sums_at; at < h.data_at; at += kAlign) {
    if (Status st = write_all(tmp.fd, page.data(), kAlign, tmp.path); !st.ok()) return st;
  }
  BlockSums sums(h.block_bytes);
  auto put = [&](const void* data, std::size_t n) {
    sums.feed(std::span(static_cast<const std::uint8_t*>(data), n));
    return write_all(tmp.fd, data, n, tmp.path);
  };
  std::uint64_t at = h.data_at;
  const auto qs = queries<E>(s);
  for (std::size_t q = 0; q < qs.size(); ++q) {
    source.advise_sequential(qs[q].source_at, qs[q].count * key_point_bytes<E>(qs[q].g2));
    auto copy = [&]<class Affine>(Affine*) -> Status {
      std::vector<Affine> chunk;
      for (std::uint64_t first = 0; first < qs[q].count; first += kChunkPoints) {
        chunk.assign(static_cast<std::size_t>(std::min<std::uint64_t>(kChunkPoints, qs[q].count - first)), Affine{});
        if (Status st = decode_range<E, Affine>(source, qs[q], first, std::span(chunk)); !st.ok()) return st;
        if (Status st = put(chunk.data(), chunk.size() * sizeof(Affine)); !st.ok()) return st;
        at += chunk.size() * sizeof(Affine);
      }
      return {};
    };
    Status st = qs[q].g2 ? copy(static_cast<typename E::G2Affine*>(nullptr)) : copy(static_cast<typename E::G1Affine*>(nullptr));
    if (!st.ok()) return st;
    const std::uint64_t pad = align_up(at) - at;
    if (Status st2 = put(page.data(), pad); !st2.ok()) return st2;
    at += pad;
  }
  if (at != h.total) return Status::internal("key cache: wrote " + std::to_string(at) + " bytes, planned " + std::to_string(h.total));
  const std::vector<std::uint32_t> block_sums = sums.finish();
  if (block_sums.size() != h.blocks) return Status::internal("key cache: " + std::to_string(block_sums.size()) + " blocks summed, planned " + std::to_string(h.blocks));
  const std::size_t sum_bytes = block_sums.size() * sizeof(std::uint32_t);
  if (::pwrite(tmp.fd, block_sums.data(), sum_bytes, static_cast<off_t>(h.sums_at)) != static_cast<ssize_t>(sum_bytes)) {
    return Status::io_error("cannot write the key cache " + tmp.path.string() + ": " + std::strerror(errno));
  }
  // Read-only from here: never modified in place, only replaced whole (a new file renamed over it).
  if (::fchmod(tmp.fd, 0444) != 0) return Status::io_error("cannot make the key cache " + tmp.path.string() + " read-only: " + std::strerror(errno));
  if (::fsync(tmp.fd) != 0) return Status::io_error("cannot sync the key cache " + tmp.path.string() + ": " + std::strerror(errno));
  if (::rename(tmp.path.c_str(), file.c_str()) != 0) {
    return Status::io_error("cannot rename the key cache to " + file.string() + ": " + std::strerror(errno));
  }
  tmp.path.clear();  // renamed: nothing to remove
  return {};
}

/// The cache file, mapped, if it exists, matches its source and every block checks; else null with
/// why (empty when there is no file).
template <class E>
std::shared_ptr<const MappedFile> open_valid(const std::filesystem::path& file, const MappedFile& source,
                                             const Header& want, const ParameterSections& s, std::string* why) {
  why->clear();
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return nullptr;
  // A cache truncated or rewritten in place while mapped (by someone else: this process only ever
  // replaces it whole) must not kill a daemon: lost pages read as zeros and are counted
  // (mapped_lost_pages), and the work that read them fails (issue 47).
  auto cache = MappedFile::open(file, MappedFile::OnLostPage::kZeroPage);
  if (!cache.ok()) {
    *why = cache.status().message();
    return nullptr;
  }
  if ((*cache)->size() != want.total) {
    *why = "it holds " + std::to_string((*cache)->size()) + " bytes, not " + std::to_string(want.total);
    return nullptr;
  }
  Header got;
  std::memcpy(&got, (*cache)->bytes().data(), sizeof got);
  // Header is fully initialized (zeroed) on both sides.
  if (std::memcmp(&got, &want, sizeof got) != 0) {
    *why = "it was made from another parameter file, or by another zkpipe";
    return nullptr;
  }
  if (!spot_check<E>(source, **cache, got, s)) {
    *why = "its first or last points differ from the parameter file's";
    return nullptr;
  }
  if (std::string bad = damaged_block(**cache, got); !bad.empty()) {
    *why = bad;
    return nullptr;
  }
  return *cache;
}

/// The key cache directory must be ours and writable by nobody else (the socket directory's rule):
/// a cache someone else can replace would put their points under our proofs.
Status check_cache_dir(const std::filesystem::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return Status::io_error("cannot stat the key cache directory " + dir.string() + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) return Status::invalid_argument("the key cache " + dir.string() + " is not a directory");
  if (st.st_uid != ::geteuid()) {
    return Status::invalid_argument("the key cache directory " + dir.string() + " belongs to another user (uid " +
                                    std::to_string(st.st_uid) + "); set ZKPIPE_KEY_CACHE to a directory of your own");
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return Status::invalid_argument("the key cache directory " + dir.string() +
                                    " is writable by other users, who could replace the keys under the proofs; make it "
                                    "private (chmod 700) or set ZKPIPE_KEY_CACHE to a private directory");
  }
  return {};
}

/// An exclusive flock on `path` (created owner-only), held while it lives: one builder per cache.
class CacheLock {
 public:
  static Result<CacheLock> take(const std::filesystem::path& path) {
    CacheLock l;
    l.fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (l.fd_ < 0) return Status::io_error("cannot open the key cache lock " + path.string() + ": " + std::strerror(errno));
    while (::flock(l.fd_, LOCK_EX) != 0) {
      if (errno != EINTR) return Status::io_error("cannot lock " + path.string() + ": " + std::strerror(errno));
    }
    return l;
  }
  CacheLock(CacheLock&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  CacheLock& operator=(CacheLock&&) = delete;
  ~CacheLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
  }

 private:
  CacheLock() = default;
  int fd_ = -1;
};

}  // namespace

Result<std::filesystem::path> default_key_cache_dir() {
  if (const char* d = std::getenv("ZKPIPE_KEY_CACHE"); d != nullptr && *d != '\0') return std::filesystem::path(d);
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d != nullptr && *d != '\0') return std::filesystem::path(d) / "zkpipe" / "keys";
  if (const char* d = std::getenv("HOME"); d != nullptr && *d != '\0') return std::filesystem::path(d) / ".cache" / "zkpipe" / "keys";
  // Never a predictable shared path (/tmp/zkpipe-keys): another user could make it first.
  return Status::invalid_argument("no key cache directory: HOME is not set; set ZKPIPE_KEY_CACHE to a private directory");
}

template <class E>
Result<ProvingKey<E>> map_parameters(const std::filesystem::path& params, const std::filesystem::path& cache_dir,
                                     KeyCacheStats* stats) {
  auto source = MappedFile::open(params);
  if (!source.ok()) return source.status();
  auto sections = parameter_sections<E>((*source)->bytes());
  if (!sections.ok()) return Status::invalid_argument(params.string() + ": " + sections.status().message());
  std::size_t vk_bytes = 0;
  auto vk = read_verifying_key<E>((*source)->bytes(), &vk_bytes);
  if (!vk.ok()) return Status::invalid_argument(params.string() + ": " + vk.status().message());
  const std::uint64_t n = sections->h + 1;
  if ((n & (n - 1)) != 0) {
    return Status::invalid_argument(params.string() + ": h has " + std::to_string(sections->h) +
                                    " points; a QAP domain needs 2^k - 1");
  }
  if (sections->b_g1 != sections->b_g2) {
    return Status::invalid_argument(params.string() + ": b_g1 has " + std::to_string(sections->b_g1) +
                                    " points but b_g2 has " + std::to_string(sections->b_g2));
  }
  if (sections->a < sections->ic) return Status::invalid_argument(params.string() + ": a has fewer points than there are inputs");

  std::error_code ec;
  if (!std::filesystem::exists(cache_dir, ec)) {
    const mode_t old_mask = ::umask(077);  // created owner-only, never writable by others in between
    std::filesystem::create_directories(cache_dir, ec);
    ::umask(old_mask);
    if (ec) return Status::io_error("cannot create the key cache directory " + cache_dir.string() + ": " + ec.message());
  }
  if (Status st = check_cache_dir(cache_dir); !st.ok()) return st;
  const Header want = expected_header<E>(**source, *sections);
  // Named by the source's file name and a hash of its absolute path: two directories holding a
  // file of the same name (development keys and Filecoin's) keep separate caches.
  std::uint64_t path_hash = 1469598103934665603ull;
  for (const char c : std::filesystem::absolute(params).lexically_normal().string()) {
    path_hash = (path_hash ^ static_cast<std::uint8_t>(c)) * 1099511628211ull;
  }
  char tag[17];
  std::snprintf(tag, sizeof tag, "%016llx", static_cast<unsigned long long>(path_hash));
  const std::filesystem::path file = cache_dir / (params.filename().string() + "." + tag + "." + E::kName + ".zkkey");
  const auto t0 = std::chrono::steady_clock::now();
  std::string why;
  auto cache = open_valid<E>(file, **source, want, *sections, &why);
  bool built = false;
  std::string rebuilt_because;
  if (cache == nullptr) {
    // One builder per cache: the others wait for it here, then map what it built.
    auto lock = CacheLock::take(file.string() + ".lock");
    if (!lock.ok()) return lock.status();
    cache = open_valid<E>(file, **source, want, *sections, &why);
    if (cache == nullptr) {
      rebuilt_because = why;
      if (Status st = build_cache<E>(**source, want, *sections, file); !st.ok()) {
        return Status(st.code(), params.string() + ": " + st.message());
      }
      cache = open_valid<E>(file, **source, want, *sections, &why);
      if (cache == nullptr) return Status::io_error("the key cache " + file.string() + " does not check after it was built: " + why);
      built = true;
    }
  }
  const double checked_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ProvingKey<E> pk;
  pk.vk = std::move(*vk);
  pk.h = KeyPoints<typename E::G1Affine>(cache, want.offset[0], want.count[0]);
  pk.l = KeyPoints<typename E::G1Affine>(cache, want.offset[1], want.count[1]);
  pk.a = KeyPoints<typename E::G1Affine>(cache, want.offset[2], want.count[2]);
  pk.b_g1 = KeyPoints<typename E::G1Affine>(cache, want.offset[3], want.count[3]);
  pk.b_g2 = KeyPoints<typename E::G2Affine>(cache, want.offset[4], want.count[4]);
  if (stats != nullptr) {
    *stats = KeyCacheStats{.built = built,
                           .file = file,
                           .mapped_bytes = want.total,
                           .rebuilt_because = rebuilt_because,
                           .seconds = checked_s};
  }
  return pk;
}

Status check_key_cache(const std::filesystem::path& file) {
  auto cache = MappedFile::open(file);
  if (!cache.ok()) return cache.status();
  Header h;
  if ((*cache)->size() < sizeof h) return Status::io_error("the key cache " + file.string() + " is truncated");
  std::memcpy(&h, (*cache)->bytes().data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.total != (*cache)->size() || h.block_bytes == 0 ||
      h.data_at > h.total || h.blocks != (h.total - h.data_at + h.block_bytes - 1) / h.block_bytes ||
      h.sums_at + h.blocks * sizeof(std::uint32_t) > h.data_at) {
    return Status::io_error("the key cache " + file.string() + " has a damaged header or length");
  }
  if (std::string bad = damaged_block(**cache, h); !bad.empty()) {
    return Status::io_error("the key cache " + file.string() + " is damaged: " + bad);
  }
  return {};
}

template <class E>
std::uint64_t mapped_resident_bytes(const ProvingKey<E>& pk) {
  return pk.h.resident_bytes() + pk.l.resident_bytes() + pk.a.resident_bytes() + pk.b_g1.resident_bytes() +
         pk.b_g2.resident_bytes();
}

template <class E>
std::uint64_t mapped_lost_pages(const ProvingKey<E>& pk) {
  const MappedFile* m = pk.h.mapping();
  return m != nullptr ? m->lost_pages() : 0;  // every query of a mapped key views the same mapping
}

template <class E>
std::filesystem::path mapped_cache_file(const ProvingKey<E>& pk) {
  const MappedFile* m = pk.h.mapping();
  return m != nullptr ? m->path() : std::filesystem::path();
}

#define ZK_INSTANTIATE_KEY_CACHE(E)                                                                       \
  template Result<ProvingKey<E>> map_parameters<E>(const std::filesystem::path&, const std::filesystem::path&, \
                                                   KeyCacheStats*);                                       \
  template std::uint64_t mapped_resident_bytes<E>(const ProvingKey<E>&);                                  \
  template std::uint64_t mapped_lost_pages<E>(const ProvingKey<E>&);                                      \
  template std::filesystem::path mapped_cache_file<E>(const ProvingKey<E>&);
ZK_INSTANTIATE_KEY_CACHE(Bls12_381)
ZK_INSTANTIATE_KEY_CACHE(Bn254)
#undef ZK_INSTANTIATE_KEY_CACHE

}  // namespace zk::groth16
