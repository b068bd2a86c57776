#include "groth16/io.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <fstream>
#include <mutex>

#include "curve/serialize.hpp"

namespace zk::groth16 {

template <>
struct Encoding<Bls12_381> {
  static constexpr std::size_t kG1 = 96, kG2 = 192, kProof = 48 + 96 + 48;
  static void put(std::vector<std::uint8_t>& out, const Bls12_381::G1Affine& p) {
    const auto b = curve::bls12_381::to_uncompressed(p);
    out.insert(out.end(), b.begin(), b.end());
  }
  static void put(std::vector<std::uint8_t>& out, const Bls12_381::G2Affine& p) {
    const auto b = curve::bls12_381::to_uncompressed(p);
    out.insert(out.end(), b.begin(), b.end());
  }
  static Result<Bls12_381::G1Affine> g1(std::span<const std::uint8_t> b, curve::Check c) {
    return curve::bls12_381::g1_from_uncompressed(b, c);
  }
  static Result<Bls12_381::G2Affine> g2(std::span<const std::uint8_t> b, curve::Check c) {
    return curve::bls12_381::g2_from_uncompressed(b, c);
  }
  static void put_proof(std::vector<std::uint8_t>& out, const Proof<Bls12_381>& p) {
    const auto a = curve::bls12_381::to_compressed(p.a);
    const auto b = curve::bls12_381::to_compressed(p.b);
    const auto c = curve::bls12_381::to_compressed(p.c);
    out.insert(out.end(), a.begin(), a.end());
    out.insert(out.end(), b.begin(), b.end());
    out.insert(out.end(), c.begin(), c.end());
  }
  static Result<Proof<Bls12_381>> proof(std::span<const std::uint8_t> b) {
    auto a = curve::bls12_381::g1_from_compressed(b.subspan(0, 48));
    if (!a.ok()) return Status::invalid_argument("proof A: " + a.status().message());
    auto bb = curve::bls12_381::g2_from_compressed(b.subspan(48, 96));
    if (!bb.ok()) return Status::invalid_argument("proof B: " + bb.status().message());
    auto c = curve::bls12_381::g1_from_compressed(b.subspan(144, 48));
    if (!c.ok()) return Status::invalid_argument("proof C: " + c.status().message());
    if (a->infinity || bb->infinity || c->infinity) return Status::invalid_argument("proof: a point is the identity");
    return Proof<Bls12_381>{*a, *bb, *c};
  }
};

template <>
struct Encoding<Bn254> {
  static constexpr std::size_t kG1 = 64, kG2 = 128, kProof = 64 + 128 + 64;
  static void put(std::vector<std::uint8_t>& out, const Bn254::G1Affine& p) {
    const auto b = curve::bn254::to_bytes(p);
    out.insert(out.end(), b.begin(), b.end());
  }
  static void put(std::vector<std::uint8_t>& out, const Bn254::G2Affine& p) {
    const auto b = curve::bn254::to_bytes(p);
    out.insert(out.end(), b.begin(), b.end());
  }
  static Result<Bn254::G1Affine> g1(std::span<const std::uint8_t> b, curve::Check c) {
    return curve::bn254::g1_from_bytes(b, c);
  }
  static Result<Bn254::G2Affine> g2(std::span<const std::uint8_t> b, curve::Check c) {
    return curve::bn254::g2_from_bytes(b, c);
  }
  static void put_proof(std::vector<std::uint8_t>& out, const Proof<Bn254>& p) {
    put(out, p.a);
    put(out, p.b);
    put(out, p.c);
  }
  static Result<Proof<Bn254>> proof(std::span<const std::uint8_t> b) {
    auto a = g1(b.subspan(0, 64), curve::Check::kChecked);
    if (!a.ok()) return Status::invalid_argument("proof A: " + a.status().message());
    auto bb = g2(b.subspan(64, 128), curve::Check::kChecked);
    if (!bb.ok()) return Status::invalid_argument("proof B: " + bb.status().message());
    auto c = g1(b.subspan(192, 64), curve::Check::kChecked);
    if (!c.ok()) return Status::invalid_argument("proof C: " + c.status().message());
    if (a->infinity || bb->infinity || c->infinity) return Status::invalid_argument("proof: a point is the identity");
    return Proof<Bn254>{*a, *bb, *c};
  }
};

template <class E>
std::size_t key_point_bytes(bool g2) {
  return g2 ? Encoding<E>::kG2 : Encoding<E>::kG1;
}

template <class E, class Affine>
Status decode_key_points(std::span<const std::uint8_t> bytes, std::span<Affine> out, const ReadOptions& options,
                         const std::string& what, std::size_t first_index) {
  constexpr bool kG2 = std::is_same_v<Affine, typename E::G2Affine>;
  constexpr std::size_t size = kG2 ? Encoding<E>::kG2 : Encoding<E>::kG1;
  if (bytes.size() != out.size() * size) {
    return Status::internal(what + ": " + std::to_string(bytes.size()) + " bytes for " + std::to_string(out.size()) +
                            " points");
  }
  const auto check = options.check_subgroup ? curve::Check::kChecked : curve::Check::kUnchecked;
  std::atomic<bool> failed{false};
  std::mutex m;
  Status first;
  std::size_t first_bad = SIZE_MAX;
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, out.size(), 1024), [&](const tbb::blocked_range<std::size_t>& r) {
        if (failed.load(std::memory_order_relaxed)) return;
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          auto b = bytes.subspan(i * size, size);
          Result<Affine> p = [&]() -> Result<Affine> {
            if constexpr (kG2) {
              return Encoding<E>::g2(b, check);
            } else {
              return Encoding<E>::g1(b, check);
            }
          }();
          Status bad;
          if (!p.ok()) bad = Status::invalid_argument(what + "[" + std::to_string(first_index + i) + "]: " + p.status().message());
          else if (p->infinity) bad = Status::invalid_argument(what + "[" + std::to_string(first_index + i) + "] is the point at infinity");
          if (!bad.ok()) {
            std::lock_guard lock(m);
            if (i < first_bad) first_bad = i, first = bad;
            failed = true;
            return;
          }
          out[i] = *p;
        }
      });
  if (failed) return first;
  return {};
}

