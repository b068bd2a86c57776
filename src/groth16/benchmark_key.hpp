#pragma once

// A proving key for measuring the prover where a real key cannot be had: Filecoin's 32 GiB PoRep
// key is 47 GB (its published file is not on a benchmark machine, and a setup of 130 million
// constraints does not run there). It has exactly the query sizes of the real key, so prove_start
// and prove_finish do all of their real work (every MSM over every point, the quotient over the
// whole domain), but its points are NOT a setup: G1 queries are tiled from 2^16 random points, B_G2
// from 2^8, the verifying key is random. Proofs made with it never verify; whoever uses it must say
// so (`zkpipe bench --params benchmark-key` does).

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "base/rng.hpp"
#include "curve/point.hpp"
#include "groth16/keys.hpp"

namespace zk::groth16 {

/// Points per query of a Groth16 key (as the sections of a bellman parameter file): inputs (ic),
/// H (domain size - 1), L (aux variables), A and B (variables in the A / B density).
struct KeySizes {
  std::uint64_t ic = 0, h = 0, l = 0, a = 0, b = 0;
  /// G1 and G2 points' bytes in memory.
  template <class E>
  std::uint64_t bytes() const {
    return (ic + h + l + a + b) * sizeof(typename E::G1Affine) + b * sizeof(typename E::G2Affine);
  }
};

namespace detail {
/// `n` points repeating `tile`, filled in parallel.
template <class A>
std::vector<A> tiled(const std::vector<A>& tile, std::uint64_t n) {
  std::vector<A> out(n);
  const std::size_t t = tile.size();
  tbb::parallel_for(std::uint64_t{0}, (n + t - 1) / t, [&](std::uint64_t k) {
    const std::uint64_t from = k * t, len = std::min<std::uint64_t>(t, n - from);
    std::memcpy(static_cast<void*>(out.data() + from), tile.data(), len * sizeof(A));
  });
  return out;
}
}  // namespace detail

template <class E>
ProvingKey<E> benchmark_key(const KeySizes& s, std::uint64_t seed) {
  Rng rng(seed);
  const auto g1 = curve::consecutive_points<typename E::G1Config>(std::size_t{1} << 16, rng);
  const auto g2 = curve::consecutive_points<typename E::G2Config>(std::size_t{1} << 8, rng);
  ProvingKey<E> pk;
  pk.vk.alpha_g1 = g1[1], pk.vk.beta_g1 = g1[2], pk.vk.delta_g1 = g1[3];
  pk.vk.beta_g2 = g2[1], pk.vk.gamma_g2 = g2[2], pk.vk.delta_g2 = g2[3];
  pk.vk.ic = detail::tiled(g1, s.ic);
  pk.h = detail::tiled(g1, s.h);
  pk.l = detail::tiled(g1, s.l);
  pk.a = detail::tiled(g1, s.a);
  pk.b_g1 = detail::tiled(g1, s.b);
  pk.b_g2 = detail::tiled(g2, s.b);
  return pk;
}

}  // namespace zk::groth16
