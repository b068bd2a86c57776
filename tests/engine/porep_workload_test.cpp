// The `porep` kind through the engine: a tiny-preset job (2 partitions) from a generated sector is
// proved and self-verified in the pipeline, its proofs verify against public inputs derived from
// the commitments and the seed only, and bad inputs (tampered opening, truncated JSON, another
// shape, wrong partition count) are refused at submit.

#include <gtest/gtest.h>

#include "circuits/porep_circuit.hpp"
#include "circuits/porep_input.hpp"
#include "engine/engine.hpp"
#include "engine/porep_workload.hpp"
#include "groth16/io.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/shape.hpp"

namespace zk::engine {
namespace {

using namespace std::chrono_literals;
namespace porep = circuits::porep;
using E = groth16::Bls12_381;

TEST(PorepWorkload, ProvesAJobThroughThePipeline) {
  auto shape = porep::preset("tiny");
  ASSERT_TRUE(shape.ok());
  r1cs::ShapeRecorder<E::Fr> rec;
  ASSERT_TRUE(porep::synthesize(rec, *shape, porep::blank_public_inputs(*shape), porep::blank_witness(*shape)).ok());
  Rng rng(11);
  auto pk = groth16::generate_parameters<E>(rec.shape(), groth16::Trapdoor<E>::random(rng));
  ASSERT_TRUE(pk.ok());
  auto key = std::make_shared<const groth16::ProvingKey<E>>(std::move(*pk));
  auto c1 = porep::generate_c1(*shape, 5);
  ASSERT_TRUE(c1.ok());
  const std::string text = porep::c1_to_json(*c1);

  Engine e({.budget_bytes = std::uint64_t{1} << 30, .synthesis_workers = 2, .self_verify = true}, {});
  auto w = std::make_shared<PorepWorkload>(*shape, key);
  e.add_workload("porep", w);
  JobRequest job;
  job.circuit = "porep";
  job.shape = "tiny";
  job.input.assign(text.begin(), text.end());
  job.partitions = shape->partitions;
  auto id = e.submit(job);
  ASSERT_TRUE(id.ok()) << id.status().to_string();
  auto r = e.await(*id, 120s);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->state, JobState::kDone) << r->error;
  auto proofs = groth16::read_proofs<E>(r->proof);
  ASSERT_TRUE(proofs.ok());
  ASSERT_EQ(proofs->size(), shape->partitions);
  const auto pvk = groth16::prepare_verifying_key(key->vk);
  for (std::uint32_t k = 0; k < shape->partitions; ++k) {
    auto pub = c1->public_inputs(k);
    ASSERT_TRUE(pub.ok());
    EXPECT_TRUE(*groth16::verify(pvk, (*proofs)[k], pub->to_field())) << k;
    auto other = c1->public_inputs(1 - k);
    EXPECT_FALSE(*groth16::verify(pvk, (*proofs)[k], other->to_field())) << k;
  }

  auto refuse = [&](JobRequest j, const char* what) {
    auto bad = e.submit(std::move(j));
    ASSERT_FALSE(bad.ok()) << what;
    EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument) << what;
  };
  auto tampered = *c1;
  auto& label = tampered.partitions[0].challenges[0].columns[0].labels[0];
  label = label + E::Fr::one();
  const std::string t2 = porep::c1_to_json(tampered);
  auto j1 = job;
  j1.input.assign(t2.begin(), t2.end());
  refuse(j1, "tampered opening");
  auto j2 = job;
  j2.input.resize(j2.input.size() / 2);
  refuse(j2, "truncated");
  auto j3 = job;
  j3.shape = "small";
  refuse(j3, "another shape");
  auto j4 = job;
  j4.partitions = 1;
  refuse(j4, "partition count");
}

}  // namespace
}  // namespace zk::engine