namespace {
/// What may follow a parameter file's b_g2 section: nothing, or exactly bellman phase2's MPC
/// transcript — cs_hash (64) ‖ u32 BE count ‖ count × {delta_after, s, s_delta in G1, r_delta in G2,
/// all uncompressed, ‖ transcript (64)} (Zcash's Sapling files, Filecoin's phase2 outputs, snarkjs
/// `zkey export bellman`; docs/formats.md). Anything else is refused, as a .vk's trailing bytes are
/// (issue 47: one rule for every key file). `count_at(off)` reads the u32 at `off` of the file.
template <class E, class U32At>
Status check_trailer(std::uint64_t end_of_b_g2, std::uint64_t size, U32At&& count_at) {
  using Enc = Encoding<E>;
  const std::uint64_t tail = size - end_of_b_g2;
  if (tail == 0) return {};
  const std::uint64_t contribution = 3 * Enc::kG1 + Enc::kG2 + 64;
  if (tail >= 68) {
    auto n = count_at(end_of_b_g2 + 64);
    if (!n.ok()) return n.status();
    if (tail == 68 + std::uint64_t{*n} * contribution) return {};
  }
  return Status::invalid_argument(std::to_string(tail) + " bytes follow the b_g2 section, and they are not an MPC "
                                  "transcript (64-byte hash, a count, " + std::to_string(contribution) +
                                  " bytes per contribution): a damaged or concatenated file?");
}


void put_u32_be(std::vector<std::uint8_t>& out, std::size_t v) {
  for (int i = 3; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

/// A bounds-checked cursor over the input.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> b) : b_(b) {}
  std::size_t offset() const { return off_; }
  std::size_t remaining() const { return b_.size() - off_; }
  Result<std::uint32_t> u32_be(const std::string& what) {
    if (remaining() < 4) return truncated(what + " count", 4);
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | b_[off_ + static_cast<std::size_t>(i)];
    off_ += 4;
    return v;
  }
  Result<std::span<const std::uint8_t>> take(std::size_t n, const std::string& what) {
    if (remaining() < n) return truncated(what, n);
    auto s = b_.subspan(off_, n);
    off_ += n;
    return s;
  }

 private:
  Status truncated(const std::string& what, std::size_t need) const {
    return Status::invalid_argument("truncated file: " + what + " needs " + std::to_string(need) + " bytes at offset " +
                                    std::to_string(off_) + " but only " + std::to_string(remaining()) + " remain");
  }
  std::span<const std::uint8_t> b_;
  std::size_t off_ = 0;
};

template <class E, bool kG2>
using PointOf = std::conditional_t<kG2, typename E::G2Affine, typename E::G1Affine>;

/// One point, with a message naming it.
template <class E, bool kG2>
Result<PointOf<E, kG2>> decode_point(std::span<const std::uint8_t> b, curve::Check check, const std::string& what,
                                     bool allow_identity) {
  using Enc = Encoding<E>;
  Result<PointOf<E, kG2>> p = [&]() -> Result<PointOf<E, kG2>> {
    if constexpr (kG2) {
      return Enc::g2(b, check);
    } else {
      return Enc::g1(b, check);
    }
  }();
  if (!p.ok()) return Status::invalid_argument(what + ": " + p.status().message());
  if (!allow_identity && p->infinity) return Status::invalid_argument(what + " is the point at infinity");
  return p;
}

/// A length-prefixed vector of points, decoded in parallel after the count is checked against the
/// remaining bytes.
template <class E, bool kG2>
Result<std::vector<PointOf<E, kG2>>> read_vector(Reader& in, const std::string& what, curve::Check check) {
  constexpr std::size_t size = kG2 ? Encoding<E>::kG2 : Encoding<E>::kG1;
  auto count = in.u32_be(what);
  if (!count.ok()) return count.status();
  if (static_cast<std::size_t>(*count) > in.remaining() / size) {
    return Status::invalid_argument(what + " claims " + std::to_string(*count) + " points (" +
                                    std::to_string(static_cast<std::size_t>(*count) * size) + " bytes) but only " +
                                    std::to_string(in.remaining()) + " bytes remain");
  }
  auto bytes = in.take(static_cast<std::size_t>(*count) * size, what);
  if (!bytes.ok()) return bytes.status();
  std::vector<PointOf<E, kG2>> out(*count);
  const ReadOptions options{.check_subgroup = check == curve::Check::kChecked};
  if (Status s = decode_key_points<E, PointOf<E, kG2>>(*bytes, std::span(out), options, what, 0); !s.ok()) return s;
  return out;
}

template <class E>
Result<VerifyingKey<E>> read_vk_from(Reader& in) {
  using Enc = Encoding<E>;
  VerifyingKey<E> vk;
  const auto k = curve::Check::kChecked;
  auto g1 = [&](typename E::G1Affine& p, const char* name) -> Status {
    auto b = in.take(Enc::kG1, name);
    if (!b.ok()) return b.status();
    auto d = decode_point<E, false>(*b, k, std::string("verifying key ") + name, true);
    if (!d.ok()) return d.status();
    p = *d;
    return {};
  };
  auto g2 = [&](typename E::G2Affine& p, const char* name) -> Status {
    auto b = in.take(Enc::kG2, name);
    if (!b.ok()) return b.status();
    auto d = decode_point<E, true>(*b, k, std::string("verifying key ") + name, true);
    if (!d.ok()) return d.status();
    p = *d;
    return {};
  };
  for (Status s : {g1(vk.alpha_g1, "alpha_g1"), g1(vk.beta_g1, "beta_g1"), g2(vk.beta_g2, "beta_g2"),
                   g2(vk.gamma_g2, "gamma_g2"), g1(vk.delta_g1, "delta_g1"), g2(vk.delta_g2, "delta_g2")}) {
    if (!s.ok()) return s;
  }
  auto ic = read_vector<E, false>(in, "verifying key ic", k);
  if (!ic.ok()) return ic.status();
  if (ic->empty()) return Status::invalid_argument("verifying key ic is empty (it needs at least the ONE entry)");
  vk.ic = std::move(*ic);
  return vk;
}

template <class E>
void put_vk(std::vector<std::uint8_t>& out, const VerifyingKey<E>& vk) {
  using Enc = Encoding<E>;
  Enc::put(out, vk.alpha_g1);
  Enc::put(out, vk.beta_g1);
  Enc::put(out, vk.beta_g2);
  Enc::put(out, vk.gamma_g2);
  Enc::put(out, vk.delta_g1);
  Enc::put(out, vk.delta_g2);
  put_u32_be(out, vk.ic.size());
  for (const auto& p : vk.ic) Enc::put(out, p);
}

}  // namespace

template <class E>
Result<VerifyingKey<E>> read_verifying_key(std::span<const std::uint8_t> bytes, std::size_t* consumed) {
  Reader in(bytes);
  auto vk = read_vk_from<E>(in);
  if (vk.ok() && consumed != nullptr) *consumed = in.offset();
  return vk;
}

Result<VerifyingKey<Bls12_381>> read_verifying_key_compressed(std::span<const std::uint8_t> bytes) {
  namespace b = curve::bls12_381;
  constexpr std::size_t kHead = 3 * b::kG1CompressedBytes + 3 * b::kG2CompressedBytes + 4;
  if (bytes.size() < kHead) {
    return Status::invalid_argument("compressed verifying key: " + std::to_string(bytes.size()) + " bytes, at least " +
                                    std::to_string(kHead) + " needed");
  }
  std::size_t off = 0;
  Status bad;
  auto g1 = [&](const char* what) {
    auto p = b::g1_from_compressed(bytes.subspan(off, b::kG1CompressedBytes));
    off += b::kG1CompressedBytes;
    if (!p.ok() && bad.ok()) bad = Status::invalid_argument(std::string("verifying key ") + what + ": " + p.status().message());
    return p.ok() ? *p : b::G1Affine::identity();
  };
  auto g2 = [&](const char* what) {
    auto p = b::g2_from_compressed(bytes.subspan(off, b::kG2CompressedBytes));
    off += b::kG2CompressedBytes;
    if (!p.ok() && bad.ok()) bad = Status::invalid_argument(std::string("verifying key ") + what + ": " + p.status().message());
    return p.ok() ? *p : b::G2Affine::identity();
  };
  VerifyingKey<Bls12_381> vk;
  vk.alpha_g1 = g1("alpha_g1");
  vk.beta_g1 = g1("beta_g1");
  vk.beta_g2 = g2("beta_g2");
  vk.gamma_g2 = g2("gamma_g2");
  vk.delta_g1 = g1("delta_g1");
  vk.delta_g2 = g2("delta_g2");
  if (!bad.ok()) return bad;
  const std::uint32_t n = (std::uint32_t{bytes[off]} << 24) | (std::uint32_t{bytes[off + 1]} << 16) |
                          (std::uint32_t{bytes[off + 2]} << 8) | bytes[off + 3];
  off += 4;
  if (n == 0 || n > (bytes.size() - off) / b::kG1CompressedBytes) {
    return Status::invalid_argument("compressed verifying key: " + std::to_string(n) + " IC points do not fit in the " +
                                    std::to_string(bytes.size() - off) + " bytes left");
  }
  vk.ic.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) vk.ic.push_back(g1("ic"));
  if (!bad.ok()) return bad;
  for (std::size_t i = off; i < bytes.size(); ++i) {
    if (bytes[i] != 0) return Status::invalid_argument("compressed verifying key: trailing bytes after the IC points");
  }
  return vk;
}

