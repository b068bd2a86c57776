// The planner's discrete-event model: throughput bounds, the budget rule, the reference
// workload's RAM tiers (cuzk-reference.md section 7), and profile parsing.

#include <gtest/gtest.h>

#include "engine/planner.hpp"

namespace zk::engine {
namespace {

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

WorkloadProfile simple() {
  WorkloadProfile p;
  p.partitions_per_proof = 4;
  p.synthesis_s = 10;
  p.prove_device_s = 1;
  p.finish_s = 0.5;
  p.bytes_synth = 10 * kGiB;
  p.bytes_after = 2 * kGiB;
  p.params_bytes = 5 * kGiB;
  p.idle_bytes = 1 * kGiB;
  return p;
}

TEST(Planner, SteadyStateMatchesTheStageBound) {
  const auto p = simple();
  for (unsigned w : {1u, 2u, 5u, 20u}) {
    PlanConfig c{.memory_bytes = 1000 * kGiB, .synthesis_workers = w, .channel_capacity = 4, .proofs = 40};
    const auto r = simulate(p, c);
    ASSERT_TRUE(r.feasible);
    const double bound = std::max(p.synthesis_s / w, p.prove_device_s) * static_cast<double>(p.partitions_per_proof);
    EXPECT_NEAR(r.s_per_proof, bound, bound * 0.05) << w;
  }
}

TEST(Planner, ReservationsNeverExceedTheBudget) {
  const auto p = simple();
  for (double mem : {20.0, 35.0, 60.0}) {
    PlanConfig c{.memory_bytes = static_cast<std::uint64_t>(mem * kGiB),
                 .budget_fraction = 1.0,
                 .synthesis_workers = 16,
                 .channel_capacity = 8,
                 .proofs = 10};
    const auto r = simulate(p, c);
    ASSERT_TRUE(r.feasible);
    EXPECT_LE(r.peak_bytes, c.memory_bytes) << mem;
  }
  PlanConfig tiny{.memory_bytes = 12 * kGiB};
  EXPECT_FALSE(simulate(p, tiny).feasible);
}

TEST(Planner, ReferenceProfileReproducesTheShapeOfTheRamTiers) {
  // cuzk's user doc: 128 GiB -> 152 s/proof, 256 -> 53, 384 -> 43, 512+ -> 38 (pw 2/7/10/12).
  const auto p = WorkloadProfile::porep_32g_reference();
  std::vector<double> s;
  std::vector<unsigned> workers;
  for (double gib : {128.0, 256.0, 384.0, 512.0}) {
    std::size_t best = 0;
    PlanConfig c{.memory_bytes = static_cast<std::uint64_t>(gib * kGiB), .proofs = 20};
    const auto rows = sweep(p, c, 16, &best);
    ASSERT_LT(best, rows.size()) << gib;
    s.push_back(rows[best].result.s_per_proof);
    workers.push_back(rows[best].synthesis_workers);
    EXPECT_LE(rows[best].result.peak_bytes, c.memory_bytes);
  }
  EXPECT_GT(s[0], 3 * s[1]);  // memory-starved: a few workers, several times slower
  EXPECT_GT(s[1], s[2]);
  EXPECT_NEAR(s[3], s[2], s[2] * 0.1);  // flat once CPU-bound
  EXPECT_EQ(workers[0], 2u);            // the reference's tiers use pw 2 at 128 GiB ...
  EXPECT_GE(workers[1], 6u);            // ... 7 at 256 GiB
  EXPECT_LE(workers[1], 9u);
  EXPECT_NEAR(s[0], 152, 152 * 0.25);
  EXPECT_NEAR(s[1], 53, 53 * 0.25);
}

TEST(Planner, AProveRoomPerProverInsteadOfDenseABPerPartition) {
  // Memory-bound (10 synthesis workers, 20 s synthesis, 1 s device). Before: every partition held
  // its dense a/b/c (8 GiB) beside its 4 GiB: 12 GiB each, 6 in flight in 72 GiB. After: compact a/b
  // (1 GiB at admission, 0.5 GiB held after synthesis) and one 8 GiB room: (72 - 8) / 5 = 12.
  WorkloadProfile dense;
  dense.partitions_per_proof = 4;
  dense.synthesis_s = 20;
  dense.prove_device_s = 1;
  dense.bytes_synth = 12 * kGiB;
  dense.bytes_after = 4 * kGiB;
  WorkloadProfile compact = dense;
  compact.bytes_synth = 5 * kGiB;
  compact.bytes_waiting = 4 * kGiB + kGiB / 2;
  compact.prove_room = 8 * kGiB;
  PlanConfig c{.memory_bytes = 72 * kGiB, .budget_fraction = 1.0, .synthesis_workers = 16, .channel_capacity = 16};
  const auto before = simulate(dense, c), after = simulate(compact, c);
  ASSERT_TRUE(before.feasible && after.feasible);
  EXPECT_LE(before.peak_reserved, c.memory_bytes);
  EXPECT_LE(after.peak_reserved, c.memory_bytes);
  EXPECT_GE(after.peak_reserved, 8 * kGiB + 12 * 5 * kGiB) << "the room beside 12 partitions";
  EXPECT_LT(after.s_per_proof, before.s_per_proof / 1.8) << "twice the partitions synthesize at once";
  // Room and partition do not fit together (8 + 5 > 12): each partition reserves
  // max(5, 4 + 8) = 12 itself, without the room, one at a time.
  PlanConfig small{.memory_bytes = 12 * kGiB, .budget_fraction = 1.0};
  const auto own = simulate(compact, small);
  ASSERT_TRUE(own.feasible) << own.why;
  EXPECT_EQ(own.peak_reserved, 12 * kGiB);
  PlanConfig tiny{.memory_bytes = 11 * kGiB, .budget_fraction = 1.0};
  EXPECT_FALSE(simulate(compact, tiny).feasible);
}

TEST(Planner, PartitionsStartedBeforeAnySynthesisEndedReserveTheBounds) {
  // 2 workers, room for two learned admissions (3 GiB) but not for two bound ones (8 GiB): the
  // second partition waits for the first synthesis to end, once; then two run at a time.
  WorkloadProfile p = simple();
  p.partitions_per_proof = 6;
  p.prove_device_s = 0.01;
  p.finish_s = 0;
  p.bytes_synth = 3 * kGiB;
  p.bytes_waiting = 2 * kGiB;
  p.bytes_after = 1 * kGiB;
  p.params_bytes = 0;
  p.idle_bytes = 0;
  PlanConfig c{.memory_bytes = 10 * kGiB, .budget_fraction = 1.0, .synthesis_workers = 2, .proofs = 1};
  const auto learned = simulate(p, c);
  ASSERT_TRUE(learned.feasible) << learned.why;
  EXPECT_NEAR(learned.makespan_s, 30.0, 0.5) << "3 rounds of 2";
  p.bytes_synth_unseen = 8 * kGiB;
  const auto bounds = simulate(p, c);
  ASSERT_TRUE(bounds.feasible) << bounds.why;
  EXPECT_NEAR(bounds.makespan_s, 40.0, 0.5) << "the first alone, then 2 + 2 + 1";
  EXPECT_LE(bounds.peak_reserved, 10 * kGiB);
  p.bytes_synth_unseen = 11 * kGiB;
  EXPECT_FALSE(simulate(p, c).feasible) << "the first partition must fit with its bounds";
}

TEST(Planner, ProfilesFromBenchJson) {
  const std::string good = R"({"curve":"bls12-381","constraints":100,"partitions_per_job":2,
    "stages_ms":{"synthesis":{"mean":5},"prove_start":{"mean":50},"prove_finish":{"mean":10}},
    "working_set":{"abc":300,"aux":100,"density":10,"pending":90,"prove_room":450},"params_bytes":1000,"rss":{"idle":5000}})";
  auto p = WorkloadProfile::from_bench_json(good);
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  EXPECT_EQ(p->bytes_synth, 500u);
  EXPECT_EQ(p->bytes_after, 200u);
  EXPECT_EQ(p->prove_room, 450u);
  EXPECT_EQ(p->idle_bytes, 4000u);
  EXPECT_DOUBLE_EQ(p->prove_device_s, 0.05);
  // With what a partition held after synthesis (a/b 100, witness 20): later partitions are admitted
  // with a quarter more a/b than seen, wait with what they hold, keep the compact witness.
  const std::string held = R"({"curve":"bls12-381","what":"1 partition of Filecoin's 2KiB PoRep","partitions_per_job":1,
    "stages_ms":{"synthesis":{"mean":5},"prove_start":{"mean":50},"prove_finish":{"mean":10}},
    "working_set":{"abc":300,"aux":100,"density":10,"pending":90,"prove_room":450},
    "held_after_synthesis":{"abc":100,"aux":20},"params_bytes":1000,"rss":{"idle":5000}})";
  auto h = WorkloadProfile::from_bench_json(held);
  ASSERT_TRUE(h.ok()) << h.status().to_string();
  EXPECT_EQ(h->name, "bench bls12-381: 1 partition of Filecoin's 2KiB PoRep");
  EXPECT_EQ(h->bytes_synth, 125u + 200u);
  EXPECT_EQ(h->bytes_synth_unseen, 500u);
  EXPECT_EQ(h->bytes_waiting, 100u + 20u + 100u);
  EXPECT_EQ(h->bytes_after, 20u + 100u);
  auto bad = WorkloadProfile::from_bench_json(R"({"curve":"x"})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("zkpipe bench --json"), std::string::npos);
  EXPECT_FALSE(WorkloadProfile::from_bench_json("not json").ok());
}

