#pragma once

// Validation of the points a verifier trusts: every proof point and every verifying-key point must
// lie on the curve AND in the prime-order subgroup. An on-curve check alone lets an attacker add a
// point of small (cofactor) order to A or C: the pairing of such a point with the prime-order B
// need not be 1 in general, and on BLS12-381 G1 (cofactor ~2^126) small-order components can make
// a crafted proof pass. One place performs the check; the verifier calls it on every proof and
// `prepare_verifying_key` on every key, whatever format the points came from (bellman files,
// snarkjs JSON or zkey, the daemon), so no decoder can forget it.

#include <atomic>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "base/status.hpp"
#include "groth16/keys.hpp"

namespace zk::groth16 {

/// On-curve and subgroup membership of one affine point (identity allowed).
template <class E, class Affine>
Status check_point(const Affine& p, const std::string& what) {
  if (p.infinity) return {};
  if (!p.is_on_curve()) return Status::invalid_argument(what + ": point is not on the curve");
  if (!E::in_subgroup(p.to_jacobian())) {
    return Status::invalid_argument(what + ": point is not in the prime-order subgroup");
  }
  return {};
}

/// A proof's A, B, C: in the subgroup and not the identity (bellman rejects identity proof points
/// too; an honest proof has one only with negligible probability).
template <class E>
Status check_proof(const Proof<E>& proof) {
  const char* names[] = {"proof A", "proof B", "proof C"};
  const bool inf[] = {proof.a.infinity, proof.b.infinity, proof.c.infinity};
  for (int i = 0; i < 3; ++i) {
    if (inf[i]) return Status::invalid_argument(std::string(names[i]) + ": point at infinity");
  }
  if (auto s = check_point<E>(proof.a, names[0]); !s.ok()) return s;
  if (auto s = check_point<E>(proof.b, names[1]); !s.ok()) return s;
  return check_point<E>(proof.c, names[2]);
}

/// Every point of a verifying key; the IC points (one per public input, 25,840 for a WindowPoSt
/// key) in parallel. The first bad IC point (lowest index) is named.
template <class E>
Status check_verifying_key(const VerifyingKey<E>& vk) {
  if (auto s = check_point<E>(vk.alpha_g1, "vk alpha_g1"); !s.ok()) return s;
  if (auto s = check_point<E>(vk.beta_g1, "vk beta_g1"); !s.ok()) return s;
  if (auto s = check_point<E>(vk.beta_g2, "vk beta_g2"); !s.ok()) return s;
  if (auto s = check_point<E>(vk.gamma_g2, "vk gamma_g2"); !s.ok()) return s;
  if (auto s = check_point<E>(vk.delta_g1, "vk delta_g1"); !s.ok()) return s;
  if (auto s = check_point<E>(vk.delta_g2, "vk delta_g2"); !s.ok()) return s;
  if (vk.ic.empty()) return Status::invalid_argument("vk: no IC points (at least one, for ONE, is required)");
  std::atomic<std::size_t> first_bad{vk.ic.size()};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, vk.ic.size(), 256), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      if (!check_point<E>(vk.ic[i], "").ok()) {
        std::size_t cur = first_bad.load();
        while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {
        }
        return;
      }
    }
  });
  if (const std::size_t i = first_bad.load(); i < vk.ic.size()) {
    return check_point<E>(vk.ic[i], "vk ic[" + std::to_string(i) + "]");
  }
  return {};
}

}  // namespace zk::groth16
