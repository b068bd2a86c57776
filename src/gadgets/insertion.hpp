#pragma once

// storage-proofs-core's insertion gadgets (docs/filecoin-gadgets.md): `pick` (1 constraint),
// `insert` of a node among its siblings at the position given by index bits (least significant
// first) with the hand-built layouts for 2, 4 and 8 slots (2, 8, 22 constraints) and the general
// n (n - 1) otherwise, and `select` (n - 1).

#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"

namespace zk::gadgets {

/// cond ? t : f as a new variable: (f - t) * cond = f - out.
template <class F, class CS>
Num<F> pick(CS& cs, const Bit<F>& cond, const Num<F>& t, const Num<F>& f) {
  const F v = cond.value ? t.value : f.value;
  const auto o = cs.alloc([] { return std::string("pick result"); }, [&] { return v; });
  cs.enforce([] { return std::string("pick"); }, f.lc - t.lc, cond.lc(), f.lc - o);
  return Num<F>::of(o, v);
}

/// `from` (2^k entries) indexed by `bits` (least significant first).
template <class F, class CS>
Num<F> select(CS& cs, std::span<const Num<F>> from, std::span<const Bit<F>> bits) {
  std::vector<Num<F>> state(from.begin(), from.end());
  std::size_t half = state.size() / 2;
  for (std::size_t i = bits.size(); i-- > 0;) {  // most significant first
    std::vector<Num<F>> next;
    for (std::size_t j = 0; j < half; ++j) next.push_back(pick(cs, bits[i], state[half + j], state[j]));
    state = std::move(next);
    half /= 2;
  }
  return state[0];
}

/// The children of a Merkle node: `cur` inserted among `siblings` at position bits (n = 2^|bits|
/// slots, n - 1 siblings).
template <class F, class CS>
Result<std::vector<Num<F>>> insert(CS& cs, const Num<F>& cur, std::span<const Bit<F>> bits,
                                   std::span<const Num<F>> siblings) {
  const std::size_t n = siblings.size() + 1;
  if (n != (std::size_t{1} << bits.size())) {
    return Status::invalid_argument("insert: " + std::to_string(siblings.size()) + " siblings need " +
                                    "log2 of their count + 1 index bits, got " + std::to_string(bits.size()));
  }
  const Num<F>& a = cur;
  auto s = [&](std::size_t i) -> const Num<F>& { return siblings[i]; };
  if (n == 2) {
    return std::vector<Num<F>>{pick(cs, bits[0], s(0), a), pick(cs, bits[0], a, s(0))};
  }
  if (n == 4) {
    const Num<F>&b = s(0), &c = s(1), &d = s(2);
    std::vector<Num<F>> out;
    const Num<F> p0_x0 = pick(cs, bits[0], b, a);
    out.push_back(pick(cs, bits[1], b, p0_x0));
    const Num<F> p1_x0 = pick(cs, bits[0], a, b);
    out.push_back(pick(cs, bits[1], c, p1_x0));
    const Num<F> p2_x1 = pick(cs, bits[0], d, a);
    out.push_back(pick(cs, bits[1], p2_x1, c));
    const Num<F> p3_x1 = pick(cs, bits[0], a, d);
    out.push_back(pick(cs, bits[1], p3_x1, d));
    return out;
  }
  if (n == 8) {
    const Num<F>&b = s(0), &c = s(1), &d = s(2), &e = s(3), &f = s(4), &g = s(5), &h = s(6);
    const Bit<F>&b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
    const Bit<F> nor01 = bit_and(cs, !b0, !b1);  // (ONE - b0) (ONE - b1): nor of two Is bits
    const Bit<F> and01 = bit_and(cs, b0, b1);
    std::vector<Num<F>> out;
    const Num<F> p0_xx0 = pick(cs, nor01, a, b);
    out.push_back(pick(cs, b2, b, p0_xx0));
    const Num<F> p1_x00 = pick(cs, b0, a, b);
    const Num<F> p1_xx0 = pick(cs, b1, c, p1_x00);
    out.push_back(pick(cs, b2, c, p1_xx0));
    const Num<F> p2_x10 = pick(cs, b0, d, a);
    const Num<F> p2_xx0 = pick(cs, b1, p2_x10, c);
    out.push_back(pick(cs, b2, d, p2_xx0));
    const Num<F> p3_xx0 = pick(cs, and01, a, d);
    out.push_back(pick(cs, b2, e, p3_xx0));
    const Num<F> p4_xx1 = pick(cs, nor01, a, f);
    out.push_back(pick(cs, b2, p4_xx1, e));
    const Num<F> p5_x01 = pick(cs, b0, a, f);
    const Num<F> p5_xx1 = pick(cs, b1, g, p5_x01);
    out.push_back(pick(cs, b2, p5_xx1, f));
    const Num<F> p6_x11 = pick(cs, b0, h, a);
    const Num<F> p6_xx1 = pick(cs, b1, p6_x11, g);
    out.push_back(pick(cs, b2, p6_xx1, g));
    const Num<F> p7_xx1 = pick(cs, and01, a, h);
    out.push_back(pick(cs, b2, p7_xx1, h));
    return out;
  }
  // General: for each position, select among the n candidate placements.
  std::vector<Num<F>> out;
  for (std::size_t pos = 0; pos < n; ++pos) {
    std::vector<Num<F>> choices;
    for (std::size_t index = 0; index < n; ++index) {
      // Position `pos` of the siblings with cur inserted at `index`.
      choices.push_back(pos == index ? a : pos < index ? s(pos) : s(pos - 1));
    }
    out.push_back(select(cs, std::span<const Num<F>>(choices), bits));
  }
  return out;
}

}  // namespace zk::gadgets
