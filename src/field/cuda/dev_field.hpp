#pragma once

// Prime-field arithmetic for CUDA kernels (and, compiled as plain C++, for the host-side tests of
// the device code), from the same generated params as the CPU fields (field/params/*.hpp). An
// element is N little-endian 64-bit limbs in Montgomery form: byte for byte a MontField<P>, so
// arrays of field elements, affine points and scalars are copied to the device unchanged.
// Products: CIOS Montgomery multiplication with 128-bit intermediates and the no-carry shortcut
// (every zkpipe modulus has its top limb below 2^63 - 1). Results are fully reduced (< p), so they
// equal the CPU's bit for bit.

#include <array>
#include <cstddef>
#include <cstdint>

#include "gpu/hd.hpp"

namespace zk::gpu {

template <std::size_t N>
struct LimbArray {
  std::uint64_t v[N];
};
template <std::size_t N>
constexpr LimbArray<N> limb_array(const std::array<std::uint64_t, N>& a) {
  LimbArray<N> r{};
  for (std::size_t i = 0; i < N; ++i) r.v[i] = a[i];
  return r;
}

template <class P>
struct DevField {
  static constexpr std::size_t N = P::kLimbs;
  using u64 = std::uint64_t;
  __extension__ typedef unsigned __int128 u128;  // nvcc and g++ both have it
  u64 v[N];

  ZK_HD static DevField zero() {
    DevField r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = 0;
    return r;
  }
  ZK_HD static DevField one() {
    constexpr LimbArray<N> r1 = limb_array(P::kR);
    DevField r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = r1.v[i];
    return r;
  }
  /// The element whose Montgomery limbs are `raw` (no conversion).
  ZK_HD static DevField from_raw(const u64* raw) {
    DevField r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = raw[i];
    return r;
  }
  ZK_HD bool is_zero() const {
    u64 acc = 0;
    for (std::size_t i = 0; i < N; ++i) acc |= v[i];
    return acc == 0;
  }
  ZK_HD bool operator==(const DevField& o) const {
    u64 acc = 0;
    for (std::size_t i = 0; i < N; ++i) acc |= v[i] ^ o.v[i];
    return acc == 0;
  }

  ZK_HD friend DevField operator+(const DevField& a, const DevField& b) {
    DevField s;
    u64 carry = 0;
ZK_UNROLL
    for (std::size_t i = 0; i < N; ++i) {
      const u128 t = static_cast<u128>(a.v[i]) + b.v[i] + carry;
      s.v[i] = static_cast<u64>(t);
      carry = static_cast<u64>(t >> 64);
    }
    return reduce_once(s, carry);
  }
  ZK_HD friend DevField operator-(const DevField& a, const DevField& b) {
    constexpr LimbArray<N> p = limb_array(P::kModulus);
    DevField d;
    u64 borrow = 0;
ZK_UNROLL
    for (std::size_t i = 0; i < N; ++i) {
      const u128 t = static_cast<u128>(a.v[i]) - b.v[i] - borrow;
      d.v[i] = static_cast<u64>(t);
      borrow = static_cast<u64>(t >> 64) & 1;
    }
    // Add p back when the subtraction borrowed (mask instead of a branch).
    const u64 mask = 0 - borrow;
    u64 carry = 0;
ZK_UNROLL
    for (std::size_t i = 0; i < N; ++i) {
      const u128 t = static_cast<u128>(d.v[i]) + (p.v[i] & mask) + carry;
      d.v[i] = static_cast<u64>(t);
      carry = static_cast<u64>(t >> 64);
    }
    return d;
  }
  ZK_HD DevField operator-() const { return zero() - *this; }
  ZK_HD DevField dbl() const { return *this + *this; }

  /// CIOS Montgomery product a b R^-1 mod p.
  ZK_HD friend DevField operator*(const DevField& a, const DevField& b) {
    constexpr LimbArray<N> p = limb_array(P::kModulus);
    constexpr u64 inv = P::kInv;
    u64 t[N];
ZK_UNROLL
    for (std::size_t j = 0; j < N; ++j) t[j] = 0;
ZK_UNROLL
    for (std::size_t i = 0; i < N; ++i) {
      u64 c = 0;
ZK_UNROLL
      for (std::size_t j = 0; j < N; ++j) {
        const u128 x = static_cast<u128>(a.v[j]) * b.v[i] + t[j] + c;
        t[j] = static_cast<u64>(x);
        c = static_cast<u64>(x >> 64);
      }
      const u64 top = c;
      const u64 m = t[0] * inv;
      u128 x = static_cast<u128>(m) * p.v[0] + t[0];
      c = static_cast<u64>(x >> 64);
ZK_UNROLL
      for (std::size_t j = 1; j < N; ++j) {
        x = static_cast<u128>(m) * p.v[j] + t[j] + c;
        t[j - 1] = static_cast<u64>(x);
        c = static_cast<u64>(x >> 64);
      }
      t[N - 1] = top + c;
    }
    DevField r;
ZK_UNROLL
    for (std::size_t j = 0; j < N; ++j) r.v[j] = t[j];
    return reduce_once(r, 0);
  }
  ZK_HD DevField square() const { return *this * *this; }

  /// The canonical value's limbs (out of Montgomery form: a product with the raw integer 1).
  ZK_HD DevField to_canonical() const {
    DevField one_raw = zero();
    one_raw.v[0] = 1;
    return *this * one_raw;
  }

  ZK_HD DevField pow(u64 e) const {
    DevField acc = one(), base = *this;
    while (e != 0) {
      if (e & 1) acc = acc * base;
      base = base.square();
      e >>= 1;
    }
    return acc;
  }

 private:
  /// s (with an extra top bit `carry`) minus p if s >= p.
  ZK_HD static DevField reduce_once(const DevField& s, u64 carry) {
    constexpr LimbArray<N> p = limb_array(P::kModulus);
    DevField d;
    u64 borrow = 0;
ZK_UNROLL
    for (std::size_t i = 0; i < N; ++i) {
      const u128 t = static_cast<u128>(s.v[i]) - p.v[i] - borrow;
      d.v[i] = static_cast<u64>(t);
      borrow = static_cast<u64>(t >> 64) & 1;
    }
    // Keep s when it was below p (borrow out and no carry in).
    const bool keep = borrow > carry;
    DevField r;
ZK_UNROLL
    for (std::size_t i = 0; i < N; ++i) r.v[i] = keep ? s.v[i] : d.v[i];
    return r;
  }
};

}  // namespace zk::gpu
