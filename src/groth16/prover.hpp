#pragma once

// The Groth16 prover, split the way the engine pipelines it (docs/groth16.md):
//   prove_start  (the device half): the quotient H (ntt::compute_h, bellman convention), then the
//                MSMs for H, L, A and B in G1; c = a o b is formed for the quotient only, and
//                the partition's a and b are released as soon as H no longer needs them.
//   prove_finish (the CPU half): the B MSM in G2 and the assembly with r and s (a device backend,
//                Backend::kG2, runs B_G2's aux part in prove_start's turn: prove_finish then adds
//                only the inputs' part).
// prove() runs both; for the same r and s the result is identical to start + finish.
//
//   A = alpha + sum_i w_i a_i + r delta
//   B = beta + sum_i w_i b_i + s delta                      (in G2; its G1 twin B1 uses beta_g1)
//   C = sum_aux w_j l_j + sum_i h_i H_i + s A + r B1 - r s delta
//
// A key that does not belong to the circuit (input or aux counts, densities, domain size) is an
// error before any work starts, never a wrong proof.

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "base/uninit_vector.hpp"
#include "groth16/keys.hpp"
#include "msm/pippenger.hpp"
#include "ntt/quotient.hpp"
#include "r1cs/prover_cs.hpp"

namespace zk::groth16 {

/// Wall time of each prover stage, in milliseconds.
struct ProveTimings {
  double quotient = 0;  // c = a o b, then compute_h: 7 NTTs, cosets, pointwise product
  double msm_h = 0, msm_l = 0, msm_a = 0, msm_b_g1 = 0;
  double msm_b_g2 = 0, assembly = 0;
  double msm_b_g2_device = 0;  // B_G2's aux part, when prove_start ran it on a device (Backend::kG2)
  double start() const { return quotient + msm_h + msm_l + msm_a + msm_b_g1 + msm_b_g2_device; }
  double finish() const { return msm_b_g2 + assembly; }
};

namespace detail {
class Stopwatch {
 public:
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - t_).count();
    t_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point t_ = std::chrono::steady_clock::now();
};
}  // namespace detail

template <class E>
struct PendingProof {
  typename E::G1 h, l, a, b_g1;  // MSM results
  typename E::Fr r, s;
  // What prove_finish still needs from the partition (a, b, c are gone by now).
  std::vector<typename E::Fr> inputs;
  msm::CompactColumn<typename E::Fr> aux;
  msm::DensityBitmap b_input, b_aux;
  /// B_G2's aux part, when prove_start computed it on a device (Backend::kG2); prove_finish then
  /// adds only the inputs' part.
  std::optional<typename E::G2> b_g2_aux;
};

namespace detail {

inline std::string count_mismatch(const char* what, std::size_t circuit, std::size_t key) {
  return std::string("circuit/key mismatch: the circuit has ") + std::to_string(circuit) + " " + what +
         " but the proving key expects " + std::to_string(key);
}

template <class E>
Status check_key(const ProvingKey<E>& pk, const r1cs::Partition<typename E::Fr>& p) {
  if (p.inputs.size() != pk.vk.ic.size())
    return Status::invalid_argument(count_mismatch("inputs (with ONE)", p.inputs.size(), pk.vk.ic.size()));
  if (p.aux.size() != pk.l.size())
    return Status::invalid_argument(count_mismatch("aux variables", p.aux.size(), pk.l.size()));
  if (p.inputs.size() + p.a_aux.popcount() != pk.a.size()) {
    return Status::invalid_argument(
        count_mismatch("A-query variables", p.inputs.size() + p.a_aux.popcount(), pk.a.size()));
  }
  const std::size_t nb = p.b_input.popcount() + p.b_aux.popcount();
  if (nb != pk.b_g1.size() || nb != pk.b_g2.size()) {
    return Status::invalid_argument(count_mismatch("B-query variables", nb, pk.b_g1.size()));
  }
  const std::size_t n = pk.domain_size();
  if ((n & (n - 1)) != 0 || p.num_rows() > n) {
    return Status::invalid_argument(count_mismatch("QAP rows", p.num_rows(), n));
  }
  if (p.a.size() != p.b.size()) {
    return Status::invalid_argument("partition: a and b have different lengths (already released?)");
  }
  return {};
}

}  // namespace detail

