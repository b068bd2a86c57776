// circom/snarkjs interop on both curves, against files snarkjs made (tests/data/snarkjs): the
// zkey and witness readers, snarkjs's own proofs verifying under zkpipe, zkpipe's proofs from the
// same zkey and witness verifying under snarkjs's verification key, and malformed files.

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include <nlohmann/json.hpp>

#include "groth16/io.hpp"
#include "groth16/public_inputs.hpp"
#include "groth16/snarkjs.hpp"
#include "groth16/verifier.hpp"
#include "test_util.hpp"

namespace zk::groth16::snarkjs {
namespace {

template <class E>
class SnarkjsTest : public ::testing::Test {};
using Engines = ::testing::Types<Bls12_381, Bn254>;
TYPED_TEST_SUITE(SnarkjsTest, Engines);

std::string text(const std::filesystem::path& p) {
  const auto b = test::read_file(p);
  return std::string(b.begin(), b.end());
}

template <class E>
std::vector<typename E::Fr> public_inputs(const std::filesystem::path& p) {
  auto v = public_inputs_from_json<typename E::Fr>(text(p));
  EXPECT_TRUE(v.ok()) << v.status().to_string();
  return v.ok() ? (*v)[0] : std::vector<typename E::Fr>{};
}

template <class E>
void check_circuit(const std::string& prefix, const std::string& file_prefix) {
  using Fr = typename E::Fr;
  const auto dir = test::data_dir() / "snarkjs" / curve_name<E>();
  const auto zkey_bytes = test::read_file(dir / (prefix + ".zkey"));
  auto curve = detect_curve(zkey_bytes);
  ASSERT_TRUE(curve.ok()) << curve.status().to_string();
  EXPECT_EQ(*curve, curve_name<E>());
  auto zk = read_zkey<E>(zkey_bytes);
  ASSERT_TRUE(zk.ok()) << zk.status().to_string();
  auto w = read_wtns<E>(test::read_file(dir / (file_prefix + "witness.wtns")));
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  ASSERT_EQ(w->size(), zk->n_vars);
  // The circuit's constraints hold for the witness; breaking one wire breaks a named constraint.
  auto r1cs = read_r1cs<E>(test::read_file(dir / (prefix + ".r1cs")));
  ASSERT_TRUE(r1cs.ok()) << r1cs.status().to_string();
  EXPECT_EQ(r1cs->n_wires, zk->n_vars);
  EXPECT_EQ(r1cs->n_public(), zk->n_public);
  EXPECT_EQ(r1cs->first_unsatisfied(*w), -1);
  auto broken = *w;
  broken.back() = broken.back() + Fr::one();
  EXPECT_GE(r1cs->first_unsatisfied(broken), 0);
  auto vk_json = verifying_key_from_json<E>(text(dir / (file_prefix + "verification_key.json")));
  ASSERT_TRUE(vk_json.ok()) << vk_json.status().to_string();
  // The zkey's verifying key and snarkjs's JSON export agree.
  EXPECT_TRUE(vk_json->alpha_g1 == zk->vk.alpha_g1 && vk_json->beta_g2 == zk->vk.beta_g2 &&
              vk_json->gamma_g2 == zk->vk.gamma_g2 && vk_json->delta_g2 == zk->vk.delta_g2);
  ASSERT_EQ(vk_json->ic.size(), zk->vk.ic.size());
  for (std::size_t i = 0; i < zk->vk.ic.size(); ++i) EXPECT_TRUE(vk_json->ic[i] == zk->vk.ic[i]) << i;
  const auto pvk = prepare_verifying_key(*vk_json);
  const auto pub = public_inputs<E>(dir / (file_prefix + "public.json"));
  ASSERT_EQ(pub.size(), zk->n_public);
  for (std::size_t i = 0; i < pub.size(); ++i)
    EXPECT_EQ(pub[i], (*w)[1 + i]) << "public input " << i << " = wire " << i + 1;
  // snarkjs's proof verifies under zkpipe; a changed input does not.
  auto theirs = proof_from_json<E>(text(dir / (file_prefix + "proof.json")));
  ASSERT_TRUE(theirs.ok()) << theirs.status().to_string();
  EXPECT_TRUE(*verify(pvk, *theirs, pub));
  auto wrong = pub;
  wrong[0] = wrong[0] + Fr::one();
  EXPECT_FALSE(*verify(pvk, *theirs, wrong));
  // zkpipe's proof from the same zkey and witness verifies under snarkjs's key; round trip JSON.
  auto rng = test::rng(121);
  auto ours = prove<E>(*zk, *w, Fr::random(rng), Fr::random(rng));
  ASSERT_TRUE(ours.ok()) << ours.status().to_string();
  EXPECT_TRUE(*verify(pvk, *ours, pub));
  auto back = proof_from_json<E>(proof_to_json<E>(*ours));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(*back == *ours);
  // A witness that does not satisfy the circuit gives a proof that does not verify.
  auto bad_w = *w;
  bad_w.back() = bad_w.back() + Fr::one();
  auto bad = prove<E>(*zk, bad_w, Fr::random(rng), Fr::random(rng));
  ASSERT_TRUE(bad.ok());
  EXPECT_FALSE(*verify(pvk, *bad, pub));
}

TYPED_TEST(SnarkjsTest, MulCircuit) { check_circuit<TypeParam>("mul", ""); }
TYPED_TEST(SnarkjsTest, ChainCircuit) { check_circuit<TypeParam>("chain", "chain-"); }

// The development setup: for snarkjs's own r1cs files, zkpipe's zkey has the structure snarkjs's
// `groth16 setup` gave (same counts, coefficient list, and identity pattern in every query: the
// trapdoors differ, the shape may not), proves and verifies, survives the zkey and JSON writers
// byte for byte through the readers, and a wrong witness does not verify.
template <class E>
void check_dev_setup(const std::string& prefix, const std::string& file_prefix) {
  using Fr = typename E::Fr;
  const auto dir = test::data_dir() / "snarkjs" / curve_name<E>();
  auto r1cs = read_r1cs<E>(test::read_file(dir / (prefix + ".r1cs")));
  ASSERT_TRUE(r1cs.ok()) << r1cs.status().to_string();
  auto w = read_wtns<E>(test::read_file(dir / (file_prefix + "witness.wtns")));
  ASSERT_TRUE(w.ok());
  auto theirs = read_zkey<E>(test::read_file(dir / (prefix + ".zkey")));
  ASSERT_TRUE(theirs.ok());
  Rng rng(7);
  auto zk = setup_zkey<E>(*r1cs, Trapdoor<E>::random(rng));
  ASSERT_TRUE(zk.ok()) << zk.status().to_string();
  EXPECT_EQ(zk->n_vars, theirs->n_vars);
  EXPECT_EQ(zk->n_public, theirs->n_public);
  EXPECT_EQ(zk->domain_size, theirs->domain_size);
  auto key = [](const typename Zkey<E>::Coef& c) {
    return std::tuple(c.matrix, c.constraint, c.signal, c.value.to_hex());
  };
  std::vector<decltype(key(zk->coefs[0]))> ours_c, theirs_c;
  for (const auto& c : zk->coefs) ours_c.push_back(key(c));
  for (const auto& c : theirs->coefs) theirs_c.push_back(key(c));
  std::sort(ours_c.begin(), ours_c.end());
  std::sort(theirs_c.begin(), theirs_c.end());
  EXPECT_EQ(ours_c, theirs_c);
  auto same_identities = [](const auto& x, const auto& y, const char* what) {
    ASSERT_EQ(x.size(), y.size()) << what;
    for (std::size_t i = 0; i < x.size(); ++i) EXPECT_EQ(x[i].is_identity(), y[i].is_identity()) << what << i;
  };
  same_identities(zk->a, theirs->a, "A");
  same_identities(zk->b1, theirs->b1, "B1");
  same_identities(zk->b2, theirs->b2, "B2");
  same_identities(zk->c, theirs->c, "C");
  same_identities(zk->h, theirs->h, "H");
  EXPECT_TRUE(zk->vk.gamma_g2 == E::G2Affine::generator());

  const auto pub = std::vector<Fr>(w->begin() + 1, w->begin() + 1 + zk->n_public);
  const auto pvk = prepare_verifying_key(zk->vk);
  auto proof = prove<E>(*zk, *w, Fr::random(rng), Fr::random(rng));
  ASSERT_TRUE(proof.ok());
  EXPECT_TRUE(*verify(pvk, *proof, pub));
  auto bad_w = *w;
  bad_w.back() = bad_w.back() + Fr::one();
  EXPECT_FALSE(*verify(pvk, *prove<E>(*zk, bad_w, Fr::random(rng), Fr::random(rng)), pub));

  const auto bytes = write_zkey<E>(*zk);
  auto curve = detect_curve(bytes);
  ASSERT_TRUE(curve.ok());
  EXPECT_EQ(*curve, curve_name<E>());
  auto back = read_zkey<E>(bytes);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(write_zkey<E>(*back), bytes);
  EXPECT_EQ(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 4), (std::vector<std::uint8_t>{'z', 'k', 'e', 'y'}));
  auto vk = verifying_key_from_json<E>(verifying_key_to_json<E>(zk->vk));
  ASSERT_TRUE(vk.ok()) << vk.status().to_string();
  EXPECT_TRUE(*verify(prepare_verifying_key(*vk), *proof, pub));
}

TYPED_TEST(SnarkjsTest, DevSetupMul) { check_dev_setup<TypeParam>("mul", ""); }
TYPED_TEST(SnarkjsTest, DevSetupChain) { check_dev_setup<TypeParam>("chain", "chain-"); }

// verification_key.json written from snarkjs's own key equals snarkjs's export (vk_alphabeta_12,
// e(alpha, beta) in snarkjs's Fq12 layout, included), up to whitespace.
TYPED_TEST(SnarkjsTest, VerificationKeyJsonMatchesSnarkjs) {
  using E = TypeParam;
  const auto dir = test::data_dir() / "snarkjs" / curve_name<E>();
  for (const char* name : {"verification_key.json", "chain-verification_key.json"}) {
    const auto theirs = nlohmann::json::parse(text(dir / name));
    auto vk = verifying_key_from_json<E>(theirs.dump());
    ASSERT_TRUE(vk.ok());
    const auto ours = nlohmann::json::parse(verifying_key_to_json<E>(*vk));
    EXPECT_EQ(ours, theirs) << name << "\nours: " << ours.dump(1);
  }
}

void put_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}

