#pragma once

// Poseidon exactly as Filecoin's neptune (BLS12-381 Fr; docs/formats.md section 6.1): width
// t = arity + 1, x^5 S-box, 8 full rounds (4 + 4) and R_P partial rounds (55, 56, 57, 57 for
// arities 2, 4, 8, 11: neptune's Standard strength), a Cauchy MDS matrix 1/(i + j + t), round
// constants from the Grain LFSR of the Poseidon reference implementation (generated here, at first
// use, never typed in), the MerkleTree domain tag 2^arity - 1 in lane 0 and the output in lane 1.
//
// poseidon_hash is the native function (the textbook permutation); poseidon_gadget the R1CS twin,
// constraint for constraint neptune's circuit (neptune 11 `circuit::poseidon_hash`, the one every
// Filecoin circuit uses; docs/filecoin-gadgets.md): the optimized round structure with compressed
// round constants, a pre-sparse matrix after the first half of the full rounds and one sparse
// matrix per partial round. Every S-box input that is a linear combination is first allocated
// (A = lc, B = ONE, C = new), then x^2, x^4 and x^5 + constant: 31 t + 4 R_P - 2 constraints per
// hash (311, 377, 505, 598 for arities 2, 4, 8, 11), as many aux variables, in the same order.

#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "field/fields.hpp"
#include "gadgets/num.hpp"