/// Where prove_start's heavy work runs: the quotient H and the G1 MSMs. CpuBackend uses ntt/ and
/// msm/; groth16/gpu_backend.hpp has the GPU one (same results, same proofs for the same r, s),
/// which holds the device's gate (the dual-worker interlock), hence backends are objects.
/// prove_start first prepares on the CPU (`gather` for the MSMs over the witness: the dense scalars a
/// device needs, nothing on the CPU), then runs every device call inside one `exclusive()` region
/// (a turn of the device for a GPU backend).
struct CpuBackend {
  static constexpr const char* kName = "cpu";
  static constexpr bool kHostTwiddles = true;  // the domain's twiddle table (ntt::Domain::create)
  /// Whether B_G2's aux part runs in prove_start's turn (a device) rather than in prove_finish.
  static constexpr bool kG2 = false;
  struct NoTurn {};
  NoTurn exclusive() const { return {}; }
  /// An MSM's input over the witness: here the bases, the scalars as they are and the density bitmap
  /// when it is filtered (msm_filtered filters itself, and reads a compact witness's bits directly).
  template <class C>
  struct Gathered {
    std::span<const curve::Affine<C>> bases;
    msm::ScalarSource<typename C::Scalar> scalars;
    const msm::DensityBitmap* density;  // null: every scalar
  };
  template <class C>
  Result<Gathered<C>> gather(std::span<const curve::Affine<C>> bases, std::span<const typename C::Scalar> scalars,
                             const msm::DensityBitmap& density) const {
    return Gathered<C>{bases, msm::ScalarSource(scalars), &density};
  }
  template <class C>
  Result<Gathered<C>> gather(std::span<const curve::Affine<C>> bases,
                             const msm::CompactColumn<typename C::Scalar>& scalars,
                             const msm::DensityBitmap* density = nullptr) const {
    return Gathered<C>{bases, msm::ScalarSource(scalars), density};
  }
  template <class C>
  Result<curve::Jacobian<C>> msm_gathered(const Gathered<C>& g) const {
    return g.density != nullptr ? msm::msm_filtered<C>(g.bases, g.scalars, *g.density) : msm::msm<C>(g.bases, g.scalars);
  }
  /// The quotient into `a` (bellman's compute_h, or snarkjs's compute_h_odd_coset) from a and b
  /// (zero-padded to the domain) with c = a o b formed here, b and c freed as soon as it is done,
  /// then the H MSM over a's first h_bases.size() values. Sets t.quotient and t.msm_h. (One call, so
  /// a device backend can keep the quotient where the MSM reads it and form c there.)
  /// (Bases: curve::Affine<C>, or a zkey's curve::PackedAffine<C>, here and in msm.)
  template <class C, class F, class Base>
  Result<curve::Jacobian<C>> quotient_and_h(const ntt::Domain<F>& d, base::UninitVector<F>& a, base::UninitVector<F>& b,
                                            bool odd_coset, std::span<const Base> h_bases, ProveTimings& t) const {
    if (h_bases.size() > a.size()) return Status::invalid_argument("quotient: more H bases than values");
    if (a.size() != b.size()) return Status::invalid_argument("quotient: a and b have different lengths");
    detail::Stopwatch w;
    base::UninitVector<F> c(a.size());  // first touched by the parallel product
    ntt::hadamard_product(std::span<const F>(a), std::span<const F>(b), std::span<F>(c));
    const Status s = odd_coset ? ntt::compute_h_odd_coset(d, std::span<F>(a), std::span<F>(b), std::span<F>(c))
                               : ntt::compute_h(d, std::span<F>(a), std::span<F>(b), std::span<F>(c));
    base::UninitVector<F>().swap(b);
    base::UninitVector<F>().swap(c);
    if (!s.ok()) return s;
    t.quotient = w.lap();
    auto r = msm<C>(h_bases, std::span<const F>(a).first(h_bases.size()));
    t.msm_h = w.lap();
    return r;
  }
  template <class C, class Base>
  Result<curve::Jacobian<C>> msm(std::span<const Base> bases, std::span<const typename C::Scalar> scalars) const {
    return msm::msm<C>(bases, scalars);
  }
  /// prove_start's a and b as this backend takes them: dense, zero-padded to the domain (the
  /// quotient transforms them in place), the partition's compact columns freed at once.
  template <class F>
  struct Abc {
    base::UninitVector<F> a, b;
  };
  template <class F>
  Abc<F> take_abc(r1cs::Partition<F>& p, std::size_t n) const {
    Abc<F> abc{p.a.expand(n), p.b.expand(n)};
    p.release_abc();
    return abc;
  }
  template <class C, class F>
  Result<curve::Jacobian<C>> quotient_and_h(const ntt::Domain<F>& d, Abc<F>& abc, bool odd_coset,
                                            std::span<const curve::Affine<C>> h_bases, ProveTimings& t) const {
    return quotient_and_h<C>(d, abc.a, abc.b, odd_coset, h_bases, t);
  }
};