template <class E>
std::vector<std::uint8_t> write_verifying_key(const VerifyingKey<E>& vk) {
  std::vector<std::uint8_t> out;
  put_vk(out, vk);
  return out;
}

template <class E>
Result<ProvingKey<E>> read_parameters(std::span<const std::uint8_t> bytes, const ReadOptions& options) {
  Reader in(bytes);
  auto vk = read_vk_from<E>(in);
  if (!vk.ok()) return vk.status();
  const auto check = options.check_subgroup ? curve::Check::kChecked : curve::Check::kUnchecked;
  ProvingKey<E> pk;
  pk.vk = std::move(*vk);
  auto h = read_vector<E, false>(in, "h", check);
  if (!h.ok()) return h.status();
  pk.h = std::move(*h);
  auto l = read_vector<E, false>(in, "l", check);
  if (!l.ok()) return l.status();
  pk.l = std::move(*l);
  auto a = read_vector<E, false>(in, "a", check);
  if (!a.ok()) return a.status();
  pk.a = std::move(*a);
  auto b1 = read_vector<E, false>(in, "b_g1", check);
  if (!b1.ok()) return b1.status();
  pk.b_g1 = std::move(*b1);
  auto b2 = read_vector<E, true>(in, "b_g2", check);
  if (!b2.ok()) return b2.status();
  pk.b_g2 = std::move(*b2);
  if (Status st = check_trailer<E>(in.offset(), bytes.size(), [&](std::uint64_t off) -> Result<std::uint32_t> {
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v = (v << 8) | bytes[off + static_cast<std::size_t>(i)];
        return v;
      });
      !st.ok()) {
    return st;
  }
  const std::size_t n = pk.h.size() + 1;
  if ((n & (n - 1)) != 0) {
    return Status::invalid_argument("h has " + std::to_string(pk.h.size()) + " points; a QAP domain needs 2^k - 1");
  }
  if (pk.b_g1.size() != pk.b_g2.size()) {
    return Status::invalid_argument("b_g1 has " + std::to_string(pk.b_g1.size()) + " points but b_g2 has " +
                                    std::to_string(pk.b_g2.size()));
  }
  if (pk.a.size() < pk.vk.ic.size()) {
    return Status::invalid_argument("a has fewer points than there are inputs");
  }
  return pk;
}

