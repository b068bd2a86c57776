// bellman-layout files: round trips on both curves, real Zcash Sapling parameters and mainnet
// proofs, the bellman/gnark verifier cases, and malformed files (truncated, oversized counts,
// corrupted points, identities where bellman forbids them).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "curve/serialize.hpp"
#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/prover_cs.hpp"
#include "test_circuits.hpp"
#include "test_util.hpp"

namespace zk::groth16 {
namespace {

template <class E>
class IoTest : public ::testing::Test {};
using Engines = ::testing::Types<Bls12_381, Bn254>;
TYPED_TEST_SUITE(IoTest, Engines);

template <class E>
struct Fixture {
  ProvingKey<E> pk;
  std::vector<Proof<E>> proofs;
  std::vector<typename E::Fr> inputs;
};

template <class E>
Fixture<E> make_fixture(std::uint64_t salt) {
  using Fr = typename E::Fr;
  auto rng = test::rng(salt);
  const auto circuit = test::RandomCircuit<Fr>::make(rng, 2, 3, 20);
  r1cs::ShapeRecorder<Fr> rec;
  EXPECT_TRUE(circuit.synthesize(rec).ok());
  Fixture<E> f;
  f.pk = *generate_parameters<E>(rec.shape(), Trapdoor<E>::random(rng));
  for (int i = 0; i < 2; ++i) {
    r1cs::ProvingSystem<Fr> cs;
    EXPECT_TRUE(circuit.synthesize(cs).ok());
    f.proofs.push_back(*prove(f.pk, std::move(cs).finish(), Fr::random(rng), Fr::random(rng)));
  }
  f.inputs = circuit.public_inputs();
  return f;
}

TYPED_TEST(IoTest, KeysAndProofsRoundTrip) {
  using E = TypeParam;
  const auto f = make_fixture<E>(61);
  const auto vk_bytes = write_verifying_key(f.pk.vk);
  std::size_t consumed = 0;
  auto vk = read_verifying_key<E>(vk_bytes, &consumed);
  ASSERT_TRUE(vk.ok()) << vk.status().to_string();
  EXPECT_EQ(consumed, vk_bytes.size());
  EXPECT_EQ(write_verifying_key(*vk), vk_bytes);

  auto params = write_parameters(f.pk);
  {
    // Bytes after b_g2 that are not an MPC transcript: refused (issue 47; a .vk's are too).
    auto junk = params;
    junk.insert(junk.end(), {1, 2, 3, 4, 5});
    auto r = read_parameters<E>(junk);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("5 bytes follow the b_g2 section"), std::string::npos) << r.status().message();
    EXPECT_FALSE(parameter_sections<E>(junk).ok());
  }
  // An MPC transcript (hash, count 1, one contribution) follows, as in Zcash's and Filecoin's files.
  params.resize(params.size() + 64, 0xab);
  params.insert(params.end(), {0, 0, 0, 1});
  params.resize(params.size() + 3 * key_point_bytes<E>(false) + key_point_bytes<E>(true) + 64, 0xcd);
  EXPECT_TRUE(parameter_sections<E>(params).ok());
  for (bool check : {true, false}) {
    auto pk = read_parameters<E>(params, {.check_subgroup = check});
    ASSERT_TRUE(pk.ok()) << pk.status().to_string();
    EXPECT_EQ(write_parameters(*pk), write_parameters(f.pk));
  }
  EXPECT_EQ(std::vector<std::uint8_t>(params.begin(), params.begin() + static_cast<std::ptrdiff_t>(vk_bytes.size())),
            vk_bytes);