TEST(Planner, UrgentWorkWaitsForAProveStartAndAProveFinishUnderWay) {
  // Issue 41: the bound `zkpipe plan --urgent-profile` prints — the urgent partition's own stages
  // plus the other work's prove_start (CPU preparation and device) and prove_finish under way.
  WorkloadProfile porep = WorkloadProfile::porep_32g_reference();
  const WorkloadProfile winning = WorkloadProfile::winning_32g_reference();
  PlanConfig c;
  c.memory_bytes = std::uint64_t{512} << 30;
  c.synthesis_workers = 4;
  const PlanResult r = simulate(porep, c);
  ASSERT_TRUE(r.feasible);
  const UrgentBound b = urgent_bound(porep, r, winning, c);
  EXPECT_DOUBLE_EQ(b.alone_s, 0.052 + 0.666);
  EXPECT_DOUBLE_EQ(b.prover_wait_s, 1.9 + 1.8);
  EXPECT_DOUBLE_EQ(b.finalizer_wait_s, 0.5);
  EXPECT_DOUBLE_EQ(b.bound_s, b.alone_s + 3.7 + 0.5);
  EXPECT_TRUE(b.fits);
  EXPECT_EQ(b.urgent_bytes, std::uint64_t{1} << 29);
  // A budget the PoRep pipeline fills: the urgent partition may also wait for memory, and says so.
  c.memory_bytes = std::uint64_t{92} << 30;
  c.synthesis_workers = 1;
  const PlanResult full = simulate(porep, c);
  ASSERT_TRUE(full.feasible);
  const UrgentBound tight = urgent_bound(porep, full, winning, c);
  EXPECT_FALSE(tight.fits) << "budget " << tight.budget_bytes << ", peak " << full.peak_reserved;
}

}  // namespace
}  // namespace zk::engine

