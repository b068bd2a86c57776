#pragma once

// A partition of a consistent synthetic C1 (circuits/filecoin/porep/synthetic_c1.hpp: the circuit
// and witness shape of a sealed sector of that size) synthesized by the proving system and by the
// plainest reference evaluation (tests/r1cs/reference_partition.hpp), compared buffer for buffer.

#include <gtest/gtest.h>

#include <cstddef>

#include "circuits/filecoin/porep/c1.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"
#include "circuits/filecoin/porep/synthetic_c1.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/reference_partition.hpp"

namespace zk::circuits::filecoin::test {

/// keep_c: also check the prover's c = a o b against every row's C (needs a dense c: 4 GB at 32 GiB).
inline void expect_synthetic_partition_equals_reference(const char* registered_proof, std::size_t partition,
                                                        std::size_t expected_rows, bool keep_c) {
  const auto proof = find_registered_seal_proof(registered_proof);
  ASSERT_TRUE(proof.ok()) << proof.status().to_string();
  auto ctx = c1_context(*proof);
  ASSERT_TRUE(ctx.ok()) << ctx.status().to_string();
  auto c1 = synthetic_c1(*proof, *ctx, 11);
  ASSERT_TRUE(c1.ok()) << c1.status().to_string();
  auto w = c1_witness(*c1, *ctx, partition);
  ASSERT_TRUE(w.ok()) << w.status().to_string();

  r1cs::ProvingSystem<Fr> fast;
  ASSERT_TRUE(synthesize_stacked(fast, ctx->shape, *w).ok());
  const auto got = std::move(fast).finish();
  ASSERT_EQ(got.num_rows(), expected_rows);
  r1cs::test::ReferenceSystem<Fr> ref(keep_c);
  ASSERT_TRUE(synthesize_stacked(ref, ctx->shape, *w).ok());
  const auto want = std::move(ref).finish();
  r1cs::test::expect_same_partition(got, want);
  if (keep_c) r1cs::test::expect_c_is_a_times_b(got, ref.c);
}

}  // namespace zk::circuits::filecoin::test
