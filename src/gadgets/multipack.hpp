#pragma once

// Field elements to bits and back, as bellpepper's AllocatedNum and bellperson's multipack do it
// (docs/filecoin-gadgets.md):
//   to_bits_le        255 allocated bits, least significant first (each (1 - b) b = 0), then the
//                     unpacking constraint 0 * 0 = sum 2^i b_i - x (non-strict: x + r may share them)
//   inputize          a new input p with p * ONE = x
//   pack_bits         the first 254 bits into one new aux o: (sum 2^i b_i) * ONE = o
//   pack_into_inputs  per 254-bit chunk one new input p_j: (sum 2^i b_i) * ONE = p_j
//   reverse_bit_numbering  pads to whole bytes with constant zeros and reverses each byte (free)

#include <span>
#include <string>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"

namespace zk::gadgets {

inline constexpr std::size_t kFieldCapacity = 254;  // BLS12-381 Fr: bits that always fit

template <class F, class CS>
std::vector<Bit<F>> to_bits_le(CS& cs, const Num<F>& x) {
  const auto repr = x.value.to_canonical();
  std::vector<Bit<F>> bits;
  bits.reserve(F::kBits);
  r1cs::LinearCombination<F> packed;
  F coeff = F::one();
  for (unsigned i = 0; i < F::kBits; ++i) {
    bits.push_back(Bit<F>::alloc(cs, ((repr[i / 64] >> (i % 64)) & 1) != 0));
    packed.add(coeff, bits.back().var);
    coeff = coeff.dbl();
  }
  cs.enforce([] { return std::string("unpacking constraint"); }, r1cs::LinearCombination<F>::zero(),
             r1cs::LinearCombination<F>::zero(), packed - x.lc);
  return bits;
}

template <class F, class CS>
Num<F> inputize(CS& cs, const Num<F>& x) {
  const F v = x.value;
  const auto p = cs.alloc_input([] { return std::string("input variable"); }, [&] { return v; });
  cs.enforce([] { return std::string("enforce input is correct"); }, r1cs::LinearCombination<F>(p),
             r1cs::LinearCombination<F>(r1cs::Variable::one()), x.lc);
  return Num<F>::of(p, v);
}

template <class F>
std::vector<Bit<F>> reverse_bit_numbering(std::vector<Bit<F>> bits) {
  while (bits.size() % 8 != 0) bits.push_back(Bit<F>::of_constant(false));
  for (std::size_t i = 0; i < bits.size(); i += 8) std::reverse(bits.begin() + i, bits.begin() + i + 8);
  return bits;
}

namespace detail {
template <class F>
Num<F> weighted_sum(std::span<const Bit<F>> bits) {
  Num<F> n;
  n.value = F::zero();
  F coeff = F::one();
  for (const auto& b : bits) {
    b.add_to(n.lc, coeff);
    if (b.value) n.value = n.value + coeff;
    coeff = coeff.dbl();
  }
  return n;
}
}  // namespace detail

template <class F, class CS>
Num<F> pack_bits(CS& cs, std::span<const Bit<F>> bits) {
  const Num<F> sum = detail::weighted_sum<F>(bits.first(std::min(bits.size(), kFieldCapacity)));
  const F v = sum.value;
  const auto o = cs.alloc([] { return std::string("input"); }, [&] { return v; });
  cs.enforce([] { return std::string("packing constraint"); }, sum.lc,
             r1cs::LinearCombination<F>(r1cs::Variable::one()), r1cs::LinearCombination<F>(o));
  return Num<F>::of(o, v);
}

template <class F, class CS>
std::vector<Num<F>> pack_into_inputs(CS& cs, std::span<const Bit<F>> bits) {
  std::vector<Num<F>> out;
  for (std::size_t at = 0; at < bits.size(); at += kFieldCapacity) {
    const Num<F> sum = detail::weighted_sum<F>(bits.subspan(at, std::min(kFieldCapacity, bits.size() - at)));
    const F v = sum.value;
    const auto p = cs.alloc_input([] { return std::string("input"); }, [&] { return v; });
    cs.enforce([] { return std::string("packing constraint"); }, sum.lc,
               r1cs::LinearCombination<F>(r1cs::Variable::one()), r1cs::LinearCombination<F>(p));
    out.push_back(Num<F>::of(p, v));
  }
  return out;
}

}  // namespace zk::gadgets
