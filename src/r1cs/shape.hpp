#pragma once

// The shape of a circuit: its R1CS matrices in compressed-sparse-row form, recorded by running
// synthesize() under ShapeRecorder (values are never asked for). The development setup builds keys
// from a shape; its hash identifies the circuit a key belongs to.

#include <array>
#include <cstdint>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace zk::r1cs {

template <class F>
struct SparseMatrix {
  std::vector<std::uint64_t> row_ptr{0};  // row r holds entries [row_ptr[r], row_ptr[r + 1])
  std::vector<Variable> cols;
  std::vector<F> vals;

  void push_row(const LinearCombination<F>& lc) {
    for (const auto& t : lc.terms()) {
      cols.push_back(t.var);
      vals.push_back(t.coeff);
    }
    row_ptr.push_back(cols.size());
  }
  std::size_t rows() const { return row_ptr.size() - 1; }
  std::size_t entries() const { return cols.size(); }
};

template <class F>
struct R1csShape {
  std::size_t num_inputs = 1;  // including ONE
  std::size_t num_aux = 0;
  SparseMatrix<F> a, b, c;  // circuit constraints only (no input rows)

  std::size_t num_constraints() const { return a.rows(); }
  /// Rows of the QAP: the constraints plus one `input * 0 = 0` row per input (bellman).
  std::size_t qap_rows() const { return num_constraints() + num_inputs; }
};

/// Records the shape; never evaluates names or values.
template <class F>
class ShapeRecorder {
 public:
  using Field = F;
  template <class N, class V>
  Variable alloc(N&&, V&&) {
    return Variable::aux(static_cast<std::uint32_t>(shape_.num_aux++));
  }
  template <class N, class V>
  Variable alloc_input(N&&, V&&) {
    return Variable::input(static_cast<std::uint32_t>(shape_.num_inputs++));
  }
  template <class N, class CL>
  void enforce(N&&, const LinearCombination<F>& a, const LinearCombination<F>& b, const CL& c) {
    shape_.a.push_row(a.normalized());
    shape_.b.push_row(b.normalized());
    shape_.c.push_row(lc_of(c).normalized());
  }
  template <class N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

  const R1csShape<F>& shape() const& { return shape_; }
  R1csShape<F>&& shape() && { return std::move(shape_); }

 private:
  R1csShape<F> shape_;
};

/// SHA-256 over the counts and the three matrices (variables and canonical little-endian
/// coefficients): equal for equal shapes, whatever produced them.
template <class F>
std::array<std::uint8_t, 32> shape_hash(const R1csShape<F>& shape);

}  // namespace zk::r1cs
