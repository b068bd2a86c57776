#pragma once

// A field element inside a circuit: a linear combination together with its value (bellman's Num).
// Systems that record only the shape never read the values, which are then meaningless.

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

  /// a * b as a new variable (one constraint).
  template <class CS, class N>
  static Num mul(CS& cs, N&& name, const Num& a, const Num& b) {
    const F v = a.value * b.value;
    const auto var = cs.alloc(name, [&] { return v; });
    cs.enforce(name, a.lc, b.lc, r1cs::LinearCombination<F>(var));
    return of(var, v);
  }
};

}  // namespace zk::gadgets
