#pragma once

// SHA-256 (FIPS 180-4) as a circuit over bits: the compression function, and padded hashing of a
// message of any bit length. Native twin: OpenSSL (sha256_native). Costs per 512-bit block are
// pinned in tests/gadgets/sha256_test.cpp and docs/gadgets.md.

#include <array>
#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "gadgets/boolean.hpp"

namespace zk::gadgets {

inline constexpr std::array<std::uint32_t, 64> kSha256K = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};  // FIPS 180-4 section 4.2.2: cube roots of the first 64 primes
inline constexpr std::array<std::uint32_t, 8> kSha256Iv = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                           0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};  // 5.3.3

/// One compression (bellperson's sha256_compression_function): state (8 words) and a block of
/// 16 big-endian words, with its own MultiEq. New e and new a are each one add_many, deferred to
/// the start of the next round (e = h + S1 + ch + K + w + d, a = the same + S0 + maj), the last
/// ones folded into the final state addition; a value that is still the input state's word is used
/// as it is. Constraint order is bellperson's; 25,840 constraints for a variable block from the IV.
/// Every word is made once, kept at a stable address for the compression, and read through
/// pointers and rotation views (a Word is ~9 KB of linear combinations: copies were a quarter of
/// PoRep's synthesis time).
template <class F, class CS>
std::array<Word<F>, 8> sha256_compress(CS& cs, const std::array<Word<F>, 8>& state,
                                       std::span<const Word<F>, 16> block) {
  using W = const Word<F>*;
  MultiEq<F, CS> eq(cs);
  std::deque<Word<F>> kept;  // the compression's words (a deque never moves its elements)
  auto keep = [&kept](Word<F>&& x) -> W { return &kept.emplace_back(std::move(x)); };
  std::array<W, 64> w;
  for (int i = 0; i < 16; ++i) w[i] = &block[i];
  for (int i = 16; i < 64; ++i) {
    const W s0 = keep(word_xor<F>(cs, word_xor<F>(cs, w[i - 15]->rotr(7), w[i - 15]->rotr(18)), w[i - 15]->shr(3)));
    const W s1 = keep(word_xor<F>(cs, word_xor<F>(cs, w[i - 2]->rotr(17), w[i - 2]->rotr(19)), w[i - 2]->shr(10)));
    w[i] = keep(add_many<F>(eq, {w[i - 16], s0, w[i - 7], s1}));
  }
  // a and e: either a word, or the operands of a deferred sum.
  struct Maybe {
    W word = nullptr;
    std::vector<W> deferred;  // empty: `word` is the value
    W compute(MultiEq<F, CS>& e, std::deque<Word<F>>& out, std::span<const W> extra = {}) const {
      if (deferred.empty()) return word;
      std::vector<W> ops(deferred);
      ops.insert(ops.end(), extra.begin(), extra.end());
      return &out.emplace_back(add_many<F>(e, std::span<const W>(ops)));
    }
  };
  Maybe a{&state[0], {}}, e{&state[4], {}};
  W b = &state[1], c = &state[2], d = &state[3], f = &state[5], g = &state[6], h = &state[7];
  for (int t = 0; t < 64; ++t) {
    const W new_e = e.compute(eq, kept);
    const W S1 = keep(word_xor<F>(cs, word_xor<F>(cs, new_e->rotr(6), new_e->rotr(11)), new_e->rotr(25)));
    Word<F> ch_word;
    for (int i = 0; i < 32; ++i) ch_word.bits[i] = bit_ch(cs, new_e->bits[i], f->bits[i], g->bits[i]);
    const W ch = keep(std::move(ch_word));
    // temp1's operands (no gadget): both deferred sums start with them.
    const W k = keep(Word<F>::constant(kSha256K[t]));
    const W new_a = a.compute(eq, kept);
    const W S0 = keep(word_xor<F>(cs, word_xor<F>(cs, new_a->rotr(2), new_a->rotr(13)), new_a->rotr(22)));
    Word<F> maj_word;
    for (int i = 0; i < 32; ++i) maj_word.bits[i] = bit_maj(cs, new_a->bits[i], b->bits[i], c->bits[i]);
    const W maj = keep(std::move(maj_word));
    e = Maybe{nullptr, {h, S1, ch, k, w[t], d}};
    a = Maybe{nullptr, {h, S1, ch, k, w[t], S0, maj}};
    h = g, g = f, f = new_e;
    d = c, c = b, b = new_a;
  }
  std::array<Word<F>, 8> next;
  const W h0[] = {&state[0]};
  next[0] = *a.compute(eq, kept, h0);
  next[1] = add_many<F>(eq, {&state[1], b});
  next[2] = add_many<F>(eq, {&state[2], c});
  next[3] = add_many<F>(eq, {&state[3], d});
  const W h4[] = {&state[4]};
  next[4] = *e.compute(eq, kept, h4);
  next[5] = add_many<F>(eq, {&state[5], f});
  next[6] = add_many<F>(eq, {&state[6], g});
  next[7] = add_many<F>(eq, {&state[7], h});
  eq.finish();
  return next;
}

/// SHA-256 of a message given as bits (most significant bit of each byte first, as FIPS 180-4
/// orders them); returns 256 bits in the same order.
template <class F, class CS>
std::vector<Bit<F>> sha256_bits(CS& cs, std::span<const Bit<F>> message) {
  std::vector<Bit<F>> m(message.begin(), message.end());
  const std::uint64_t len = m.size();
  m.push_back(Bit<F>::of_constant(true));
  while (m.size() % 512 != 448) m.push_back(Bit<F>::of_constant(false));
  for (int i = 63; i >= 0; --i) m.push_back(Bit<F>::of_constant(((len >> i) & 1) != 0));
  std::array<Word<F>, 8> state;
  for (int i = 0; i < 8; ++i) state[i] = Word<F>::constant(kSha256Iv[i]);
  for (std::size_t blk = 0; blk < m.size() / 512; ++blk) {
    std::array<Word<F>, 16> words;
    for (int j = 0; j < 16; ++j) {
      for (int i = 0; i < 32; ++i) words[j].bits[i] = m[blk * 512 + j * 32 + (31 - i)];  // big-endian words
    }
    state = sha256_compress<F>(cs, state, std::span<const Word<F>, 16>(words));
  }
  std::vector<Bit<F>> out;
  for (int j = 0; j < 8; ++j) {
    for (int i = 31; i >= 0; --i) out.push_back(state[j].bits[i]);
  }
  return out;
}

/// OpenSSL's SHA-256 of bytes.
std::array<std::uint8_t, 32> sha256_native(std::span<const std::uint8_t> data);

}  // namespace zk::gadgets