  const auto proof_bytes_ = write_proofs<E>(f.proofs);
  EXPECT_EQ(proof_bytes_.size(), 2 * proof_bytes<E>());
  auto proofs = read_proofs<E>(proof_bytes_);
  ASSERT_TRUE(proofs.ok()) << proofs.status().to_string();
  ASSERT_EQ(proofs->size(), 2u);
  const auto pvk = prepare_verifying_key(*vk);
  for (const auto& p : *proofs) EXPECT_TRUE(*verify(pvk, p, f.inputs));
}

TYPED_TEST(IoTest, MalformedFilesAreClearErrors) {
  using E = TypeParam;
  const auto f = make_fixture<E>(62);
  const auto params = write_parameters(f.pk);
  // Every truncation is an error, never a crash.
  for (std::size_t len : {std::size_t{0}, std::size_t{10}, params.size() / 3, params.size() / 2, params.size() - 1}) {
    auto r = read_parameters<E>(std::span(params).first(len));
    EXPECT_FALSE(r.ok()) << len;
  }
  // An enormous count is refused before any allocation.
  const auto vk_len = write_verifying_key(f.pk.vk).size();
  auto big = params;
  big[vk_len] = 0xff;
  big[vk_len + 1] = 0xff;
  auto r = read_parameters<E>(big);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("claims"), std::string::npos) << r.status().message();
  // A corrupted coordinate: off the curve (or non-canonical).
  auto bad = params;
  bad[vk_len + 4 + 20] ^= 0x01;
  EXPECT_FALSE(read_parameters<E>(bad).ok());
  // Proof files: wrong length, corrupted bytes (either rejected or failing verification).
  auto proofs = write_proofs<E>(f.proofs);
  EXPECT_FALSE(read_proofs<E>(std::span(proofs).first(proofs.size() - 1)).ok());
  EXPECT_FALSE(read_proofs<E>(std::span<const std::uint8_t>()).ok());
  const auto pvk = prepare_verifying_key(f.pk.vk);
  for (std::size_t i = 0; i < proof_bytes<E>(); i += 7) {
    auto flipped = proofs;
    flipped[i] ^= 0x04;
    auto p = read_proofs<E>(flipped);
    if (p.ok()) {
      EXPECT_FALSE(*verify(pvk, (*p)[0], f.inputs)) << "byte " << i;
    }
  }
}

// Zcash Sapling: the real output-circuit parameters and ten mainnet proofs.
TEST(SaplingParams, RealParametersLoadAndMainnetProofsVerify) {
  const auto dir = test::shared_testdata();
  if (dir.empty()) GTEST_SKIP() << "shared testdata not found (../shared/testdata or ZKPIPE_TESTDATA)";
  auto bytes = read_file(dir / "groth16_sapling" / "sapling-output.params");
  ASSERT_TRUE(bytes.ok()) << bytes.status().to_string();
  auto pk = read_parameters<Bls12_381>(*bytes, {.check_subgroup = false});
  ASSERT_TRUE(pk.ok()) << pk.status().to_string();
  EXPECT_EQ(pk->h.size(), 8191u);
  EXPECT_EQ(pk->l.size(), 7821u);
  EXPECT_EQ(pk->a.size(), 6298u);
  EXPECT_EQ(pk->b_g1.size(), 4850u);
  EXPECT_EQ(pk->b_g2.size(), 4850u);
  EXPECT_EQ(pk->vk.ic.size(), 6u);
  const auto pvk = prepare_verifying_key(pk->vk);
  const auto cases = nlohmann::json::parse(test::read_file(dir / "groth16_sapling" / "output_proofs.json"));
  ASSERT_EQ(cases.size(), 10u);
  for (const auto& c : cases) {
    auto proof = read_proofs<Bls12_381>(test::from_hex(c["proof"].get<std::string>()));
    ASSERT_TRUE(proof.ok()) << proof.status().to_string();
    std::vector<Bls12_381::Fr> inputs;
    for (const auto& h : c["inputs_le_hex"]) {
      auto x = Bls12_381::Fr::from_bytes(test::from_hex(h.get<std::string>()), field::Endian::kLittle);
      ASSERT_TRUE(x.ok());
      inputs.push_back(*x);
    }
    EXPECT_EQ(*verify(pvk, (*proof)[0], inputs), c["valid"].get<bool>()) << c["source"];
    inputs[2] = inputs[2] + Bls12_381::Fr::one();
    EXPECT_FALSE(*verify(pvk, (*proof)[0], inputs)) << "altered input, " << c["source"];
  }
}

