#pragma once

// Bits and 32-bit words inside a circuit, exactly as bellpepper's Boolean and bellperson's UInt32
// and MultiEq build them (docs/filecoin-gadgets.md has the layout and the sources read).
//
// A Bit is a constant, a boolean variable `var` (Is), or its negation (Not): 16 bytes; `lc()` is the
// linear combination it evaluates to (var, or ONE - var), made where a constraint needs it. The base
// is one allocated variable in every Filecoin gadget (bellpepper also allows a boolean linear
// combination; no Filecoin circuit uses one). Operations dispatch on constants and on Is / Not exactly as bellpepper does, since that
// decides which constraint (and, and_not, nor, xor with which operand first) is emitted.
//   alloc: (ONE - a) * a = 0          xor: (2a) * b = a + b - c        and: a * b = c
//   and_not: a * (ONE - b) = c        nor: (ONE - a) * (ONE - b) = c
//   ch: (b - c) * a = ch - c          maj: (2 bc - b - c) * a = bc - maj (after bc = b and c)
// A Word is 32 Bits, least significant first; rotations and shifts only rearrange bits. add_many
// allocates the sum's bits and hands the equality to a MultiEq, which packs several equalities
// into one constraint `lhs * ONE = rhs` (as many as fit in the field's 254-bit capacity).

#include <array>
#include <initializer_list>
#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace zk::gadgets {

template <class F>
struct Bit {
  using LC = r1cs::LinearCombination<F>;
  r1cs::Variable var{};          // the boolean it is, or negates (unused for constants)
  bool negated = false;          // Not(var)
  bool value = false;
  std::optional<bool> constant;  // set for constant bits

  static Bit of_constant(bool b) {
    Bit x;
    x.value = b;
    x.constant = b;
    return x;
  }
  /// Is(v) for a variable already known to be boolean.
  static Bit of_var(r1cs::Variable v, bool value) {
    Bit x;
    x.var = v;
    x.value = value;
    return x;
  }
  /// A new boolean variable: (ONE - b) * b = 0 (bellpepper's AllocatedBit::alloc).
  template <class CS>
  static Bit alloc(CS& cs, bool v) {
    const auto var = cs.alloc([] { return std::string("boolean"); }, [&] { return v ? F::one() : F::zero(); });
    cs.enforce([] { return std::string("boolean constraint"); }, LC(r1cs::Variable::one()) - var, LC(var), LC::zero());
    return of_var(var, v);
  }
  /// out += k * (what the bit evaluates to): ONE or nothing for a constant, var, or ONE - var (in
  /// that term order).
  void add_to(LC& out, const F& k) const {
    if (constant) {
      if (*constant) out.add(k, r1cs::Variable::one());
    } else if (negated) {
      out.add(k, r1cs::Variable::one());
      out.add(-k, var);
    } else {
      out.add(k, var);
    }
  }
  /// What the bit evaluates to.
  LC lc() const {
    LC out;
    add_to(out, F::one());
    return out;
  }
  /// The boolean it is or negates, as a combination (empty for constants).
  LC base() const { return constant ? LC() : LC(var); }
  Bit operator!() const {
    if (constant) return of_constant(!*constant);
    Bit x = *this;
    x.negated = !negated;
    x.value = !value;
    return x;
  }
  bool is_constant() const { return constant.has_value(); }
};

namespace detail {
template <class F>
r1cs::LinearCombination<F> one_lc() {
  return r1cs::LinearCombination<F>(r1cs::Variable::one());
}
/// A fresh variable holding v, as an Is bit (its constraint is the caller's).
template <class F, class CS>
Bit<F> fresh(CS& cs, const char* what, bool v) {
  const auto var = cs.alloc([what] { return std::string(what); }, [&] { return v ? F::one() : F::zero(); });
  return Bit<F>::of_var(var, v);
}
}  // namespace detail

