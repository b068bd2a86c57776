#pragma once

// Rank-1 constraint systems, bellman style: a circuit's synthesize(cs) allocates variables and
// enforces constraints <A, z> * <B, z> = <C, z> over z = (inputs, aux), where input 0 is the constant
// ONE. The same synthesize() runs under several constraint systems (shape.hpp, prover.hpp,
// test_cs.hpp, metrics in this file), as in bellman/bellperson.
//
// Names are lazy: every alloc/enforce/namespace takes a callable returning a std::string, and only
// a system that reports names (the test system) ever calls it.
//
// A circuit is any type with `template <class CS> Status synthesize(CS& cs) const`. Values are
// callables too (returning F): systems that only record the shape never call them.

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status.hpp"

namespace zk::r1cs {

/// An input (public; index 0 is the constant ONE) or an aux (private) variable.
struct Variable {
  enum class Kind : std::uint8_t { kInput = 0, kAux = 1 };
  Kind kind = Kind::kInput;
  std::uint32_t index = 0;

  static constexpr Variable one() { return {Kind::kInput, 0}; }
  static constexpr Variable input(std::uint32_t i) { return {Kind::kInput, i}; }
  static constexpr Variable aux(std::uint32_t i) { return {Kind::kAux, i}; }
  constexpr bool is_input() const { return kind == Kind::kInput; }
  /// Inputs sort before aux variables, each by index.
  constexpr std::uint64_t key() const { return (std::uint64_t{static_cast<std::uint8_t>(kind)} << 32) | index; }
  friend constexpr bool operator==(const Variable&, const Variable&) = default;
};

/// sum of coefficient * variable. Terms may repeat while building; normalized() merges them per
/// variable and drops zero coefficients. That matters beyond tidiness: bellperson marks a
/// variable's density when a term is present, so a variable whose terms cancel must vanish before
/// densities are taken, or the proving key (where its point is the identity and filtered out) and
/// the prover disagree (docs/formats.md).
template <class F>
class LinearCombination {
 public:
  struct Term {
    Variable var;
    F coeff;
  };

  LinearCombination() = default;
  LinearCombination(Variable v) { terms_.push_back({v, F::one()}); }  // NOLINT(google-explicit-constructor)
  static LinearCombination zero() { return {}; }

  LinearCombination& add(const F& coeff, Variable v) {
    terms_.push_back({v, coeff});
    return *this;
  }
  LinearCombination& operator+=(Variable v) { return add(F::one(), v); }
  LinearCombination& operator-=(Variable v) { return add(-F::one(), v); }
  LinearCombination& operator+=(const LinearCombination& o) {
    terms_.insert(terms_.end(), o.terms_.begin(), o.terms_.end());
    return *this;
  }
  LinearCombination& operator-=(const LinearCombination& o) {
    for (const Term& t : o.terms_) terms_.push_back({t.var, -t.coeff});
    return *this;
  }
  friend LinearCombination operator+(LinearCombination a, Variable v) { return a += v; }
  friend LinearCombination operator-(LinearCombination a, Variable v) { return a -= v; }
  friend LinearCombination operator+(LinearCombination a, const LinearCombination& b) { return a += b; }
  friend LinearCombination operator-(LinearCombination a, const LinearCombination& b) { return a -= b; }
  /// Scales every term.
  friend LinearCombination operator*(LinearCombination a, const F& k) {
    for (Term& t : a.terms_) t.coeff = t.coeff * k;
    return a;
  }

  const std::vector<Term>& terms() const { return terms_; }

  /// Terms sorted by variable (inputs first), one per variable, none with a zero coefficient.
  LinearCombination normalized() const {
    LinearCombination out;
    out.terms_ = terms_;
    auto& v = out.terms_;
    std::sort(v.begin(), v.end(), [](const Term& a, const Term& b) { return a.var.key() < b.var.key(); });
    std::size_t w = 0;
    for (std::size_t i = 0; i < v.size();) {
      Term t = v[i++];
      while (i < v.size() && v[i].var == t.var) t.coeff = t.coeff + v[i++].coeff;
      if (!t.coeff.is_zero()) v[w++] = t;
    }
    v.resize(w);
    return out;
  }

  /// <lc, z> for the given assignments (no normalisation needed).
  F evaluate(const std::vector<F>& inputs, const std::vector<F>& aux) const {
    F acc = F::zero();
    for (const Term& t : terms_) acc = acc + t.coeff * (t.var.is_input() ? inputs[t.var.index] : aux[t.var.index]);
    return acc;
  }

