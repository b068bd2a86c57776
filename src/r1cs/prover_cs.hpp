#pragma once

// The proving constraint system: runs synthesize() with values and produces a Partition, the
// self-contained unit the Groth16 prover (and later the engine) consumes: the assignments, the
// evaluations a and b of every QAP row, and bellperson's density bitmaps. c is not kept: a
// satisfied R1CS has <C_i, z> = <A_i, z> <B_i, z> on every row, so the prover forms c = a o b where
// the quotient needs it (ntt::hadamard_product; docs/synthesis.md). That saves the evaluation of
// every C combination. a, b and the witness (aux) are CompactColumns (two bits per entry, full
// values only for entries that are not 0 or 1): a 32 GiB PoRep partition holds ~1.4 GB of a and b
// instead of 12.5 GB of dense a, b, c from synthesis to prove_start, which expands them for the
// quotient, and ~0.1 GB of witness instead of 4.2 GB, which the MSMs read as it is.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "msm/density.hpp"
#include "msm/compact_column.hpp"
#include "r1cs/constraint_system.hpp"

namespace zk::r1cs {

using msm::CompactColumn;

/// Byte counts of a partition's buffers, per class (for the engine's budget and ledger).
struct PartitionBytes {
  std::size_t abc = 0;         // a, b evaluations: released once H is computed
  std::size_t assignment = 0;  // input and aux values: needed until prove_finish
  std::size_t density = 0;     // a_aux, b_input, b_aux bitmaps
  std::size_t total() const { return abc + assignment + density; }
};

template <class F>
struct Partition {
  std::vector<F> inputs;  // inputs[0] = ONE
  CompactColumn<F> aux;
  CompactColumn<F> a, b;  // one per QAP row: the constraints, then one `input * 0 = 0` row per input
  msm::DensityBitmap a_aux, b_input, b_aux;

