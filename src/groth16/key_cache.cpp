#include "groth16/key_cache.hpp"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "base/mapped_file.hpp"
#include "groth16/io.hpp"

namespace zk::groth16 {

namespace {

constexpr std::uint64_t kAlign = 4096;           // every query starts on a page
constexpr std::size_t kChunkPoints = 1 << 16;    // points decoded per step while building (~6-13 MiB)
constexpr char kMagic[8] = {'Z', 'K', 'K', 'E', 'Y', '0', '0', '1'};

/// The cache file's first page. Raw host-layout values: a cache is only ever read by the zkpipe
/// build that wrote it (the point sizes and curve name catch a different layout).
struct Header {
  char magic[8];
  char curve[16];
  std::uint64_t g1_bytes, g2_bytes;         // sizeof the in-memory affine points
  std::uint64_t source_size;
  std::int64_t source_mtime_ns;
  std::uint64_t source_sample;              // FNV-1a of sampled bytes of the source
  std::uint64_t count[5], offset[5];        // h, l, a, b_g1, b_g2
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
  std::uint64_t at = kAlign;
  const auto qs = queries<E>(s);
  for (std::size_t q = 0; q < qs.size(); ++q) {
    h.count[q] = qs[q].count;
    h.offset[q] = at;
    at = align_up(at + qs[q].count * mem_point_bytes<E>(qs[q].g2));
  }
  h.total = at;
  return h;
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
  std::fill(page.begin(), page.end(), 0);  // from here on: the zeros that pad each query to a page
  std::uint64_t at = kAlign;
  const auto qs = queries<E>(s);
  for (std::size_t q = 0; q < qs.size(); ++q) {
    source.advise_sequential(qs[q].source_at, qs[q].count * key_point_bytes<E>(qs[q].g2));
    auto copy = [&]<class Affine>(Affine*) -> Status {
      std::vector<Affine> chunk;
      for (std::uint64_t first = 0; first < qs[q].count; first += kChunkPoints) {
        chunk.assign(static_cast<std::size_t>(std::min<std::uint64_t>(kChunkPoints, qs[q].count - first)), Affine{});
        if (Status st = decode_range<E, Affine>(source, qs[q], first, std::span(chunk)); !st.ok()) return st;
        if (Status st = write_all(tmp.fd, chunk.data(), chunk.size() * sizeof(Affine), tmp.path); !st.ok()) return st;
        at += chunk.size() * sizeof(Affine);
      }
      return {};
    };
    Status st = qs[q].g2 ? copy(static_cast<typename E::G2Affine*>(nullptr)) : copy(static_cast<typename E::G1Affine*>(nullptr));
    if (!st.ok()) return st;
    const std::uint64_t pad = align_up(at) - at;
    if (Status st2 = write_all(tmp.fd, page.data(), pad, tmp.path); !st2.ok()) return st2;
    at += pad;
  }
  if (at != h.total) return Status::internal("key cache: wrote " + std::to_string(at) + " bytes, planned " + std::to_string(h.total));
  if (::fsync(tmp.fd) != 0) return Status::io_error("cannot sync the key cache " + tmp.path.string() + ": " + std::strerror(errno));
  if (::rename(tmp.path.c_str(), file.c_str()) != 0) {
    return Status::io_error("cannot rename the key cache to " + file.string() + ": " + std::strerror(errno));
  }
  tmp.path.clear();  // renamed: nothing to remove
  return {};
}

/// The cache file, mapped, if it exists and matches its source.
template <class E>
std::shared_ptr<const MappedFile> open_valid(const std::filesystem::path& file, const MappedFile& source,
                                             const Header& want, const ParameterSections& s) {
  auto cache = MappedFile::open(file);
  if (!cache.ok() || (*cache)->size() != want.total) return nullptr;
  Header got;
  std::memcpy(&got, (*cache)->bytes().data(), sizeof got);
  if (std::memcmp(&got, &want, sizeof got) != 0) return nullptr;  // Header is fully initialized (zeroed) on both sides
  if (!spot_check<E>(source, **cache, got, s)) return nullptr;
  return *cache;
}

}  // namespace

std::filesystem::path default_key_cache_dir() {
  if (const char* d = std::getenv("ZKPIPE_KEY_CACHE"); d != nullptr && *d != '\0') return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d != nullptr && *d != '\0') return std::filesystem::path(d) / "zkpipe" / "keys";
  if (const char* d = std::getenv("HOME"); d != nullptr && *d != '\0') return std::filesystem::path(d) / ".cache" / "zkpipe" / "keys";
  return std::filesystem::temp_directory_path() / "zkpipe-keys";
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
  std::filesystem::create_directories(cache_dir, ec);
  if (ec) return Status::io_error("cannot create the key cache directory " + cache_dir.string() + ": " + ec.message());
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
  auto cache = open_valid<E>(file, **source, want, *sections);
  bool built = false;
  if (cache == nullptr) {
    if (Status st = build_cache<E>(**source, want, *sections, file); !st.ok()) {
      return Status(st.code(), params.string() + ": " + st.message());
    }
    cache = open_valid<E>(file, **source, want, *sections);
    if (cache == nullptr) return Status::io_error("the key cache " + file.string() + " did not match its source after it was built");
    built = true;
  }
  ProvingKey<E> pk;
  pk.vk = std::move(*vk);
  pk.h = KeyPoints<typename E::G1Affine>(cache, want.offset[0], want.count[0]);
  pk.l = KeyPoints<typename E::G1Affine>(cache, want.offset[1], want.count[1]);
  pk.a = KeyPoints<typename E::G1Affine>(cache, want.offset[2], want.count[2]);
  pk.b_g1 = KeyPoints<typename E::G1Affine>(cache, want.offset[3], want.count[3]);
  pk.b_g2 = KeyPoints<typename E::G2Affine>(cache, want.offset[4], want.count[4]);
  if (stats != nullptr) *stats = KeyCacheStats{.built = built, .file = file, .mapped_bytes = want.total};
  return pk;
}

template <class E>
std::uint64_t mapped_resident_bytes(const ProvingKey<E>& pk) {
  return pk.h.resident_bytes() + pk.l.resident_bytes() + pk.a.resident_bytes() + pk.b_g1.resident_bytes() +
         pk.b_g2.resident_bytes();
}

#define ZK_INSTANTIATE_KEY_CACHE(E)                                                                       \
  template Result<ProvingKey<E>> map_parameters<E>(const std::filesystem::path&, const std::filesystem::path&, \
                                                   KeyCacheStats*);                                       \
  template std::uint64_t mapped_resident_bytes<E>(const ProvingKey<E>&);
ZK_INSTANTIATE_KEY_CACHE(Bls12_381)
ZK_INSTANTIATE_KEY_CACHE(Bn254)
#undef ZK_INSTANTIATE_KEY_CACHE

}  // namespace zk::groth16