namespace {
/// Walks a parameter file's section counts (vk, then ic, h, l, a, b_g1, b_g2) without decoding a
/// point: `u32_at(offset)` reads a big-endian count; `size` bounds every claim.
template <class E, class U32At>
Result<ParameterSections> walk_sections(std::uint64_t size, U32At&& u32_at) {
  using Enc = Encoding<E>;
  std::uint64_t off = 3 * Enc::kG1 + 3 * Enc::kG2;  // alpha, beta, delta in G1; beta, gamma, delta in G2
  if (size < off) return Status::invalid_argument("truncated file: the verifying key needs " + std::to_string(off) + " bytes");
  const char* names[] = {"ic", "h", "l", "a", "b_g1", "b_g2"};
  std::uint64_t counts[6], starts[6];
  for (int s = 0; s < 6; ++s) {
    if (size - off < 4) return Status::invalid_argument(std::string("truncated file: no ") + names[s] + " count");
    auto n = u32_at(off);
    if (!n.ok()) return n.status();
    off += 4;
    const std::uint64_t point = s == 5 ? Enc::kG2 : Enc::kG1;
    if (*n > (size - off) / point) {
      return Status::invalid_argument(std::string(names[s]) + " claims " + std::to_string(*n) + " points but only " +
                                      std::to_string(size - off) + " bytes remain");
    }
    counts[s] = *n;
    starts[s] = off;
    off += *n * point;
  }
  if (Status st = check_trailer<E>(off, size, u32_at); !st.ok()) return st;
  return ParameterSections{.ic = counts[0], .h = counts[1], .l = counts[2], .a = counts[3], .b_g1 = counts[4],
                           .b_g2 = counts[5], .bytes = off, .h_at = starts[1], .l_at = starts[2], .a_at = starts[3],
                           .b_g1_at = starts[4], .b_g2_at = starts[5]};
}
}  // namespace

