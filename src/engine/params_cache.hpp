#pragma once

// Proving keys (parameters) are the largest long-lived buffers (~44 GiB for PoRep-32G); they load
// through this cache, which reserves their bytes from the same budget as the partitions, hands out
// shared references, and evicts unused entries in least-recently-used order when a load needs
// room. An entry in use is never evicted. A partition that waits for memory has the engine evict
// unused entries other than its own key (Engine::add_key_evictor; docs/engine.md, "Parameters").

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "engine/budget.hpp"
#include "engine/ledger.hpp"

namespace zk::engine {

/// A loaded parameter set: the object and the bytes it holds.
struct LoadedParams {
  std::shared_ptr<const void> object;
  std::uint64_t bytes = 0;
};

struct ParamsEntryInfo {
  std::string id;
  std::uint64_t bytes = 0;
  long users = 0;  // references handed out and still alive
};

class ParamsCache {
 public:
  /// `expected_bytes(id)` must not under-estimate what `load(id)` returns (it is reserved first).
  using SizeFn = std::function<Result<std::uint64_t>(const std::string& id)>;
  using LoadFn = std::function<Result<LoadedParams>(const std::string& id)>;

  ParamsCache(MemoryBudget& budget, BufferLedger& ledger, SizeFn expected_bytes, LoadFn load)
      : budget_(budget), ledger_(ledger), size_(std::move(expected_bytes)), load_(std::move(load)) {}
  ~ParamsCache();

  /// The parameters, loaded if needed (evicting unused entries, least recently used first, when the
  /// budget is short). Fails when they cannot fit even after evicting everything unused.
  Result<std::shared_ptr<const void>> acquire(const std::string& id);
  /// Drops an unused entry now; FAILED_PRECONDITION-like error (kUnavailable) if it is in use.
  Status evict(const std::string& id);
  /// The entry's key turned out damaged (its key cache changed under it): no later acquire gets it
  /// (the next one loads the key again); it is dropped now if unused, else when its last user ends.
  void invalidate(const std::string& id);
  /// Evicts every unused entry; returns the bytes freed.
  std::uint64_t evict_unused();
  /// Evicts the least recently used unused entry other than `keep` ("" spares none); false when there
  /// is none. For a partition waiting for memory (Engine::add_key_evictor): `keep` is the key it loads.
  bool evict_one_unused_except(const std::string& keep);
  std::vector<ParamsEntryInfo> entries() const;
  std::uint64_t bytes() const;

 private:
  struct Entry {
    std::string id;
    std::shared_ptr<const void> object;
    Reservation reservation;
    std::uint64_t bytes = 0;
    bool invalid = false;  // out of index_: kept only until its users end
  };
  void drop_invalid_unused_locked();
  bool evict_one_unused_locked(const std::string* keep = nullptr);  // LRU order; true if something was evicted
  void drop_locked(std::list<Entry>::iterator it);

  MemoryBudget& budget_;
  BufferLedger& ledger_;
  SizeFn size_;
  LoadFn load_;
  mutable std::mutex m_;
  std::list<Entry> lru_;  // front = most recently used
  std::map<std::string, std::list<Entry>::iterator> index_;
};

}  // namespace zk::engine
