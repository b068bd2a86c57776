#pragma once

// The vector operations SnarkPack's prover is made of (bellperson groth16::aggregate commit.rs and
// inner_product.rs; zkpipe's own code): products of pairings over index ranges (the pair and single
// commitments, the inner pairing products), the GIPA fold of a vector, point-wise scaling, and the
// structured powers 1, r, r^2, ... Threaded with oneTBB in the caller's arena; results do not depend
// on the thread count (exact group arithmetic, order-free products).

#include <cstddef>
#include <span>
#include <vector>

#include "snarkpack/gt.hpp"

namespace zk::snarkpack {

/// One factor of a pairing product: e(p[j], q[j]) for every index j of the product's range.
struct PairingTerm {
  std::span<const G1Affine> p;
  std::span<const G2Affine> q;
};
using PairingProduct = std::vector<PairingTerm>;

/// prod_{j < len} prod_t e(t.p[j], t.q[j]) for each product (every span holds at least len points),
/// final-exponentiated. Each distinct G2 vector (by its span's data) is prepared once per chunk of
/// indices however many terms use it.
std::vector<Fq12> pairing_products(std::size_t len, std::span<const PairingProduct> products);

/// The pair commitment (T, U) of (A, B) under keys v = (v1, v2) in G2 and w = (w1, w2) in G1:
/// T = prod e(A_j, v1_j) e(w1_j, B_j), U the same with v2, w2 — as two products.
std::vector<PairingProduct> pair_commitment(std::span<const G1Affine> a, std::span<const G2Affine> b,
                                            std::span<const G2Affine> v1, std::span<const G2Affine> v2,
                                            std::span<const G1Affine> w1, std::span<const G1Affine> w2);
/// The single commitment (T, U) of C: T = prod e(C_j, v1_j), U = prod e(C_j, v2_j).
std::vector<PairingProduct> single_commitment(std::span<const G1Affine> c, std::span<const G2Affine> v1,
                                              std::span<const G2Affine> v2);

/// x[j] <- x[j] + k x[j + h] for j < h = x.size() / 2, then x shrinks to h (a GIPA round's fold).
void fold(std::vector<G1Affine>& x, const Fr& k);
void fold(std::vector<G2Affine>& x, const Fr& k);
void fold(std::vector<Fr>& x, const Fr& k);

/// k[j] x[j] for every j (x and k of one length).
std::vector<G1Affine> scale(std::span<const G1Affine> x, std::span<const Fr> k);
std::vector<G2Affine> scale(std::span<const G2Affine> x, std::span<const Fr> k);

/// 1, r, r^2, ..., r^(n-1).
std::vector<Fr> powers_of(const Fr& r, std::size_t n);

}  // namespace zk::snarkpack
