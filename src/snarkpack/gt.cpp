#include "snarkpack/gt.hpp"

namespace zk::snarkpack {
namespace {

using Fq2 = curve::bls12_381::Fq2;
using Fq6 = Fq12::Fq6;

/// The six Fq of an Fq6 in SnarkPack's order, and back.
std::array<Fq*, 6> coefficients(Fq6& b) { return {&b.c0.c0, &b.c0.c1, &b.c1.c0, &b.c1.c1, &b.c2.c0, &b.c2.c1}; }

}  // namespace

bool in_gt(const Fq12& g) {
  if (g.is_zero()) return false;
  // In the cyclotomic subgroup, of order p^4 - p^2 + 1 = r h: g^(p^4) g = g^(p^2) (Frobenius only).
  if (!(g.frobenius(4) * g == g.frobenius(2))) return false;
  // There, order r iff g^p = g^x (Scott, "A note on group membership tests for G1, G2 and GT on BLS
  // pairing-friendly curves", 2021): p - x = r (x - 1)^2 / 3, and gcd(h, (x - 1)^2 / 3) = 1 for
  // BLS12-381 (h = (p^4 - p^2 + 1) / r; computed when this was written, and the test
  // TheFastMembershipTestAgreesWithGToTheR compares with g^r = 1). One 64-bit cyclotomic
  // exponentiation instead of g^r.
  constexpr std::uint64_t kXAbs = curve::params::Bls12_381Curve::kXAbs;  // x = -kXAbs
  return g.frobenius(1) == g.cyclotomic_pow(field::Limbs<1>{kXAbs}).conjugate();
}

Result<Fq12> gt_from_compressed(std::span<const std::uint8_t> bytes) {
  if (bytes.size() != kGtCompressedBytes) {
    return Status::invalid_argument("a GT element takes " + std::to_string(kGtCompressedBytes) + " bytes, not " +
                                    std::to_string(bytes.size()));
  }
  Fq6 b;
  auto cs = coefficients(b);
  for (std::size_t i = 0; i < 6; ++i) {
    auto f = Fq::from_bytes(bytes.subspan(48 * i, 48), field::Endian::kLittle);
    if (!f.ok()) return Status::invalid_argument("GT: coefficient " + std::to_string(i) + " is not a canonical Fq");
    *cs[i] = *f;
  }
  // g = (b + w)(b - w)^-1; b - w is never 0 (its w part is -1).
  const Fq12 num{b, Fq6::one()}, den{b, -Fq6::one()};
  const Fq12 g = num * den.inverse();
  if (!in_gt(g)) return Status::invalid_argument("GT: the element is not in the prime-order subgroup");
  return g;
}

Result<std::array<std::uint8_t, kGtCompressedBytes>> gt_to_compressed(const Fq12& g) {
  if (g.c1.is_zero())
    return Status::invalid_argument("GT: an element with c1 = 0 (the identity) has no compressed form");
  Fq6 b = (g.c0 + Fq6::one()) * g.c1.inverse();
  std::array<std::uint8_t, kGtCompressedBytes> out{};
  auto cs = coefficients(b);
  for (std::size_t i = 0; i < 6; ++i) cs[i]->to_bytes(std::span(out).subspan(48 * i, 48), field::Endian::kLittle);
  return out;
}

std::array<std::uint8_t, kGtBytes> gt_to_bytes(const Fq12& g) {
  std::array<std::uint8_t, kGtBytes> out{};
  Fq12 x = g;
  const Fq* cs[12] = {&x.c0.c0.c0, &x.c0.c0.c1, &x.c0.c1.c0, &x.c0.c1.c1, &x.c0.c2.c0, &x.c0.c2.c1,
                      &x.c1.c0.c0, &x.c1.c0.c1, &x.c1.c1.c0, &x.c1.c1.c1, &x.c1.c2.c0, &x.c1.c2.c1};
  for (std::size_t i = 0; i < 12; ++i) cs[i]->to_bytes(std::span(out).subspan(48 * i, 48), field::Endian::kLittle);
  return out;
}

}  // namespace zk::snarkpack
