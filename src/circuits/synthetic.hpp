#pragma once

// The `synthetic` benchmark circuit: exactly N constraints whose witness looks like a real proving
// workload (mostly bits, some dense values), so the MSMs see realistic scalars. Blocks of 18
// constraints: 16 booleanity constraints b (1 - b) = 0 on pseudo-random bits, one packing
// sum_k 2^k b_k = p, and one product acc' = acc p that chains a dense accumulator; leftover
// constraints are booleanity ones. Public inputs: the final accumulator and the seed.
// Everything derives from (N, seed), so setup, prove and verify agree without sharing files.

#include <cstdint>
#include <vector>

#include "base/rng.hpp"
#include "base/status.hpp"
#include "r1cs/constraint_system.hpp"

namespace zk::circuits {

template <class F>
class SyntheticCircuit {
 public:
  /// constraints >= 2.
  SyntheticCircuit(std::size_t constraints, std::uint64_t seed) : n_(constraints < 2 ? 2 : constraints), seed_(seed) {}

  std::size_t num_constraints() const { return n_; }

  /// The public inputs (without ONE) that a correct witness produces.
  std::vector<F> public_inputs() const {
    F acc = F::from_u64(seed_).dbl() + F::one();
    Rng rng(seed_);
    for (std::size_t used = 1; n_ >= used + 18 + 1; used += 18) {  // the blocks synthesize() makes
      const std::uint64_t bits = rng.next() & 0xffff;
      acc = acc * F::from_u64(bits + 1);
    }
    return {acc, F::from_u64(seed_)};
  }

  template <class CS>
  Status synthesize(CS& cs) const {
    using LC = r1cs::LinearCombination<F>;
    const auto one = r1cs::Variable::one();
    const auto pub = public_inputs();
    const auto out = cs.alloc_input([] { return "out"; }, [&] { return pub[0]; });
    const auto seed = cs.alloc_input([] { return "seed"; }, [&] { return pub[1]; });
    // acc_0 = 2 seed + 1 (odd, so never zero), tied to the public seed. The shape must not depend on
    // the seed: keys made with one seed prove witnesses of every other.
    F acc = F::from_u64(seed_).dbl() + F::one();
    auto acc_var = cs.alloc([] { return "acc 0"; }, [&] { return acc; });
    std::size_t used = 0;
    cs.enforce([] { return "acc 0 = 2 seed + 1"; }, LC(seed) * F::from_u64(2) + one, LC(one), LC(acc_var));
    ++used;
    Rng rng(seed_);
    std::size_t block = 0;
    while (n_ >= used + 18 + 1) {  // keep one constraint for the output
      r1cs::Namespace ns(cs, [block] { return "block " + std::to_string(block); });
      const std::uint64_t bits = rng.next() & 0xffff;
      LC packed_lc;
      for (unsigned k = 0; k < 16; ++k) {
        const bool bit = ((bits >> k) & 1) != 0;
        const auto b = cs.alloc([k] { return "bit " + std::to_string(k); }, [&] { return bit ? F::one() : F::zero(); });
        cs.enforce([k] { return "bit " + std::to_string(k) + " is boolean"; }, LC(b), LC(one) - b, LC::zero());
        packed_lc.add(F::from_u64(std::uint64_t{1} << k), b);
      }
      // p = bits + 1 (never zero, so the accumulator stays dense and non-zero)
      const F p_val = F::from_u64(bits + 1);
      const auto p = cs.alloc([] { return "packed"; }, [&] { return p_val; });
      cs.enforce([] { return "pack"; }, packed_lc + one, LC(one), LC(p));
      const F next = acc * p_val;
      const auto next_var = cs.alloc([] { return "acc"; }, [&] { return next; });
      cs.enforce([] { return "acc * packed"; }, LC(acc_var), LC(p), LC(next_var));
      acc = next;
      acc_var = next_var;
      used += 18;
      ++block;
    }
    // Filler: booleanity of extra bits, then the output.
    while (used + 1 < n_) {
      const bool bit = (rng.next() & 1) != 0;
      const auto b = cs.alloc([] { return "filler bit"; }, [&] { return bit ? F::one() : F::zero(); });
      cs.enforce([] { return "filler is boolean"; }, LC(b), LC(one) - b, LC::zero());
      ++used;
    }
    if (used < n_) {
      cs.enforce([] { return "out = acc"; }, LC(acc_var), LC(one), LC(out));
      ++used;
    }
    return {};
  }

 private:
  std::size_t n_;
  std::uint64_t seed_;
};

}  // namespace zk::circuits
