#pragma once

// circom / snarkjs files (docs/formats.md section 4): the iden3 binary container, Groth16 .zkey
// (protocol 1), .wtns witnesses, and the snarkjs JSON proof / public / verification key. Readers
// check every count against the bytes present before allocating.
//
// Encodings: zkey points are affine, coordinates little-endian Montgomery (x R mod q with
// R = 2^(8 n8q), the same R zkpipe's fields use), G2 as c0 || c1, the identity all zeros;
// section-4 coefficients are c R^2 mod r; witnesses are canonical little-endian.

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.hpp"
#include "base/uninit_vector.hpp"
#include "curve/point.hpp"
#include "groth16/key_points.hpp"
#include "groth16/keys.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"

namespace zk::groth16::snarkjs {

struct Container {
  std::string magic;
  std::uint32_t version = 0;
  std::map<std::uint32_t, std::span<const std::uint8_t>> sections;  // a section type seen twice is an error
};
Result<Container> parse_container(std::span<const std::uint8_t> bytes, std::string_view magic);

/// Which curve a zkey or wtns file is for (from its prime): "bn128" or "bls12381".
Result<std::string> detect_curve(std::span<const std::uint8_t> bytes);
/// What a zkey file's header says (its section table and header only are read).
struct ZkeyInfo {
  std::string curve;  // "bn128" or "bls12381"
  std::uint32_t n_vars = 0, n_public = 0, domain_size = 0;
  std::uint64_t file_bytes = 0;
};
Result<ZkeyInfo> read_zkey_info(const std::string& path);

template <class E>
struct Zkey {
  std::uint32_t n_vars = 0, n_public = 0, domain_size = 0;
  VerifyingKey<E> vk;  // alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2, ic
  struct Coef {
    std::uint32_t matrix;  // 0 = A, 1 = B
    std::uint32_t constraint;
    std::uint32_t signal;
    typename E::Fr value;
  };
  // Filled in parallel by the reader (UninitVector: the pages are first touched there, not by a
  // serial zero fill).
  base::UninitVector<Coef> coefs;
  // The MSM bases in the file's own layout: read_zkey_file(kMapped) leaves them in the mapped file
  // (no decoded copy, no zeroed pages), the other readers and setup_zkey own them.
  using G1Point = curve::PackedAffine<typename E::G1Config>;
  using G2Point = curve::PackedAffine<typename E::G2Config>;
  KeyPoints<G1Point> a, b1, c, h;  // c: private signals n_public+1 .. n_vars-1
  KeyPoints<G2Point> b2;
};

/// A circom .r1cs: wires (0 = ONE, then outputs, public inputs, private inputs, internals) and
/// constraints A * B - C = 0 over canonical coefficients.
template <class E>
struct R1csFile {
  std::uint32_t n_wires = 0, n_pub_out = 0, n_pub_in = 0, n_prv_in = 0;
  std::uint64_t n_labels = 0;
  struct Term {
    std::uint32_t wire;
    typename E::Fr coeff;
  };
  struct Constraint {
    std::vector<Term> a, b, c;
  };
  std::vector<Constraint> constraints;
  std::uint32_t n_public() const { return n_pub_out + n_pub_in; }
  /// The index of the first unsatisfied constraint for a witness, or -1.
  long first_unsatisfied(std::span<const typename E::Fr> witness) const;
};
template <class E>
Result<R1csFile<E>> read_r1cs(std::span<const std::uint8_t> bytes);

template <class E>
Result<Zkey<E>> read_zkey(std::span<const std::uint8_t> bytes);
/// Where read_zkey_file leaves the MSM bases (sections 5-9), checked either way (every coordinate
/// below q, every point on its curve or the identity), on all threads of the caller's arena:
///  - kMapped: in the mapped file, used where they lie. Nothing is copied and no page is zeroed; the
///    pages are the page cache's, shared and reclaimable. For one-shot provers (`zkpipe prove`).
///    The file must not be truncated or rewritten in place while the key lives (a replaced file,
///    renamed over it, is fine): its pages would change under the prover, or vanish (SIGBUS).
///  - kCopied: copied into the process's memory, the file's pages dropped as they are read (peak: the
///    key plus the pages in flight). For the daemon, whose keys live for hours.
enum class ZkeyPoints { kMapped, kCopied };
template <class E>
Result<Zkey<E>> read_zkey_file(const std::string& path, ZkeyPoints points = ZkeyPoints::kCopied);
/// Bytes a Zkey read from a file of `file_bytes` holds in memory (an upper bound: the file's size,
/// the coefficients' 44-byte records growing to 48 in memory, plus slack).
std::uint64_t zkey_memory_bytes(std::uint64_t file_bytes);
template <class E>
Result<std::vector<typename E::Fr>> read_wtns(std::span<const std::uint8_t> bytes);

/// The snarkjs prover: a, b from the coefficients, c = a b, H on the odd 2n-th roots (5^t roots),
/// dense MSMs over A/B1/B2 (identity entries allowed), C over the private signals.
template <class E>
Result<Proof<E>> prove(const Zkey<E>& zk, std::span<const typename E::Fr> witness, const typename E::Fr& r,
                       const typename E::Fr& s);

/// The same prover in the engine's three stages. evaluate_rows: the witness checked against the key
/// and the rows a, b, c = a b over the domain (synthesis). prove_start: H on the odd coset (a is
/// overwritten by it; the rows are freed) and the G1 MSMs. prove_finish: the B2 MSM on G2 and the
/// assembly of the proof.
template <class E>
struct Rows {
  base::UninitVector<typename E::Fr> a, b;  // c = a o b is formed by the backend's quotient
};
template <class E>
struct PendingZkeyProof {
  typename E::G1 a, b1, c;  // sum w A, sum w B1, sum_private w C + sum h H
  typename E::Fr r, s;
};
template <class E>
Result<Rows<E>> evaluate_rows(const Zkey<E>& zk, std::span<const typename E::Fr> witness);
/// Timings (optional) use ProveTimings' names: msm_l is the C-section (private signals) MSM.
/// Backend: prover.hpp's CpuBackend, or gpu_backend.hpp's GpuBackend (quotient and G1 MSMs on the
/// device, in turns of its gate).
template <class E, class Backend = CpuBackend>
Result<PendingZkeyProof<E>> prove_start(const Zkey<E>& zk, std::span<const typename E::Fr> w, Rows<E> rows,
                                        const typename E::Fr& r, const typename E::Fr& s,
                                        ProveTimings* timings = nullptr, const Backend& backend = Backend{}) {
  ProveTimings local;
  ProveTimings& t = timings != nullptr ? *timings : local;
  detail::Stopwatch clock;
  using Fr = typename E::Fr;
  using G1C = typename E::G1Config;
  const std::size_t n = zk.domain_size;
  if (w.size() != zk.n_vars || rows.a.size() != n || rows.b.size() != n)
    return Status::invalid_argument("zkey prover: witness or rows do not match the key");
  unsigned log_n = 0;
  while ((std::size_t{1} << log_n) < n) ++log_n;
  auto domain = ntt::Domain<Fr>::create(log_n, ntt::DomainConfig::snarkjs(), Backend::kHostTwiddles);
  if (!domain.ok()) return domain.status();
  Status failed;
  using G1Point = typename Zkey<E>::G1Point;
  auto msm1 = [&](std::span<const G1Point> bases, std::span<const Fr> k) {
    auto x = backend.template msm<G1C>(bases, k);
    if (!x.ok()) {
      if (failed.ok()) failed = x.status();
      return E::G1::identity();
    }
    return *x;
  };
  PendingZkeyProof<E> p;
  p.r = r, p.s = s;
  {
    [[maybe_unused]] auto turn = backend.exclusive();  // device work only (prover.hpp)
    auto h_sum = backend.template quotient_and_h<G1C>(*domain, rows.a, rows.b, /*odd_coset=*/true,
                                                      std::span<const G1Point>(zk.h), t);
    base::UninitVector<Fr>().swap(rows.a);
    base::UninitVector<Fr>().swap(rows.b);
    if (!h_sum.ok()) return h_sum.status();
    p.c = *h_sum;
    clock.lap();
    p.c += msm1(zk.c, w.subspan(zk.n_public + 1));
    t.msm_l = clock.lap();
    p.a = msm1(zk.a, w);
    t.msm_a = clock.lap();
    p.b1 = msm1(zk.b1, w);
    t.msm_b_g1 = clock.lap();
  }
  if (!failed.ok()) return failed;
  return p;
}

template <class E>
Proof<E> prove_finish(const Zkey<E>& zk, std::span<const typename E::Fr> witness, const PendingZkeyProof<E>& p,
                      ProveTimings* timings = nullptr);

/// A DEVELOPMENT (insecure) Groth16 setup in snarkjs's convention: whoever knows the trapdoor can
/// forge proofs. The zkey is what `snarkjs groth16 setup` would make from the same tau, alpha, beta,
/// delta (gamma = 1, as snarkjs; t.gamma is ignored); see snarkjs_setup.cpp.
template <class E>
Result<Zkey<E>> setup_zkey(const R1csFile<E>& r1cs, const Trapdoor<E>& t);
/// The .zkey bytes (sections 1-10 in order; section 10 holds no contributions).
template <class E>
std::vector<std::uint8_t> write_zkey(const Zkey<E>& zk);
/// verification_key.json as `snarkjs zkey export verificationkey` writes it (vk_alphabeta_12 included).
template <class E>
std::string verifying_key_to_json(const VerifyingKey<E>& vk);

/// snarkjs JSON.
template <class E>
std::string proof_to_json(const Proof<E>& p);
template <class E>
Result<Proof<E>> proof_from_json(std::string_view text);
template <class E>
std::string public_to_json(std::span<const typename E::Fr> inputs);
template <class E>
Result<VerifyingKey<E>> verifying_key_from_json(std::string_view text);
/// "bn128" or "bls12381".
template <class E>
const char* curve_name();

}  // namespace zk::groth16::snarkjs