// A multiplication chain x[k+2] = x[k] x[k+1] (tools/snarkjs/gen_mul_chain.py's circuit) with
// `constraints` constraints, and its witness from two random inputs: every value a random field
// element, and enough points (> 4096 per section) that the parallel readers use several blocks.
template <class E>
std::pair<R1csFile<E>, std::vector<typename E::Fr>> mul_chain(std::size_t constraints, Rng& rng) {
  using Fr = typename E::Fr;
  R1csFile<E> r;
  const auto n = static_cast<std::uint32_t>(constraints);
  r.n_wires = n + 3, r.n_pub_out = 1, r.n_prv_in = 2, r.n_labels = r.n_wires;
  auto wire = [&](std::uint32_t i) { return i == n + 1 ? 1u : i + 2; };  // x[n+1] is the output
  std::vector<Fr> x{Fr::random(rng), Fr::random(rng)};
  for (std::uint32_t k = 0; k < n; ++k) {
    x.push_back(x[k] * x[k + 1]);
    r.constraints.push_back({{{wire(k), Fr::one()}}, {{wire(k + 1), Fr::one()}}, {{wire(k + 2), Fr::one()}}});
  }
  std::vector<Fr> w(r.n_wires, Fr::one());
  for (std::uint32_t i = 0; i < x.size(); ++i) w[wire(i)] = x[i];
  return {std::move(r), std::move(w)};
}

