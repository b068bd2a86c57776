#pragma once

// Poseidon exactly as Filecoin's neptune (BLS12-381 Fr; docs/formats.md section 6.1): width
// t = arity + 1, x^5 S-box, 8 full rounds (4 + 4) and R_P partial rounds (55, 56, 57, 57 for
// arities 2, 4, 8, 11: neptune's Standard strength), a Cauchy MDS matrix 1/(i + j + t), round
// constants from the Grain LFSR of the Poseidon reference implementation (generated here, at first
// use, never typed in), the MerkleTree domain tag 2^arity - 1 in lane 0 and the output in lane 1.
//
// poseidon_hash is the native function; poseidon_gadget the R1CS twin: 3 constraints per S-box
// (x^2, x^4, x^5), round constants and the MDS folded into linear combinations for free, so
// (8 t + R_P) x 3 constraints per hash (237 for arity 2, 288 for 4, 387 for 8, 459 for 11).

#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "field/fields.hpp"
#include "gadgets/num.hpp"

namespace zk::gadgets {

using PoseidonFr = field::Bls12_381Fr;

struct PoseidonParams {
  unsigned arity = 0, width = 0, full_rounds = 8, partial_rounds = 0;
  std::vector<PoseidonFr> round_constants;   // (full + partial) * width, round-major
  std::vector<std::vector<PoseidonFr>> mds;  // width x width
  PoseidonFr domain_tag;                     // MerkleTree: 2^arity - 1
};

/// The parameters for an arity neptune defines (2, 4, 8, 11); built once and cached.
Result<const PoseidonParams*> poseidon_params(unsigned arity);

/// The permutation on a full state (width elements).
void poseidon_permute(const PoseidonParams& p, std::span<PoseidonFr> state);

/// Poseidon-arity of exactly `arity` inputs (MerkleTree tag).
Result<PoseidonFr> poseidon_hash(std::span<const PoseidonFr> inputs);

/// The circuit version; returns the hash as a Num.
template <class CS>
Result<Num<PoseidonFr>> poseidon_gadget(CS& cs, std::span<const Num<PoseidonFr>> inputs) {
  using F = PoseidonFr;
  auto params = poseidon_params(static_cast<unsigned>(inputs.size()));
  if (!params.ok()) return params.status();
  const PoseidonParams& p = **params;
  const unsigned t = p.width;
  std::vector<Num<F>> s;
  s.push_back(Num<F>::constant(p.domain_tag));
  for (const auto& in : inputs) s.push_back(in);
  const unsigned rounds = p.full_rounds + p.partial_rounds, half = p.full_rounds / 2;
  for (unsigned r = 0; r < rounds; ++r) {
    for (unsigned i = 0; i < t; ++i) s[i] += Num<F>::constant(p.round_constants[r * t + i]);
    const bool full = r < half || r >= half + p.partial_rounds;
    for (unsigned i = 0; i < (full ? t : 1); ++i) {
      const Num<F> x2 = Num<F>::mul(
          cs, [] { return std::string("x^2"); }, s[i], s[i]);
      const Num<F> x4 = Num<F>::mul(
          cs, [] { return std::string("x^4"); }, x2, x2);
      s[i] = Num<F>::mul(
          cs, [] { return std::string("x^5"); }, x4, s[i]);
    }
    std::vector<Num<F>> next(t);
    for (unsigned i = 0; i < t; ++i) {
      Num<F> acc;
      acc.value = F::zero();
      for (unsigned j = 0; j < t; ++j) acc += s[j] * p.mds[i][j];
      acc.lc = acc.lc.normalized();  // keep the lanes' linear combinations short
      next[i] = std::move(acc);
    }
    s = std::move(next);
  }
  return s[1];
}

}  // namespace zk::gadgets
