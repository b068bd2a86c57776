#include "gadgets/poseidon.hpp"

#include <array>
#include <map>
#include <memory>
#include <mutex>

namespace zk::gadgets {
namespace {

// The Grain LFSR of the Poseidon reference (hadeshash create_rcs_grain.sage), as neptune uses it.
class Grain {
 public:
  Grain(unsigned field, unsigned sbox, unsigned n, unsigned t, unsigned rf, unsigned rp) {
    auto push = [&](std::uint64_t v, unsigned bits) {
      for (unsigned i = bits; i-- > 0;) state_.push_back(static_cast<std::uint8_t>((v >> i) & 1));  // MSB first
    };
    push(field, 2);
    push(sbox, 4);
    push(n, 12);
    push(t, 12);
    push(rf, 10);
    push(rp, 10);
    push((std::uint64_t{1} << 30) - 1, 30);
    for (int i = 0; i < 160; ++i) raw();  // discard
  }

  /// Self-shrinking output: from each pair (a, b) emit b when a = 1.
  std::uint8_t bit() {
    for (;;) {
      const std::uint8_t a = raw(), b = raw();
      if (a == 1) return b;
    }
  }

 private:
  std::uint8_t raw() {
    const std::size_t i = pos_;
    const std::uint8_t nb =
        state_[i + 62] ^ state_[i + 51] ^ state_[i + 38] ^ state_[i + 23] ^ state_[i + 13] ^ state_[i];
    state_.push_back(nb);
    ++pos_;
    return nb;
  }
  std::vector<std::uint8_t> state_;
  std::size_t pos_ = 0;
};

unsigned partial_rounds_for(unsigned arity) {
  // neptune Strength::Standard (Poseidon paper's bounds at 128-bit security plus its margins).
  switch (arity) {
    case 2:
      return 55;
    case 4:
      return 56;
    case 8:
      return 57;
    case 11:
      return 57;
    default:
      return 0;
  }
}

std::unique_ptr<PoseidonParams> build(unsigned arity) {
  using F = PoseidonFr;
  auto p = std::make_unique<PoseidonParams>();
  p->arity = arity;
  p->width = arity + 1;
  p->partial_rounds = partial_rounds_for(arity);
  const unsigned t = p->width, n_bits = F::kBits;  // 255
  Grain g(/*field=*/1, /*sbox=*/1, n_bits, t, p->full_rounds, p->partial_rounds);
  const std::size_t count = static_cast<std::size_t>(p->full_rounds + p->partial_rounds) * t;
  while (p->round_constants.size() < count) {
    typename F::Repr v{};
    for (unsigned i = 0; i < n_bits; ++i) {  // big-endian: the first bit is the most significant
      const unsigned bitpos = n_bits - 1 - i;
      if (g.bit()) v[bitpos / 64] |= std::uint64_t{1} << (bitpos % 64);
    }
    if (auto x = F::from_canonical(v); x.ok()) p->round_constants.push_back(*x);  // >= r: drawn again
  }
  p->mds.assign(t, std::vector<F>(t));
  for (unsigned i = 0; i < t; ++i) {
    for (unsigned j = 0; j < t; ++j) p->mds[i][j] = F::from_u64(i + j + t).inverse();
  }
  p->domain_tag = F::from_u64((std::uint64_t{1} << arity) - 1);
  return p;
}

}  // namespace

Result<const PoseidonParams*> poseidon_params(unsigned arity) {
  if (partial_rounds_for(arity) == 0) {
    return Status::invalid_argument("Poseidon arity " + std::to_string(arity) + " is not one of neptune's 2, 4, 8, 11");
  }
  static std::mutex m;
  static std::map<unsigned, std::unique_ptr<PoseidonParams>> cache;  // immutable once built
  std::lock_guard lock(m);
  auto& slot = cache[arity];
  if (!slot) slot = build(arity);
  return slot.get();
}

void poseidon_permute(const PoseidonParams& p, std::span<PoseidonFr> s) {
  const unsigned t = p.width, rounds = p.full_rounds + p.partial_rounds, half = p.full_rounds / 2;
  std::vector<PoseidonFr> next(t);
  for (unsigned r = 0; r < rounds; ++r) {
    for (unsigned i = 0; i < t; ++i) s[i] = s[i] + p.round_constants[r * t + i];
    const bool full = r < half || r >= half + p.partial_rounds;
    for (unsigned i = 0; i < (full ? t : 1); ++i) {
      const PoseidonFr x2 = s[i].square();
      s[i] = x2.square() * s[i];
    }
    for (unsigned i = 0; i < t; ++i) {
      PoseidonFr acc = PoseidonFr::zero();
      for (unsigned j = 0; j < t; ++j) acc = acc + p.mds[i][j] * s[j];
      next[i] = acc;
    }
    std::copy(next.begin(), next.end(), s.begin());
  }
}

Result<PoseidonFr> poseidon_hash(std::span<const PoseidonFr> inputs) {
  auto p = poseidon_params(static_cast<unsigned>(inputs.size()));
  if (!p.ok()) return p.status();
  std::vector<PoseidonFr> s;
  s.push_back((*p)->domain_tag);
  s.insert(s.end(), inputs.begin(), inputs.end());
  poseidon_permute(**p, s);
  return s[1];
}

}  // namespace zk::gadgets