template <class E>
Result<ParameterSections> parameter_sections(std::span<const std::uint8_t> bytes) {
  return walk_sections<E>(bytes.size(), [&](std::uint64_t off) -> Result<std::uint32_t> {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | bytes[off + static_cast<std::size_t>(i)];
    return v;
  });
}

template <class E>
Result<ParameterSections> read_parameter_sections(const std::filesystem::path& path) {
  auto size = regular_file_size(path);
  if (!size.ok()) return size.status();
  std::ifstream f(path, std::ios::binary);
  if (!f) return Status::io_error("cannot open " + path.string());
  auto r = walk_sections<E>(*size, [&](std::uint64_t off) -> Result<std::uint32_t> {
    std::uint8_t b[4];
    f.seekg(static_cast<std::streamoff>(off));
    if (!f.read(reinterpret_cast<char*>(b), 4)) return Status::io_error("cannot read " + path.string());
    return (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3];
  });
  if (!r.ok()) return Status::invalid_argument(path.string() + ": " + r.status().message());
  return r;
}

template <class E>
Result<std::size_t> parameters_extent(std::span<const std::uint8_t> bytes) {
  auto s = parameter_sections<E>(bytes);
  if (!s.ok()) return s.status();
  return static_cast<std::size_t>(s->bytes);
}

