// SHA-256 in R1CS: FIPS 180-4 / NIST example vectors, random messages against OpenSSL, pinned
// constraint counts, and a wrong digest caught by the test system.

#include <gtest/gtest.h>

#include "field/fields.hpp"
#include "gadgets/sha256.hpp"
#include "r1cs/test_cs.hpp"
#include "test_util.hpp"

namespace zk::gadgets {
namespace {

using F = field::Bls12_381Fr;

std::string hex(std::span<const std::uint8_t> b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (auto c : b) s += std::string{d[c >> 4], d[c & 15]};
  return s;
}

template <class CS>
std::vector<Bit<F>> alloc_message(CS& cs, std::span<const std::uint8_t> msg) {
  std::vector<Bit<F>> bits;
  for (auto byte : msg) {
    for (int i = 7; i >= 0; --i) bits.push_back(Bit<F>::alloc(cs, ((byte >> i) & 1) != 0));
  }
  return bits;
}

std::array<std::uint8_t, 32> digest_of(const std::vector<Bit<F>>& bits) {
  std::array<std::uint8_t, 32> out{};
  for (std::size_t i = 0; i < 256; ++i) out[i / 8] |= static_cast<std::uint8_t>(bits[i].value << (7 - i % 8));
  return out;
}

TEST(Sha256, NistVectorsNativeAndInCircuit) {
  const std::vector<std::pair<std::string, std::string>> vectors = {
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
  };
  for (const auto& [msg, expect] : vectors) {
    const std::vector<std::uint8_t> bytes(msg.begin(), msg.end());
    EXPECT_EQ(hex(sha256_native(bytes)), expect);
    r1cs::TestSystem<F> cs;
    const auto bits = alloc_message(cs, bytes);
    const auto out = sha256_bits<F>(cs, std::span<const Bit<F>>(bits));
    EXPECT_EQ(hex(digest_of(out)), expect) << msg;
    EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
  }
}

TEST(Sha256, RandomMessagesMatchOpenSsl) {
  auto rng = test::rng(91);
  for (std::size_t len : {1, 31, 55, 56, 63, 64, 65, 100, 119, 120}) {
    std::vector<std::uint8_t> msg(len);
    for (auto& b : msg) b = static_cast<std::uint8_t>(rng.next());
    r1cs::TestSystem<F> cs;
    const auto bits = alloc_message(cs, msg);
    const auto out = sha256_bits<F>(cs, std::span<const Bit<F>>(bits));
    EXPECT_EQ(digest_of(out), sha256_native(msg)) << len;
    EXPECT_TRUE(cs.is_satisfied());
  }
}

// bellperson's pins (sha256.rs tests test_full_block / test_full_hash): one compression of 512
// allocated bits from the IV: 25,840 constraints (the bits' own booleanity constraints not
// counted); SHA-256 of a 512-bit allocated message (two compressions, the second block constant
// padding): 44,874. Aux counts follow from one variable per non-MultiEq constraint.
TEST(Sha256, ConstraintsArePinnedToBellpersons) {
  auto rng = test::rng(92);
  {
    r1cs::TestSystem<F> cs;
    std::array<Word<F>, 16> block;
    for (auto& w : block) w = Word<F>::alloc(cs, static_cast<std::uint32_t>(rng.next()));
    const std::size_t before = cs.num_constraints(), aux_before = cs.num_aux();
    std::array<Word<F>, 8> iv;
    for (int i = 0; i < 8; ++i) iv[i] = Word<F>::constant(kSha256Iv[i]);
    (void)sha256_compress<F>(cs, iv, std::span<const Word<F>, 16>(block));
    EXPECT_EQ(cs.num_constraints() - before, 25'840u);
    EXPECT_EQ(cs.num_aux() - aux_before, 25'814u);  // 26 MultiEq rows allocate nothing
    EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
  }
  {
    r1cs::TestSystem<F> cs;
    std::vector<std::uint8_t> msg(64);
    for (auto& b : msg) b = static_cast<std::uint8_t>(rng.next());
    const auto bits = alloc_message(cs, msg);
    const std::size_t before = cs.num_constraints(), aux_before = cs.num_aux();
    const auto out = sha256_bits<F>(cs, std::span<const Bit<F>>(bits));
    EXPECT_EQ(cs.num_constraints() - before, 44'874u);
    EXPECT_EQ(cs.num_aux() - aux_before, 44'828u);
    EXPECT_EQ(digest_of(out), sha256_native(msg));
    EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
  }
}

TEST(Sha256, AWrongDigestIsUnsatisfied) {
  r1cs::TestSystem<F> cs;
  const std::vector<std::uint8_t> msg = {'a', 'b', 'c'};
  const auto bits = alloc_message(cs, msg);
  const auto out = sha256_bits<F>(cs, std::span<const Bit<F>>(bits));
  // Claim the first digest bit is the opposite of what it is.
  const auto claimed =
      cs.alloc_input([] { return std::string("claimed bit"); }, [&] { return out[0].value ? F::zero() : F::one(); });
  cs.enforce([] { return std::string("digest bit 0"); }, out[0].lc(), r1cs::LinearCombination<F>(r1cs::Variable::one()),
             r1cs::LinearCombination<F>(claimed));
  EXPECT_FALSE(cs.is_satisfied());
  EXPECT_EQ(*cs.which_is_unsatisfied(), "digest bit 0");
}

}  // namespace
}  // namespace zk::gadgets
