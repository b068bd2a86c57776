#pragma once

// Two-adic roots of unity. The multiplicative generator g is a parameter, never a global: proving
// keys bake in omega = g^t (bellman/bellperson use g = 7 on BLS12-381; snarkjs uses g = 5, the
// smallest non-residue, on both curves), and a prover using the other chain makes proofs that do
// not verify (docs/formats.md, "Roots of unity").

#include <string>

#include "base/status.hpp"
#include "field/mont_field.hpp"

namespace zk::field {

/// A primitive 2^log_n-th root of unity: (g^t)^(2^(s - log_n)) with p - 1 = 2^s t. Fails when
/// log_n > s or when g^t does not have order exactly 2^s (g is not a quadratic non-residue).
template <class F>
Result<F> root_of_unity(std::uint64_t generator, unsigned log_n) {
  constexpr unsigned s = F::Params::kTwoAdicity;
  if (log_n > s) {
    return Status::invalid_argument(std::string(F::Params::kName) + ": a domain of 2^" + std::to_string(log_n) +
                                    " exceeds the two-adicity 2^" + std::to_string(s));
  }
  const F g = F::from_u64(generator);
  if (g.legendre() != -1) {
    return Status::invalid_argument(std::string(F::Params::kName) + ": generator " + std::to_string(generator) +
                                    " is not a quadratic non-residue, so g^t is not a primitive 2^s-th root");
  }
  F w = g.pow(F::Params::kTrace);
  for (unsigned i = log_n; i < s; ++i) w = w.square();
  return w;
}

}  // namespace zk::field
