#include "snarkpack/transcript.hpp"

#include <openssl/sha.h>

#include <array>
#include <cstring>

#include "curve/serialize.hpp"

namespace zk::snarkpack {

void Transcript::absorb(std::span<const std::uint8_t> b) {
  // (resize and copy: GCC 12 reports a false overflow in vector::insert of a span here)
  const std::size_t at = data_.size();
  data_.resize(at + b.size());
  if (!b.empty()) std::memcpy(data_.data() + at, b.data(), b.size());
}

Transcript::Transcript(std::string_view tag) {
  constexpr std::string_view kDomain = "snarkpack-v1";
  absorb(std::span(reinterpret_cast<const std::uint8_t*>(kDomain.data()), kDomain.size()));
  absorb(std::span(reinterpret_cast<const std::uint8_t*>(tag.data()), tag.size()));
}

Transcript& Transcript::write(const G1Affine& p) {
  absorb(curve::bls12_381::to_compressed(p));
  return *this;
}
Transcript& Transcript::write(const G2Affine& p) {
  absorb(curve::bls12_381::to_compressed(p));
  return *this;
}
Transcript& Transcript::write(const Fr& x) {
  absorb(x.to_bytes(field::Endian::kLittle));
  return *this;
}
Transcript& Transcript::write(const Fq12& g) {
  absorb(gt_to_bytes(g));
  return *this;
}
Transcript& Transcript::write_bytes(std::span<const std::uint8_t> b) {
  std::array<std::uint8_t, 8> len{};
  for (std::size_t i = 0; i < 8; ++i) len[i] = static_cast<std::uint8_t>(std::uint64_t{b.size()} >> (8 * i));
  absorb(len);
  absorb(b);
  return *this;
}

Fr Transcript::challenge() {
  for (std::uint64_t ctr = 1;; ++ctr) {
    std::array<std::uint8_t, 8> c{};
    for (std::size_t i = 0; i < 8; ++i) c[i] = static_cast<std::uint8_t>(ctr >> (8 * (7 - i)));
    absorb(c);
    std::array<std::uint8_t, 32> d{};
    SHA256(data_.data(), data_.size(), d.data());
    d[31] &= 0x7f;
    auto x = Fr::from_bytes(d, field::Endian::kLittle);
    if (x.ok() && !x->is_zero() && !x->is_one()) return *x;
  }
}

}  // namespace zk::snarkpack
