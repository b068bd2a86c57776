#pragma once

// Aggregates of development proofs for the SnarkPack tests: n proofs of the toy circuit
// (out = a b c + k, public out and k) under one development key, and the whole round trip of one
// count (aggregate V2 and V1 with a DEVELOPMENT SRS, all eleven equations, the bytes back).

#include <gtest/gtest.h>

#include "../groth16/test_circuits.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "snarkpack/kzg.hpp"
#include "snarkpack/prove.hpp"
#include "snarkpack/verify.hpp"
#include "test_util.hpp"

namespace zk::snarkpack {

using E = groth16::Bls12_381;

/// n proofs of the toy circuit (out = a b c + k; public out and k) under one development key.
struct Batch {
  groth16::ProvingKey<E> pk;
  std::vector<Groth16Proof> proofs;
  std::vector<std::vector<Fr>> inputs;
};

inline Batch make_batch(std::size_t n, std::uint64_t seed) {
  auto rng = test::rng(seed);
  Batch b;
  const test::ToyCircuit<Fr> shape_of{Fr::one(), Fr::one(), Fr::one(), Fr::one()};
  r1cs::ShapeRecorder<Fr> rec;
  EXPECT_TRUE(shape_of.synthesize(rec).ok());
  auto pk = groth16::generate_parameters<E>(rec.shape(), groth16::Trapdoor<E>::random(rng));
  EXPECT_TRUE(pk.ok()) << pk.status().to_string();
  b.pk = std::move(pk).value();
  for (std::size_t j = 0; j < n; ++j) {
    const test::ToyCircuit<Fr> c{Fr::random(rng), Fr::random(rng), Fr::random(rng), Fr::from_u64(j)};
    r1cs::ProvingSystem<Fr> cs;
    EXPECT_TRUE(c.synthesize(cs).ok());
    auto proof = groth16::prove(b.pk, std::move(cs).finish(), Fr::random(rng), Fr::random(rng));
    EXPECT_TRUE(proof.ok()) << proof.status().to_string();
    b.proofs.push_back(*proof);
    b.inputs.push_back({c.out(), c.k});
  }
  return b;
}

inline const std::vector<std::uint8_t> kInclude = {'z', 'k', 'p', 'i', 'p', 'e'};

inline Verdict verdict(const Srs& srs, const Batch& b, const AggregateProof& p, std::span<const std::uint8_t> include,
                       Version v, std::span<const std::vector<Fr>> inputs) {
  auto vs = verifier_srs(srs);
  EXPECT_TRUE(vs.ok());
  auto r = verify_aggregate(*vs, b.pk.vk, inputs, p, include, v);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return r.ok() ? *r : Verdict{};
}

inline void aggregate_and_verify(std::size_t n) {
  SCOPED_TRACE(n);
  const Batch b = make_batch(n, 100 + n);
  const Srs srs = development_srs(5, 2 * n, n);
  for (const Version v : {Version::kV2, Version::kV1}) {
    auto p = aggregate(srs, b.proofs, kInclude, v);
    ASSERT_TRUE(p.ok()) << p.status().to_string();
    const Verdict ok = verdict(srs, b, *p, kInclude, v, b.inputs);
    EXPECT_TRUE(ok.srs_free.all());
    EXPECT_TRUE(ok.kzg.v_alpha && ok.kzg.v_beta) << ok.kzg.v_alpha << ok.kzg.v_beta;
    EXPECT_TRUE(ok.kzg.w_alpha && ok.kzg.w_beta) << ok.kzg.w_alpha << ok.kzg.w_beta;
    EXPECT_TRUE(ok.groth16);
    auto bytes = write_aggregate_proof(*p);
    ASSERT_TRUE(bytes.ok()) << bytes.status().to_string();
    EXPECT_EQ(bytes->size(), aggregate_proof_bytes(static_cast<std::uint32_t>(n)));
    auto back = read_aggregate_proof(*bytes);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_TRUE(verdict(srs, b, *back, kInclude, v, b.inputs).valid());
  }
}

}  // namespace zk::snarkpack