 private:
  std::vector<Term> terms_;
};

/// What every constraint system offers a circuit. N is a name callable, V a value callable.
template <class CS>
concept ConstraintSystem = requires(CS& cs, std::string (*name)(), typename CS::Field (*value)(),
                                    const LinearCombination<typename CS::Field>& lc) {
  { cs.alloc(name, value) } -> std::same_as<Variable>;
  { cs.alloc_input(name, value) } -> std::same_as<Variable>;
  cs.enforce(name, lc, lc, lc);
  cs.push_namespace(name);
  cs.pop_namespace();
};

/// RAII namespace: push on construction, pop on destruction.
template <class CS, class NameFn>
class Namespace {
 public:
  Namespace(CS& cs, NameFn&& name) : cs_(cs) { cs_.push_namespace(std::forward<NameFn>(name)); }
  ~Namespace() { cs_.pop_namespace(); }
  Namespace(const Namespace&) = delete;
  Namespace& operator=(const Namespace&) = delete;

 private:
  CS& cs_;
};
template <class CS, class NameFn>
Namespace(CS&, NameFn&&) -> Namespace<CS, NameFn>;

/// Counts only: the cheapest way to size a circuit.
template <class F>
class MetricsSystem {
 public:
  using Field = F;
  template <class N, class V>
  Variable alloc(N&&, V&&) {
    return Variable::aux(num_aux_++);
  }
  template <class N, class V>
  Variable alloc_input(N&&, V&&) {
    return Variable::input(num_inputs_++);
  }
  template <class N>
  void enforce(N&&, const LinearCombination<F>& a, const LinearCombination<F>& b, const LinearCombination<F>& c) {
    ++num_constraints_;
    terms_ += a.terms().size() + b.terms().size() + c.terms().size();
  }
  template <class N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

  std::size_t num_inputs() const { return num_inputs_; }  // including ONE
  std::size_t num_aux() const { return num_aux_; }
  std::size_t num_constraints() const { return num_constraints_; }
  std::size_t num_terms() const { return terms_; }

 private:
  std::uint32_t num_inputs_ = 1, num_aux_ = 0;
  std::size_t num_constraints_ = 0, terms_ = 0;
};

/// Counts with what a proving key's sizes depend on (`zkpipe circuit-info`): non-zero terms per
/// matrix after merging duplicates, and the density bitmaps bellperson filters its queries by
/// (variables with a non-zero coefficient in A, in B). finish_with_input_rows() adds the rows
/// `input_i * 0 = 0` the generator appends, one per input (ONE included).
template <class F>
class DensitySystem {
 public:
  using Field = F;
  template <class N, class V>
  Variable alloc(N&&, V&&) {
    a_aux_.push_back(false);
    b_aux_.push_back(false);
    return Variable::aux(num_aux_++);
  }
  template <class N, class V>
  Variable alloc_input(N&&, V&&) {
    b_input_.push_back(false);
    return Variable::input(num_inputs_++);
  }
  template <class N>
  void enforce(N&&, const LinearCombination<F>& a, const LinearCombination<F>& b, const LinearCombination<F>& c) {
    ++num_constraints_;
    const LinearCombination<F> na = a.normalized(), nb = b.normalized();  // named: they outlive the loops
    for (const auto& t : na.terms()) {
      ++nnz_[0];
      if (!t.var.is_input()) a_aux_[t.var.index] = true;
    }
    for (const auto& t : nb.terms()) {
      ++nnz_[1];
      (t.var.is_input() ? b_input_ : b_aux_)[t.var.index] = true;
    }
    nnz_[2] += c.normalized().terms().size();
  }
  template <class N>
  void push_namespace(N&&) {}
  void pop_namespace() {}
  void finish_with_input_rows() {
    num_constraints_ += num_inputs_;
    nnz_[0] += num_inputs_;
  }

  std::size_t num_inputs() const { return num_inputs_; }
  std::size_t num_aux() const { return num_aux_; }
  std::size_t num_constraints() const { return num_constraints_; }
  std::size_t nnz(int matrix) const { return nnz_[static_cast<std::size_t>(matrix)]; }
  std::size_t a_aux_density() const { return static_cast<std::size_t>(std::count(a_aux_.begin(), a_aux_.end(), true)); }
  std::size_t b_input_density() const {
    return static_cast<std::size_t>(std::count(b_input_.begin(), b_input_.end(), true));
  }
  std::size_t b_aux_density() const { return static_cast<std::size_t>(std::count(b_aux_.begin(), b_aux_.end(), true)); }

 private:
  std::uint32_t num_inputs_ = 1, num_aux_ = 0;
  std::size_t num_constraints_ = 0;
  std::array<std::size_t, 3> nnz_{};
  std::vector<bool> a_aux_, b_aux_, b_input_ = {false};  // ONE: in B only if a constraint uses it there
};

}  // namespace zk::r1cs
