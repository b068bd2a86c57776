#include "selftest.hpp"

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "base/cpu.hpp"
#include "curve/pairing.hpp"
#include "curve/serialize.hpp"
#include "msm/pippenger.hpp"
#include "ntt/quotient.hpp"

namespace zk::app {

namespace {

struct Check {
  std::string name;
  bool ok;
  double ms;
};

template <class Ns>
bool bilinear(Rng& rng) {
  using Fr = typename Ns::Fr;
  const Fr a = Fr::random(rng), b = Fr::random(rng);
  const auto p = Ns::G1::generator();
  const auto q = Ns::G2::generator();
  const auto lhs = Ns::pairing((p * a).to_affine(), (q * b).to_affine());
  const auto rhs = Ns::pairing((p * (a * b)).to_affine(), q.to_affine());
  return lhs == rhs && !lhs.is_one();
}

struct Bls {
  using Fr = curve::bls12_381::Fr;
  using G1 = curve::bls12_381::G1;
  using G2 = curve::bls12_381::G2;
  static auto pairing(const curve::bls12_381::G1Affine& p, const curve::bls12_381::G2Affine& q) {
    return curve::bls12_381::pairing(p, q);
  }
};
struct Bn {
  using Fr = curve::bn254::Fr;
  using G1 = curve::bn254::G1;
  using G2 = curve::bn254::G2;
  static auto pairing(const curve::bn254::G1Affine& p, const curve::bn254::G2Affine& q) {
    return curve::bn254::pairing(p, q);
  }
};

}  // namespace

int run_selftest(bool json) {
  Rng rng(0x5e1f7e57);
  std::vector<Check> checks;
  const auto run = [&](std::string name, const std::function<bool()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    const bool ok = f();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    checks.push_back({std::move(name), ok, ms});
  };
  run("bls12_381: e(aP, bQ) == e(abP, Q) != 1", [&] { return bilinear<Bls>(rng); });
  run("bn254: e(aP, bQ) == e(abP, Q) != 1", [&] { return bilinear<Bn>(rng); });
  run("bls12_381: G2 compressed encoding round trip (checked decode)", [&] {
    const auto q = curve::bls12_381::G2::random(rng).to_affine();
    const auto enc = curve::bls12_381::to_compressed(q);
    auto back = curve::bls12_381::g2_from_compressed(enc);
    return back.ok() && *back == q;
  });
  run("bls12_381: Fr inverse", [&] {
    const auto x = curve::bls12_381::Fr::random(rng);
    return (x * x.inverse()).is_one();
  });
  run("bls12_381: G1 MSM of 2^12 points (Pippenger) == naive sum", [&] {
    using C = curve::Bls12_381G1;
    std::vector<curve::Jacobian<C>> pts;
    for (int i = 0; i < 4096; ++i) pts.push_back(i < 8 ? curve::Jacobian<C>::random(rng) : pts[i - 1] + pts[i - 8]);
    const auto bases = curve::batch_to_affine<C>(pts);
    std::vector<C::Scalar> k(bases.size());
    for (auto& x : k) x = C::Scalar::random(rng);
    auto r = msm::msm<C>(bases, k);
    return r.ok() && *r == msm::msm_naive<C>(bases, k);
  });
  run("bls12_381: quotient H on 2^14 (bellman coset): A B - C == H Z", [&] {
    using F = curve::bls12_381::Fr;
    auto d = ntt::Domain<F>::create(14, ntt::DomainConfig::bellman());
    if (!d.ok()) return false;
    const std::size_t n = d->size();
    std::vector<F> a(n), b(n), c(n);
    for (std::size_t i = 0; i < n; ++i) a[i] = F::random(rng), b[i] = F::random(rng), c[i] = a[i] * b[i];
    auto pa = a, pb = b, pc = c;
    for (auto* v : {&pa, &pb, &pc}) ntt::inverse(*d, std::span<F>(*v), ntt::Order::kNN);
    if (!ntt::compute_h(*d, std::span<F>(a), std::span<F>(b), std::span<F>(c)).ok()) return false;
    const F x = F::random(rng);
    auto eval = [&](const std::vector<F>& p) {
      F acc = F::zero();
      for (std::size_t i = p.size(); i-- > 0;) acc = acc * x + p[i];
      return acc;
    };
    return a[n - 1].is_zero() &&
           eval(pa) * eval(pb) - eval(pc) == eval(a) * (x.pow(static_cast<std::uint64_t>(n)) - F::one());
  });
  bool all = true;
  for (const auto& c : checks) all = all && c.ok;
  if (json) {
    std::printf("{\"mulx_adx\": %s, \"ok\": %s, \"checks\": [", cpu::has_mulx_adx() ? "true" : "false",
                all ? "true" : "false");
    for (std::size_t i = 0; i < checks.size(); ++i) {
      std::printf("%s{\"name\": \"%s\", \"ok\": %s, \"ms\": %.3f}", i ? ", " : "", checks[i].name.c_str(),
                  checks[i].ok ? "true" : "false", checks[i].ms);
    }
    std::printf("]}\n");
  } else {
    std::printf("zkpipe selftest (field multiplication: %s)\n", cpu::has_mulx_adx() ? "MULX/ADX" : "portable");
    for (const auto& c : checks) std::printf("  %-4s %-64s %8.3f ms\n", c.ok ? "ok" : "FAIL", c.name.c_str(), c.ms);
    std::printf("%s\n", all ? "all checks passed" : "SELFTEST FAILED");
  }
  return all ? 0 : 1;
}

}  // namespace zk::app
