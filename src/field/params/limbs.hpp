#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace zk::field::params {

/// N little-endian 64-bit limbs of a canonical (non-Montgomery) integer.
template <std::size_t N>
using Limbs = std::array<std::uint64_t, N>;

/// An Fq2 element c0 + c1*u as two canonical integers {c0, c1}.
template <std::size_t N>
using Fp2Limbs = std::array<Limbs<N>, 2>;

}  // namespace zk::field::params
