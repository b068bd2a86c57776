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
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <type_traits>
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
///
/// Storage: up to kInline terms live inside the object, more on the heap. Synthesis builds and
/// copies hundreds of millions of combinations (every Bit holds two), almost all of one to three
/// terms (a variable; ONE - b; the xor's a + b - c); on the heap each was a malloc and a free, 38 %
/// of a 2 KiB PoRep partition's synthesis (docs/synthesis.md).
template <class F>
class LinearCombination {
 public:
  struct Term {
    Variable var;
    F coeff;
  };
  static_assert(std::is_trivially_copyable_v<Term> && std::is_trivially_destructible_v<Term>);
  static constexpr std::uint32_t kInline = 3;

  LinearCombination() = default;
  LinearCombination(Variable v) { push({v, F::one()}); }  // NOLINT(google-explicit-constructor)
  static LinearCombination zero() { return {}; }

  LinearCombination(const LinearCombination& o) { copy_from(o); }
  LinearCombination(LinearCombination&& o) noexcept { steal(o); }
  LinearCombination& operator=(const LinearCombination& o) {
    if (this != &o) {
      if (heap_ != nullptr) {
        size_ = 0;
        append(o.data(), o.size_);
      } else {
        copy_from(o);
      }
    }
    return *this;
  }
  LinearCombination& operator=(LinearCombination&& o) noexcept {
    if (this != &o) {
      free_heap();
      steal(o);
    }
    return *this;
  }
  ~LinearCombination() { free_heap(); }

  LinearCombination& add(const F& coeff, Variable v) {
    push({v, coeff});
    return *this;
  }
  LinearCombination& operator+=(Variable v) { return add(F::one(), v); }
  LinearCombination& operator-=(Variable v) { return add(-F::one(), v); }
  LinearCombination& operator+=(const LinearCombination& o) {
    if (this == &o) return add_scaled(o, F::one());
    append(o.data(), o.size_);
    return *this;
  }
  LinearCombination& operator-=(const LinearCombination& o) { return add_scaled(o, -F::one()); }
  /// this += o * k without a temporary; k = ±1 and coefficients ±1 cost no multiplication.
  LinearCombination& add_scaled(const LinearCombination& o, const F& k) {
    const std::uint32_t n = o.size_;
    reserve(size_ + n);
    const Term* src = o.data();  // still valid when o is *this: reserve came first
    Term* dst = data() + size_;
    for (std::uint32_t i = 0; i < n; ++i) dst[i] = {src[i].var, scale(src[i].coeff, k)};
    size_ += n;
    return *this;
  }
  /// this = normalized(this + o * k). When both are in strictly increasing variable order (both
  /// normalized, as Poseidon's lanes are) a linear merge, no sort.
  LinearCombination& add_normalized(const LinearCombination& o, const F& k) {
    if (this == &o || !o.increasing() || !increasing()) {
      add_scaled(o, k);
      normalize();
      return *this;
    }
    LinearCombination out;
    out.reserve(size_ + o.size_);
    const Term *a = data(), *a_end = a + size_, *b = o.data(), *b_end = b + o.size_;
    Term* dst = out.data();
    std::uint32_t n = 0;
    while (a != a_end || b != b_end) {
      Term t;
      if (b == b_end || (a != a_end && a->var.key() < b->var.key())) {
        t = *a++;
      } else if (a == a_end || b->var.key() < a->var.key()) {
        t = {b->var, scale(b->coeff, k)};
        ++b;
      } else {
        t = {a->var, a->coeff + scale(b->coeff, k)};
        ++a;
        ++b;
      }
      if (!t.coeff.is_zero()) dst[n++] = t;
    }
    out.size_ = n;
    return *this = std::move(out);
  }
  /// Room for n terms without reallocation (a sum whose size is known before it is built).
  void reserve_terms(std::size_t n) { reserve(static_cast<std::uint32_t>(n)); }
  /// Variables strictly increasing (so distinct).
  bool increasing() const {
    const Term* t = data();
    for (std::uint32_t i = 1; i < size_; ++i) {
      if (t[i - 1].var.key() >= t[i].var.key()) return false;
    }
    return true;
  }
  friend LinearCombination operator+(LinearCombination a, Variable v) { return a += v; }
  friend LinearCombination operator-(LinearCombination a, Variable v) { return a -= v; }
  friend LinearCombination operator+(LinearCombination a, const LinearCombination& b) { return a += b; }
  friend LinearCombination operator-(LinearCombination a, const LinearCombination& b) { return a -= b; }
  /// Scales every term.
  friend LinearCombination operator*(LinearCombination a, const F& k) {
    if (k.is_one()) return a;
    Term* t = a.data();
    for (std::uint32_t i = 0; i < a.size_; ++i) t[i].coeff = scale(t[i].coeff, k);
    return a;
  }

