#pragma once

// The test constraint system: checks every constraint as it is enforced and remembers the
// namespace path of the first unsatisfied one ("sha256/block 0/round 3/carry"), the way
// bellman's TestConstraintSystem helps debug a circuit. It is the one system that evaluates names.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace zk::r1cs {

template <class F>
class TestSystem {
 public:
  using Field = F;

  TestSystem() { inputs_.push_back(F::one()); }

  template <class N, class V>
  Variable alloc(N&&, V&& value) {
    aux_.push_back(value());
    return Variable::aux(static_cast<std::uint32_t>(aux_.size() - 1));
  }
  template <class N, class V>
  Variable alloc_input(N&&, V&& value) {
    inputs_.push_back(value());
    return Variable::input(static_cast<std::uint32_t>(inputs_.size() - 1));
  }
  template <class N, class CL>
  void enforce(N&& name, const LinearCombination<F>& a, const LinearCombination<F>& b, const CL& c) {
    ++constraints_;
    if (first_failure_) return;
    if (!(a.evaluate(inputs_, aux_) * b.evaluate(inputs_, aux_) == lc_of(c).evaluate(inputs_, aux_))) {
      std::string path;
      for (auto& ns : namespaces_) path += ns() + "/";
      first_failure_ = path + name();
    }
  }
  template <class N>
  void push_namespace(N&& name) {
    namespaces_.emplace_back(std::forward<N>(name));
  }
  void pop_namespace() { namespaces_.pop_back(); }

  bool is_satisfied() const { return !first_failure_.has_value(); }
  /// The namespace path of the first unsatisfied constraint, if any.
  const std::optional<std::string>& which_is_unsatisfied() const { return first_failure_; }
  std::size_t num_constraints() const { return constraints_; }
  std::size_t num_inputs() const { return inputs_.size(); }
  std::size_t num_aux() const { return aux_.size(); }
  const std::vector<F>& inputs() const { return inputs_; }

 private:
  std::vector<F> inputs_, aux_;
  std::vector<std::function<std::string()>> namespaces_;
  std::optional<std::string> first_failure_;
  std::size_t constraints_ = 0;
};

}  // namespace zk::r1cs