// The mapped reader (read_zkey_file) and the in-memory reader (read_zkey) give the same key, field
// for field, and so the same proof for the same r, s; both verify.
TYPED_TEST(SnarkjsTest, MappedZkeyEqualsTheDecodedKeyAndProvesTheSameProof) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  Rng rng = test::rng(22);
  auto [r1cs, w] = mul_chain<E>(9000, rng);
  ASSERT_EQ(r1cs.first_unsatisfied(w), -1);
  auto zk = setup_zkey<E>(r1cs, Trapdoor<E>::random(rng));
  ASSERT_TRUE(zk.ok()) << zk.status().to_string();
  const auto bytes = write_zkey<E>(*zk);
  const auto path = std::filesystem::path(::testing::TempDir()) / ("mapped-" + std::string(curve_name<E>()) + ".zkey");
  ASSERT_TRUE(write_file(path, bytes).ok());
  // Sections follow each other with no padding, so some point sections start off an 8-byte
  // boundary: the in-place points (kMapped) are read unaligned there.
  bool unaligned = false;
  for (std::uint32_t sec = 5; sec <= 9; ++sec) unaligned |= test::snarkjs_section_offset(bytes, sec) % 8 != 0;
  EXPECT_TRUE(unaligned);
  auto decoded = read_zkey<E>(bytes);
  auto mapped = read_zkey_file<E>(path.string(), ZkeyPoints::kMapped);
  auto copied = read_zkey_file<E>(path.string(), ZkeyPoints::kCopied);
  ASSERT_TRUE(decoded.ok()) << decoded.status().to_string();
  ASSERT_TRUE(mapped.ok()) << mapped.status().to_string();
  ASSERT_TRUE(copied.ok()) << copied.status().to_string();
  EXPECT_TRUE(mapped->h.mapped() && mapped->b2.mapped() && mapped->a.mapped());
  EXPECT_FALSE(copied->h.mapped() || copied->b2.mapped() || decoded->a.mapped());
  EXPECT_EQ(mapped->h.size(), 16384u);
  EXPECT_EQ(write_zkey<E>(*mapped), bytes);
  EXPECT_EQ(write_zkey<E>(*copied), bytes);
  EXPECT_EQ(write_zkey<E>(*decoded), bytes);
  const Fr r = Fr::random(rng), s = Fr::random(rng);
  auto p1 = prove<E>(*mapped, w, r, s);
  auto p2 = prove<E>(*decoded, w, r, s);
  auto p3 = prove<E>(*copied, w, r, s);
  ASSERT_TRUE(p1.ok() && p2.ok() && p3.ok());
  EXPECT_TRUE(*p1 == *p2);
  EXPECT_TRUE(*p3 == *p2);
  const std::vector<Fr> pub(w.begin() + 1, w.begin() + 1 + zk->n_public);
  EXPECT_TRUE(*verify(prepare_verifying_key(mapped->vk), *p1, pub));
}

