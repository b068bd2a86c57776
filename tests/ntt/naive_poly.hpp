#pragma once

// Naive polynomial helpers shared by the NTT and quotient tests (the O(n^2) references).

#include <vector>

#include "base/rng.hpp"

namespace zk::ntt::test_support {

template <class F>
std::vector<F> random_vector(std::size_t n, Rng& rng) {
  std::vector<F> v(n);
  for (auto& x : v) x = F::random(rng);
  return v;
}

/// out[k] = sum_i coeffs[i] (shift omega^k)^i.
template <class F>
std::vector<F> naive_eval(const std::vector<F>& coeffs, const F& omega, const F& shift) {
  std::vector<F> out(coeffs.size());
  F x = shift;
  for (std::size_t k = 0; k < coeffs.size(); ++k, x = x * omega) {
    F acc = F::zero();
    for (std::size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
    out[k] = acc;
  }
  return out;
}

}  // namespace zk::ntt::test_support
