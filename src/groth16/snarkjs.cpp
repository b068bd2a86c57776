#include "groth16/snarkjs.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <fstream>
#include <functional>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <nlohmann/json.hpp>

#include "base/file.hpp"
#include "base/mapped_file.hpp"
#include "field/decimal.hpp"
#include "curve/ifma_on_curve.hpp"
#include "field/ifma.hpp"
#include "groth16/points.hpp"
#include "msm/pippenger.hpp"
#include "ntt/quotient.hpp"

namespace zk::groth16::snarkjs {
namespace {

class Cursor {
 public:
  Cursor(std::span<const std::uint8_t> b, std::string what) : b_(b), what_(std::move(what)) {}
  std::size_t remaining() const { return b_.size() - off_; }
  Status need(std::size_t n) const {
    if (remaining() < n) {
      return Status::invalid_argument(what_ + ": truncated at offset " + std::to_string(off_) + " (need " +
                                      std::to_string(n) + " bytes, " + std::to_string(remaining()) + " left)");
    }
    return {};
  }
  Result<std::uint64_t> uint(std::size_t n) {
    if (Status s = need(n); !s.ok()) return s;
    std::uint64_t v = 0;
    for (std::size_t i = n; i-- > 0;) v = (v << 8) | b_[off_ + i];
    off_ += n;
    return v;
  }
  Result<std::span<const std::uint8_t>> take(std::size_t n) {
    if (Status s = need(n); !s.ok()) return s;
    auto out = b_.subspan(off_, n);
    off_ += n;
    return out;
  }

