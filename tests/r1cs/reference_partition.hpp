#pragma once

// The partition a proving system must produce, computed the plainest way there is: a constraint
// system that keeps every linear combination's raw terms, merges them per variable in a std::map
// (no sorting tricks, no fast paths), and evaluates each row with one multiplication per term.
// It shares nothing with ProvingSystem but the LinearCombination's terms() and the Partition type,
// so the tests can compare the optimised ProvingSystem against it bit for bit. It also evaluates
// every C combination (`c`, which a Partition does not hold): on a satisfied circuit the tests check
// that the c = a o b the prover forms is exactly that.

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/prover_cs.hpp"

namespace zk::r1cs::test {

template <class F>
class ReferenceSystem {
 public:
  using Field = F;
  /// keep_c = false: C is not evaluated (`c` stays empty), for partitions too large to hold it.
  explicit ReferenceSystem(bool keep_c = true) : keep_c_(keep_c) {
    p_.inputs.push_back(F::one());
    p_.b_input.push_back(false);
  }

  template <class N, class V>
  Variable alloc(N&&, V&& value) {
    aux_.push_back(value());
    p_.a_aux.push_back(false);
    p_.b_aux.push_back(false);
    return Variable::aux(static_cast<std::uint32_t>(aux_.size() - 1));
  }
  template <class N, class V>
  Variable alloc_input(N&&, V&& value) {
    p_.inputs.push_back(value());
    p_.b_input.push_back(false);
    return Variable::input(static_cast<std::uint32_t>(p_.inputs.size() - 1));
  }
  template <class N, class CL>
  void enforce(N&&, const LinearCombination<F>& a, const LinearCombination<F>& b, const CL& c) {
    p_.a.push_back(row(a, nullptr, &p_.a_aux));
    p_.b.push_back(row(b, &p_.b_input, &p_.b_aux));
    if (keep_c_) this->c.push_back(row(lc_of(c), nullptr, nullptr));
  }
  template <class N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

  /// bellman's trailing rows: input_i * 0 = 0.
  Partition<F> finish() && {
    for (const F& x : p_.inputs) {
      p_.a.push_back(x);
      p_.b.push_back(F::zero());
      if (keep_c_) c.push_back(F::zero());
    }
    for (const F& x : aux_) p_.aux.push_back(x);
    std::vector<F>().swap(aux_);
    return std::move(p_);
  }

 private:
  /// Merges the terms per variable; a variable gets its density bit only if its merged coefficient
  /// is not zero (bellperson evaluates the merged LC).
  F row(const LinearCombination<F>& lc, msm::DensityBitmap* input_density, msm::DensityBitmap* aux_density) {
    std::map<std::uint64_t, F> merged;
    for (const auto& t : lc.terms()) {
      auto [it, fresh] = merged.try_emplace(t.var.key(), t.coeff);
      if (!fresh) it->second = it->second + t.coeff;
    }
    F acc = F::zero();
    for (const auto& [key, coeff] : merged) {
      if (coeff.is_zero()) continue;
      const bool is_aux = (key >> 32) != 0;
      const auto index = static_cast<std::uint32_t>(key);
      acc = acc + coeff * (is_aux ? aux_[index] : p_.inputs[index]);
      if (is_aux && aux_density != nullptr) aux_density->set(index);
      if (!is_aux && input_density != nullptr) input_density->set(index);
    }
    return acc;
  }

  bool keep_c_;
  Partition<F> p_;
  std::vector<F> aux_;  // the witness, dense (the partition's compact copy is made at the end)

 public:
  std::vector<F> c;  // <C_i, z> per row, the input rows' zeros included
};

/// Every buffer of two partitions equal, naming the first difference. The compact columns are read
/// in order (got) and entry by entry (both): no dense copy of a column is made (a 32 GiB
/// partition's would be 4 GB each; CompactColumn's own tests cover its parallel expansion).
template <class F>
void expect_same_partition(const Partition<F>& got, const Partition<F>& want) {
  ASSERT_EQ(got.inputs.size(), want.inputs.size()) << "inputs";
  for (std::size_t i = 0; i < got.inputs.size(); ++i)
    ASSERT_TRUE(got.inputs[i] == want.inputs[i]) << "inputs[" << i << "] differs";
  auto column = [](const char* what, const msm::CompactColumn<F>& g, const msm::CompactColumn<F>& w) {
    ASSERT_EQ(g.size(), w.size()) << what;
    std::size_t i = 0, first_difference = g.size();
    g.for_each([&](const F& x) {
      if (first_difference == g.size() && !(x == w.get(i) && g.get(i) == x)) first_difference = i;
      ++i;
    });
    EXPECT_EQ(first_difference, g.size()) << what << "[" << first_difference << "] differs";
  };
  column("aux", got.aux, want.aux);
  column("a", got.a, want.a);
  column("b", got.b, want.b);
  auto bits = [](const char* what, const msm::DensityBitmap& g, const msm::DensityBitmap& w) {
    ASSERT_EQ(g.size(), w.size()) << what;
    for (std::size_t i = 0; i < g.size(); ++i) ASSERT_EQ(g.test(i), w.test(i)) << what << " bit " << i << " differs";
    EXPECT_EQ(g.words(), w.words()) << what << ": bits beyond the size";
  };
  bits("a_aux", got.a_aux, want.a_aux);
  bits("b_input", got.b_input, want.b_input);
  bits("b_aux", got.b_aux, want.b_aux);
}

/// c = a o b, as the prover forms it, equals the reference's evaluation of every C combination.
template <class F>
void expect_c_is_a_times_b(const Partition<F>& got, const std::vector<F>& reference_c) {
  ASSERT_EQ(got.a.size(), reference_c.size());
  ASSERT_EQ(got.b.size(), reference_c.size());
  const auto a = got.a.expand(got.a.size()), b = got.b.expand(got.b.size());
  for (std::size_t i = 0; i < reference_c.size(); ++i)
    ASSERT_TRUE(a[i] * b[i] == reference_c[i]) << "row " << i << ": <C, z> != <A, z> <B, z>";
}

}  // namespace zk::r1cs::test