/// Boolean::xor: free with a constant; (Is x, Not y) in either order: xor(x, y) with the Is
/// operand first, returned negated; otherwise xor of the bases in the given order.
template <class F, class CS>
Bit<F> bit_xor(CS& cs, const Bit<F>& a, const Bit<F>& b) {
  if (a.constant) return *a.constant ? !b : b;
  if (b.constant) return *b.constant ? !a : a;
  const bool mixed = a.negated != b.negated;
  const Bit<F>& x = (mixed && a.negated) ? b : a;  // the Is operand first
  const Bit<F>& y = (mixed && a.negated) ? a : b;
  const bool base_xor = (x.negated ? !x.value : x.value) != (y.negated ? !y.value : y.value);
  Bit<F> c = detail::fresh<F>(cs, "xor result", base_xor);
  static constexpr F kTwo = F::one().dbl();
  cs.enforce([] { return std::string("xor constraint"); }, x.base() * kTwo, y.base(),
             [&] { return x.base() + y.base() - c.base(); });
  return mixed ? !c : c;
}

/// Boolean::and: free with a constant; and_not for (Is, Not) in either order (the Is operand
/// first), nor for (Not, Not), and for (Is, Is).
template <class F, class CS>
Bit<F> bit_and(CS& cs, const Bit<F>& a, const Bit<F>& b) {
  if ((a.constant && !*a.constant) || (b.constant && !*b.constant)) return Bit<F>::of_constant(false);
  if (a.constant) return b;
  if (b.constant) return a;
  const bool v = a.value && b.value;
  Bit<F> c = detail::fresh<F>(cs, "and result", v);
  const auto one = detail::one_lc<F>();
  if (a.negated != b.negated) {
    const Bit<F>& x = a.negated ? b : a;
    const Bit<F>& y = a.negated ? a : b;
    cs.enforce([] { return std::string("and not constraint"); }, x.base(), one - y.base(), [&] { return c.base(); });
  } else if (a.negated) {
    cs.enforce([] { return std::string("nor constraint"); }, one - a.base(), one - b.base(), [&] { return c.base(); });
  } else {
    cs.enforce([] { return std::string("and constraint"); }, a.base(), b.base(), [&] { return c.base(); });
  }
  return c;
}

/// SHA-256 Ch(a, b, c) = (a and b) xor (not a and c), with bellpepper's constant cases in its order.
template <class F, class CS>
Bit<F> bit_ch(CS& cs, const Bit<F>& a, const Bit<F>& b, const Bit<F>& c) {
  const bool v = a.value ? b.value : c.value;
  if (a.constant && b.constant && c.constant) return Bit<F>::of_constant(v);
  if (a.constant && !*a.constant) return c;
  if (b.constant && !*b.constant) return bit_and(cs, !a, c);
  if (c.constant && !*c.constant) return bit_and(cs, a, b);
  if (c.constant && *c.constant) return !bit_and(cs, a, !b);
  if (b.constant && *b.constant) return !bit_and(cs, !a, !c);
  // General case (a may be constant true).
  Bit<F> ch = detail::fresh<F>(cs, "ch", v);
  cs.enforce([] { return std::string("ch computation"); }, b.lc() - c.lc(), a.lc(), [&] { return ch.base() - c.lc(); });
  return ch;
}

/// SHA-256 Maj(a, b, c), with bellpepper's constant cases in its order; in general maj is
/// allocated before b and c.
template <class F, class CS>
Bit<F> bit_maj(CS& cs, const Bit<F>& a, const Bit<F>& b, const Bit<F>& c) {
  const bool v = (a.value && b.value) || (a.value && c.value) || (b.value && c.value);
  if (a.constant && b.constant && c.constant) return Bit<F>::of_constant(v);
  if (a.constant && !*a.constant) return bit_and(cs, b, c);
  if (b.constant && !*b.constant) return bit_and(cs, a, c);
  if (c.constant && !*c.constant) return bit_and(cs, a, b);
  if (c.constant && *c.constant) return !bit_and(cs, !a, !b);
  if (b.constant && *b.constant) return !bit_and(cs, !a, !c);
  if (a.constant && *a.constant) return !bit_and(cs, !b, !c);
  Bit<F> maj = detail::fresh<F>(cs, "maj", v);
  const Bit<F> bc = bit_and(cs, b, c);
  static constexpr F kTwo = F::one().dbl();
  cs.enforce([] { return std::string("maj computation"); }, bc.lc() * kTwo - b.lc() - c.lc(), a.lc(),
             [&] { return bc.lc() - maj.base(); });
  return maj;
}