  std::span<const Term> terms() const { return {data(), size_}; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  /// Terms sorted by variable (inputs first), one per variable, none with a zero coefficient.
  LinearCombination normalized() const {
    LinearCombination out = *this;
    out.normalize();
    return out;
  }
  /// normalized() in place.
  void normalize() { size_ = static_cast<std::uint32_t>(normalize_terms(std::span<Term>(data(), size_))); }
  /// normalized()'s work in place on any span of terms; returns the number kept (at the front).
  /// Terms already in strictly increasing variable order (Poseidon's lanes, grown by one new
  /// variable per round) only lose their zero coefficients: no sort.
  static std::size_t normalize_terms(std::span<Term> v) {
    bool increasing = true;
    for (std::size_t i = 1; i < v.size() && increasing; ++i) increasing = v[i - 1].var.key() < v[i].var.key();
    if (increasing) {
      std::size_t w = 0;
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].coeff.is_zero()) v[w++] = v[i];
      }
      return w;
    }
    std::sort(v.begin(), v.end(), [](const Term& a, const Term& b) { return a.var.key() < b.var.key(); });
    std::size_t w = 0;
    for (std::size_t i = 0; i < v.size();) {
      Term t = v[i++];
      while (i < v.size() && v[i].var == t.var) t.coeff = t.coeff + v[i++].coeff;
      if (!t.coeff.is_zero()) v[w++] = t;
    }
    return w;
  }
  /// True when no variable occurs twice (then the terms need no merging: only zero coefficients
  /// differ from the normalized form, and not in order-independent uses). Cheap for the short
  /// combinations and the long ones built in variable order that synthesis produces.
  bool has_distinct_vars() const {
    const Term* t = data();
    if (size_ <= 8) {
      for (std::uint32_t i = 1; i < size_; ++i) {
        for (std::uint32_t j = 0; j < i; ++j) {
          if (t[i].var == t[j].var) return false;
        }
      }
      return true;
    }
    bool up = true, down = true;
    for (std::uint32_t i = 1; i < size_ && (up || down); ++i) {
      up = up && t[i - 1].var.key() < t[i].var.key();
      down = down && t[i - 1].var.key() > t[i].var.key();
    }
    return up || down;
  }

  /// <lc, z> for the given assignments (no normalisation needed).
  F evaluate(const std::vector<F>& inputs, const std::vector<F>& aux) const {
    F acc = F::zero();
    for (const Term& t : terms()) acc = acc + t.coeff * (t.var.is_input() ? inputs[t.var.index] : aux[t.var.index]);
    return acc;
  }

 private:
  /// c * k, by addition when either is ±1 (the common coefficients).
  static F scale(const F& c, const F& k) {
    if (k.is_one()) return c;
    if (c.is_one()) return k;
    if (is_minus_one(c)) return -k;
    if (is_minus_one(k)) return -c;
    return c * k;
  }
  static bool is_minus_one(const F& x) {
    static constexpr F kMinusOne = -F::one();
    return x == kMinusOne;
  }

  Term* data() { return heap_ != nullptr ? heap_ : inline_terms(); }
  const Term* data() const { return heap_ != nullptr ? heap_ : inline_terms(); }
  Term* inline_terms() { return std::launder(reinterpret_cast<Term*>(inline_)); }
  const Term* inline_terms() const { return std::launder(reinterpret_cast<const Term*>(inline_)); }

  void push(const Term& t) {
    if (size_ == capacity_) reserve(size_ + 1);
    std::construct_at(data() + size_, t);
    ++size_;
  }
  void append(const Term* src, std::uint32_t n) {
    reserve(size_ + n);
    if (n != 0) std::memcpy(static_cast<void*>(data() + size_), src, n * sizeof(Term));
    size_ += n;
  }
  void reserve(std::uint32_t n) {
    if (n <= capacity_) return;
    const std::uint32_t cap = std::max(n, 2 * capacity_);
    Term* fresh = std::allocator<Term>().allocate(cap);
    if (size_ != 0) std::memcpy(static_cast<void*>(fresh), data(), size_ * sizeof(Term));
    free_heap();
    heap_ = fresh;
    capacity_ = cap;
  }
  void free_heap() {
    if (heap_ != nullptr) std::allocator<Term>().deallocate(heap_, capacity_);
    heap_ = nullptr;
    capacity_ = kInline;
  }
  /// Into an object without heap storage: an inline source is copied whole, a fixed-size copy the
  /// compiler inlines (copies of short combinations were 17 % of synthesis as calls to memmove).
  void copy_from(const LinearCombination& o) {
    if (o.heap_ == nullptr) {
      std::memcpy(inline_, o.inline_, sizeof inline_);
      size_ = o.size_;
    } else {
      size_ = 0;
      append(o.heap_, o.size_);
    }
  }
  /// Takes o's terms (its heap block, or a copy of its inline ones) and leaves o empty.
  void steal(LinearCombination& o) noexcept {
    if (o.heap_ != nullptr) {
      heap_ = o.heap_;
      capacity_ = o.capacity_;
      o.heap_ = nullptr;
      o.capacity_ = kInline;
    } else {
      std::memcpy(inline_, o.inline_, sizeof inline_);
    }
    size_ = o.size_;
    o.size_ = 0;
  }

  Term* heap_ = nullptr;  // owns capacity_ terms when set; else the terms are inline_
  std::uint32_t size_ = 0, capacity_ = kInline;
  alignas(Term) unsigned char inline_[kInline * sizeof(Term)];
};

