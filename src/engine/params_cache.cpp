#include "engine/params_cache.hpp"

namespace zk::engine {
namespace {

std::array<std::int64_t, kBufferClasses> params_count(std::int64_t d) {
  std::array<std::int64_t, kBufferClasses> c{};
  c[static_cast<std::size_t>(BufferClass::kParams)] = d;
  return c;
}

ClassBytes params_bytes(std::int64_t d) {
  ClassBytes b;
  b[BufferClass::kParams] = d;
  return b;
}

}  // namespace

ParamsCache::~ParamsCache() {
  std::lock_guard lock(m_);
  while (!lru_.empty()) drop_locked(std::prev(lru_.end()));
}

Result<std::shared_ptr<const void>> ParamsCache::acquire(const std::string& id) {
  std::unique_lock lock(m_);
  drop_invalid_unused_locked();
  if (auto it = index_.find(id); it != index_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);  // most recently used
    return it->second->object;
  }
  auto need = size_(id);
  if (!need.ok()) return need.status();
  if (*need > budget_.total()) {
    return Status::resource_exhausted("parameters '" + id + "' need " + format_bytes(*need) +
                                " but the whole memory budget is " + format_bytes(budget_.total()));
  }
  // Make room: evict unused entries (LRU first) until the reservation succeeds.
  Result<Reservation> res = budget_.try_reserve(*need, "parameters '" + id + "'");
  while (!res.ok() && evict_one_unused_locked()) res = budget_.try_reserve(*need, "parameters '" + id + "'");
  if (!res.ok()) {
    return Status::unavailable("parameters '" + id + "' need " + format_bytes(*need) +
                               " and nothing unused is left to evict: " + res.status().message());
  }
  // Load without the lock held (it can take seconds); the reservation is already ours.
  lock.unlock();
  auto loaded = load_(id);
  lock.lock();
  if (!loaded.ok())
    return Status(loaded.status().code(), "loading parameters '" + id + "': " + loaded.status().message());
  if (loaded->bytes > *need) {
    return Status::internal("parameters '" + id + "' hold " + format_bytes(loaded->bytes) + ", more than the " +
                            format_bytes(*need) + " reserved for them");
  }
  if (auto it = index_.find(id); it != index_.end()) return it->second->object;  // loaded concurrently
  res->release(*need - loaded->bytes);
  lru_.push_front(Entry{id, loaded->object, std::move(*res), loaded->bytes});
  index_[id] = lru_.begin();
  ledger_.record(Event::kParamsLoaded, params_bytes(static_cast<std::int64_t>(loaded->bytes)), params_count(+1),
                 std::nullopt, std::nullopt);
  return lru_.front().object;
}

bool ParamsCache::evict_one_unused_except(const std::string& keep) {
  std::lock_guard lock(m_);
  return evict_one_unused_locked(&keep);
}

bool ParamsCache::evict_one_unused_locked(const std::string* keep) {
  for (auto it = lru_.end(); it != lru_.begin();) {
    --it;
    if (it->object.use_count() == 1 && (keep == nullptr || it->id != *keep)) {
      drop_locked(it);
      return true;
    }
  }
  return false;
}

void ParamsCache::drop_locked(std::list<Entry>::iterator it) {
  ledger_.record(Event::kParamsEvicted, params_bytes(-static_cast<std::int64_t>(it->bytes)), params_count(-1),
                 std::nullopt, std::nullopt);
  if (!it->invalid) index_.erase(it->id);  // an invalid one is out of the index (a fresh load may be in it)
  lru_.erase(it);  // releases the object and the reservation
}

void ParamsCache::invalidate(const std::string& id) {
  std::lock_guard lock(m_);
  auto it = index_.find(id);
  if (it == index_.end()) return;
  auto entry = it->second;
  index_.erase(it);
  entry->invalid = true;
  if (entry->object.use_count() == 1) drop_locked(entry);
}

void ParamsCache::drop_invalid_unused_locked() {
  for (auto it = lru_.begin(); it != lru_.end();) {
    auto next = std::next(it);
    if (it->invalid && it->object.use_count() == 1) drop_locked(it);
    it = next;
  }
}

Status ParamsCache::evict(const std::string& id) {
  std::lock_guard lock(m_);
  auto it = index_.find(id);
  if (it == index_.end()) return Status::not_found("parameters '" + id + "' are not loaded");
  if (it->second->object.use_count() > 1) {
    return Status::unavailable("parameters '" + id + "' are in use by " +
                               std::to_string(it->second->object.use_count() - 1) + " partition(s)");
  }
  drop_locked(it->second);
  return {};
}

std::uint64_t ParamsCache::evict_unused() {
  std::lock_guard lock(m_);
  std::uint64_t freed = 0;
  for (auto it = lru_.begin(); it != lru_.end();) {
    auto next = std::next(it);
    if (it->object.use_count() == 1) {
      freed += it->bytes;
      drop_locked(it);
    }
    it = next;
  }
  return freed;
}

std::vector<ParamsEntryInfo> ParamsCache::entries() const {
  std::lock_guard lock(m_);
  std::vector<ParamsEntryInfo> out;
  for (const auto& e : lru_) out.push_back({e.id, e.bytes, e.object.use_count() - 1});
  return out;
}

std::uint64_t ParamsCache::bytes() const {
  std::lock_guard lock(m_);
  std::uint64_t b = 0;
  for (const auto& e : lru_) b += e.bytes;
  return b;
}

}  // namespace zk::engine