/// bellperson's MultiEq: equalities of `bits`-bit sums accumulated as lhs + 2^used lhs_i and
/// rhs + 2^used rhs_i, emitted as one constraint lhs * ONE = rhs when the next would pass the
/// field's 254-bit capacity, and at finish() (bellperson: when the MultiEq is dropped).
template <class F, class CS>
class MultiEq {
 public:
  static constexpr unsigned kCapacity = 254;  // BLS12-381 Fr: 255 bits, 254 of capacity
  explicit MultiEq(CS& cs) : cs_(cs) {}
  MultiEq(const MultiEq&) = delete;
  MultiEq& operator=(const MultiEq&) = delete;
  CS& cs() { return cs_; }

  void enforce_equal(unsigned bits, const r1cs::LinearCombination<F>& lhs, const r1cs::LinearCombination<F>& rhs) {
    const F k = scale_for(bits);
    r1cs::LinearCombination<F> l, r;
    l.add_scaled(lhs, k);
    if constexpr (r1cs::reads_c<CS>()) r.add_scaled(rhs, k);
    enforce_equal_scaled(bits, std::move(l), std::move(r));
  }
  /// The factor enforce_equal(bits, ...) will apply: 2^used, or 1 when the pending sums are emitted
  /// first. Lets add_many build its sums already scaled, by doubling, with no multiplication.
  F scale_for(unsigned bits) const { return kCapacity <= used_ + bits ? F::one() : pow2(used_); }
  /// enforce_equal for sums already multiplied by scale_for(bits).
  void enforce_equal_scaled(unsigned bits, r1cs::LinearCombination<F>&& lhs, r1cs::LinearCombination<F>&& rhs) {
    if (kCapacity <= used_ + bits) accumulate();
    if (lhs_.empty()) {
      lhs_ = std::move(lhs);
      lhs_.reserve_terms(lhs_.size() * (kCapacity / std::max(bits, 1u) + 1));  // the sums that will join it
    } else {
      lhs_ += lhs;
    }
    if constexpr (r1cs::reads_c<CS>()) {  // rhs is the C side: not kept for a system that never reads it
      if (rhs_.empty()) {
        rhs_ = std::move(rhs);
        rhs_.reserve_terms(rhs_.size() * (kCapacity / std::max(bits, 1u) + 1));
      } else {
        rhs_ += rhs;
      }
    }
    used_ += bits;
  }
  /// Emits what is pending (call once, where bellperson drops the MultiEq).
  void finish() {
    if (used_ > 0) accumulate();
  }

 private:
  /// 2^i for i < kCapacity, computed once (immutable).
  static const F& pow2(unsigned i) {
    static const std::array<F, kCapacity> table = [] {
      std::array<F, kCapacity> t{};
      t[0] = F::one();
      for (unsigned j = 1; j < kCapacity; ++j) t[j] = t[j - 1].dbl();
      return t;
    }();
    return table[i];
  }
  void accumulate() {
    const std::size_t n = ops_;
    cs_.enforce([n] { return "multieq " + std::to_string(n); }, lhs_, detail::one_lc<F>(), rhs_);
    lhs_ = {};
    rhs_ = {};
    used_ = 0;
    ++ops_;
  }
  CS& cs_;
  r1cs::LinearCombination<F> lhs_, rhs_;
  unsigned used_ = 0;
  std::size_t ops_ = 0;
};

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
  const Bit<F>& operator[](unsigned i) const { return bits[i]; }
  struct View;
  /// This word rotated right by n, or shifted right by n (zeros in from the top): views that read
  /// its bits where they are (a Word is 32 Bits of two linear combinations each; a copy is ~9 KB).
  View rotr(unsigned n) const { return {this, n % 32, 32}; }
  View shr(unsigned n) const { return {this, n, 32 - n}; }
};