  std::size_t num_rows() const { return a.size(); }
  PartitionBytes bytes() const {
    PartitionBytes out;
    out.abc = a.bytes() + b.bytes();
    out.assignment = inputs.capacity() * sizeof(F) + aux.bytes();
    out.density = a_aux.bytes() + b_input.bytes() + b_aux.bytes();
    return out;
  }
  /// Frees a and b (the prover calls this as soon as H no longer needs them).
  void release_abc() {
    a.release();
    b.release();
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
    p_.a_aux.reserve(hint.aux);
    p_.b_aux.reserve(hint.aux);
    p_.b_input.reserve(hint.inputs);
    p_.a.reserve(hint.constraints + hint.inputs);
    p_.b.reserve(hint.constraints + hint.inputs);
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
  /// C is never read (nor built, when a gadget passes it as a function: lc_of).
  static constexpr bool kReadsC = false;
  template <class N, class CL>
  void enforce(N&&, const LinearCombination<F>& a, const LinearCombination<F>& b, const CL&) {
    p_.a.push_back(eval_with_density(a, nullptr, &p_.a_aux));
    p_.b.push_back(eval_with_density(b, &p_.b_input, &p_.b_aux));
  }
  template <class N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

  /// Appends the input rows and hands over the partition.
  Partition<F> finish() && {
    for (const F& x : p_.inputs) {
      p_.a.push_back(x);
      p_.b.push_back(F::zero());
    }
    return std::move(p_);
  }

 private:
  using Term = typename LinearCombination<F>::Term;

  /// <lc, z>, marking the density of every variable whose merged coefficient is not zero. When no
  /// variable repeats (nearly every row) the terms are used as they are; otherwise they are merged
  /// first (merge_repeats), so a variable whose terms cancel gets no bit. One pass: most values are
  /// bits and most coefficients ±1 or powers of two, so the multiplications left are few. Field
  /// elements are canonical, so any order of additions gives the same bytes.
  F eval_with_density(const LinearCombination<F>& lc, msm::DensityBitmap* input_density,
                      msm::DensityBitmap* aux_density) {
    static constexpr F kMinusOne = -F::one();
    const std::span<const Term> terms = lc.has_distinct_vars() ? lc.terms() : merge_repeats(lc.terms());
    F acc = F::zero();
    for (const Term& t : terms) {
      if (t.coeff.is_zero()) continue;
      const F* x;
      if (!t.var.is_input()) {
        aux_density->set(t.var.index);
        if (!p_.aux.is_other(t.var.index)) {  // a bit: 0 adds nothing, 1 adds the coefficient
          if (p_.aux.is_one(t.var.index)) acc += t.coeff;
          continue;
        }
        x = &p_.aux.other_at(t.var.index);
      } else {
        if (input_density != nullptr) input_density->set(t.var.index);
        x = &p_.inputs[t.var.index];
      }
      if (x->is_zero()) continue;
      if (x->is_one()) {
        acc += t.coeff;
      } else if (t.coeff.is_one()) {
        acc += *x;
      } else if (t.coeff == kMinusOne) {
        acc -= *x;
      } else {
        acc += t.coeff * *x;
      }
    }
    return acc;
  }

  /// One term per variable (coefficients summed, zeros kept), in scratch_. The long rows with
  /// repeats (MultiEq's packed sums: ONE from constant and negated bits, a round's shared operands
  /// twice) mostly span a few thousand recent aux variables, so a stamped slot per variable of that
  /// window finds the repeats in one pass; a row spanning more (a label's message bits, allocated
  /// long before the compression that sums them) goes through a small hash table instead.
  std::span<const Term> merge_repeats(std::span<const Term> terms) {
    static constexpr std::uint32_t kInputSlots = 1024, kWindow = 1 << 16;
    std::uint32_t lo = UINT32_MAX, hi = 0;
    bool fits = true;
    for (const Term& t : terms) {
      if (t.var.is_input()) {
        fits = fits && t.var.index < kInputSlots;
      } else {
        lo = std::min(lo, t.var.index);
        hi = std::max(hi, t.var.index);
      }
    }
    scratch_.clear();
    if (!fits || (lo <= hi && hi - lo >= kWindow)) return merge_by_hash(terms);
    if (stamp_.empty()) {
      stamp_.assign(kInputSlots + kWindow, 0);
      slot_pos_.assign(kInputSlots + kWindow, 0);
    }
    if (++epoch_ == 0) {  // wrapped: forget every stamp
      std::fill(stamp_.begin(), stamp_.end(), 0);
      epoch_ = 1;
    }
    for (const Term& t : terms) {
      const std::uint32_t slot = t.var.is_input() ? t.var.index : kInputSlots + (t.var.index - lo);
      if (stamp_[slot] == epoch_) {
        Term& m = scratch_[slot_pos_[slot]];
        m.coeff += t.coeff;
      } else {
        stamp_[slot] = epoch_;
        slot_pos_[slot] = static_cast<std::uint32_t>(scratch_.size());
        scratch_.push_back(t);
      }
    }
    return scratch_;
  }

  /// merge_repeats for any row: open addressing keyed by the variable, slots stamped per call.
  std::span<const Term> merge_by_hash(std::span<const Term> terms) {
    unsigned log_cap = 4;
    while ((std::size_t{1} << log_cap) < 2 * terms.size()) ++log_cap;
    const std::size_t cap = std::size_t{1} << log_cap, mask = cap - 1;
    if (hash_stamp_.size() < cap) {
      hash_stamp_.assign(cap, 0);
      hash_key_.resize(cap);
      hash_pos_.resize(cap);
    }
    if (++hash_epoch_ == 0) {  // wrapped: forget every stamp
      std::fill(hash_stamp_.begin(), hash_stamp_.end(), 0);
      hash_epoch_ = 1;
    }
    for (const Term& t : terms) {
      const std::uint64_t key = t.var.key();
      std::size_t h = static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ull) >> (64 - log_cap));
      while (hash_stamp_[h] == hash_epoch_ && hash_key_[h] != key) h = (h + 1) & mask;
      if (hash_stamp_[h] == hash_epoch_) {
        scratch_[hash_pos_[h]].coeff += t.coeff;
      } else {
        hash_stamp_[h] = hash_epoch_;
        hash_key_[h] = key;
        hash_pos_[h] = static_cast<std::uint32_t>(scratch_.size());
        scratch_.push_back(t);
      }
    }
    return scratch_;
  }

  Partition<F> p_;
  // merge_repeats' buffers (allocated on first use): merged terms, and per slot of the window the
  // epoch that last saw it and its term's position.
  std::vector<Term> scratch_;
  std::vector<std::uint32_t> stamp_, slot_pos_;
  std::uint32_t epoch_ = 0;
  // merge_by_hash's table: per slot the epoch that last used it, its variable's key, its position.
  std::vector<std::uint32_t> hash_stamp_, hash_pos_;
  std::vector<std::uint64_t> hash_key_;
  std::uint32_t hash_epoch_ = 0;
};

}  // namespace zk::r1cs