template <class E>
std::vector<std::uint8_t> write_parameters(const ProvingKey<E>& pk) {
  using Enc = Encoding<E>;
  std::vector<std::uint8_t> out;
  put_vk(out, pk.vk);
  for (const auto* v : {&pk.h, &pk.l, &pk.a, &pk.b_g1}) {
    put_u32_be(out, v->size());
    for (const auto& p : *v) Enc::put(out, p);
  }
  put_u32_be(out, pk.b_g2.size());
  for (const auto& p : pk.b_g2) Enc::put(out, p);
  return out;
}

template <class E>
std::size_t proof_bytes() {
  return Encoding<E>::kProof;
}

template <class E>
Result<std::vector<Proof<E>>> read_proofs(std::span<const std::uint8_t> bytes) {
  constexpr std::size_t size = Encoding<E>::kProof;
  if (bytes.empty() || bytes.size() % size != 0) {
    return Status::invalid_argument("proof file has " + std::to_string(bytes.size()) +
                                    " bytes; expected a non-zero multiple of " + std::to_string(size) + " (one " +
                                    std::string(E::kName) + " proof per partition)");
  }
  std::vector<Proof<E>> out;
  for (std::size_t i = 0; i < bytes.size() / size; ++i) {
    auto p = Encoding<E>::proof(bytes.subspan(i * size, size));
    if (!p.ok()) return Status::invalid_argument("partition " + std::to_string(i) + ": " + p.status().message());
    out.push_back(*p);
  }
  return out;
}

template <class E>
std::vector<std::uint8_t> write_proofs(std::span<const Proof<E>> proofs) {
  std::vector<std::uint8_t> out;
  for (const auto& p : proofs) Encoding<E>::put_proof(out, p);
  return out;
}

Status write_file(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::io_error("cannot create " + path.string());
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) return Status::io_error("cannot write " + path.string());
  return {};
}

#define ZK_INSTANTIATE_IO(E)                                                                            \
  template Result<VerifyingKey<E>> read_verifying_key<E>(std::span<const std::uint8_t>, std::size_t*);  \
  template Result<std::size_t> parameters_extent<E>(std::span<const std::uint8_t>);                    \
  template Result<ParameterSections> parameter_sections<E>(std::span<const std::uint8_t>);             \
  template Result<ParameterSections> read_parameter_sections<E>(const std::filesystem::path&);         \
  template std::vector<std::uint8_t> write_verifying_key<E>(const VerifyingKey<E>&);                    \
  template Result<ProvingKey<E>> read_parameters<E>(std::span<const std::uint8_t>, const ReadOptions&); \
  template std::vector<std::uint8_t> write_parameters<E>(const ProvingKey<E>&);                         \
  template std::size_t proof_bytes<E>();                                                                \
  template Result<std::vector<Proof<E>>> read_proofs<E>(std::span<const std::uint8_t>);                 \
  template std::vector<std::uint8_t> write_proofs<E>(std::span<const Proof<E>>);                         \
  template std::size_t key_point_bytes<E>(bool);                                                        \
  template Status decode_key_points<E, E::G1Affine>(std::span<const std::uint8_t>, std::span<E::G1Affine>, \
                                                    const ReadOptions&, const std::string&, std::size_t); \
  template Status decode_key_points<E, E::G2Affine>(std::span<const std::uint8_t>, std::span<E::G2Affine>, \
                                                    const ReadOptions&, const std::string&, std::size_t);
ZK_INSTANTIATE_IO(Bls12_381)
ZK_INSTANTIATE_IO(Bn254)
#undef ZK_INSTANTIATE_IO

}  // namespace zk::groth16