template <class F>
struct Word<F>::View {
  const Word* word;
  unsigned offset;  // bit i is word->bits[(i + offset) % 32] ...
  unsigned width;   // ... for i < width, constant false above
  const Bit<F>& operator[](unsigned i) const {
    static const Bit<F> kFalse = Bit<F>::of_constant(false);
    return i < width ? word->bits[(i + offset) % 32] : kFalse;
  }
};

/// a xor b, bit by bit, for Words and their views.
template <class F, class CS, class A, class B>
Word<F> word_xor(CS& cs, const A& a, const B& b) {
  Word<F> w;
  for (unsigned i = 0; i < 32; ++i) w.bits[i] = bit_xor(cs, a[i], b[i]);
  return w;
}

template <class F, class CS>
Word<F> word_and(CS& cs, const Word<F>& a, const Word<F>& b) {
  Word<F> w;
  for (int i = 0; i < 32; ++i) w.bits[i] = bit_and(cs, a.bits[i], b.bits[i]);
  return w;
}

/// The sum of 2..10 operands mod 2^32 (bellperson's UInt32::addmany): free when every bit of every
/// operand is constant; otherwise k = bitlength(n (2^32 - 1)) result bits are allocated (each with
/// its booleanity constraint), then sum = result goes to the MultiEq. The carry bits stay
/// allocated, unused. The operands are read where they are.
template <class F, class CS>
Word<F> add_many(MultiEq<F, CS>& eq, std::span<const Word<F>* const> operands) {
  CS& cs = eq.cs();
  std::uint64_t value = 0;
  bool all_constant = true;
  for (const Word<F>* w : operands) {
    for (int i = 0; i < 32; ++i) all_constant = all_constant && w->bits[i].is_constant();
    value += w->value();
  }
  if (all_constant) return Word<F>::constant(static_cast<std::uint32_t>(value));
  const std::uint64_t max = operands.size() * std::uint64_t{0xffffffff};
  unsigned k = 0;
  while ((max >> k) != 0) ++k;
  // Both sides built already scaled for the MultiEq (coefficients 2^(used + i), by doubling).
  const F scale = eq.scale_for(k);
  r1cs::LinearCombination<F> sum;
  sum.reserve_terms(operands.size() * 64);  // a negated bit is two terms
  for (const Word<F>* w : operands) {
    F coeff = scale;
    for (int i = 0; i < 32; ++i) {
      w->bits[i].add_to(sum, coeff);
      coeff = coeff.dbl();
    }
  }
  r1cs::LinearCombination<F> result;  // the C side: built only for a system that reads it
  if constexpr (r1cs::reads_c<CS>()) result.reserve_terms(k);
  Word<F> out;
  F coeff = scale;
  for (unsigned i = 0; i < k; ++i) {
    const Bit<F> b = Bit<F>::alloc(cs, ((value >> i) & 1) != 0);
    if constexpr (r1cs::reads_c<CS>()) {
      b.add_to(result, coeff);
      coeff = coeff.dbl();
    }
    if (i < 32) out.bits[i] = b;
  }
  eq.enforce_equal_scaled(k, std::move(sum), std::move(result));
  return out;
}

template <class F, class CS>
Word<F> add_many(MultiEq<F, CS>& eq, std::initializer_list<const Word<F>*> operands) {
  return add_many(eq, std::span<const Word<F>* const>(operands.begin(), operands.size()));
}

}  // namespace zk::gadgets