// A damaged file read through the mapping is a clear error naming the file and what is wrong, the
// same error the in-memory reader gives, never a crash: truncations anywhere (section table, inside
// a point, inside the coefficients), an off-curve point and a coefficient out of range far into
// their sections (not in the first parallel block), a coordinate not below q.
TYPED_TEST(SnarkjsTest, DamagedMappedZkeyIsAClearError) {
  using E = TypeParam;
  Rng rng = test::rng(23);
  auto [r1cs, w] = mul_chain<E>(9000, rng);
  auto zk = setup_zkey<E>(r1cs, Trapdoor<E>::random(rng));
  ASSERT_TRUE(zk.ok());
  const auto bytes = write_zkey<E>(*zk);
  const auto path = std::filesystem::path(::testing::TempDir()) / ("damaged-" + std::string(curve_name<E>()) + ".zkey");
  auto both_fail = [&](const std::vector<std::uint8_t>& bad, const std::string& needle, const std::string& what) {
    ASSERT_TRUE(write_file(path, bad).ok());
    auto d = read_zkey<E>(bad);
    ASSERT_FALSE(d.ok()) << what;
    for (ZkeyPoints points : {ZkeyPoints::kMapped, ZkeyPoints::kCopied}) {
      auto m = read_zkey_file<E>(path.string(), points);
      ASSERT_FALSE(m.ok()) << what;
      EXPECT_EQ(m.status().message(), path.string() + ": " + d.status().message()) << what;
      EXPECT_NE(m.status().message().find(needle), std::string::npos) << what << ": " << m.status().message();
    }
  };
  const std::size_t h_at = test::snarkjs_section_offset(bytes, 9), a_at = test::snarkjs_section_offset(bytes, 5);
  const std::size_t coef_at = test::snarkjs_section_offset(bytes, 4);
  for (std::size_t len : {std::size_t{12}, std::size_t{30}, coef_at + 100, a_at + 4097 * 64 + 5, h_at + 7, bytes.size() - 1}) {
    both_fail(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(len)), "",
              "truncated at " + std::to_string(len));
  }
  const std::size_t g1 = std::is_same_v<E, Bn254> ? 64 : 96;
  // H[10000]: y + 1 is (almost surely) off the curve; it is far from the first block of 4096.
  auto off_curve = bytes;
  std::size_t at = h_at + 10000 * g1 + g1 / 2;
  while (off_curve[at] == 0xFF) ++at;
  ++off_curve[at];
  both_fail(off_curve, "zkey H[10000]", "off-curve point");
  auto not_below_q = bytes;
  std::fill_n(not_below_q.begin() + static_cast<std::ptrdiff_t>(a_at + 5000 * g1), g1 / 2, 0xFF);
  both_fail(not_below_q, "zkey A[5000]", "coordinate >= q");
  auto bad_coef = bytes;
  put_u32(bad_coef, coef_at + 4 + 9000 * 44 + 4, zk->domain_size);  // record 9000's constraint
  both_fail(bad_coef, "coefficient 9000 is out of range", "coefficient");
}