 private:
  std::span<const std::uint8_t> b_;
  std::size_t off_ = 0;
  std::string what_;
};

template <class F>
typename F::Repr le_limbs(std::span<const std::uint8_t> b) {
  typename F::Repr r{};
  if constexpr (std::endian::native == std::endian::little) {
    // The limbs are the bytes (the loop below, byte by byte, was a quarter of a zkey's decoding).
    std::memcpy(r.data(), b.data(), std::min(b.size(), sizeof(r)));
  } else {
    for (std::size_t i = 0; i < b.size() && i < 8 * F::kLimbs; ++i) r[i / 8] |= std::uint64_t{b[i]} << (8 * (i % 8));
  }
  return r;
}

/// A Montgomery-form LE coordinate (must be < q).
template <class F>
Result<F> mont_coordinate(std::span<const std::uint8_t> b) {
  const auto r = le_limbs<F>(b);
  if (field::cmp_limbs(r, F::Params::kModulus) >= 0) return Status::out_of_range("coordinate is not below the modulus");
  return F::from_mont(r);
}

/// All bytes zero (the identity's encoding), a word at a time.
inline bool all_zero(std::span<const std::uint8_t> b) {
  std::uint64_t acc = 0;
  std::size_t i = 0;
  for (; i + 8 <= b.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, b.data() + i, 8);
    acc |= w;
  }
  for (; i < b.size(); ++i) acc |= b[i];
  return acc == 0;
}

template <class E>
struct Curve;
template <>
struct Curve<Bls12_381> {
  using Fq = curve::bls12_381::Fq;
  using Fq2 = curve::bls12_381::Fq2;
  static constexpr std::size_t kN8q = 48;
};
template <>
struct Curve<Bn254> {
  using Fq = curve::bn254::Fq;
  using Fq2 = curve::bn254::Fq2;
  static constexpr std::size_t kN8q = 32;
};

/// check_curve = false leaves the curve equation to the caller (read_points checks it eight points
/// at a time where it can).
template <class E>
Result<typename E::G1Affine> g1_at(std::span<const std::uint8_t> b, bool check_curve = true) {
  using Fq = typename Curve<E>::Fq;
  constexpr std::size_t n = Curve<E>::kN8q;
  if (all_zero(b)) return E::G1Affine::identity();
  auto x = mont_coordinate<Fq>(b.subspan(0, n));
  auto y = mont_coordinate<Fq>(b.subspan(n, n));
  if (!x.ok() || !y.ok()) return Status::out_of_range("G1 point: coordinate not below q");
  const auto p = E::G1Affine::from_xy(*x, *y);
  if (check_curve && !p.is_on_curve()) return Status::invalid_argument("G1 point is not on the curve");
  return p;
}


template <class E>
Result<typename E::G2Affine> g2_at(std::span<const std::uint8_t> b) {
  using Fq = typename Curve<E>::Fq;
  using Fq2 = typename Curve<E>::Fq2;
  constexpr std::size_t n = Curve<E>::kN8q;
  if (all_zero(b)) return E::G2Affine::identity();
  Fq c[4];
  for (int i = 0; i < 4; ++i) {
    auto v = mont_coordinate<Fq>(b.subspan(static_cast<std::size_t>(i) * n, n));
    if (!v.ok()) return Status::out_of_range("G2 point: coordinate not below q");
    c[i] = *v;
  }
  const auto p = E::G2Affine::from_xy(Fq2{c[0], c[1]}, Fq2{c[2], c[3]});
  if (!p.is_on_curve()) return Status::invalid_argument("G2 point is not on the curve");
  return p;
}

/// What the mapped reader does with the pages of each block of a section: `load` before decoding it
/// (map its pages in one call), `release` after (drop them from the process). Empty for bytes in
/// memory.
struct PageHooks {
  std::function<void(std::span<const std::uint8_t>)> load, release;
};

/// Whether one of a section's points is the identity (all zero) or a point of its curve with both
/// coordinates below q (check_curve = false leaves the curve equation to the caller).
template <class E, class Point>
bool packed_point_ok(const Point& p, bool check_curve) {
  using Fq = typename Curve<E>::Fq;
  constexpr bool kG2 = sizeof(Point) == 4 * Curve<E>::kN8q;
  if (p.is_identity()) return true;
  for (std::size_t k = 0; k < (kG2 ? 4 : 2); ++k) {
    const auto limbs = le_limbs<Fq>(std::span(p.bytes + k * Curve<E>::kN8q, Curve<E>::kN8q));
    if (field::cmp_limbs(limbs, Fq::Params::kModulus) >= 0) return false;
  }
  return !check_curve || p.to_affine().is_on_curve();
}

/// A section of `count` MSM bases (zkey layout: curve::PackedAffine), checked in parallel (the first
/// bad point, lowest index, is reported). With `mapping` (the file the section lies in) the key
/// views them there, their pages populated a block at a time; without, they are copied into the key
/// (and `pages.release` drops each copied block of a mapped file).
template <class E, bool kG2>
auto read_points(std::span<const std::uint8_t> sec, std::size_t count, const std::string& what,
                 const PageHooks& pages = {}, const std::shared_ptr<const MappedFile>& mapping = nullptr)
    -> Result<KeyPoints<std::conditional_t<kG2, typename Zkey<E>::G2Point, typename Zkey<E>::G1Point>>> {
  using Point = std::conditional_t<kG2, typename Zkey<E>::G2Point, typename Zkey<E>::G1Point>;
  constexpr std::size_t size = (kG2 ? 4 : 2) * Curve<E>::kN8q;
  static_assert(sizeof(Point) == size && alignof(Point) == 1, "the zkey's point layout");
  static_assert(std::endian::native == std::endian::little, "zkey points are used in place: little-endian words");
  if (count > sec.size() / size || sec.size() != count * size) {
    return Status::invalid_argument(what + ": section holds " + std::to_string(sec.size()) + " bytes, expected " +
                                    std::to_string(count) + " points of " + std::to_string(size) + " bytes");
  }
  KeyPoints<Point> out;
  Point* copy = nullptr;
  if (mapping != nullptr) {
    out = KeyPoints<Point>(mapping, static_cast<std::uint64_t>(sec.data() - mapping->bytes().data()), count);
  } else {
    std::vector<Point> owned(count);
    copy = owned.data();
    out = KeyPoints<Point>(std::move(owned));
  }
  std::atomic<std::size_t> first_bad{count};
  // BN254's G1 (4-limb Fq) on an IFMA CPU: the curve equation eight points at a time.
  bool batch_check = false;
  if constexpr (!kG2 && Curve<E>::Fq::kLimbs == 4) batch_check = field::ifma::available();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, 4096), [&](const tbb::blocked_range<std::size_t>& r) {
    const auto block = sec.subspan(r.begin() * size, (r.end() - r.begin()) * size);
    if (pages.load) pages.load(block);
    if (copy != nullptr) std::memcpy(copy + r.begin(), block.data(), block.size());
    const Point* pts = out.data();
    auto bad = [&](std::size_t i) {
      std::size_t cur = first_bad.load();
      while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {
      }
    };
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      if (!packed_point_ok<E>(pts[i], /*check_curve=*/!batch_check)) {
        bad(i);
        return;
      }
    }
#ifdef ZK_HAVE_IFMA
    if constexpr (!kG2 && Curve<E>::Fq::kLimbs == 4) {
      if (batch_check) {
        std::vector<std::size_t> suspects;
        curve::off_curve_suspects(pts + r.begin(), r.end() - r.begin(), suspects);
        for (const std::size_t k : suspects) {
          if (!pts[r.begin() + k].to_affine().is_on_curve()) {
            bad(r.begin() + k);
            return;
          }
        }
      }
    }
#endif
    if (copy != nullptr && pages.release) pages.release(block);
  });
  if (const std::size_t i = first_bad.load(); i < count) {
    const auto b = sec.subspan(i * size, size);
    auto p = kG2 ? g2_at<E>(b).status() : g1_at<E>(b).status();
    return Status::invalid_argument(what + "[" + std::to_string(i) + "]: " + p.message());
  }
  return out;
}

/// Sections by type: the span stays valid until the next call.
using SectionFn = std::function<Result<std::span<const std::uint8_t>>(std::uint32_t type)>;

