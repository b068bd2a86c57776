#pragma once

// Merkle trees as Filecoin builds them (docs/formats.md sections 3 and 6.1), native and in R1CS:
//  - binary SHA-256 trees (TreeD / comm_d): node = SHA-256(left || right) with the digest read as a
//    little-endian Fr32 (byte 31 & 0x3f), leaves are 32-byte Fr32 values;
//  - arity-8 Poseidon trees (TreeC / TreeR): node = Poseidon-8(children), MerkleTree tag.
// Native trees keep every level (for paths); root_streaming computes a root in O(log n) memory.

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/sha256.hpp"

namespace zk::gadgets {

using Fr = PoseidonFr;
using Fr32 = std::array<std::uint8_t, 32>;

/// SHA-256(left || right) truncated to Fr32.
Fr32 sha256_node(const Fr32& left, const Fr32& right);
/// An Fr32 as a field element (byte 31 & 0x3f first, so always < r). Only for Fr32 values (hash
/// digests, data nodes): a general field element (a replica node, a Poseidon root) may use those
/// two bits and must be read with Fr::from_bytes instead.
Fr fr32_to_field(const Fr32& x);
/// The canonical 32 little-endian bytes of a field element (an Fr32 only when it is below 2^254).
Fr32 field_to_fr32(const Fr& x);

/// A complete tree over `leaves` (a power of the arity), every level kept: levels[0] = leaves.
class Sha256Tree {
 public:
  static Result<Sha256Tree> build(std::vector<Fr32> leaves);
  const Fr32& root() const { return levels_.back()[0]; }
  /// Siblings from the leaf level up.
  std::vector<Fr32> path(std::size_t index) const;
  std::size_t leaves() const { return levels_[0].size(); }

 private:
  std::vector<std::vector<Fr32>> levels_;
};

class PoseidonTree {
 public:
  static constexpr unsigned kArity = 8;
  static Result<PoseidonTree> build(std::vector<Fr> leaves);
  const Fr& root() const { return levels_.back()[0]; }
  /// Per level, the 7 siblings in order (the node's own slot removed).
  std::vector<std::array<Fr, kArity - 1>> path(std::size_t index) const;

