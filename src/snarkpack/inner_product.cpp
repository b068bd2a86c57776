#include "snarkpack/inner_product.hpp"

#include <algorithm>

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include "curve/glv.hpp"
#include "curve/pairing.hpp"

namespace zk::snarkpack {
namespace {

namespace bls = curve::bls12_381;

/// Indices per chunk of pairing_products: its G2 preparations (~20 KB each) live for one chunk.
constexpr std::size_t kPairChunk = 16;
/// Points per task of the point-wise operations (one batch inversion each).
constexpr std::size_t kPointChunk = 64;

/// out[j] = f(j) for j < n as affine points, in chunks with one inversion each.
template <class C, class F>
std::vector<curve::Affine<C>> map_points(std::size_t n, const F& f) {
  std::vector<curve::Affine<C>> out(n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, kPointChunk), [&](const tbb::blocked_range<std::size_t>& r) {
    std::vector<curve::Jacobian<C>> jac;
    jac.reserve(r.size());
    for (std::size_t j = r.begin(); j < r.end(); ++j) jac.push_back(f(j));
    const auto aff = curve::batch_to_affine<C>(jac);
    std::copy(aff.begin(), aff.end(), out.begin() + static_cast<std::ptrdiff_t>(r.begin()));
  });
  return out;
}

template <class C>
void fold_points(std::vector<curve::Affine<C>>& x, const Fr& k) {
  const std::size_t h = x.size() / 2;
  auto folded =
      map_points<C>(h, [&](std::size_t j) { return x[j].to_jacobian() + curve::glv_mul(x[j + h].to_jacobian(), k); });
  x = std::move(folded);
}

template <class C>
std::vector<curve::Affine<C>> scale_points(std::span<const curve::Affine<C>> x, std::span<const Fr> k) {
  return map_points<C>(std::min(x.size(), k.size()),
                       [&](std::size_t j) { return curve::glv_mul(x[j].to_jacobian(), k[j]); });
}

}  // namespace

std::vector<Fq12> pairing_products(std::size_t len, std::span<const PairingProduct> products) {
  // The distinct G2 vectors, and each term's slot among them.
  std::vector<const G2Affine*> vectors;
  std::vector<std::vector<std::size_t>> slot(products.size());
  for (std::size_t k = 0; k < products.size(); ++k) {
    for (const PairingTerm& t : products[k]) {
      auto it = std::find(vectors.begin(), vectors.end(), t.q.data());
      slot[k].push_back(static_cast<std::size_t>(it - vectors.begin()));
      if (it == vectors.end()) vectors.push_back(t.q.data());
    }
  }
  using Partial = std::vector<Fq12>;
  tbb::combinable<Partial> partials([&] { return Partial(products.size(), Fq12::one()); });
  const std::size_t chunks = (len + kPairChunk - 1) / kPairChunk;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks), [&](const tbb::blocked_range<std::size_t>& r) {
    Partial& acc = partials.local();
    std::vector<bls::G2Prepared> prepared(vectors.size() * kPairChunk);
    std::vector<G1Affine> ps;
    std::vector<const bls::G2Prepared*> qs;
    for (std::size_t c = r.begin(); c < r.end(); ++c) {
      const std::size_t j0 = c * kPairChunk, m = std::min(kPairChunk, len - j0);
      for (std::size_t s = 0; s < vectors.size(); ++s) {
        for (std::size_t j = 0; j < m; ++j) prepared[s * kPairChunk + j] = bls::prepare(vectors[s][j0 + j]);
      }
      for (std::size_t k = 0; k < products.size(); ++k) {
        ps.clear();
        qs.clear();
        for (std::size_t t = 0; t < products[k].size(); ++t) {
          for (std::size_t j = 0; j < m; ++j) {
            ps.push_back(products[k][t].p[j0 + j]);
            qs.push_back(&prepared[slot[k][t] * kPairChunk + j]);
          }
        }
        acc[k] = acc[k] * bls::multi_miller_loop(ps, qs);
      }
    }
  });
  Partial total(products.size(), Fq12::one());
  partials.combine_each([&](const Partial& p) {
    for (std::size_t k = 0; k < total.size(); ++k) total[k] = total[k] * p[k];
  });
  tbb::parallel_for(std::size_t{0}, total.size(),
                    [&](std::size_t k) { total[k] = bls::final_exponentiation(total[k]); });
  return total;
}

std::vector<PairingProduct> pair_commitment(std::span<const G1Affine> a, std::span<const G2Affine> b,
                                            std::span<const G2Affine> v1, std::span<const G2Affine> v2,
                                            std::span<const G1Affine> w1, std::span<const G1Affine> w2) {
  return {{{a, v1}, {w1, b}}, {{a, v2}, {w2, b}}};
}

std::vector<PairingProduct> single_commitment(std::span<const G1Affine> c, std::span<const G2Affine> v1,
                                              std::span<const G2Affine> v2) {
  return {{{c, v1}}, {{c, v2}}};
}

void fold(std::vector<G1Affine>& x, const Fr& k) { fold_points<curve::Bls12_381G1>(x, k); }
void fold(std::vector<G2Affine>& x, const Fr& k) { fold_points<curve::Bls12_381G2>(x, k); }
void fold(std::vector<Fr>& x, const Fr& k) {
  const std::size_t h = x.size() / 2;
  for (std::size_t j = 0; j < h; ++j) x[j] = x[j] + x[j + h] * k;
  x.resize(h);
}

std::vector<G1Affine> scale(std::span<const G1Affine> x, std::span<const Fr> k) {
  return scale_points<curve::Bls12_381G1>(x, k);
}
std::vector<G2Affine> scale(std::span<const G2Affine> x, std::span<const Fr> k) {
  return scale_points<curve::Bls12_381G2>(x, k);
}

std::vector<Fr> powers_of(const Fr& r, std::size_t n) {
  std::vector<Fr> out(n);
  Fr p = Fr::one();
  for (auto& x : out) x = p, p = p * r;
  return out;
}

}  // namespace zk::snarkpack