/// A zkey's sections read from a file one at a time (into one reused buffer).
class FileSections {
 public:
  static Result<FileSections> open(const std::string& path) {
    FileSections f;
    auto regular = regular_file_size(path);
    if (!regular.ok()) return regular.status();
    f.in_.open(path, std::ios::binary);
    if (!f.in_) return Status::io_error("cannot open " + path);
    const std::uint64_t file_size = *regular;
    f.file_bytes_ = file_size;
    f.in_.seekg(0);
    auto u = [&](int n) -> Result<std::uint64_t> {
      std::uint8_t b[8] = {};
      if (!f.in_.read(reinterpret_cast<char*>(b), n)) return Status::invalid_argument("truncated zkey header");
      std::uint64_t v = 0;
      for (int i = n; i-- > 0;) v = (v << 8) | b[i];
      return v;
    };
    char magic[4] = {};
    if (!f.in_.read(magic, 4) || std::string_view(magic, 4) != "zkey")
      return Status::invalid_argument("not a .zkey file (magic \"" + std::string(magic, 4) + "\")");
    auto version = u(4), n = u(4);
    if (!version.ok() || !n.ok()) return Status::invalid_argument("truncated .zkey header");
    std::uint64_t pos = 12;
    for (std::uint64_t i = 0; i < *n; ++i) {
      auto type = u(4), size = u(8);
      if (!type.ok() || !size.ok()) return Status::invalid_argument("truncated section table in .zkey");
      pos += 12;
      if (*size > file_size - pos) {
        return Status::invalid_argument("section " + std::to_string(*type) + " claims " + std::to_string(*size) +
                                        " bytes but only " + std::to_string(file_size - pos) + " remain");
      }
      if (!f.sections_.emplace(static_cast<std::uint32_t>(*type), std::pair{pos, *size}).second)
        return Status::invalid_argument("section " + std::to_string(*type) + " appears twice");
      pos += *size;
      f.in_.seekg(static_cast<std::streamoff>(pos));
    }
    return f;
  }
  Result<std::span<const std::uint8_t>> get(std::uint32_t type) {
    auto it = sections_.find(type);
    if (it == sections_.end()) return Status::invalid_argument("zkey: section " + std::to_string(type) + " is missing");
    buf_.resize(it->second.second);
    in_.clear();
    in_.seekg(static_cast<std::streamoff>(it->second.first));
    if (!in_.read(reinterpret_cast<char*>(buf_.data()), static_cast<std::streamsize>(buf_.size())))
      return Status::io_error("zkey: cannot read section " + std::to_string(type));
    return std::span<const std::uint8_t>(buf_);
  }
  std::uint64_t file_bytes() const { return file_bytes_; }

 private:
  std::ifstream in_;
  std::uint64_t file_bytes_ = 0;
  std::map<std::uint32_t, std::pair<std::uint64_t, std::uint64_t>> sections_;  // type -> offset, size
  std::vector<std::uint8_t> buf_;
};

}  // namespace

Result<Container> parse_container(std::span<const std::uint8_t> bytes, std::string_view magic) {
  Cursor c(bytes, std::string(magic) + " file");
  auto m = c.take(4);
  if (!m.ok()) return m.status();
  Container out;
  out.magic.assign(m->begin(), m->end());
  if (out.magic != magic)
    return Status::invalid_argument("not a ." + std::string(magic) + " file (magic \"" + out.magic + "\")");
  auto version = c.uint(4);
  auto n = c.uint(4);
  if (!version.ok() || !n.ok()) return Status::invalid_argument("truncated ." + std::string(magic) + " header");
  out.version = static_cast<std::uint32_t>(*version);
  for (std::uint64_t i = 0; i < *n; ++i) {
    auto type = c.uint(4);
    auto size = c.uint(8);
    if (!type.ok() || !size.ok()) return Status::invalid_argument("truncated section table in ." + std::string(magic));
    if (*size > c.remaining()) {
      return Status::invalid_argument("section " + std::to_string(*type) + " claims " + std::to_string(*size) +
                                      " bytes but only " + std::to_string(c.remaining()) + " remain");
    }
    auto payload = c.take(static_cast<std::size_t>(*size));
    if (!out.sections.emplace(static_cast<std::uint32_t>(*type), *payload).second) {
      return Status::invalid_argument("section " + std::to_string(*type) + " appears twice");
    }
  }
  return out;
}

Result<std::string> detect_curve(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < 4) return Status::invalid_argument("file too short");
  const std::string magic(bytes.begin(), bytes.begin() + 4);
  auto c = parse_container(bytes, magic);
  if (!c.ok()) return c.status();
  const std::uint32_t sec = magic == "zkey" ? 2 : 1;
  auto it = c->sections.find(sec);
  if (it == c->sections.end()) return Status::invalid_argument("missing header section");
  Cursor h(it->second, "header");
  if (magic == "zkey") {
    if (auto proto = c->sections.find(1);
        proto == c->sections.end() || proto->second.size() < 4 || proto->second[0] != 1) {
      return Status::invalid_argument("not a Groth16 zkey (protocol section missing or not 1)");
    }
  }
  auto n8 = h.uint(4);
  if (!n8.ok()) return n8.status();
  if (*n8 == 48) return std::string("bls12381");
  if (*n8 == 32) {
    // BN254's q and r are both 32 bytes; BLS12-381's r is 32 bytes too, so look at the prime.
    auto prime = h.take(32);
    if (!prime.ok()) return prime.status();
    const auto bn_r = le_limbs<Bn254::Fr>(*prime);
    if (bn_r == Bn254::Fr::Params::kModulus ||
        le_limbs<curve::bn254::Fq>(*prime) == curve::bn254::Fq::Params::kModulus) {
      return std::string("bn128");
    }
    if (bn_r == Bls12_381::Fr::Params::kModulus) return std::string("bls12381");
  }
  return Status::invalid_argument("unsupported prime (n8 = " + std::to_string(*n8) + ")");
}

