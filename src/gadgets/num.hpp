#pragma once

// A field element inside a circuit: a linear combination together with its value (bellman's Num).
// Systems that record only the shape never read the values, which are then meaningless.

#include <span>
#include <string>
#include <utility>

#include "r1cs/constraint_system.hpp"

namespace zk::gadgets {

template <class F>
struct Num {
  r1cs::LinearCombination<F> lc;
  F value;

  static Num constant(const F& c) {
    Num n;
    n.lc.add(c, r1cs::Variable::one());
    n.value = c;
    return n;
  }
  static Num of(r1cs::Variable v, const F& value) { return {r1cs::LinearCombination<F>(v), value}; }

  friend Num operator+(const Num& a, const Num& b) { return {a.lc + b.lc, a.value + b.value}; }
  friend Num operator*(const Num& a, const F& k) { return {a.lc * k, a.value * k}; }
  Num& operator+=(const Num& b) {
    lc += b.lc;
    value = value + b.value;
    return *this;
  }

  template <class CS, class N>
  static Num alloc(CS& cs, N&& name, const F& value) {
    return of(cs.alloc(name, [&] { return value; }), value);
  }

  /// a * b as a new variable (one constraint).
  template <class CS, class N>
  static Num mul(CS& cs, N&& name, const Num& a, const Num& b) {
    const F v = a.value * b.value;
    const auto var = cs.alloc(name, [&] { return v; });
    cs.enforce(name, a.lc, b.lc, r1cs::LinearCombination<F>(var));
    return of(var, v);
  }
};

/// a^2 (one constraint).
template <class F, class CS>
Num<F> square(CS& cs, const Num<F>& a) {
  return Num<F>::mul(
      cs, [] { return std::string("square"); }, a, a);
}

/// cond ? a : b (one constraint: cond (a - b) = out - b). `cond` must be boolean.
template <class F, class CS>
Num<F> select(CS& cs, const r1cs::LinearCombination<F>& cond, bool cond_value, const Num<F>& a, const Num<F>& b) {
  const F v = cond_value ? a.value : b.value;
  const auto out = cs.alloc([] { return std::string("select"); }, [&] { return v; });
  cs.enforce([] { return std::string("select"); }, cond, a.lc - b.lc, r1cs::LinearCombination<F>(out) - b.lc);
  return Num<F>::of(out, v);
}

/// (a, b), or (b, a) when cond: one constraint (the second output is linear).
template <class F, class CS>
std::pair<Num<F>, Num<F>> conditional_swap(CS& cs, const r1cs::LinearCombination<F>& cond, bool cond_value,
                                           const Num<F>& a, const Num<F>& b) {
  Num<F> first = select(cs, cond, cond_value, b, a);
  Num<F> second{a.lc + b.lc - first.lc, a.value + b.value - first.value};
  return {std::move(first), std::move(second)};
}

/// A boolean variable that is 1 iff a == b (two constraints: d inv = 1 - eq, d eq = 0, d = a - b).
template <class F, class CS>
std::pair<r1cs::LinearCombination<F>, bool> equal(CS& cs, const Num<F>& a, const Num<F>& b) {
  const F d = a.value - b.value;
  const bool eq = d.is_zero();
  const F inv = eq ? F::zero() : d.inverse();
  const auto eq_var = cs.alloc([] { return std::string("eq"); }, [&] { return eq ? F::one() : F::zero(); });
  const auto inv_var = cs.alloc([] { return std::string("inverse"); }, [&] { return inv; });
  const r1cs::LinearCombination<F> diff = a.lc - b.lc;
  cs.enforce([] { return std::string("d * inv = 1 - eq"); }, diff, r1cs::LinearCombination<F>(inv_var),
             r1cs::LinearCombination<F>(r1cs::Variable::one()) - eq_var);
  cs.enforce([] { return std::string("d * eq = 0"); }, diff, r1cs::LinearCombination<F>(eq_var),
             r1cs::LinearCombination<F>::zero());
  return {r1cs::LinearCombination<F>(eq_var), eq};
}

/// sum_i 2^i bits[i] for boolean linear combinations (free: linear).
template <class F>
Num<F> pack_bits(std::span<const r1cs::LinearCombination<F>> bits, std::span<const bool> values) {
  Num<F> n;
  n.value = F::zero();
  F w = F::one();
  for (std::size_t i = 0; i < bits.size(); ++i) {
    n.lc.add_scaled(bits[i], w);
    if (values[i]) n.value = n.value + w;
    w = w.dbl();
  }
  return n;
}

}  // namespace zk::gadgets
