// The development zkey setup and the zkey / verification_key.json writers (snarkjs.hpp).
//
// Construction follows snarkjs's `groth16 setup` (docs/formats.md section 4.4): QAP rows are the
// r1cs constraints plus one A-only row {signal s, 1} for s = 0..nPublic; n = the smallest power of
// two >= nConstraints + nPublic + 1; Lagrange bases over the 5^t roots; gamma = 1;
// IC[s] = beta u_s + alpha v_s + w_s; C[i] = (beta u_i + alpha v_i + w_i) / delta for the private
// signals; H[j] = L^(2n)_(2j+1)(tau) / delta, the odd Lagrange bases of the 2n-domain (the prover
// evaluates a b - c on the odd 2n-th roots and never divides by Z, see docs/snarkjs.md).
// Every point is made by fixed-base multiplication, in parallel.

#include <nlohmann/json.hpp>

#include "field/decimal.hpp"
#include "groth16/fixed_base.hpp"
#include "groth16/snarkjs.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt.hpp"

namespace zk::groth16::snarkjs {
namespace {

template <class E>
struct Sizes;
template <>
struct Sizes<Bls12_381> {
  using Fq = curve::bls12_381::Fq;
  static constexpr std::size_t kN8q = 48;
};
template <>
struct Sizes<Bn254> {
  using Fq = curve::bn254::Fq;
  static constexpr std::size_t kN8q = 32;
};

class Writer {
 public:
  void u32(std::uint64_t v) { uint(v, 4); }
  void raw(const unsigned char* p, std::size_t n) { out_.insert(out_.end(), p, p + n); }
  void u64(std::uint64_t v) { uint(v, 8); }
  void uint(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  /// The first `bytes` bytes of the limbs, little-endian (bytes <= 8 N).
  template <std::size_t N>
  void limbs(const field::Limbs<N>& l, std::size_t bytes) {
    for (std::size_t i = 0; i < bytes && i < 8 * N; ++i)
      out_.push_back(static_cast<std::uint8_t>(l[i / 8] >> (8 * (i % 8))));
  }
  void zeros(std::size_t n) { out_.insert(out_.end(), n, 0); }
  /// Opens a section: its 8-byte size is patched by end_section().
  void begin_section(std::uint32_t type) {
    u32(type);
    size_at_ = out_.size();
    u64(0);
  }
  void end_section() {
    const std::uint64_t size = out_.size() - size_at_ - 8;
    for (int i = 0; i < 8; ++i) out_[size_at_ + i] = static_cast<std::uint8_t>(size >> (8 * i));
  }
  std::vector<std::uint8_t>& bytes() { return out_; }

 private:
  std::vector<std::uint8_t> out_;
  std::size_t size_at_ = 0;
};

template <class E>
void put_g1(Writer& w, const typename E::G1Affine& p) {
  constexpr std::size_t n = Sizes<E>::kN8q;
  if (p.is_identity()) return w.zeros(2 * n);
  w.limbs(p.x.mont(), n);
  w.limbs(p.y.mont(), n);
}
template <class E>
void put_g2(Writer& w, const typename E::G2Affine& p) {
  constexpr std::size_t n = Sizes<E>::kN8q;
  if (p.is_identity()) return w.zeros(4 * n);
  for (const auto* c : {&p.x.c0, &p.x.c1, &p.y.c0, &p.y.c1}) w.limbs(c->mont(), n);
}

/// Lagrange bases of the 2^log_n domain (snarkjs's 5^t roots) at tau: L_i(tau) = (1/n) sum_k tau^k
/// omega^(-ik), the inverse NTT of the powers of tau.
template <class Fr>
Result<std::vector<Fr>> lagrange_at(const Fr& tau, unsigned log_n) {
  auto domain = ntt::Domain<Fr>::create(log_n, ntt::DomainConfig::snarkjs());
  if (!domain.ok()) return domain.status();
  std::vector<Fr> lag(domain->size());
  Fr p = Fr::one();
  for (auto& x : lag) x = p, p = p * tau;
  ntt::inverse(*domain, std::span<Fr>(lag), ntt::Order::kNN);
  return lag;
}

}  // namespace

template <class E>
Result<Zkey<E>> setup_zkey(const R1csFile<E>& r1cs, const Trapdoor<E>& t) {
  using Fr = typename E::Fr;
  const std::size_t n_vars = r1cs.n_wires, n_public = r1cs.n_public(), nc = r1cs.constraints.size();
  if (n_vars < n_public + 1) return Status::invalid_argument("r1cs: fewer wires than public signals");
  unsigned log_n = 0;
  while ((std::size_t{1} << log_n) < nc + n_public + 1) ++log_n;
  if (log_n + 1 > Fr::Params::kTwoAdicity) {
    return Status::invalid_argument("r1cs: " + std::to_string(nc) + " constraints need a 2^" +
                                    std::to_string(log_n + 1) + " domain, beyond the field's 2^" +
                                    std::to_string(Fr::Params::kTwoAdicity));
  }
  const std::size_t n = std::size_t{1} << log_n;
  if (t.tau.pow(static_cast<std::uint64_t>(2 * n)) == Fr::one()) {
    return Status::invalid_argument("setup: tau lies in the evaluation domain; draw another trapdoor");
  }
  auto lag = lagrange_at(t.tau, log_n);
  if (!lag.ok()) return lag.status();
  auto lag2 = lagrange_at(t.tau, log_n + 1);
  if (!lag2.ok()) return lag2.status();

  Zkey<E> zk;
  zk.n_vars = static_cast<std::uint32_t>(n_vars);
  zk.n_public = static_cast<std::uint32_t>(n_public);
  zk.domain_size = static_cast<std::uint32_t>(n);
  std::vector<Fr> u(n_vars), v(n_vars), w(n_vars);
  for (std::size_t row = 0; row < nc; ++row) {
    const auto& con = r1cs.constraints[row];
    for (const auto& term : con.a) {
      u[term.wire] += term.coeff * (*lag)[row];
      zk.coefs.push_back({0, static_cast<std::uint32_t>(row), term.wire, term.coeff});
    }
    for (const auto& term : con.b) {
      v[term.wire] += term.coeff * (*lag)[row];
      zk.coefs.push_back({1, static_cast<std::uint32_t>(row), term.wire, term.coeff});
    }
    for (const auto& term : con.c) w[term.wire] += term.coeff * (*lag)[row];
  }
  for (std::size_t s = 0; s <= n_public; ++s) {  // the input rows (ONE included)
    u[s] += (*lag)[nc + s];
    zk.coefs.push_back({0, static_cast<std::uint32_t>(nc + s), static_cast<std::uint32_t>(s), Fr::one()});
  }
  const Fr delta_inv = t.delta.inverse();
  std::vector<Fr> ic(n_public + 1), l(n_vars - n_public - 1), h(n);
  for (std::size_t i = 0; i < n_vars; ++i) {
    const Fr k = t.beta * u[i] + t.alpha * v[i] + w[i];
    if (i <= n_public) {
      ic[i] = k;  // gamma = 1, as snarkjs
    } else {
      l[i - n_public - 1] = k * delta_inv;
    }
  }
  for (std::size_t j = 0; j < n; ++j) h[j] = (*lag2)[2 * j + 1] * delta_inv;

  const FixedBaseTable<typename E::G1Config> g1(E::G1::generator());
  const FixedBaseTable<typename E::G2Config> g2(E::G2::generator());
  zk.vk.alpha_g1 = g1.mul(t.alpha).to_affine();
  zk.vk.beta_g1 = g1.mul(t.beta).to_affine();
  zk.vk.beta_g2 = g2.mul(t.beta).to_affine();
  zk.vk.gamma_g2 = E::G2Affine::generator();
  zk.vk.delta_g1 = g1.mul(t.delta).to_affine();
  zk.vk.delta_g2 = g2.mul(t.delta).to_affine();
  zk.vk.ic = g1.mul_many(ic);
  auto put = [](auto& out, const auto& points) {
    using Packed = std::remove_cvref_t<decltype(out[0])>;
    std::vector<Packed> packed(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) packed[i] = Packed::from_affine(points[i]);
    out = std::move(packed);
  };
  put(zk.a, g1.mul_many(u));
  put(zk.b1, g1.mul_many(v));
  put(zk.b2, g2.mul_many(v));
  put(zk.c, g1.mul_many(l));
  put(zk.h, g1.mul_many(h));
  return zk;
}

template <class E>
std::vector<std::uint8_t> write_zkey(const Zkey<E>& zk) {
  using Fr = typename E::Fr;
  using Fq = typename Sizes<E>::Fq;
  constexpr std::size_t n8q = Sizes<E>::kN8q, n8r = 32;
  Writer w;
  for (char c : std::string_view("zkey")) w.uint(static_cast<std::uint8_t>(c), 1);
  w.u32(1);   // version
  w.u32(10);  // sections
  w.begin_section(1);
  w.u32(1);  // Groth16
  w.end_section();
  w.begin_section(2);
  w.u32(n8q);
  w.limbs(Fq::Params::kModulus, n8q);
  w.u32(n8r);
  w.limbs(Fr::Params::kModulus, n8r);
  w.u32(zk.n_vars);
  w.u32(zk.n_public);
  w.u32(zk.domain_size);
  put_g1<E>(w, zk.vk.alpha_g1);
  put_g1<E>(w, zk.vk.beta_g1);
  put_g2<E>(w, zk.vk.beta_g2);
  put_g2<E>(w, zk.vk.gamma_g2);
  put_g1<E>(w, zk.vk.delta_g1);
  put_g2<E>(w, zk.vk.delta_g2);
  w.end_section();
  w.begin_section(3);
  for (const auto& p : zk.vk.ic) put_g1<E>(w, p);
  w.end_section();
  w.begin_section(4);
  w.u32(zk.coefs.size());
  // Stored as c R^2 mod r: the Montgomery form of c R, where R (the value 2^256 mod r) is the
  // inverse of from_mont(1) = R^-1.
  const Fr r_val = Fr::from_mont(typename Fr::Repr{1}).inverse();
  for (const auto& c : zk.coefs) {
    w.u32(c.matrix);
    w.u32(c.constraint);
    w.u32(c.signal);
    const Fr stored = c.value * r_val;
    w.limbs(stored.mont(), n8r);
  }
  w.end_section();
  // The key's points are already in the file's layout (curve::PackedAffine).
  auto put_points = [&](std::uint32_t sec, const auto& pts) {
    w.begin_section(sec);
    for (const auto& p : pts) w.raw(p.bytes, sizeof(p.bytes));
    w.end_section();
  };
  put_points(5, zk.a);
  put_points(6, zk.b1);
  put_points(7, zk.b2);
  put_points(8, zk.c);
  put_points(9, zk.h);
  // Section 10 (the phase-2 contributions): an all-zero circuit hash and no contributions. snarkjs's
  // prover and `zkey export verificationkey` do not read it; `zkey verify` fails, as it must for a
  // key that did not come from a ceremony.
  w.begin_section(10);
  w.zeros(64);
  w.u32(0);
  w.end_section();
  return std::move(w.bytes());
}

namespace {
template <class E>
nlohmann::json g1_to_json(const typename E::G1Affine& p) {
  if (p.is_identity()) return nlohmann::json::array({"0", "1", "0"});
  return nlohmann::json::array({field::to_decimal(p.x), field::to_decimal(p.y), "1"});
}
template <class E>
nlohmann::json g2_to_json(const typename E::G2Affine& p) {
  using nlohmann::json;
  auto d = [](const auto& x) { return field::to_decimal(x); };
  if (p.is_identity()) return json::array({json::array({"0", "0"}), json::array({"1", "0"}), json::array({"0", "0"})});
  return json::array(
      {json::array({d(p.x.c0), d(p.x.c1)}), json::array({d(p.y.c0), d(p.y.c1)}), json::array({"1", "0"})});
}
}  // namespace

template <class E>
std::string verifying_key_to_json(const VerifyingKey<E>& vk) {
  using nlohmann::json;
  auto d = [](const auto& x) { return field::to_decimal(x); };
  json j = json::object();
  j["protocol"] = "groth16";
  j["curve"] = curve_name<E>();
  j["nPublic"] = vk.ic.empty() ? 0 : vk.ic.size() - 1;
  j["vk_alpha_1"] = g1_to_json<E>(vk.alpha_g1);
  j["vk_beta_2"] = g2_to_json<E>(vk.beta_g2);
  j["vk_gamma_2"] = g2_to_json<E>(vk.gamma_g2);
  j["vk_delta_2"] = g2_to_json<E>(vk.delta_g2);
  // e(alpha, beta) as snarkjs exports it (Fq12 = Fq6[w] over Fq6 = Fq2[v]): [[c0.c0, c0.c1, c0.c2],
  // [c1.c0, c1.c1, c1.c2]], each Fq2 as [re, im].
  const auto beta = E::prepare(vk.beta_g2);
  const typename E::G2Prepared* qs[] = {&beta};
  const typename E::Gt ab = E::final_exponentiation(E::multi_miller_loop(std::span(&vk.alpha_g1, 1), qs));
  json gt = json::array();
  for (const auto* f6 : {&ab.c0, &ab.c1}) {
    json row = json::array();
    for (const auto* f2 : {&f6->c0, &f6->c1, &f6->c2}) row.push_back(json::array({d(f2->c0), d(f2->c1)}));
    gt.push_back(row);
  }
  j["vk_alphabeta_12"] = gt;
  json ic = json::array();
  for (const auto& p : vk.ic) ic.push_back(g1_to_json<E>(p));
  j["IC"] = ic;
  return j.dump(1) + "\n";
}

#define ZK_INSTANTIATE_SNARKJS_SETUP(E)                                                 \
  template Result<Zkey<E>> setup_zkey<E>(const R1csFile<E>&, const Trapdoor<E>&);      \
  template std::vector<std::uint8_t> write_zkey<E>(const Zkey<E>&);                     \
  template std::string verifying_key_to_json<E>(const VerifyingKey<E>&);
ZK_INSTANTIATE_SNARKJS_SETUP(Bls12_381)
ZK_INSTANTIATE_SNARKJS_SETUP(Bn254)
#undef ZK_INSTANTIATE_SNARKJS_SETUP

}  // namespace zk::groth16::snarkjs