namespace {
/// mapping: the file the sections lie in, when the MSM bases are to stay there (read_points).
template <class E>
Result<Zkey<E>> parse_zkey(const SectionFn& section, const PageHooks& pages = {},
                           const std::shared_ptr<const MappedFile>& mapping = nullptr) {
  using Fr = typename E::Fr;
  {
    auto proto = section(1);
    if (!proto.ok()) return proto.status();
    if (proto->size() < 4 || (*proto)[0] != 1) return Status::invalid_argument("zkey: not Groth16 (protocol != 1)");
  }
  Zkey<E> zk;
  auto header = section(2);
  if (!header.ok()) return header.status();
  Cursor h(*header, "zkey header");
  auto n8q = h.uint(4);
  if (!n8q.ok()) return n8q.status();
  if (*n8q != Curve<E>::kN8q)
    return Status::invalid_argument("zkey: base field size " + std::to_string(*n8q) + " does not match " + E::kName);
  auto q = h.take(*n8q);
  auto n8r = h.uint(4);
  if (!q.ok() || !n8r.ok() || *n8r != 32) return Status::invalid_argument("zkey: bad scalar field size");
  auto r = h.take(32);
  if (!r.ok() || le_limbs<Fr>(*r) != Fr::Params::kModulus)
    return Status::invalid_argument(std::string("zkey: scalar field is not ") + E::kName + "'s");
  auto nv = h.uint(4), np = h.uint(4), ds = h.uint(4);
  if (!nv.ok() || !np.ok() || !ds.ok()) return Status::invalid_argument("zkey: truncated header");
  zk.n_vars = static_cast<std::uint32_t>(*nv);
  zk.n_public = static_cast<std::uint32_t>(*np);
  zk.domain_size = static_cast<std::uint32_t>(*ds);
  if (std::uint64_t{zk.n_public} + 1 > zk.n_vars || zk.domain_size == 0 ||
      (zk.domain_size & (zk.domain_size - 1)) != 0) {
    return Status::invalid_argument("zkey: inconsistent counts (nVars " + std::to_string(zk.n_vars) + ", nPublic " +
                                    std::to_string(zk.n_public) + ", domain " + std::to_string(zk.domain_size) + ")");
  }
  const std::size_t g1 = 2 * Curve<E>::kN8q, g2 = 4 * Curve<E>::kN8q;
  auto take_g1 = [&](typename E::G1Affine& out) -> Status {
    auto b = h.take(g1);
    if (!b.ok()) return b.status();
    auto p = g1_at<E>(*b);
    if (!p.ok()) return p.status();
    out = *p;
    return {};
  };
  auto take_g2 = [&](typename E::G2Affine& out) -> Status {
    auto b = h.take(g2);
    if (!b.ok()) return b.status();
    auto p = g2_at<E>(*b);
    if (!p.ok()) return p.status();
    out = *p;
    return {};
  };
  for (Status s : {take_g1(zk.vk.alpha_g1), take_g1(zk.vk.beta_g1), take_g2(zk.vk.beta_g2), take_g2(zk.vk.gamma_g2),
                   take_g1(zk.vk.delta_g1), take_g2(zk.vk.delta_g2)}) {
    if (!s.ok()) return Status::invalid_argument("zkey header: " + s.message());
  }
  auto sec = section(3);
  if (!sec.ok()) return sec.status();
  {
    auto ic = read_points<E, false>(*sec, std::size_t{zk.n_public} + 1, "zkey IC");
    if (!ic.ok()) return ic.status();
    zk.vk.ic.reserve(ic->size());
    for (const auto& p : *ic) zk.vk.ic.push_back(p.to_affine());
  }
  {
    sec = section(4);
    if (!sec.ok()) return sec.status();
    Cursor cs(*sec, "zkey coefficients");
    auto n = cs.uint(4);
    if (!n.ok()) return n.status();
    constexpr std::size_t kRecord = 12 + 32;  // matrix, constraint, signal (u32 each), value (c R^2)
    if (*n > cs.remaining() / kRecord) return Status::invalid_argument("zkey: coefficient count exceeds the section");
    const auto records = sec->subspan(4, static_cast<std::size_t>(*n) * kRecord);
    // Fixed-size records: decoded in parallel, the first bad one (lowest index) reported.
    zk.coefs.resize(static_cast<std::size_t>(*n));
    const Fr r_inv = Fr::from_mont(typename Fr::Repr{1});  // the value R^-1: stored values are c R^2
    std::atomic<std::size_t> first_bad{zk.coefs.size()};
    auto u32 = [](const std::uint8_t* b) {
      return std::uint32_t{b[0]} | std::uint32_t{b[1]} << 8 | std::uint32_t{b[2]} << 16 | std::uint32_t{b[3]} << 24;
    };
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, zk.coefs.size(), 8192), [&](const tbb::blocked_range<std::size_t>& rg) {
          const auto block = records.subspan(rg.begin() * kRecord, (rg.end() - rg.begin()) * kRecord);
          if (pages.load) pages.load(block);
          for (std::size_t i = rg.begin(); i != rg.end(); ++i) {
            const std::uint8_t* b = records.data() + i * kRecord;
            const std::uint32_t m = u32(b), k = u32(b + 4), sig = u32(b + 8);
            const auto raw = le_limbs<Fr>(std::span(b + 12, 32));
            if (m > 1 || k >= zk.domain_size || sig >= zk.n_vars || field::cmp_limbs(raw, Fr::Params::kModulus) >= 0) {
              std::size_t cur = first_bad.load();
              while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {
              }
              return;
            }
            zk.coefs[i] = {m, k, sig, Fr::from_mont(raw) * r_inv};
          }
          if (pages.release) pages.release(block);
        });
    if (const std::size_t i = first_bad.load(); i < zk.coefs.size())
      return Status::invalid_argument("zkey: coefficient " + std::to_string(i) + " is out of range");
  }
  auto g1s = [&](std::uint32_t type, std::size_t count, const char* what,
                 KeyPoints<typename Zkey<E>::G1Point>& out) -> Status {
    auto b = section(type);
    if (!b.ok()) return b.status();
    auto p = read_points<E, false>(*b, count, what, pages, mapping);
    if (!p.ok()) return p.status();
    out = std::move(*p);
    return {};
  };
  if (Status st = g1s(5, zk.n_vars, "zkey A", zk.a); !st.ok()) return st;
  if (Status st = g1s(6, zk.n_vars, "zkey B1", zk.b1); !st.ok()) return st;
  {
    auto b = section(7);
    if (!b.ok()) return b.status();
    auto p = read_points<E, true>(*b, zk.n_vars, "zkey B2", pages, mapping);
    if (!p.ok()) return p.status();
    zk.b2 = std::move(*p);
  }
  if (Status st = g1s(8, zk.n_vars - zk.n_public - 1, "zkey C", zk.c); !st.ok()) return st;
  if (Status st = g1s(9, zk.domain_size, "zkey H", zk.h); !st.ok()) return st;
  return zk;
}
}  // namespace