/// Consumes the partition (its a and b are freed here).
template <class E, class Backend = CpuBackend>
Result<PendingProof<E>> prove_start(const ProvingKey<E>& pk, r1cs::Partition<typename E::Fr>&& p,
                                    const typename E::Fr& r, const typename E::Fr& s, ProveTimings* timings = nullptr,
                                    const Backend& backend = Backend{}) {
  ProveTimings local;
  ProveTimings& t = timings != nullptr ? *timings : local;
  detail::Stopwatch watch;
  using Fr = typename E::Fr;
  using G1C = typename E::G1Config;
  if (Status st = detail::check_key(pk, p); !st.ok()) return st;
  const std::size_t n = pk.domain_size();
  unsigned log_n = 0;
  while ((std::size_t{1} << log_n) < n) ++log_n;
  auto domain = ntt::Domain<Fr>::create(log_n, E::kDomain, Backend::kHostTwiddles);
  if (!domain.ok()) return domain.status();

  // a and b for the quotient as the backend takes them (the CPU: dense, zero-padded to the domain,
  // the compact columns freed at once; a GPU: the compact columns, expanded on the device).
  auto abc = backend.template take_abc<Fr>(p, n);
  PendingProof<E> out;
  out.r = r;
  out.s = s;
  const std::size_t ni = p.inputs.size();
  const std::size_t nbi = p.b_input.popcount();
  using J = typename E::G1;
  Status failed;
  auto take = [&](Result<J> x) {
    if (!x.ok()) {
      if (failed.ok()) failed = x.status();
      return J::identity();
    }
    return *x;
  };
  // CPU preparation before the device's turn: the witness MSMs' inputs (dense scalars on a GPU).
  auto l_aux = backend.template gather<G1C>(std::span(pk.l), p.aux);
  auto a_aux = backend.template gather<G1C>(std::span(pk.a).subspan(ni), p.aux, &p.a_aux);
  auto b_in = backend.template gather<G1C>(std::span(pk.b_g1).first(nbi), p.inputs, p.b_input);
  auto b_aux = backend.template gather<G1C>(std::span(pk.b_g1).subspan(nbi), p.aux, &p.b_aux);
  using G2C = typename E::G2Config;
  std::optional<Result<typename Backend::template Gathered<G2C>>> b2_aux;
  if constexpr (Backend::kG2) {
    if (nbi + p.b_aux.popcount() != pk.b_g2.size()) {
      return Status::invalid_argument(
          detail::count_mismatch("B-query variables", nbi + p.b_aux.popcount(), pk.b_g2.size()));
    }
    b2_aux = backend.template gather<G2C>(std::span(pk.b_g2).subspan(nbi), p.aux, &p.b_aux);
    if (!b2_aux->ok()) return b2_aux->status();
  }
  if (!l_aux.ok()) return l_aux.status();
  if (!a_aux.ok()) return a_aux.status();
  if (!b_in.ok()) return b_in.status();
  if (!b_aux.ok()) return b_aux.status();
  {
    [[maybe_unused]] auto turn = backend.exclusive();  // device work only, to the end of the block
    // bellman drops the top coefficient: the H query has n - 1 points.
    auto h_sum = backend.template quotient_and_h<G1C>(*domain, abc, /*odd_coset=*/false,
                                                      std::span<const typename E::G1Affine>(pk.h), t);
    abc = {};
    p.release_abc();
    if (!h_sum.ok()) return h_sum.status();
    out.h = *h_sum;
    watch.lap();
    out.l = take(backend.template msm_gathered<G1C>(*l_aux));
    t.msm_l = watch.lap();
    out.a = take(backend.template msm<G1C>(std::span(pk.a).first(ni), p.inputs)) +
            take(backend.template msm_gathered<G1C>(*a_aux));
    t.msm_a = watch.lap();
    out.b_g1 = take(backend.template msm_gathered<G1C>(*b_in)) + take(backend.template msm_gathered<G1C>(*b_aux));
    t.msm_b_g1 = watch.lap();
    if constexpr (Backend::kG2) {
      // B_G2 over the witness on the device too: on the CPU it is ~2x a 32 GiB partition's
      // synthesis (docs/gpu.md "The CPU's share of a 32 GiB proof").
      auto b2 = backend.template msm_gathered<G2C>(**b2_aux);
      if (!b2.ok() && failed.ok()) failed = b2.status();
      if (b2.ok()) out.b_g2_aux = *b2;
      t.msm_b_g2_device = watch.lap();
    }
  }
  if (!failed.ok()) return failed;
  out.inputs = std::move(p.inputs);
  out.aux = std::move(p.aux);
  out.b_input = std::move(p.b_input);
  out.b_aux = std::move(p.b_aux);
  return out;
}

