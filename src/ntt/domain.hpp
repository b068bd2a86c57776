#pragma once

// An evaluation domain <omega> of size n = 2^log_n over a two-adic prime field F, with its coset
// shift and a cached twiddle table. Immutable once built, so one Domain can serve any number of
// threads and transforms (the engine keeps one per circuit shape).
//
// The root-of-unity convention is a parameter (DomainConfig), never a global: bellman/bellperson
// keys bake in omega from the 7^t chain and shift the H coset by 7; snarkjs keys use the 5^t chain
// (docs/formats.md, "Roots of unity").

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>

#include "base/status.hpp"
#include "field/roots.hpp"

namespace zk::ntt {

struct DomainConfig {
  /// omega_{2^s} = root_generator^t with r - 1 = 2^s t; must be a quadratic non-residue.
  std::uint64_t root_generator = 7;
  /// The coset g<omega> used by the bellman quotient (compute_h); bellperson uses the field's
  /// multiplicative generator, 7 on BLS12-381.
  std::uint64_t coset_generator = 7;

  /// bellman / bellperson / blstrs (and the reference daemon): 7^t roots, coset shift 7.
  static constexpr DomainConfig bellman() { return {.root_generator = 7, .coset_generator = 7}; }
  /// snarkjs / rapidsnark / ffjavascript: 5^t roots; their H uses the odd 2n-th roots instead of a
  /// generator coset, so the coset shift only matters for the bellman-style quotient.
  static constexpr DomainConfig snarkjs() { return {.root_generator = 5, .coset_generator = 5}; }
};

template <class F>
class Domain {
 public:
  /// Builds the domain of size 2^log_n and its twiddle table (n/2 + 1 elements, computed in
  /// parallel). Fails if 2^log_n exceeds the field's two-adicity or a generator is unusable.
  /// `host_twiddles` false: no table (2 GiB at 2^27) — for the GPU, which builds its own from
  /// omega; the CPU transforms refuse such a domain.
  static Result<Domain> create(unsigned log_n, DomainConfig config, bool host_twiddles = true) {
    auto omega = field::root_of_unity<F>(config.root_generator, log_n);
    if (!omega.ok()) return omega.status();
    const F g = F::from_u64(config.coset_generator);
    if (g.is_zero()) return Status::invalid_argument("coset generator must be non-zero");
    Domain d;
    d.log_n_ = log_n;
    d.n_ = std::size_t{1} << log_n;
    d.config_ = config;
    d.omega_ = *omega;
    d.omega_inv_ = d.omega_.inverse();
    d.n_inv_ = F::from_u64(d.n_).inverse();
    d.g_ = g;
    d.g_inv_ = g.inverse();
    const F z = g.pow(static_cast<std::uint64_t>(d.n_)) - F::one();
    if (z.is_zero()) {
      return Status::invalid_argument("coset generator " + std::to_string(config.coset_generator) +
                                      " lies in the domain; g^n - 1 = 0, so the coset is the domain itself");
    }
    d.z_coset_inv_ = z.inverse();
    if (host_twiddles) d.build_twiddles();
    return d;
  }

  unsigned log_size() const { return log_n_; }
  std::size_t size() const { return n_; }
  const DomainConfig& config() const { return config_; }
  const F& omega() const { return omega_; }
  const F& omega_inv() const { return omega_inv_; }
  const F& size_inv() const { return n_inv_; }
  /// The coset shift g of the bellman quotient and its inverse.
  const F& coset_generator() const { return g_; }
  const F& coset_generator_inv() const { return g_inv_; }
  /// 1 / Z(g x) = 1 / (g^n - 1): the vanishing polynomial x^n - 1 is constant on the coset g<omega>.
  const F& vanishing_on_coset_inv() const { return z_coset_inv_; }

  /// twiddles()[j] = omega^j for j in [0, n/2]; the last entry is omega^{n/2} = -1 (it lets the
  /// inverse transform read omega^{-j} = -omega^{n/2 - j} from the same table, including j = 0).
  std::span<const F> twiddles() const {
    if (twiddles_.empty()) {  // a programming error, not an input error: fail loudly, never read past
      std::fprintf(stderr, "zkpipe: internal error: CPU NTT on a domain built without twiddles\n");
      std::abort();
    }
    return twiddles_;
  }
  bool has_twiddles() const { return !twiddles_.empty(); }
  /// Bytes held by the twiddle table.
  std::size_t twiddle_bytes() const { return twiddles_.size() * sizeof(F); }

 private:
  Domain() = default;

  void build_twiddles() {
    const std::size_t half = n_ / 2;
    twiddles_.resize(half + 1);
    constexpr std::size_t kChunk = 1 << 12;
    tbb::parallel_for(std::size_t{0}, (half + 1 + kChunk - 1) / kChunk, [&](std::size_t c) {
      const std::size_t begin = c * kChunk;
      const std::size_t end = std::min(begin + kChunk, half + 1);
      F w = omega_.pow(static_cast<std::uint64_t>(begin));
      for (std::size_t j = begin; j < end; ++j) {
        twiddles_[j] = w;
        w = w * omega_;
      }
    });
  }

  unsigned log_n_ = 0;
  std::size_t n_ = 1;
  DomainConfig config_;
  F omega_, omega_inv_, n_inv_, g_, g_inv_, z_coset_inv_;
  std::vector<F> twiddles_;
};

}  // namespace zk::ntt