Result<ZkeyInfo> read_zkey_info(const std::string& path) {
  auto f = FileSections::open(path);
  if (!f.ok()) return f.status();
  auto proto = f->get(1);
  if (!proto.ok()) return proto.status();
  if (proto->size() < 4 || (*proto)[0] != 1)
    return Status::invalid_argument("not a Groth16 zkey (protocol section missing or not 1)");
  auto header = f->get(2);
  if (!header.ok()) return header.status();
  Cursor h(*header, "zkey header");
  auto n8 = h.uint(4);
  if (!n8.ok()) return n8.status();
  auto q = h.take(static_cast<std::size_t>(std::min<std::uint64_t>(*n8, 64)));
  if (!q.ok()) return q.status();
  ZkeyInfo info;
  if (*n8 == 48 && le_limbs<curve::bls12_381::Fq>(*q) == curve::bls12_381::Fq::Params::kModulus) {
    info.curve = "bls12381";
  } else if (*n8 == 32 && le_limbs<curve::bn254::Fq>(*q) == curve::bn254::Fq::Params::kModulus) {
    info.curve = "bn128";
  } else {
    return Status::invalid_argument("unsupported base field (n8q = " + std::to_string(*n8) + ")");
  }
  auto n8r = h.uint(4);
  if (!n8r.ok() || *n8r != 32 || !h.take(32).ok()) return Status::invalid_argument("zkey: bad scalar field size");
  auto nv = h.uint(4), np = h.uint(4), ds = h.uint(4);
  if (!nv.ok() || !np.ok() || !ds.ok()) return Status::invalid_argument("zkey: truncated header");
  info.n_vars = static_cast<std::uint32_t>(*nv), info.n_public = static_cast<std::uint32_t>(*np);
  info.domain_size = static_cast<std::uint32_t>(*ds);
  if (std::uint64_t{info.n_public} + 1 > info.n_vars || info.domain_size == 0 ||
      (info.domain_size & (info.domain_size - 1)) != 0)
    return Status::invalid_argument("zkey: inconsistent counts in the header");
  info.file_bytes = f->file_bytes();
  return info;
}

template <class E>
Result<Zkey<E>> read_zkey(std::span<const std::uint8_t> bytes) {
  auto c = parse_container(bytes, "zkey");
  if (!c.ok()) return c.status();
  return parse_zkey<E>([&](std::uint32_t type) -> Result<std::span<const std::uint8_t>> {
    auto it = c->sections.find(type);
    if (it == c->sections.end())
      return Status::invalid_argument("zkey: section " + std::to_string(type) + " is missing");
    return it->second;
  });
}

template <class E>
Result<Zkey<E>> read_zkey_file(const std::string& path, ZkeyPoints points) {
  // Mapped, not read: the sections are decoded straight from the page cache (no read buffer), in
  // parallel. kCopied drops every copied range from the process at once, so the peak is the key
  // plus the pages in flight; kMapped keeps the MSM bases' pages mapped, the key's own. The checks
  // are read_zkey's: the container's section table against the file's size, every count against
  // its section, every point on its curve.
  auto file = MappedFile::open(path);
  if (!file.ok()) return Status(file.status().code(), path + ": " + file.status().message());
  const auto bytes = (*file)->bytes();
  auto c = parse_container(bytes, "zkey");
  if (!c.ok()) return Status(c.status().code(), path + ": " + c.status().message());
  auto zk = parse_zkey<E>(
      [&](std::uint32_t type) -> Result<std::span<const std::uint8_t>> {
        auto it = c->sections.find(type);
        if (it == c->sections.end())
          return Status::invalid_argument("zkey: section " + std::to_string(type) + " is missing");
        return it->second;
      },
      PageHooks{[&](std::span<const std::uint8_t> b) {
                  (*file)->populate(static_cast<std::uint64_t>(b.data() - bytes.data()), b.size());
                },
                [&](std::span<const std::uint8_t> b) {
                  (*file)->release(static_cast<std::uint64_t>(b.data() - bytes.data()), b.size());
                }},
      points == ZkeyPoints::kMapped ? *file : nullptr);
  if (!zk.ok()) return Status(zk.status().code(), path + ": " + zk.status().message());
  return zk;
}

std::uint64_t zkey_memory_bytes(std::uint64_t file_bytes) {
  // Points take in memory what they take on disk (curve::PackedAffine); a coefficient's 44-byte
  // record becomes 48 bytes (Zkey::Coef); plus vectors' slack.
  return file_bytes / 44 * 48 + (1 << 20);
}

