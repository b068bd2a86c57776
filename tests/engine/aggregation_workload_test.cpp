// The "snarkpack" engine kind (engine/aggregation_workload.hpp): a job of development proofs through
// the engine gives the aggregate zkpipe's prover makes directly, which verifies with all eleven
// equations and passes the workload's self-verification; malformed inputs, the wrong shape, a
// missing SRS or one too short are refused at submit, naming what is wrong.

#include <gtest/gtest.h>

#include <filesystem>

#include "../snarkpack/aggregate_fixture.hpp"
#include "engine/aggregation_workload.hpp"
#include "engine/engine.hpp"
#include "groth16/io.hpp"
#include "snarkpack/filecoin.hpp"

namespace zk::engine {
namespace {

using namespace std::chrono_literals;

struct Scratch {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("zkpipe-agg-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
  Scratch() { std::filesystem::create_directories(dir); }
  ~Scratch() { std::filesystem::remove_all(dir); }
  std::string srs(std::size_t proofs, std::uint64_t seed) const {
    const auto path = (dir / ("srs-" + std::to_string(proofs) + "-" + std::to_string(seed))).string();
    EXPECT_TRUE(
        groth16::write_file(path, snarkpack::write_srs(snarkpack::development_srs(seed, 2 * proofs, proofs))).ok());
    return path;
  }
};

JobRequest job_of(const std::string& input, std::string shape = "v2") {
  JobRequest j;
  j.circuit = "snarkpack", j.shape = std::move(shape), j.input.assign(input.begin(), input.end()), j.partitions = 1;
  return j;
}

TEST(AggregationWorkload, AJobGivesTheDirectAggregateWhichVerifies) {
  Scratch s;
  const std::string srs_path = s.srs(8, 5);
  const snarkpack::Batch b = snarkpack::make_batch(6, 21);  // padded to 8
  const auto proofs = groth16::write_proofs<snarkpack::E>(b.proofs);
  const std::vector<std::uint8_t> include = {1, 2, 3};
  auto w = std::make_shared<AggregationWorkload>(srs_path);
  Engine e({.budget_bytes = std::uint64_t{1} << 30, .self_verify = true}, {{"snarkpack", w}});
  auto id = e.submit(job_of(AggregationWorkload::input_json(proofs, include)));
  ASSERT_TRUE(id.ok()) << id.status().to_string();
  auto r = e.await(*id, 60s);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->state, JobState::kDone) << r->error;
  auto direct = snarkpack::aggregate_filecoin(srs_path, proofs, include);
  ASSERT_TRUE(direct.ok()) << direct.status().to_string();
  EXPECT_EQ(r->proof, *direct);
  auto vk = groth16::read_verifying_key<snarkpack::E>(groth16::write_verifying_key(b.pk.vk));
  ASSERT_TRUE(vk.ok());
  auto v = snarkpack::verify_filecoin(srs_path, *vk, b.inputs, r->proof, include);
  ASSERT_TRUE(v.ok()) << v.status().to_string();
  EXPECT_TRUE(v->valid());
}

TEST(AggregationWorkload, BadInputsShapesAndSrsAreRefusedAtSubmit) {
  Scratch s;
  const std::string srs_path = s.srs(2, 5);
  const snarkpack::Batch b = snarkpack::make_batch(3, 22);
  const auto proofs = groth16::write_proofs<snarkpack::E>(b.proofs);
  auto w = std::make_shared<AggregationWorkload>(srs_path);
  Engine e({.budget_bytes = std::uint64_t{1} << 30}, {{"snarkpack", w}});
  const auto refused = [&](const JobRequest& job, const std::string& needle) {
    auto id = e.submit(job);
    ASSERT_FALSE(id.ok()) << needle;
    EXPECT_NE(id.status().message().find(needle), std::string::npos) << id.status().message();
  };
  const std::vector<std::uint8_t> two(proofs.begin(), proofs.begin() + 384);
  refused(job_of("not json"), "JSON");
  refused(job_of(R"({"proofs": "AAAA"})"), "transcript_input");
  refused(job_of(R"({"proofs": "!!!", "transcript_input": ""})"), "proofs");
  refused(job_of(AggregationWorkload::input_json(std::span(proofs).first(100), {})), "192-byte");
  refused(job_of(R"({"proofs": "", "transcript_input": "00"})"), "192-byte");
  refused(job_of(AggregationWorkload::input_json(two, {}).substr(0, 10) + "\"transcript_input\": \"zz\"}"), "JSON");
  refused(job_of(AggregationWorkload::input_json(two, {}), "v1"), "v2");
  refused(job_of(AggregationWorkload::input_json(proofs, {})), "aggregates 2 proofs at most");  // 3 -> 4
  AggregationWorkload nowhere((s.dir / "missing.srs").string());
  EXPECT_EQ(nowhere.validate(job_of(AggregationWorkload::input_json(two, {}))).code(), StatusCode::kNotFound);
  EXPECT_TRUE(w->validate(job_of(AggregationWorkload::input_json(two, {}))).ok());
}

}  // namespace
}  // namespace zk::engine