/// A constraint's C side as a linear combination: `c` itself, or what it builds when it is a function.
/// Gadgets may pass C as a function where it costs to build: the proving system never reads C (it
/// forms c = a o b, docs/synthesis.md), so there it is never built.
template <class CL>
decltype(auto) lc_of(const CL& c) {
  if constexpr (std::is_invocable_v<const CL&>) {
    return c();
  } else {
    return (c);
  }
}

/// Whether a constraint system reads the C side of its constraints: all do but the proving system
/// (`static constexpr bool kReadsC = false`). Gadgets that accumulate a C side may skip it.
template <class CS>
constexpr bool reads_c() {
  if constexpr (requires { CS::kReadsC; }) {
    return CS::kReadsC;
  } else {
    return true;
  }
}

/// What every constraint system offers a circuit. N is a name callable, V a value callable; enforce's
/// C may also be a function returning the linear combination (lc_of).
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
  template <class N, class CL>
  void enforce(N&&, const LinearCombination<F>& a, const LinearCombination<F>& b, const CL& c) {
    ++num_constraints_;
    terms_ += a.terms().size() + b.terms().size() + lc_of(c).terms().size();
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
  template <class N, class CL>
  void enforce(N&&, const LinearCombination<F>& a, const LinearCombination<F>& b, const CL& c) {
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
    nnz_[2] += lc_of(c).normalized().terms().size();
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