template <class E>
Result<R1csFile<E>> read_r1cs(std::span<const std::uint8_t> bytes) {
  using Fr = typename E::Fr;
  auto c = parse_container(bytes, "r1cs");
  if (!c.ok()) return c.status();
  if (!c->sections.count(1) || !c->sections.count(2))
    return Status::invalid_argument("r1cs: sections 1 and 2 are required");
  Cursor h(c->sections[1], "r1cs header");
  auto n8 = h.uint(4);
  if (!n8.ok() || *n8 != 32) return Status::invalid_argument("r1cs: field size must be 32 bytes");
  auto prime = h.take(32);
  if (!prime.ok() || le_limbs<Fr>(*prime) != Fr::Params::kModulus) {
    return Status::invalid_argument(std::string("r1cs: the circuit is not over ") + E::kName + "'s scalar field");
  }
  R1csFile<E> r;
  auto nw = h.uint(4), po = h.uint(4), pi = h.uint(4), pr = h.uint(4), nl = h.uint(8), nc = h.uint(4);
  for (const auto* v : {&nw, &po, &pi, &pr, &nl, &nc}) {
    if (!v->ok()) return Status::invalid_argument("r1cs: truncated header");
  }
  r.n_wires = static_cast<std::uint32_t>(*nw), r.n_pub_out = static_cast<std::uint32_t>(*po);
  r.n_pub_in = static_cast<std::uint32_t>(*pi), r.n_prv_in = static_cast<std::uint32_t>(*pr), r.n_labels = *nl;
  if (std::uint64_t{r.n_pub_out} + r.n_pub_in + r.n_prv_in + 1 > r.n_wires)
    return Status::invalid_argument("r1cs: inconsistent wire counts");
  Cursor cs(c->sections[2], "r1cs constraints");
  // Each constraint has at least three 4-byte term counts: bound the count by the section size.
  if (*nc > cs.remaining() / 12) return Status::invalid_argument("r1cs: constraint count exceeds the section");
  auto lc = [&](std::vector<typename R1csFile<E>::Term>& out) -> Status {
    auto n = cs.uint(4);
    if (!n.ok()) return n.status();
    if (*n > cs.remaining() / 36) return Status::invalid_argument("r1cs: term count exceeds the section");
    for (std::uint64_t t = 0; t < *n; ++t) {
      auto wire = cs.uint(4);
      auto v = cs.take(32);
      if (!v.ok()) return v.status();
      if (*wire >= r.n_wires) return Status::invalid_argument("r1cs: wire " + std::to_string(*wire) + " out of range");
      auto x = Fr::from_bytes(*v, field::Endian::kLittle);
      if (!x.ok()) return Status::invalid_argument("r1cs: non-canonical coefficient");
      out.push_back({static_cast<std::uint32_t>(*wire), *x});
    }
    return {};
  };
  // Wires are allocated per declared count later (setup computes points per wire): check the count
  // against what the file holds before anyone sizes anything by it. circom writes the wire-to-label
  // map (section 3, 8 bytes per wire); without it, a wire must be an input or appear in a constraint.
  std::uint64_t max_wires = std::uint64_t{r.n_pub_out} + r.n_pub_in + r.n_prv_in + 1;
  if (auto m = c->sections.find(3); m != c->sections.end()) {
    if (m->second.size() != std::uint64_t{r.n_wires} * 8) {
      return Status::invalid_argument("r1cs: the header declares " + std::to_string(r.n_wires) +
                                      " wires but the wire-to-label map (section 3) holds " +
                                      std::to_string(m->second.size() / 8));
    }
    max_wires = r.n_wires;
  } else {
    // Bounded by the section size: at most one term per 36 bytes.
    max_wires += c->sections[2].size() / 36;
  }
  if (r.n_wires > max_wires) {
    return Status::invalid_argument("r1cs: the header declares " + std::to_string(r.n_wires) +
                                    " wires but the file can describe at most " + std::to_string(max_wires));
  }
  r.constraints.resize(*nc);
  for (auto& con : r.constraints) {
    for (auto* v : {&con.a, &con.b, &con.c}) {
      if (Status st = lc(*v); !st.ok()) return st;
    }
  }
  return r;
}

template <class E>
long R1csFile<E>::first_unsatisfied(std::span<const typename E::Fr> w) const {
  using Fr = typename E::Fr;
  auto eval = [&](const std::vector<Term>& t) {
    Fr acc = Fr::zero();
    for (const auto& x : t) acc = acc + x.coeff * w[x.wire];
    return acc;
  };
  if (w.size() != n_wires) return 0;
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    if (!(eval(constraints[i].a) * eval(constraints[i].b) == eval(constraints[i].c))) return static_cast<long>(i);
  }
  return -1;
}

template <class E>
Result<std::vector<typename E::Fr>> read_wtns(std::span<const std::uint8_t> bytes) {
  using Fr = typename E::Fr;
  auto c = parse_container(bytes, "wtns");
  if (!c.ok()) return c.status();
  if (!c->sections.count(1) || !c->sections.count(2))
    return Status::invalid_argument("wtns: sections 1 and 2 are required");
  Cursor h(c->sections[1], "wtns header");
  auto n8 = h.uint(4);
  if (!n8.ok() || *n8 != 32) return Status::invalid_argument("wtns: field size must be 32 bytes");
  auto prime = h.take(32);
  if (!prime.ok() || le_limbs<Fr>(*prime) != Fr::Params::kModulus) {
    return Status::invalid_argument(std::string("wtns: the witness is not over ") + E::kName + "'s scalar field");
  }
  auto n = h.uint(4);
  if (!n.ok()) return n.status();
  const auto& data = c->sections[2];
  if (data.size() != *n * 32)
    return Status::invalid_argument("wtns: section 2 does not hold " + std::to_string(*n) + " values");
  std::vector<Fr> w;
  w.reserve(*n);
  for (std::uint64_t i = 0; i < *n; ++i) {
    auto x = Fr::from_bytes(data.subspan(i * 32, 32), field::Endian::kLittle);
    if (!x.ok()) return Status::invalid_argument("wtns: value " + std::to_string(i) + " is not canonical");
    w.push_back(*x);
  }
  return w;
}

