// Scalar multiplications and pairings against @noble/curves (tests/data/noble/vectors.json).

#include <gtest/gtest.h>

#include "curve/pairing.hpp"
#include "noble_vectors.hpp"

namespace zk::curve {
namespace {

using test::hex_to;

template <class Fq2>
Fq2 fq2_of(const nlohmann::json& v) {
  return {hex_to<typename Fq2::Base>(v[0]), hex_to<typename Fq2::Base>(v[1])};
}

template <class C, class Coord>
void check_group(const char* key, Coord coord) {
  SCOPED_TRACE(key);
  const auto& entries = test::noble_vectors().at("groups").at(key);
  ASSERT_GE(entries.size(), 10u);
  for (const auto& e : entries) {
    const auto k = hex_to<typename C::Scalar>(e.at("k"));
    const Affine<C> expected = Affine<C>::from_xy(coord(e.at("x")), coord(e.at("y")));
    ASSERT_TRUE(expected.is_on_curve());
    EXPECT_EQ((Jacobian<C>::generator() * k).to_affine(), expected);
  }
}

TEST(NobleCurveVectors, ScalarMultiplesOfTheGenerators) {
  check_group<Bls12_381G1>("bls12_381_g1", [](const auto& v) { return hex_to<bls12_381::Fq>(v); });
  check_group<Bls12_381G2>("bls12_381_g2", [](const auto& v) { return fq2_of<bls12_381::Fq2>(v); });
  check_group<Bn254G1>("bn254_g1", [](const auto& v) { return hex_to<bn254::Fq>(v); });
  check_group<Bn254G2>("bn254_g2", [](const auto& v) { return fq2_of<bn254::Fq2>(v); });
}

template <class Fq12>
Fq12 fq12_of(const nlohmann::json& e) {
  using Fq2 = typename Fq12::Fq2;
  using Fq = typename Fq2::Base;
  // Order: c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1.
  std::array<Fq2, 6> c{};
  for (int i = 0; i < 6; ++i) c[i] = {hex_to<Fq>(e[2 * i]), hex_to<Fq>(e[2 * i + 1])};
  return {{c[0], c[1], c[2]}, {c[3], c[4], c[5]}};
}

template <class Fr, class G1, class G2, class Fq12, class Pair, class Textbook, class Miller>
void check_pairings(const char* key, Pair pair, Textbook textbook, Miller miller) {
  SCOPED_TRACE(key);
  const auto& entries = test::noble_vectors().at("pairings").at(key);
  const auto& standard = test::noble_vectors().at("pairing_checks").at(key).at("e_standard");
  ASSERT_EQ(entries.size(), standard.size());
  ASSERT_GE(entries.size(), 3u);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    const auto p = (G1::generator() * hex_to<Fr>(e.at("a"))).to_affine();
    const auto q = (G2::generator() * hex_to<Fr>(e.at("b"))).to_affine();
    EXPECT_EQ(pair(p, q), fq12_of<Fq12>(e.at("e"))) << "entry " << i;
    if (i < 2) {
      EXPECT_EQ(textbook(miller(p, q)), fq12_of<Fq12>(standard[i])) << "textbook, entry " << i;
    }
  }
}

TEST(NobleCurveVectors, Bls12_381PairingsMatchByteForByte) {
  using namespace bls12_381;
  check_pairings<Fr, G1, G2, Fq12>(
      "bls12_381", [](const G1Affine& p, const G2Affine& q) { return pairing(p, q); },
      [](const Fq12& f) { return final_exponentiation_textbook(f); },
      [](const G1Affine& p, const G2Affine& q) {
        const G2Prepared prep = prepare(q);
        const G2Prepared* qs[] = {&prep};
        return multi_miller_loop(std::span(&p, 1), qs);
      });
}

TEST(NobleCurveVectors, Bn254PairingsMatchByteForByte) {
  using namespace bn254;
  check_pairings<Fr, G1, G2, Fq12>(
      "bn254", [](const G1Affine& p, const G2Affine& q) { return pairing(p, q); },
      [](const Fq12& f) { return final_exponentiation_textbook(f); },
      [](const G1Affine& p, const G2Affine& q) {
        const G2Prepared prep = prepare(q);
        const G2Prepared* qs[] = {&prep};
        return multi_miller_loop(std::span(&p, 1), qs);
      });
}

}  // namespace
}  // namespace zk::curve
