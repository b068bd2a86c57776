#pragma once

// Fixed-width unsigned integers as little-endian arrays of 64-bit limbs: the carry-propagating
// helpers the Montgomery field and the scalar code share. All constexpr.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

// Inlining hints for the extension-field hot paths. GCC left the Fq2 product calling its three (large,
// asm-heavy) base multiplications out of line; forcing them inline halved its cost (155 -> 82 ns).
// (Flattening whole Fq6/Fq12 products was tried and measured slower: register pressure.)
#define ZK_INLINE [[gnu::always_inline]] inline

namespace zk::field {

template <std::size_t N>
using Limbs = std::array<std::uint64_t, N>;

__extension__ typedef unsigned __int128 u128;  // __extension__: silences -Wpedantic

/// r = a + b + carry_in; returns the carry out. The x86-64 intrinsic compiles to one ADC in a chain;
/// the 128-bit form serves constant evaluation and other targets.
constexpr std::uint64_t add_carry(std::uint64_t a, std::uint64_t b, std::uint64_t carry, std::uint64_t& r) {
#if defined(__x86_64__)
  if (!std::is_constant_evaluated()) {
    unsigned long long out;  // written by the intrinsic (an initialiser here costs a dead store per limb)
    const unsigned char c = __builtin_ia32_addcarryx_u64(static_cast<unsigned char>(carry), a, b, &out);
    r = out;
    return c;
  }
#endif
  const u128 s = static_cast<u128>(a) + b + carry;
  r = static_cast<std::uint64_t>(s);
  return static_cast<std::uint64_t>(s >> 64);
}

/// r = a - b - borrow_in; returns the borrow out (0 or 1).
constexpr std::uint64_t sub_borrow(std::uint64_t a, std::uint64_t b, std::uint64_t borrow, std::uint64_t& r) {
#if defined(__x86_64__)
  if (!std::is_constant_evaluated()) {
    unsigned long long out;  // written by the intrinsic (an initialiser here costs a dead store per limb)
#if defined(__clang__)
    const unsigned char c = __builtin_ia32_subborrow_u64(static_cast<unsigned char>(borrow), a, b, &out);
#else
    const unsigned char c = __builtin_ia32_sbb_u64(static_cast<unsigned char>(borrow), a, b, &out);
#endif
    r = out;
    return c;
  }
#endif
  const u128 d = static_cast<u128>(a) - b - borrow;
  r = static_cast<std::uint64_t>(d);
  return static_cast<std::uint64_t>(d >> 64) & 1;
}

/// mask ? a : b limb by limb without a branch (mask is all ones or zero). Reductions use this because
/// whether they subtract p is data-dependent and unpredictable: a branch there costs a
/// misprediction about half the time.
template <std::size_t N>
constexpr std::array<std::uint64_t, N> select_limbs(std::uint64_t mask, const std::array<std::uint64_t, N>& a,
                                                    const std::array<std::uint64_t, N>& b) {
  std::array<std::uint64_t, N> r{};
#pragma GCC unroll 16
  for (std::size_t i = 0; i < N; ++i) r[i] = (a[i] & mask) | (b[i] & ~mask);
  return r;
}

template <std::size_t N>
constexpr std::uint64_t add_limbs(Limbs<N>& r, const Limbs<N>& a, const Limbs<N>& b) {
  std::uint64_t c = 0;
#pragma GCC unroll 16
  for (std::size_t i = 0; i < N; ++i) c = add_carry(a[i], b[i], c, r[i]);
  return c;
}

template <std::size_t N>
constexpr std::uint64_t sub_limbs(Limbs<N>& r, const Limbs<N>& a, const Limbs<N>& b) {
  std::uint64_t c = 0;
#pragma GCC unroll 16
  for (std::size_t i = 0; i < N; ++i) c = sub_borrow(a[i], b[i], c, r[i]);
  return c;
}

/// -1, 0, 1 as a <, ==, > b.
template <std::size_t N>
constexpr int cmp_limbs(const Limbs<N>& a, const Limbs<N>& b) {
  for (std::size_t i = N; i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

/// a == b without a call to memcmp (std::array's == becomes one for 4 limbs), which the hot
/// comparisons (is_one, ==) of synthesis paid for.
template <std::size_t N>
constexpr bool eq_limbs(const Limbs<N>& a, const Limbs<N>& b) {
  std::uint64_t acc = 0;
#pragma GCC unroll 16
  for (std::size_t i = 0; i < N; ++i) acc |= a[i] ^ b[i];
  return acc == 0;
}

template <std::size_t N>
constexpr bool is_zero_limbs(const Limbs<N>& a) {
  std::uint64_t acc = 0;
#pragma GCC unroll 16
  for (auto l : a) acc |= l;
  return acc == 0;
}

template <std::size_t N>
constexpr bool bit(const Limbs<N>& a, std::size_t i) {
  return ((a[i / 64] >> (i % 64)) & 1) != 0;
}

/// Index of the highest set bit plus one (0 for zero).
template <std::size_t N>
constexpr std::size_t bit_length(const Limbs<N>& a) {
  for (std::size_t i = N; i-- > 0;) {
    if (a[i] != 0) return 64 * i + 64 - static_cast<std::size_t>(__builtin_clzll(a[i]));
  }
  return 0;
}

/// a >>= 1.
template <std::size_t N>
constexpr void shr1(Limbs<N>& a) {
#pragma GCC unroll 16
  for (std::size_t i = 0; i < N; ++i) a[i] = (a[i] >> 1) | (i + 1 < N ? a[i + 1] << 63 : 0);
}

/// Parses a hex string ("0x" prefix optional) into N limbs. Returns false on a bad digit or when
/// the value needs more than N limbs.
template <std::size_t N>
constexpr bool parse_hex(std::string_view s, Limbs<N>& out) {
  out = {};
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty()) return false;
  std::size_t nibble = 0;
  for (std::size_t i = s.size(); i-- > 0; ++nibble) {
    const char c = s[i];
    std::uint64_t d = 0;
    if (c >= '0' && c <= '9') {
      d = static_cast<std::uint64_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      d = static_cast<std::uint64_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      d = static_cast<std::uint64_t>(c - 'A' + 10);
    } else {
      return false;
    }
    if (d == 0) continue;
    if (nibble >= 16 * N) return false;
    out[nibble / 16] |= d << (4 * (nibble % 16));
  }
  return true;
}

}  // namespace zk::field
