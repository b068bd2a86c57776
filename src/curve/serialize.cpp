#include "curve/serialize.hpp"

#include <algorithm>
#include <string>

namespace zk::curve {

namespace {

constexpr std::uint8_t kFlagCompressed = 0x80;
constexpr std::uint8_t kFlagInfinity = 0x40;
constexpr std::uint8_t kFlagSort = 0x20;
constexpr std::uint8_t kFlagMask = 0xe0;

bool all_zero(std::span<const std::uint8_t> b) {
  return std::all_of(b.begin(), b.end(), [](std::uint8_t x) { return x == 0; });
}

Status length_error(const char* what, std::size_t want, std::size_t got) {
  return Status::invalid_argument(std::string(what) + ": expected " + std::to_string(want) + " bytes, got " +
                                  std::to_string(got));
}

/// Reads one Fq coordinate, reporting which coordinate failed.
template <class Fq>
Result<Fq> read_fq(std::span<const std::uint8_t> b, const char* group, const char* coord) {
  auto r = Fq::from_bytes(b, field::Endian::kBig);
  if (!r)
    return Status::invalid_argument(std::string(group) + ": coordinate " + coord + " is not a canonical field element");
  return r;
}

template <class Fq>
Result<field::Fp2<Fq>> read_fq2(std::span<const std::uint8_t> b, const char* group, const char* coord) {
  constexpr std::size_t n = Fq::kBytes;
  auto c1 = read_fq<Fq>(b.subspan(0, n), group, coord);
  if (!c1) return c1.status();
  auto c0 = read_fq<Fq>(b.subspan(n, n), group, coord);
  if (!c0) return c0.status();
  return field::Fp2<Fq>{*c0, *c1};
}

template <class Fq>
void write_fq(std::span<std::uint8_t> out, const Fq& x) {
  x.to_bytes(out.subspan(0, Fq::kBytes), field::Endian::kBig);
}

template <class Fq>
void write_fq2(std::span<std::uint8_t> out, const field::Fp2<Fq>& x) {
  write_fq(out.subspan(0, Fq::kBytes), x.c1);
  write_fq(out.subspan(Fq::kBytes, Fq::kBytes), x.c0);
}

bool is_in_subgroup_any(const bls12_381::G1Affine& p) { return bls12_381::is_in_subgroup(p.to_jacobian()); }
bool is_in_subgroup_any(const bls12_381::G2Affine& p) { return bls12_381::is_in_subgroup(p.to_jacobian()); }
bool is_in_subgroup_any(const bn254::G1Affine& p) { return bn254::is_in_subgroup(p.to_jacobian()); }
bool is_in_subgroup_any(const bn254::G2Affine& p) { return bn254::is_in_subgroup(p.to_jacobian()); }

/// The checks shared by every decoder: on the curve always (a few multiplications: a corrupted
/// coordinate must never become a point), in the prime-order subgroup when checked.
template <class Affine>
Result<Affine> validate(const Affine& p, Check check, const char* group) {
  if (p.infinity) return p;
  if (!p.is_on_curve()) return Status::invalid_argument(std::string(group) + ": point is not on the curve");
  if (check == Check::kUnchecked) return p;
  if (!is_in_subgroup_any(p)) {
    return Status::invalid_argument(std::string(group) + ": point is not in the prime-order subgroup");
  }
  return p;
}

}  // namespace

namespace bls12_381 {

namespace {

/// Splits off and validates the flag bits of a ZCash encoding. `rest` receives the bytes with the
/// flags cleared.
template <std::size_t N>
Status read_flags(std::span<const std::uint8_t> in, bool compressed, const char* what,
                  std::array<std::uint8_t, N>& rest, bool& infinity, bool& sort) {
  if (in.size() != N) return length_error(what, N, in.size());
  std::copy(in.begin(), in.end(), rest.begin());
  const std::uint8_t flags = rest[0] & kFlagMask;
  rest[0] &= static_cast<std::uint8_t>(~kFlagMask);
  if (((flags & kFlagCompressed) != 0) != compressed) {
    return Status::invalid_argument(std::string(what) + ": compression flag (0x80) is " +
                                    (compressed ? "clear in a compressed" : "set in an uncompressed") + " encoding");
  }
  infinity = (flags & kFlagInfinity) != 0;
  sort = (flags & kFlagSort) != 0;
  if (infinity) {
    if (sort) return Status::invalid_argument(std::string(what) + ": infinity with the sign flag (0x20) set");
    if (!all_zero(rest))
      return Status::invalid_argument(std::string(what) + ": infinity flag set but coordinates are not zero");
  } else if (sort && !compressed) {
    return Status::invalid_argument(std::string(what) + ": sign flag (0x20) set in an uncompressed encoding");
  }
  return {};
}

}  // namespace

std::array<std::uint8_t, 48> to_compressed(const G1Affine& p) {
  std::array<std::uint8_t, 48> out{};
  if (p.infinity) {
    out[0] = kFlagCompressed | kFlagInfinity;
    return out;
  }
  write_fq(std::span(out), p.x);
  out[0] |= kFlagCompressed;
  if (p.y.is_lexicographically_largest()) out[0] |= kFlagSort;
  return out;
}

std::array<std::uint8_t, 96> to_uncompressed(const G1Affine& p) {
  std::array<std::uint8_t, 96> out{};
  if (p.infinity) {
    out[0] = kFlagInfinity;
    return out;
  }
  write_fq(std::span(out).subspan(0, 48), p.x);
  write_fq(std::span(out).subspan(48, 48), p.y);
  return out;
}

std::array<std::uint8_t, 96> to_compressed(const G2Affine& p) {
  std::array<std::uint8_t, 96> out{};
  if (p.infinity) {
    out[0] = kFlagCompressed | kFlagInfinity;
    return out;
  }
  write_fq2(std::span(out), p.x);
  out[0] |= kFlagCompressed;
  if (p.y.is_lexicographically_largest()) out[0] |= kFlagSort;
  return out;
}

std::array<std::uint8_t, 192> to_uncompressed(const G2Affine& p) {
  std::array<std::uint8_t, 192> out{};
  if (p.infinity) {
    out[0] = kFlagInfinity;
    return out;
  }
  write_fq2(std::span(out).subspan(0, 96), p.x);
  write_fq2(std::span(out).subspan(96, 96), p.y);
  return out;
}

Result<G1Affine> g1_from_compressed(std::span<const std::uint8_t> bytes, Check check) {
  constexpr const char* kWhat = "BLS12-381 G1 (compressed)";
  std::array<std::uint8_t, 48> rest{};
  bool infinity = false, sort = false;
  if (Status s = read_flags(bytes, true, kWhat, rest, infinity, sort); !s.ok()) return s;
  if (infinity) return G1Affine::identity();
  auto x = read_fq<Fq>(rest, kWhat, "x");
  if (!x) return x.status();
  auto y = (x->square() * *x + Bls12_381G1::kB).sqrt();
  if (!y) return Status::invalid_argument(std::string(kWhat) + ": x is not the abscissa of a curve point");
  if (y->is_lexicographically_largest() != sort) *y = -*y;
  return validate(G1Affine::from_xy(*x, *y), check, kWhat);
}

Result<G1Affine> g1_from_uncompressed(std::span<const std::uint8_t> bytes, Check check) {
  constexpr const char* kWhat = "BLS12-381 G1 (uncompressed)";
  std::array<std::uint8_t, 96> rest{};
  bool infinity = false, sort = false;
  if (Status s = read_flags(bytes, false, kWhat, rest, infinity, sort); !s.ok()) return s;
  if (infinity) return G1Affine::identity();
  auto x = read_fq<Fq>(std::span(rest).subspan(0, 48), kWhat, "x");
  if (!x) return x.status();
  auto y = read_fq<Fq>(std::span(rest).subspan(48, 48), kWhat, "y");
  if (!y) return y.status();
  return validate(G1Affine::from_xy(*x, *y), check, kWhat);
}

Result<G2Affine> g2_from_compressed(std::span<const std::uint8_t> bytes, Check check) {
  constexpr const char* kWhat = "BLS12-381 G2 (compressed)";
  std::array<std::uint8_t, 96> rest{};
  bool infinity = false, sort = false;
  if (Status s = read_flags(bytes, true, kWhat, rest, infinity, sort); !s.ok()) return s;
  if (infinity) return G2Affine::identity();
  auto x = read_fq2<Fq>(rest, kWhat, "x");
  if (!x) return x.status();
  auto y = (x->square() * *x + Bls12_381G2::kB).sqrt();
  if (!y) return Status::invalid_argument(std::string(kWhat) + ": x is not the abscissa of a curve point");
  if (y->is_lexicographically_largest() != sort) *y = -*y;
  return validate(G2Affine::from_xy(*x, *y), check, kWhat);
}

Result<G2Affine> g2_from_uncompressed(std::span<const std::uint8_t> bytes, Check check) {
  constexpr const char* kWhat = "BLS12-381 G2 (uncompressed)";
  std::array<std::uint8_t, 192> rest{};
  bool infinity = false, sort = false;
  if (Status s = read_flags(bytes, false, kWhat, rest, infinity, sort); !s.ok()) return s;
  if (infinity) return G2Affine::identity();
  auto x = read_fq2<Fq>(std::span(rest).subspan(0, 96), kWhat, "x");
  if (!x) return x.status();
  auto y = read_fq2<Fq>(std::span(rest).subspan(96, 96), kWhat, "y");
  if (!y) return y.status();
  return validate(G2Affine::from_xy(*x, *y), check, kWhat);
}

}  // namespace bls12_381

namespace bn254 {

std::array<std::uint8_t, 64> to_bytes(const G1Affine& p) {
  std::array<std::uint8_t, 64> out{};
  if (p.infinity) return out;
  write_fq(std::span(out).subspan(0, 32), p.x);
  write_fq(std::span(out).subspan(32, 32), p.y);
  return out;
}

std::array<std::uint8_t, 128> to_bytes(const G2Affine& p) {
  std::array<std::uint8_t, 128> out{};
  if (p.infinity) return out;
  write_fq2(std::span(out).subspan(0, 64), p.x);
  write_fq2(std::span(out).subspan(64, 64), p.y);
  return out;
}

Result<G1Affine> g1_from_bytes(std::span<const std::uint8_t> bytes, Check check) {
  constexpr const char* kWhat = "BN254 G1";
  if (bytes.size() != kG1Bytes) return length_error(kWhat, kG1Bytes, bytes.size());
  if (all_zero(bytes)) return G1Affine::identity();
  auto x = read_fq<Fq>(bytes.subspan(0, 32), kWhat, "x");
  if (!x) return x.status();
  auto y = read_fq<Fq>(bytes.subspan(32, 32), kWhat, "y");
  if (!y) return y.status();
  return validate(G1Affine::from_xy(*x, *y), check, kWhat);
}

Result<G2Affine> g2_from_bytes(std::span<const std::uint8_t> bytes, Check check) {
  constexpr const char* kWhat = "BN254 G2";
  if (bytes.size() != kG2Bytes) return length_error(kWhat, kG2Bytes, bytes.size());
  if (all_zero(bytes)) return G2Affine::identity();
  auto x = read_fq2<Fq>(bytes.subspan(0, 64), kWhat, "x");
  if (!x) return x.status();
  auto y = read_fq2<Fq>(bytes.subspan(64, 64), kWhat, "y");
  if (!y) return y.status();
  return validate(G2Affine::from_xy(*x, *y), check, kWhat);
}

}  // namespace bn254

}  // namespace zk::curve