TYPED_TEST(SnarkjsTest, MalformedFilesAreClearErrors) {
  using E = TypeParam;
  const auto dir = test::data_dir() / "snarkjs" / curve_name<E>();
  const auto zkey = test::read_file(dir / "mul.zkey");
  for (std::size_t len :
       {std::size_t{0}, std::size_t{3}, std::size_t{11}, std::size_t{40}, zkey.size() / 2, zkey.size() - 1}) {
    EXPECT_FALSE(read_zkey<E>(std::span(zkey).first(len)).ok()) << len;
  }
  auto bad_magic = zkey;
  bad_magic[0] = 'x';
  EXPECT_FALSE(read_zkey<E>(bad_magic).ok());
  const auto wtns = test::read_file(dir / "witness.wtns");
  EXPECT_FALSE(read_wtns<E>(std::span(wtns).first(wtns.size() - 1)).ok());
  EXPECT_FALSE(read_zkey<E>(wtns).ok());
  // The other curve's files are refused with a message.
  using Other = std::conditional_t<std::is_same_v<E, Bn254>, Bls12_381, Bn254>;
  auto other = read_zkey<Other>(zkey);
  ASSERT_FALSE(other.ok());
  EXPECT_FALSE(proof_from_json<E>("{}").ok());
  EXPECT_FALSE(verifying_key_from_json<E>("[]").ok());
}




// Counts read from a file's header are checked against each other (without overflow) and against
// what the file can hold, before anything is sized by them.
TYPED_TEST(SnarkjsTest, HeaderCountsCannotOverflowOrOutgrowTheFile) {
  using E = TypeParam;
  const auto dir = test::data_dir() / "snarkjs" / curve_name<E>();
  const auto zkey = test::read_file(dir / "mul.zkey");
  const std::size_t n8q = std::is_same_v<E, Bn254> ? 32 : 48;
  const std::size_t n_public_at = test::snarkjs_section_offset(zkey, 2) + 4 + n8q + 4 + 32 + 4;
  for (std::uint32_t n_public : {0xFFFFFFFFu, 0xFFFFFFFEu, 1000u}) {
    auto bad = zkey;
    put_u32(bad, n_public_at, n_public);  // nPublic + 1 overflowed uint32 and passed the check
    auto r = read_zkey<E>(bad);
    ASSERT_FALSE(r.ok()) << n_public;
    EXPECT_NE(r.status().message().find("inconsistent counts"), std::string::npos) << r.status().message();
    const auto path = std::filesystem::path(::testing::TempDir()) / "bad-npublic.zkey";
    ASSERT_TRUE(write_file(path, bad).ok());
    EXPECT_FALSE(read_zkey_info(path.string()).ok());
    EXPECT_FALSE(read_zkey_file<E>(path.string()).ok());
  }
  const auto r1cs = test::read_file(dir / "mul.r1cs");
  const std::size_t wires_at = test::snarkjs_section_offset(r1cs, 1) + 4 + 32;
  for (std::uint32_t wires : {16'777'216u, 0xFFFFFFFFu, 8u}) {
    auto bad = r1cs;
    put_u32(bad, wires_at, wires);
    auto r = read_r1cs<E>(bad);
    ASSERT_FALSE(r.ok()) << wires;
    EXPECT_NE(r.status().message().find("wires"), std::string::npos) << r.status().message();
  }
}

// A directory, a FIFO or a missing path where a file is expected: a clear error, never an
// allocation sized by tellg() on something that is not a file.
TEST(FileReading, OnlyRegularFilesAreRead) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "zkpipe-not-a-file";
  std::filesystem::create_directories(dir);
  auto r = read_file(dir);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("is a directory"), std::string::npos) << r.status().message();
  EXPECT_FALSE(read_zkey_file<Bn254>(dir.string()).ok());
  EXPECT_FALSE(read_zkey_info(dir.string()).ok());
  EXPECT_EQ(read_file(dir / "missing").status().code(), StatusCode::kNotFound);
  const auto small = dir / "small.bin";
  ASSERT_TRUE(write_file(small, std::vector<std::uint8_t>(100, 7)).ok());
  EXPECT_EQ(read_file(small)->size(), 100u);
  EXPECT_EQ(read_file(small, 99).status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(read_text_file(small, 100)->size(), 100u);
}

}  // namespace
}  // namespace zk::groth16::snarkjs
