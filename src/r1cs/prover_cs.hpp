#pragma once

// The proving constraint system: runs synthesize() with values and produces a Partition, the
// self-contained unit the Groth16 prover (and later the engine) consumes: the assignments, the
// evaluations a, b, c of every QAP row, and bellperson's density bitmaps.

#include <cstddef>
#include <vector>

#include "msm/density.hpp"
#include "r1cs/constraint_system.hpp"

namespace zk::r1cs {

/// Byte counts of a partition's buffers, per class (for the engine's budget and ledger).
struct PartitionBytes {
  std::size_t abc = 0;         // a, b, c evaluations: released once H is computed
  std::size_t assignment = 0;  // input and aux values: needed until prove_finish
  std::size_t density = 0;     // a_aux, b_input, b_aux bitmaps
  std::size_t total() const { return abc + assignment + density; }
};

template <class F>
struct Partition {
  std::vector<F> inputs;  // inputs[0] = ONE
  std::vector<F> aux;
  std::vector<F> a, b, c;  // one per QAP row: the constraints, then one `input * 0 = 0` row per input
  msm::DensityBitmap a_aux, b_input, b_aux;

  std::size_t num_rows() const { return a.size(); }
  PartitionBytes bytes() const {
    PartitionBytes out;
    out.abc = (a.capacity() + b.capacity() + c.capacity()) * sizeof(F);
    out.assignment = (inputs.capacity() + aux.capacity()) * sizeof(F);
    out.density = a_aux.bytes() + b_input.bytes() + b_aux.bytes();
    return out;
  }
  /// Frees a, b and c (the prover calls this as soon as H no longer needs them).
  void release_abc() {
    std::vector<F>().swap(a);
    std::vector<F>().swap(b);
    std::vector<F>().swap(c);
  }
};

/// Expected sizes, so the vectors are allocated once (from a previous synthesis or the shape).
struct SizeHint {
  std::size_t inputs = 0, aux = 0, constraints = 0;
};

/// bellperson's ProvingAssignment: a density bit is set when a variable appears with a non-zero
/// coefficient in A (aux only: every input has an A-query point) or in B (inputs and aux), after
/// merging repeated terms.
template <class F>
class ProvingSystem {
 public:
  using Field = F;

  explicit ProvingSystem(const SizeHint& hint = {}) {
    p_.inputs.reserve(hint.inputs);
    p_.aux.reserve(hint.aux);
    p_.a.reserve(hint.constraints + hint.inputs);
    p_.b.reserve(hint.constraints + hint.inputs);
    p_.c.reserve(hint.constraints + hint.inputs);
    p_.inputs.push_back(F::one());
    p_.b_input.push_back(false);
  }

  template <class N, class V>
  Variable alloc(N&&, V&& value) {
    p_.aux.push_back(value());
    p_.a_aux.push_back(false);
    p_.b_aux.push_back(false);
    return Variable::aux(static_cast<std::uint32_t>(p_.aux.size() - 1));
  }
  template <class N, class V>
  Variable alloc_input(N&&, V&& value) {
    p_.inputs.push_back(value());
    p_.b_input.push_back(false);
    return Variable::input(static_cast<std::uint32_t>(p_.inputs.size() - 1));
  }
  template <class N>
  void enforce(N&&, const LinearCombination<F>& a, const LinearCombination<F>& b, const LinearCombination<F>& c) {
    p_.a.push_back(eval(a.normalized(), nullptr, &p_.a_aux));
    p_.b.push_back(eval(b.normalized(), &p_.b_input, &p_.b_aux));
    p_.c.push_back(c.evaluate(p_.inputs, p_.aux));
  }
  template <class N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

  /// Appends the input rows and hands over the partition.
  Partition<F> finish() && {
    for (const F& x : p_.inputs) {
      p_.a.push_back(x);
      p_.b.push_back(F::zero());
      p_.c.push_back(F::zero());
    }
    return std::move(p_);
  }

 private:
  F eval(const LinearCombination<F>& lc, msm::DensityBitmap* input_density, msm::DensityBitmap* aux_density) {
    F acc = F::zero();
    for (const auto& t : lc.terms()) {
      if (t.var.is_input()) {
        acc = acc + t.coeff * p_.inputs[t.var.index];
        if (input_density != nullptr) input_density->set(t.var.index);
      } else {
        acc = acc + t.coeff * p_.aux[t.var.index];
        aux_density->set(t.var.index);
      }
    }
    return acc;
  }

  Partition<F> p_;
};

}  // namespace zk::r1cs