namespace zk::gadgets {

using PoseidonFr = field::Bls12_381Fr;

struct PoseidonParams {
  using Matrix = std::vector<std::vector<PoseidonFr>>;
  unsigned arity = 0, width = 0, full_rounds = 8, partial_rounds = 0;
  std::vector<PoseidonFr> round_constants;  // (full + partial) * width, round-major
  Matrix mds;                               // width x width, symmetric
  PoseidonFr domain_tag;                    // MerkleTree: 2^arity - 1
  // The circuit's optimized form (derivation in poseidon.cpp). A state is a row vector: a mix by
  // matrix X computes s'[j] = sum_i s[i] X[i][j].
  std::vector<PoseidonFr> compressed_constants;  // 8 width + partial_rounds, in the order consumed
  Matrix pre_sparse;                             // after the 4th full round
  struct Sparse {
    std::vector<PoseidonFr> w_hat;   // first column (width): new lane 0 = sum_i w_hat[i] s[i]
    std::vector<PoseidonFr> v_rest;  // first row without the corner: lane j += v_rest[j-1] s[0]
  };
  std::vector<Sparse> sparse;  // one per partial round, in the order used
};

/// The parameters for an arity neptune defines (2, 4, 8, 11); built once and cached.
Result<const PoseidonParams*> poseidon_params(unsigned arity);

/// The permutation on a full state (width elements), round by round as the paper defines it
/// (the reference).
void poseidon_permute(const PoseidonParams& p, std::span<PoseidonFr> state);
/// The same permutation in the optimized form the circuit uses (compressed constants, a
/// pre-sparse matrix, sparse partial rounds): about 3x fewer multiplications, the same result on
/// every state (tested against the reference). poseidon_hash uses it.
void poseidon_permute_optimized(const PoseidonParams& p, std::span<PoseidonFr> state);

/// Poseidon-arity of exactly `arity` inputs (MerkleTree tag).
Result<PoseidonFr> poseidon_hash(std::span<const PoseidonFr> inputs);

/// The circuit version (neptune's constraint layout); returns the hash as a Num that is one
/// allocated variable. Inputs are allocated numbers in Filecoin's circuits (an input that is a
/// longer linear combination is used as it is, without an extra constraint).
/// The same with explicit parameters (another domain tag: SnapDeals' gen-randomness hash);
/// `inputs` holds p's arity (width - 1) numbers.
template <class CS>
Num<PoseidonFr> poseidon_gadget_with(CS& cs, const PoseidonParams& p, std::span<const Num<PoseidonFr>> inputs) {
  using F = PoseidonFr;
  using LC = r1cs::LinearCombination<F>;
  const unsigned t = p.width, half = p.full_rounds / 2;
  const auto& cc = p.compressed_constants;
  std::size_t next_key = 0;  // constants are consumed in order
  const LC one(r1cs::Variable::one());
  auto name = [](const char* n) { return [n] { return std::string(n); }; };

  // A lane's linear combination as a fresh variable (A = lc, B = ONE, C = new).
  auto allocate = [&](const Num<F>& x) {
    const F v = x.value;
    const auto var = cs.alloc(name("S-box input"), [&] { return v; });
    cs.enforce(name("S-box input"), x.lc, one, LC(var));
    return Num<F>::of(var, v);
  };
  // x^5 + post for an allocated x: l^2, l^4, then (l4 * l) = y - post (post absent in the last round).
  auto sbox = [&](const Num<F>& x, const F* post) {
    const Num<F> l2 = Num<F>::mul(cs, name("l^2"), x, x);
    const Num<F> l4 = Num<F>::mul(cs, name("l^4"), l2, l2);
    const F v = l4.value * x.value + (post != nullptr ? *post : F::zero());
    const auto y = cs.alloc(name("l4 * l + rk"), [&] { return v; });
    LC c(y);
    if (post != nullptr) c.add(-*post, r1cs::Variable::one());
    cs.enforce(name("l4 * l + rk"), x.lc, l4.lc, c);
    return Num<F>::of(y, v);
  };
  auto mix = [&](const std::vector<Num<F>>& s, const PoseidonParams::Matrix& m) {
    std::vector<Num<F>> out(t);
    for (unsigned j = 0; j < t; ++j) {
      Num<F> acc;
      acc.value = F::zero();
      for (unsigned i = 0; i < t; ++i) {
        acc.value += s[i].value * m[i][j];
        acc.lc.add_normalized(s[i].lc, m[i][j]);
      }
      out[j] = std::move(acc);
    }
    return out;
  };

  std::vector<Num<F>> s(t);
  // Round 0: the constant tag lane is computed natively; each input lane costs three constraints
  // with the first round constant folded into its linear combinations.
  {
    const F pre0 = cc[0], post0 = cc[t];
    const F x0 = p.domain_tag + pre0;
    s[0] = Num<F>::constant(x0.square().square() * x0 + post0);
    for (unsigned k = 1; k < t; ++k) {
      const F pre = cc[k], post = cc[t + k];
      Num<F> xin = inputs[k - 1] + Num<F>::constant(pre);
      const Num<F> q = Num<F>::mul(cs, name("(l+rk)^2"), xin, xin);
      const Num<F> q4 = Num<F>::mul(cs, name("l^4"), q, q);
      const F v = q4.value * xin.value + post;
      const auto y = cs.alloc(name("l4 * (l + rk)"), [&] { return v; });
      LC c(y);
      c.add(-post, r1cs::Variable::one());
      cs.enforce(name("l4 * (l + rk)"), xin.lc, q4.lc, c);
      s[k] = Num<F>::of(y, v);
    }
    next_key = 2 * t;
  }
  s = mix(s, p.mds);
  // Full rounds 1 .. half-1, the last of them mixed by the pre-sparse matrix.
  for (unsigned r = 1; r < half; ++r) {
    for (unsigned k = 0; k < t; ++k) s[k] = sbox(allocate(s[k]), &cc[next_key + k]);
    next_key += t;
    s = mix(s, r == half - 1 ? p.pre_sparse : p.mds);
  }
  // Partial rounds: only lane 0 goes through the S-box; sparse mixes keep the others linear.
  for (unsigned r = 0; r < p.partial_rounds; ++r) {
    s[0] = sbox(allocate(s[0]), &cc[next_key++]);
    const auto& sp = p.sparse[r];
    Num<F> lane0;
    lane0.value = F::zero();
    for (unsigned i = 0; i < t; ++i) {
      lane0.value += s[i].value * sp.w_hat[i];
      lane0.lc.add_normalized(s[i].lc, sp.w_hat[i]);
    }
    for (unsigned j = 1; j < t; ++j) {
      s[j].value += s[0].value * sp.v_rest[j - 1];
      s[j].lc.add_normalized(s[0].lc, sp.v_rest[j - 1]);
    }
    s[0] = std::move(lane0);
  }
  // The remaining full rounds; the terminal one adds no constant.
  for (unsigned r = 0; r < half; ++r) {
    const bool terminal = r + 1 == half;
    for (unsigned k = 0; k < t; ++k) s[k] = sbox(allocate(s[k]), terminal ? nullptr : &cc[next_key + k]);
    if (!terminal) next_key += t;
    s = mix(s, p.mds);
  }
  return allocate(s[1]);  // "hash result"
}

template <class CS>
Result<Num<PoseidonFr>> poseidon_gadget(CS& cs, std::span<const Num<PoseidonFr>> inputs) {
  auto params = poseidon_params(static_cast<unsigned>(inputs.size()));
  if (!params.ok()) return params.status();
  return poseidon_gadget_with(cs, **params, inputs);
}

}  // namespace zk::gadgets