 private:
  std::vector<std::vector<Fr>> levels_;
};

/// Root of a binary SHA-256 tree over leaves produced one at a time by `next` (n a power of two),
/// with O(log n) memory.
Result<Fr32> sha256_root_streaming(std::size_t n, const std::function<Fr32(std::size_t)>& next);

/// Bits of an Fr32 in SHA-256 message order (byte 0 first, most significant bit of each byte first).
template <class F>
std::vector<Bit<F>> fr32_bits_constant(const Fr32& x) {
  std::vector<Bit<F>> out;
  for (auto byte : x) {
    for (int i = 7; i >= 0; --i) out.push_back(Bit<F>::of_constant(((byte >> i) & 1) != 0));
  }
  return out;
}

/// The field element packed from Fr32 bits in message order (byte k bit j has weight 2^(8k + j)).
template <class F>
Num<F> pack_fr32(const std::vector<Bit<F>>& bits) {
  Num<F> n;
  n.value = F::zero();
  for (std::size_t k = 0; k < 32; ++k) {
    for (int j = 0; j < 8; ++j) {
      const Bit<F>& b = bits[8 * k + (7 - j)];
      F w = F::one();
      for (std::size_t s = 0; s < 8 * k + static_cast<std::size_t>(j); ++s) w = w.dbl();
      n.lc.add_scaled(b.lc, w);
      if (b.value) n.value = n.value + w;
    }
  }
  return n;
}

/// Allocates the 254 low bits of an Fr32 witness (the top two are constant zeros) and ties them to
/// `x` (one packing constraint plus 254 booleanity constraints).
template <class CS>
std::vector<Bit<Fr>> unpack_fr32(CS& cs, const Num<Fr>& x) {
  const Fr32 bytes = field_to_fr32(x.value);
  std::vector<Bit<Fr>> bits;
  for (std::size_t k = 0; k < 32; ++k) {
    for (int i = 7; i >= 0; --i) {
      const bool top = k == 31 && i >= 6;
      bits.push_back(top ? Bit<Fr>::of_constant(false) : Bit<Fr>::alloc(cs, ((bytes[k] >> i) & 1) != 0));
    }
  }
  const Num<Fr> packed = pack_fr32<Fr>(bits);
  cs.enforce([] { return std::string("pack fr32"); }, packed.lc, r1cs::LinearCombination<Fr>(r1cs::Variable::one()),
             x.lc);
  return bits;
}

/// The root of a binary SHA-256 path: `leaf` bits (message order), the siblings, and the index
/// bits from the leaf level up (1 = the current node is the right child). Per level: the siblings'
/// unpacking (255), a conditional swap (256) and SHA-256 over 512 bits (two compressions).
template <class CS>
std::vector<Bit<Fr>> sha256_merkle_root(CS& cs, std::vector<Bit<Fr>> cur, std::span<const Num<Fr>> siblings,
                                        std::span<const Bit<Fr>> index_bits) {
  for (std::size_t level = 0; level < siblings.size(); ++level) {
    const auto sib = unpack_fr32(cs, siblings[level]);
    const Bit<Fr>& right = index_bits[level];
    std::vector<Bit<Fr>> msg(512);
    for (std::size_t i = 0; i < 256; ++i) {
      // left = cur + b (sib - cur); right = cur + sib - left.
      const bool lv = right.value ? sib[i].value : cur[i].value;
      Bit<Fr> l;
      if (cur[i].constant && sib[i].constant && *cur[i].constant == *sib[i].constant) {
        l = cur[i];
      } else {
        const auto var = cs.alloc([] { return std::string("swap"); }, [&] { return lv ? Fr::one() : Fr::zero(); });
        cs.enforce([] { return std::string("conditional swap"); }, right.lc, sib[i].lc - cur[i].lc,
                   r1cs::LinearCombination<Fr>(var) - cur[i].lc);
        l = Bit<Fr>::of_var(var, lv);
      }
      Bit<Fr> r = l.constant
                      ? sib[i]
                      : Bit<Fr>::of_lc(cur[i].lc + sib[i].lc - l.lc, right.value ? cur[i].value : sib[i].value);
      msg[i] = l;
      msg[256 + i] = r;
    }
    auto digest = sha256_bits<Fr>(cs, std::span<const Bit<Fr>>(msg));
    digest[8 * 31 + 0] = Bit<Fr>::of_constant(false);  // Fr32: byte 31 & 0x3f (its two top bits)
    digest[8 * 31 + 1] = Bit<Fr>::of_constant(false);
    cur = std::move(digest);
  }
  return cur;
}

/// The root of an arity-8 Poseidon path: per level the 3 index bits (least significant first) place
/// the current node among its 7 siblings (one-hot indicators 12 constraints, selection 22) before
/// Poseidon-8 (505): 539 constraints per level.
template <class CS>
Result<Num<Fr>> poseidon8_merkle_root(CS& cs, Num<Fr> cur, std::span<const std::array<Num<Fr>, 7>> siblings,
                                      std::span<const Bit<Fr>> index_bits) {
  if (index_bits.size() != 3 * siblings.size())
    return Status::invalid_argument("poseidon path: 3 index bits per level");
  for (std::size_t level = 0; level < siblings.size(); ++level) {
    const Bit<Fr>& b0 = index_bits[3 * level];
    const Bit<Fr>& b1 = index_bits[3 * level + 1];
    const Bit<Fr>& b2 = index_bits[3 * level + 2];
    const unsigned pos = (b0.value ? 1u : 0u) | (b1.value ? 2u : 0u) | (b2.value ? 4u : 0u);
    // One-hot indicators eq_j = [pos == j].
    std::array<Bit<Fr>, 4> low;
    for (unsigned j = 0; j < 4; ++j) low[j] = bit_and(cs, (j & 1) ? b0 : !b0, (j & 2) ? b1 : !b1);
    std::array<Bit<Fr>, 8> eq;
    for (unsigned j = 0; j < 8; ++j) eq[j] = bit_and(cs, low[j & 3], (j & 4) ? b2 : !b2);
    // Slot j holds cur when j == pos, sibling j when j < pos, sibling j - 1 when j > pos:
    // child_j = eq_j cur + lt_j sib_j + gt_j sib_(j-1), lt_j = sum_{k>j} eq_k, gt_j = sum_{k<j} eq_k.
    // Three products per slot (two at the ends); the child itself is their linear sum.
    std::array<Num<Fr>, 8> children;
    for (unsigned j = 0; j < 8; ++j) {
      r1cs::LinearCombination<Fr> lt, gt;
      for (unsigned k = j + 1; k < 8; ++k) lt += eq[k].lc;
      for (unsigned k = 0; k < j; ++k) gt += eq[k].lc;
      Num<Fr> child = Num<Fr>::mul(
          cs, [] { return std::string("eq * cur"); }, Num<Fr>{eq[j].lc, eq[j].value ? Fr::one() : Fr::zero()}, cur);
      if (j < 7) {
        child += Num<Fr>::mul(
            cs, [] { return std::string("lt * sibling"); }, Num<Fr>{lt, pos > j ? Fr::one() : Fr::zero()},
            siblings[level][j]);
      }
      if (j > 0) {
        child += Num<Fr>::mul(
            cs, [] { return std::string("gt * sibling"); }, Num<Fr>{gt, pos < j ? Fr::one() : Fr::zero()},
            siblings[level][j - 1]);
      }
      children[j] = std::move(child);
    }
    auto h = poseidon_gadget(cs, std::span<const Num<Fr>>(children));
    if (!h.ok()) return h.status();
    cur = std::move(*h);
  }
  return cur;
}

}  // namespace zk::gadgets
