#pragma once

// Left-to-right square-and-multiply, shared by the extension fields (MontField has its own windowed
// version: inversion and square roots make its exponentiations the hot ones).

#include <cstddef>

#include "field/bigint.hpp"

namespace zk::field {

/// x^e with `square` as the squaring (plain, or cyclotomic for elements of that subgroup).
template <class T, std::size_t M, class Square>
constexpr T pow_square_multiply(const T& x, const Limbs<M>& e, Square square) {
  T r = T::one();
  for (std::size_t i = bit_length(e); i-- > 0;) {
    r = square(r);
    if (bit(e, i)) r = r * x;
  }
  return r;
}

}  // namespace zk::field