template <class E>
Result<Rows<E>> evaluate_rows(const Zkey<E>& zk, std::span<const typename E::Fr> w) {
  using Fr = typename E::Fr;
  if (w.size() != zk.n_vars) {
    return Status::invalid_argument("witness has " + std::to_string(w.size()) + " values but the zkey expects " +
                                    std::to_string(zk.n_vars));
  }
  if (!w.empty() && !w[0].is_one()) return Status::invalid_argument("witness[0] must be 1");
  const std::size_t n = zk.domain_size;
  Rows<E> rows;
  rows.a.assign(n, Fr::zero());
  rows.b.assign(n, Fr::zero());
  // A and B rows concurrently (each coefficient list is one pass); the prover forms c = a b.
  auto accumulate = [&](std::uint32_t matrix, base::UninitVector<Fr>& out) {
    for (const auto& co : zk.coefs) {
      if (co.matrix == matrix) out[co.constraint] += co.value * w[co.signal];
    }
  };
  tbb::parallel_invoke([&] { accumulate(0, rows.a); }, [&] { accumulate(1, rows.b); });
  return rows;
}

template <class E>
Proof<E> prove_finish(const Zkey<E>& zk, std::span<const typename E::Fr> w, const PendingZkeyProof<E>& p,
                      ProveTimings* timings) {
  detail::Stopwatch clock;
  const auto sum_b2 = *msm::msm<typename E::G2Config>(std::span(zk.b2), w);
  const double b2_ms = clock.lap();
  const auto& vk = zk.vk;
  const auto delta1 = vk.delta_g1.to_jacobian();
  const auto pa = vk.alpha_g1.to_jacobian() + p.a + delta1 * p.r;
  const auto pb = vk.beta_g2.to_jacobian() + sum_b2 + vk.delta_g2.to_jacobian() * p.s;
  const auto b1 = vk.beta_g1.to_jacobian() + p.b1 + delta1 * p.s;
  const auto pc = p.c + pa * p.s + b1 * p.r - delta1 * (p.r * p.s);
  Proof<E> proof{pa.to_affine(), pb.to_affine(), pc.to_affine()};
  if (timings != nullptr) timings->msm_b_g2 = b2_ms, timings->assembly = clock.lap();
  return proof;
}

template <class E>
Result<Proof<E>> prove(const Zkey<E>& zk, std::span<const typename E::Fr> w, const typename E::Fr& r,
                       const typename E::Fr& s) {
  auto rows = evaluate_rows<E>(zk, w);
  if (!rows.ok()) return rows.status();
  auto pending = prove_start<E>(zk, w, std::move(*rows), r, s);
  if (!pending.ok()) return pending.status();
  return prove_finish<E>(zk, w, *pending);
}

template <>
const char* curve_name<Bls12_381>() {
  return "bls12381";
}
template <>
const char* curve_name<Bn254>() {
  return "bn128";
}

template <class E>
std::string proof_to_json(const Proof<E>& p) {
  using nlohmann::json;
  auto d = [](const auto& x) { return field::to_decimal(x); };
  // json::array explicitly: a braced pair of strings would become an object.
  json j = json::object();
  j["pi_a"] = json::array({d(p.a.x), d(p.a.y), "1"});
  j["pi_b"] = json::array(
      {json::array({d(p.b.x.c0), d(p.b.x.c1)}), json::array({d(p.b.y.c0), d(p.b.y.c1)}), json::array({"1", "0"})});
  j["pi_c"] = json::array({d(p.c.x), d(p.c.y), "1"});
  j["protocol"] = "groth16";
  j["curve"] = curve_name<E>();
  return j.dump(1) + "\n";
}

template <class E>
std::string public_to_json(std::span<const typename E::Fr> inputs) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& x : inputs) j.push_back(field::to_decimal(x));
  return j.dump(1) + "\n";
}

