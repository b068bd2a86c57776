// Field arithmetic against @noble/curves (tests/data/noble/vectors.json).

#include <gtest/gtest.h>

#include "field/fields.hpp"
#include "noble_vectors.hpp"

namespace zk::field {
namespace {

template <class F>
void check_field(const char* key) {
  SCOPED_TRACE(key);
  const auto& v = test::noble_vectors().at("fields").at(key);
  using test::hex_to;
  Limbs<F::kLimbs> modulus{};
  ASSERT_TRUE(parse_hex(v.at("modulus").get<std::string>(), modulus));
  ASSERT_EQ(modulus, F::Params::kModulus);
  std::size_t n = 0;
  for (const auto& t : v.at("mul")) {
    EXPECT_EQ(hex_to<F>(t[0]) * hex_to<F>(t[1]), hex_to<F>(t[2]));
    ++n;
  }
  for (const auto& t : v.at("add")) EXPECT_EQ(hex_to<F>(t[0]) + hex_to<F>(t[1]), hex_to<F>(t[2]));
  for (const auto& t : v.at("sub")) EXPECT_EQ(hex_to<F>(t[0]) - hex_to<F>(t[1]), hex_to<F>(t[2]));
  for (const auto& t : v.at("inv")) EXPECT_EQ(hex_to<F>(t[0]).inverse(), hex_to<F>(t[1]));
  for (const auto& t : v.at("pow")) {
    Limbs<4> e{};
    ASSERT_TRUE(parse_hex(t[1].get<std::string>(), e));
    EXPECT_EQ(hex_to<F>(t[0]).pow(e), hex_to<F>(t[2]));
  }
  int roots = 0, non_roots = 0;
  for (const auto& t : v.at("sqrt")) {
    const F a = hex_to<F>(t[0]);
    const auto r = a.sqrt();
    if (t[1].is_null()) {
      EXPECT_FALSE(r.has_value());
      ++non_roots;
    } else {
      ASSERT_TRUE(r.has_value());
      const F noble = hex_to<F>(t[1]);
      EXPECT_TRUE(*r == noble || *r == -noble);
      ++roots;
    }
  }
  EXPECT_GE(n, 30u);
  EXPECT_GT(roots, 0);
  EXPECT_GT(non_roots, 0);
}

TEST(NobleFieldVectors, Bls12_381Fq) { check_field<Bls12_381Fq>("bls12_381_fq"); }
TEST(NobleFieldVectors, Bls12_381Fr) { check_field<Bls12_381Fr>("bls12_381_fr"); }
TEST(NobleFieldVectors, Bn254Fq) { check_field<Bn254Fq>("bn254_fq"); }
TEST(NobleFieldVectors, Bn254Fr) { check_field<Bn254Fr>("bn254_fr"); }

}  // namespace
}  // namespace zk::field