// Eight verifier cases from Rust bellman, via gnark's test suite (compressed vk layout).
TEST(BellmanGnarkCases, EachCaseGivesItsExpectedResult) {
  const auto dir = test::shared_testdata();
  if (dir.empty()) GTEST_SKIP() << "shared testdata not found (../shared/testdata or ZKPIPE_TESTDATA)";
  const auto cases = nlohmann::json::parse(test::read_file(dir / "groth16_bellman_gnark" / "cases.json"));
  ASSERT_EQ(cases.size(), 8u);
  for (const auto& c : cases) {
    auto vk = read_verifying_key_compressed(test::from_hex(c["vk"].get<std::string>()));
    ASSERT_TRUE(vk.ok()) << vk.status().to_string();
    const auto pvk = prepare_verifying_key(*vk);
    const auto inb = test::from_hex(c["inputs"].get<std::string>());
    std::vector<Bls12_381::Fr> inputs;
    bool canonical = true;
    for (std::size_t i = 0; i + 32 <= inb.size(); i += 32) {
      auto x = Bls12_381::Fr::from_bytes(std::span(inb).subspan(i, 32), field::Endian::kBig);
      if (x.ok()) {
        inputs.push_back(*x);
      } else {
        canonical = false;
      }
    }
    const bool expect = c["ok"].get<bool>();
    auto proof = read_proofs<Bls12_381>(test::from_hex(c["proof"].get<std::string>()));
    bool got = false;
    if (proof.ok() && canonical) {
      auto v = verify(pvk, (*proof)[0], inputs);
      got = v.ok() && *v;
    }
    EXPECT_EQ(got, expect) << "case " << c["case"];
  }
}

}  // namespace
}  // namespace zk::groth16

#include "groth16/public_inputs.hpp"

namespace zk::groth16 {
namespace {

TEST(PublicInputs, DecimalAndJsonRoundTripAndRejectBadValues) {
  using Fr = Bn254::Fr;
  const std::string r_minus_1 = "21888242871839275222246405745257275088548364400416034343698204186575808495616";
  EXPECT_EQ(field::to_decimal(-Fr::one()), r_minus_1);
  EXPECT_EQ(field::to_decimal(Fr::zero()), "0");
  EXPECT_EQ(field::to_decimal(Fr::from_u64(10000000000000000000ull)), "10000000000000000000");
  EXPECT_EQ(*field::from_decimal<Fr>(r_minus_1), -Fr::one());
  EXPECT_FALSE(
      field::from_decimal<Fr>("21888242871839275222246405745257275088548364400416034343698204186575808495617").ok());
  EXPECT_FALSE(field::from_decimal<Fr>("1e5").ok());
  EXPECT_FALSE(field::from_decimal<Fr>("").ok());
  EXPECT_FALSE(field::from_decimal<Fr>(std::string(90, '9')).ok());

  auto rng = test::rng(71);
  const std::vector<std::vector<Fr>> two{{Fr::random(rng), Fr::one()}, {Fr::zero(), -Fr::one()}};
  auto back = public_inputs_from_json<Fr>(public_inputs_to_json(two));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, two);
  const std::vector<std::vector<Fr>> one{{Fr::from_u64(236), Fr::from_u64(5)}};
  EXPECT_EQ(public_inputs_to_json(one), "[\n \"236\",\n \"5\"\n]\n");  // flat: the snarkjs shape
  EXPECT_EQ(*public_inputs_from_json<Fr>("[\"236\", \"5\"]"), one);
  EXPECT_FALSE(public_inputs_from_json<Fr>("{").ok());
  EXPECT_FALSE(public_inputs_from_json<Fr>("[1, 2]").ok());
  EXPECT_FALSE(public_inputs_from_json<Fr>("[[\"1\"], 2]").ok());
}

}  // namespace
}  // namespace zk::groth16