namespace {
template <class F>
Result<F> dec(const nlohmann::json& v) {
  if (!v.is_string()) return Status::invalid_argument("expected a decimal string");
  return field::from_decimal<F>(v.get<std::string>());
}
template <class E>
Result<typename E::G1Affine> g1_json(const nlohmann::json& v) {
  using Fq = typename Curve<E>::Fq;
  if (!v.is_array() || v.size() != 3) return Status::invalid_argument("G1 point must be [x, y, z]");
  auto x = dec<Fq>(v[0]), y = dec<Fq>(v[1]), z = dec<Fq>(v[2]);
  if (!x.ok() || !y.ok() || !z.ok()) return Status::invalid_argument("G1 point: bad coordinate");
  if (z->is_zero()) return E::G1Affine::identity();
  if (!z->is_one()) return Status::invalid_argument("G1 point: z must be 1 or 0");
  const auto p = E::G1Affine::from_xy(*x, *y);
  if (auto s = check_point<E>(p, "G1 point"); !s.ok()) return s;
  return p;
}
template <class E>
Result<typename E::G2Affine> g2_json(const nlohmann::json& v) {
  using Fq = typename Curve<E>::Fq;
  using Fq2 = typename Curve<E>::Fq2;
  if (!v.is_array() || v.size() != 3 || !v[0].is_array() || !v[1].is_array() || !v[2].is_array() || v[0].size() != 2 ||
      v[1].size() != 2 || v[2].size() != 2) {
    return Status::invalid_argument("G2 point must be [[x0,x1],[y0,y1],[z0,z1]]");
  }
  auto x0 = dec<Fq>(v[0][0]), x1 = dec<Fq>(v[0][1]), y0 = dec<Fq>(v[1][0]), y1 = dec<Fq>(v[1][1]),
       z0 = dec<Fq>(v[2][0]), z1 = dec<Fq>(v[2][1]);
  for (const Status& s : {x0.status(), x1.status(), y0.status(), y1.status(), z0.status(), z1.status()}) {
    if (!s.ok()) return Status::invalid_argument("G2 point: bad coordinate");
  }
  if (z0->is_zero() && z1->is_zero()) return E::G2Affine::identity();
  if (!z0->is_one() || !z1->is_zero()) return Status::invalid_argument("G2 point: z must be [1, 0]");
  const auto p = E::G2Affine::from_xy(Fq2{*x0, *x1}, Fq2{*y0, *y1});
  if (auto s = check_point<E>(p, "G2 point"); !s.ok()) return s;
  return p;
}
}  // namespace

template <class E>
Result<Proof<E>> proof_from_json(std::string_view text) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Status::invalid_argument("proof.json: not a JSON object");
  if (!j.contains("pi_a") || !j.contains("pi_b") || !j.contains("pi_c"))
    return Status::invalid_argument("proof.json: pi_a, pi_b, pi_c required");
  auto a = g1_json<E>(j["pi_a"]);
  auto b = g2_json<E>(j["pi_b"]);
  auto c = g1_json<E>(j["pi_c"]);
  if (!a.ok()) return Status::invalid_argument("proof.json pi_a: " + a.status().message());
  if (!b.ok()) return Status::invalid_argument("proof.json pi_b: " + b.status().message());
  if (!c.ok()) return Status::invalid_argument("proof.json pi_c: " + c.status().message());
  return Proof<E>{*a, *b, *c};
}

template <class E>
Result<VerifyingKey<E>> verifying_key_from_json(std::string_view text) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Status::invalid_argument("verification_key.json: not a JSON object");
  try {
    VerifyingKey<E> vk;
    auto g1 = [&](const char* k, typename E::G1Affine& out) -> Status {
      auto p = g1_json<E>(j.at(k));
      if (!p.ok()) return Status::invalid_argument(std::string(k) + ": " + p.status().message());
      out = *p;
      return {};
    };
    auto g2 = [&](const char* k, typename E::G2Affine& out) -> Status {
      auto p = g2_json<E>(j.at(k));
      if (!p.ok()) return Status::invalid_argument(std::string(k) + ": " + p.status().message());
      out = *p;
      return {};
    };
    for (Status s : {g1("vk_alpha_1", vk.alpha_g1), g2("vk_beta_2", vk.beta_g2), g2("vk_gamma_2", vk.gamma_g2),
                     g2("vk_delta_2", vk.delta_g2)}) {
      if (!s.ok()) return s;
    }
    for (const auto& p : j.at("IC")) {
      auto q = g1_json<E>(p);
      if (!q.ok()) return Status::invalid_argument("IC: " + q.status().message());
      vk.ic.push_back(*q);
    }
    if (vk.ic.empty()) return Status::invalid_argument("verification_key.json: IC is empty");
    return vk;
  } catch (const nlohmann::json::exception& e) {
    return Status::invalid_argument(std::string("verification_key.json: ") + e.what());
  }
}

#define ZK_INSTANTIATE_SNARKJS(E)                                                                         \
  template Result<Zkey<E>> read_zkey<E>(std::span<const std::uint8_t>);                                   \
  template Result<std::vector<E::Fr>> read_wtns<E>(std::span<const std::uint8_t>);                        \
  template Result<Proof<E>> prove<E>(const Zkey<E>&, std::span<const E::Fr>, const E::Fr&, const E::Fr&); \
  template Result<Rows<E>> evaluate_rows<E>(const Zkey<E>&, std::span<const E::Fr>);                      \
  template Proof<E> prove_finish<E>(const Zkey<E>&, std::span<const E::Fr>, const PendingZkeyProof<E>&,   \
                                    ProveTimings*);                                                       \
  template Result<Zkey<E>> read_zkey_file<E>(const std::string&, ZkeyPoints);                                         \
  template std::string proof_to_json<E>(const Proof<E>&);                                                 \
  template Result<Proof<E>> proof_from_json<E>(std::string_view);                                         \
  template std::string public_to_json<E>(std::span<const E::Fr>);                                         \
  template Result<VerifyingKey<E>> verifying_key_from_json<E>(std::string_view);
ZK_INSTANTIATE_SNARKJS(Bls12_381)
ZK_INSTANTIATE_SNARKJS(Bn254)
#undef ZK_INSTANTIATE_SNARKJS

template struct R1csFile<Bls12_381>;
template struct R1csFile<Bn254>;
template Result<R1csFile<Bls12_381>> read_r1cs<Bls12_381>(std::span<const std::uint8_t>);
template Result<R1csFile<Bn254>> read_r1cs<Bn254>(std::span<const std::uint8_t>);

}  // namespace zk::groth16::snarkjs
