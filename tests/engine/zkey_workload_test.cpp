// The `zkey` kind through the engine, on both curves, with snarkjs's own files
// (tests/data/snarkjs): proofs made in the pipeline verify under snarkjs's verification_key.json
// against snarkjs's public.json, the key is loaded through the ParamsCache and counted, the ledger
// returns to idle, and bad jobs (another circuit's witness, garbage, two partitions, another zkey)
// are refused at submit with a message.

#include <gtest/gtest.h>

#include "engine/engine.hpp"
#include "engine/zkey_workload.hpp"
#include "groth16/io.hpp"
#include "groth16/public_inputs.hpp"
#include "groth16/verifier.hpp"
#include "test_util.hpp"

namespace zk::engine {
namespace {

using namespace std::chrono_literals;
namespace sj = groth16::snarkjs;

template <class E>
class ZkeyWorkloadTest : public ::testing::Test {};
using Engines = ::testing::Types<groth16::Bls12_381, groth16::Bn254>;
TYPED_TEST_SUITE(ZkeyWorkloadTest, Engines);

std::string text(const std::filesystem::path& p) {
  const auto b = test::read_file(p);
  return std::string(b.begin(), b.end());
}

TYPED_TEST(ZkeyWorkloadTest, ProvesThroughThePipelineAndSnarkjsKeyAccepts) {
  using E = TypeParam;
  const auto dir = test::data_dir() / "snarkjs" / sj::curve_name<E>();
  const auto zkey = (dir / "chain.zkey").string();
  auto vk = sj::verifying_key_from_json<E>(text(dir / "chain-verification_key.json"));
  ASSERT_TRUE(vk.ok());
  const auto pvk = groth16::prepare_verifying_key(*vk);
  auto pub = groth16::public_inputs_from_json<typename E::Fr>(text(dir / "chain-public.json"));
  ASSERT_TRUE(pub.ok());
  {
    Engine e({.budget_bytes = std::uint64_t{1} << 30, .synthesis_workers = 1, .self_verify = true}, {});
    ParamsCache cache(e.budget(), e.ledger(), ZkeyWorkload<E>::zkey_file_bytes, ZkeyWorkload<E>::load_zkey_file);
    auto w = ZkeyWorkload<E>::open(cache, zkey);
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    EXPECT_EQ((*w)->info().n_public, 2u);
    e.add_workload("zkey", *w);
    JobRequest job;
    job.circuit = "zkey";
    job.shape = zkey;
    job.input = test::read_file(dir / "chain-witness.wtns");
    std::vector<std::uint64_t> ids;
    for (int i = 0; i < 3; ++i) {
      auto id = e.submit(job);
      ASSERT_TRUE(id.ok()) << id.status().to_string();
      ids.push_back(*id);
    }
    std::vector<std::vector<std::uint8_t>> proofs;
    for (auto id : ids) {
      auto r = e.await(id, 60s);
      ASSERT_TRUE(r.ok()) << r.status().to_string();
      ASSERT_EQ(r->state, JobState::kDone) << r->error;
      auto p = groth16::read_proofs<E>(r->proof);
      ASSERT_TRUE(p.ok());
      ASSERT_EQ(p->size(), 1u);
      EXPECT_TRUE(*groth16::verify(pvk, (*p)[0], (*pub)[0]));
      auto wrong = (*pub)[0];
      wrong[1] = wrong[1] + E::Fr::one();
      EXPECT_FALSE(*groth16::verify(pvk, (*p)[0], wrong));
      proofs.push_back(r->proof);
    }
    EXPECT_NE(proofs[0], proofs[1]) << "fresh r, s per proof";
    // The key was loaded once, through the cache, and counted.
    ASSERT_EQ(cache.entries().size(), 1u);
    EXPECT_GT(cache.bytes(), 0u);
    EXPECT_GT(e.status().ledger.bytes[BufferClass::kParams], 0);

    // Refused at submit, with a message.
    auto refuse = [&](JobRequest j, const std::string& what) {
      auto id = e.submit(std::move(j));
      ASSERT_FALSE(id.ok()) << what;
      EXPECT_EQ(id.status().code(), StatusCode::kInvalidArgument) << what;
      EXPECT_FALSE(id.status().message().empty());
    };
    auto other = job;
    other.input = test::read_file(dir / "witness.wtns");  // the mul circuit's witness
    refuse(other, "another circuit's witness");
    auto garbage = job;
    garbage.input = {1, 2, 3};
    refuse(garbage, "garbage");
    auto two = job;
    two.partitions = 2;
    refuse(two, "two partitions");
    auto shape = job;
    shape.shape = (dir / "mul.zkey").string();
    refuse(shape, "another zkey");
    cache.evict_unused();
  }
  // A zkey of the other curve is refused when the workload is opened.
  using Other = std::conditional_t<std::is_same_v<E, groth16::Bn254>, groth16::Bls12_381, groth16::Bn254>;
  MemoryBudget budget(1 << 30);
  BufferLedger ledger;
  ParamsCache cache(budget, ledger, ZkeyWorkload<Other>::zkey_file_bytes, ZkeyWorkload<Other>::load_zkey_file);
  EXPECT_FALSE(ZkeyWorkload<Other>::open(cache, zkey).ok());
  EXPECT_FALSE(ZkeyWorkload<E>::open(cache, (dir / "chain-witness.wtns").string()).ok());
}

}  // namespace
}  // namespace zk::engine
