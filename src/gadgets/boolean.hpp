#pragma once

// Bits and 32-bit words inside a circuit (bellman's Boolean and UInt32).
//
// A Bit is a linear combination that evaluates to 0 or 1 (a constant, an allocated bit, or the
// negation of one) with its value; operations on constants cost nothing. A Word is 32 Bits, least
// significant first; rotations and shifts only rearrange bits.
//   xor: 1 constraint   and: 1   ch (SHA-256 choose): 1   maj: 2   add_many: 1 + the result bits

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace zk::gadgets {

template <class F>
struct Bit {
  r1cs::LinearCombination<F> lc;
  bool value = false;
  std::optional<bool> constant;  // set for constant bits

  static Bit of_constant(bool b) {
    Bit x;
    if (b) x.lc.add(F::one(), r1cs::Variable::one());
    x.value = b;
    x.constant = b;
    return x;
  }
  /// A new boolean variable: b (1 - b) = 0.
  template <class CS>
  static Bit alloc(CS& cs, bool v) {
    const auto var = cs.alloc([] { return std::string("bit"); }, [&] { return v ? F::one() : F::zero(); });
    cs.enforce([] { return std::string("booleanity"); }, r1cs::LinearCombination<F>(var),
               r1cs::LinearCombination<F>(r1cs::Variable::one()) - var, r1cs::LinearCombination<F>::zero());
    return {r1cs::LinearCombination<F>(var), v, std::nullopt};
  }
  Bit operator!() const {
    Bit x;
    x.lc = r1cs::LinearCombination<F>(r1cs::Variable::one()) - lc;
    x.value = !value;
    if (constant) x.constant = !*constant;
    return x;
  }
};

/// A variable holding `value`, constrained to equal `lc`-expression through the caller's constraint.
template <class F, class CS>
r1cs::Variable alloc_value(CS& cs, bool v) {
  return cs.alloc([] { return std::string("bit"); }, [&] { return v ? F::one() : F::zero(); });
}

/// a xor b. (2a) * b = a + b - c.
template <class F, class CS>
Bit<F> bit_xor(CS& cs, const Bit<F>& a, const Bit<F>& b) {
  if (a.constant) return *a.constant ? !b : b;
  if (b.constant) return *b.constant ? !a : a;
  const bool v = a.value != b.value;
  const auto c = alloc_value<F>(cs, v);
  cs.enforce([] { return std::string("xor"); }, a.lc * F::from_u64(2), b.lc, a.lc + b.lc - c);
  return {r1cs::LinearCombination<F>(c), v, std::nullopt};
}

/// a and b. a * b = c.
template <class F, class CS>
Bit<F> bit_and(CS& cs, const Bit<F>& a, const Bit<F>& b) {
  if (a.constant) return *a.constant ? b : Bit<F>::of_constant(false);
  if (b.constant) return *b.constant ? a : Bit<F>::of_constant(false);
  const bool v = a.value && b.value;
  const auto c = alloc_value<F>(cs, v);
  cs.enforce([] { return std::string("and"); }, a.lc, b.lc, r1cs::LinearCombination<F>(c));
  return {r1cs::LinearCombination<F>(c), v, std::nullopt};
}

/// SHA-256 Ch: a ? b : c, one constraint: a * (b - c) = ch - c.
template <class F, class CS>
Bit<F> bit_ch(CS& cs, const Bit<F>& a, const Bit<F>& b, const Bit<F>& c) {
  if (a.constant) return *a.constant ? b : c;
  const bool v = a.value ? b.value : c.value;
  const auto ch = alloc_value<F>(cs, v);
  cs.enforce([] { return std::string("ch"); }, a.lc, b.lc - c.lc, r1cs::LinearCombination<F>(ch) - c.lc);
  return {r1cs::LinearCombination<F>(ch), v, std::nullopt};
}

/// SHA-256 Maj: maj(a, b, c) = (b xor c) ? a : b; two constraints (the xor, then a choose).
template <class F, class CS>
Bit<F> bit_maj(CS& cs, const Bit<F>& a, const Bit<F>& b, const Bit<F>& c) {
  return bit_ch(cs, bit_xor(cs, b, c), a, b);
}

template <class F>
struct Word {
  std::array<Bit<F>, 32> bits;  // least significant first

  static Word constant(std::uint32_t v) {
    Word w;
    for (int i = 0; i < 32; ++i) w.bits[i] = Bit<F>::of_constant(((v >> i) & 1) != 0);
    return w;
  }
  template <class CS>
  static Word alloc(CS& cs, std::uint32_t v) {
    Word w;
    for (int i = 0; i < 32; ++i) w.bits[i] = Bit<F>::alloc(cs, ((v >> i) & 1) != 0);
    return w;
  }
  std::uint32_t value() const {
    std::uint32_t v = 0;
    for (int i = 0; i < 32; ++i) v |= static_cast<std::uint32_t>(bits[i].value) << i;
    return v;
  }
  Word rotr(unsigned n) const {
    Word w;
    for (unsigned i = 0; i < 32; ++i) w.bits[i] = bits[(i + n) % 32];
    return w;
  }
  Word shr(unsigned n) const {
    Word w;
    for (unsigned i = 0; i < 32; ++i) w.bits[i] = i + n < 32 ? bits[i + n] : Bit<F>::of_constant(false);
    return w;
  }
};

template <class F, class CS>
Word<F> word_xor(CS& cs, const Word<F>& a, const Word<F>& b) {
  Word<F> w;
  for (int i = 0; i < 32; ++i) w.bits[i] = bit_xor(cs, a.bits[i], b.bits[i]);
  return w;
}

template <class F, class CS>
Word<F> word_and(CS& cs, const Word<F>& a, const Word<F>& b) {
  Word<F> w;
  for (int i = 0; i < 32; ++i) w.bits[i] = bit_and(cs, a.bits[i], b.bits[i]);
  return w;
}

/// sum of the operands mod 2^32: one constraint tying the sum to freshly allocated result bits
/// (32 plus enough carry bits for the largest possible sum), each constrained boolean; constant
/// operands cost nothing.
template <class F, class CS>
Word<F> add_many(CS& cs, std::span<const Word<F>> operands) {
  r1cs::LinearCombination<F> sum;
  std::uint64_t max = 0, value = 0;
  for (const auto& w : operands) {
    F coeff = F::one();
    bool all_constant = true;
    for (int i = 0; i < 32; ++i) {
      sum += w.bits[i].lc * coeff;
      coeff = coeff.dbl();
      all_constant = all_constant && w.bits[i].constant.has_value();
    }
    value += w.value();
    max += all_constant ? w.value() : 0xffffffffull;
  }
  bool all_constant = true;
  for (const auto& w : operands) {
    for (const auto& b : w.bits) all_constant = all_constant && b.constant.has_value();
  }
  if (all_constant) return Word<F>::constant(static_cast<std::uint32_t>(value));  // free
  unsigned bits = 0;
  while (bits < 64 && (max >> bits) != 0) ++bits;
  bits = std::max(bits, 32u);
  r1cs::LinearCombination<F> result;
  Word<F> out;
  F coeff = F::one();
  for (unsigned i = 0; i < bits; ++i) {
    const Bit<F> b = Bit<F>::alloc(cs, ((value >> i) & 1) != 0);
    result += b.lc * coeff;
    coeff = coeff.dbl();
    if (i < 32) out.bits[i] = b;
  }
  cs.enforce([] { return std::string("add_many"); }, sum, r1cs::LinearCombination<F>(r1cs::Variable::one()), result);
  return out;
}

}  // namespace zk::gadgets
