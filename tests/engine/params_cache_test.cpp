// The parameter cache: loads once, reserves from the shared budget, evicts unused entries in LRU
// order when room is needed, never evicts what is in use, and keeps the ledger balanced.

#include <gtest/gtest.h>

#include <map>

#include "engine/params_cache.hpp"

namespace zk::engine {
namespace {

struct Fixture {
  MemoryBudget budget{100};
  BufferLedger ledger;
  std::map<std::string, int> loads;
  ParamsCache cache{budget, ledger, [](const std::string&) -> Result<std::uint64_t> { return std::uint64_t{40}; },
                    [this](const std::string& id) -> Result<LoadedParams> {
                      if (id == "broken") return Status::io_error("no such file");
                      ++loads[id];
                      return LoadedParams{std::make_shared<std::string>(id), 40};
                    }};
};

TEST(ParamsCache, LoadsOnceAndReservesFromTheBudget) {
  Fixture f;
  auto a = f.cache.acquire("A");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*std::static_pointer_cast<const std::string>(*a), "A");
  auto a2 = f.cache.acquire("A");
  ASSERT_TRUE(a2.ok());
  EXPECT_EQ(f.loads["A"], 1);
  EXPECT_EQ(f.budget.used(), 40u);
  EXPECT_EQ(f.ledger.snapshot().bytes[BufferClass::kParams], 40);
  EXPECT_EQ(f.cache.entries().at(0).users, 2);
  EXPECT_FALSE(f.cache.acquire("broken").ok());
  EXPECT_EQ(f.budget.used(), 40u);  // the failed load gave its reservation back
}

TEST(ParamsCache, AnInvalidatedKeyIsLoadedAgainAndTheOldOneGoesWithItsLastUser) {
  // A key whose cache file changed under it (issue 47): no later job gets it.
  Fixture f;
  auto held = f.cache.acquire("A");
  ASSERT_TRUE(held.ok());
  f.cache.invalidate("A");
  EXPECT_EQ(f.budget.used(), 40u);  // still in use: kept, and counted
  auto fresh = f.cache.acquire("A");
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(f.loads["A"], 2);
  EXPECT_NE(held->get(), fresh->get());
  EXPECT_EQ(f.budget.used(), 80u);
  held->reset();
  ASSERT_TRUE(f.cache.acquire("B").ok());  // the old copy is dropped at the next acquire
  EXPECT_EQ(f.cache.entries().size(), 2u);
  EXPECT_EQ(f.budget.used(), 80u);
  fresh->reset();
  f.cache.invalidate("A");  // unused: dropped at once
  EXPECT_EQ(f.cache.entries().size(), 1u);
  f.cache.invalidate("missing");  // nothing to do
  EXPECT_EQ(f.budget.used(), 40u);
}

TEST(ParamsCache, EvictsTheLeastRecentlyUsedUnusedEntryAndNeverOneInUse) {
  Fixture f;
  { auto a = f.cache.acquire("A"); }
  { auto b = f.cache.acquire("B"); }
  { auto a = f.cache.acquire("A"); }       // A is now the most recently used
  ASSERT_TRUE(f.cache.acquire("C").ok());  // needs room: evicts B, not A
  std::vector<std::string> ids;
  for (const auto& e : f.cache.entries()) ids.push_back(e.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"C", "A"}));
  // Both entries in use: nothing can be evicted for D.
  auto hold_a = f.cache.acquire("A");
  auto hold_c = f.cache.acquire("C");
  auto d = f.cache.acquire("D");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("nothing unused"), std::string::npos) << d.status().message();
  EXPECT_EQ(f.cache.evict("A").code(), StatusCode::kUnavailable);
  hold_a = Status::not_found("released");
  EXPECT_TRUE(f.cache.evict("A").ok());
  EXPECT_EQ(f.cache.evict("A").code(), StatusCode::kNotFound);
  EXPECT_EQ(f.budget.used(), 40u);
}

TEST(ParamsCache, LedgerReturnsToZero) {
  BufferLedger* ledger = nullptr;
  {
    Fixture f;
    ledger = &f.ledger;
    ASSERT_TRUE(f.cache.acquire("A").ok());
    ASSERT_TRUE(f.cache.acquire("B").ok());
    EXPECT_EQ(f.cache.evict_unused(), 80u);
    const auto s = f.ledger.snapshot();
    EXPECT_EQ(s.bytes[BufferClass::kParams], 0);
    EXPECT_EQ(s.high_water[BufferClass::kParams], 80);
    EXPECT_FALSE(s.went_negative);
    EXPECT_EQ(f.budget.used(), 0u);
  }
  (void)ledger;
}

TEST(ParamsCache, TooLargeForTheWholeBudgetIsRefusedAtOnce) {
  MemoryBudget budget(10);
  BufferLedger ledger;
  ParamsCache cache(
      budget, ledger, [](const std::string&) -> Result<std::uint64_t> { return std::uint64_t{11}; },
      [](const std::string&) -> Result<LoadedParams> { return LoadedParams{}; });
  auto r = cache.acquire("X");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace zk::engine