template <class E>
Result<Proof<E>> prove_finish(const ProvingKey<E>& pk, PendingProof<E>&& pending, ProveTimings* timings = nullptr) {
  using G2C = typename E::G2Config;
  detail::Stopwatch watch;
  const std::size_t nbi = pending.b_input.popcount();
  if (nbi + pending.b_aux.popcount() != pk.b_g2.size()) {
    return Status::invalid_argument(
        detail::count_mismatch("B-query variables", nbi + pending.b_aux.popcount(), pk.b_g2.size()));
  }
  auto b_in = msm::msm_filtered<G2C>(std::span(pk.b_g2).first(nbi), pending.inputs, pending.b_input);
  auto b_aux = pending.b_g2_aux ? Result<typename E::G2>(*pending.b_g2_aux)
                                : msm::msm_filtered<G2C>(std::span(pk.b_g2).subspan(nbi), pending.aux, pending.b_aux);
  if (!b_in.ok()) return b_in.status();
  if (!b_aux.ok()) return b_aux.status();
  const auto b_g2 = *b_in + *b_aux;
  if (timings != nullptr) timings->msm_b_g2 = watch.lap();
  const auto& vk = pk.vk;
  const auto& r = pending.r;
  const auto& s = pending.s;
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  const G1 delta1 = vk.delta_g1.to_jacobian();
  const G1 a = vk.alpha_g1.to_jacobian() + pending.a + delta1 * r;
  const G2 b = vk.beta_g2.to_jacobian() + b_g2 + vk.delta_g2.to_jacobian() * s;
  const G1 b1 = vk.beta_g1.to_jacobian() + pending.b_g1 + delta1 * s;
  const G1 c = pending.l + pending.h + a * s + b1 * r - delta1 * (r * s);
  Proof<E> proof{a.to_affine(), b.to_affine(), c.to_affine()};
  if (timings != nullptr) timings->assembly = watch.lap();
  return proof;
}

template <class E>
Result<Proof<E>> prove(const ProvingKey<E>& pk, r1cs::Partition<typename E::Fr>&& p, const typename E::Fr& r,
                       const typename E::Fr& s, ProveTimings* timings = nullptr) {
  auto pending = prove_start(pk, std::move(p), r, s, timings);
  if (!pending.ok()) return pending.status();
  return prove_finish(pk, std::move(*pending), timings);
}

// Instantiated once, in prover.cpp, for both curves on the CPU (a device backend's instantiation
// stays with its caller): every other translation unit only calls them, which keeps the build
// short (each instantiation is tens of seconds of compiler time).
#define ZK_GROTH16_PROVER_INSTANCES(X, E)                                                                        \
  X template Result<PendingProof<E>> prove_start<E, CpuBackend>(const ProvingKey<E>&, r1cs::Partition<E::Fr>&&, \
                                                                const E::Fr&, const E::Fr&, ProveTimings*,        \
                                                                const CpuBackend&);                               \
  X template Result<Proof<E>> prove_finish<E>(const ProvingKey<E>&, PendingProof<E>&&, ProveTimings*);           \
  X template Result<Proof<E>> prove<E>(const ProvingKey<E>&, r1cs::Partition<E::Fr>&&, const E::Fr&, const E::Fr&, \
                                       ProveTimings*);
ZK_GROTH16_PROVER_INSTANCES(extern, Bls12_381)
ZK_GROTH16_PROVER_INSTANCES(extern, Bn254)

}  // namespace zk::groth16
