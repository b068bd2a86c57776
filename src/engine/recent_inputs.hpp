#pragma once

// The parsed inputs of the few most recent jobs of a workload, so the partitions of a job parse and
// check its input once (at submit) and reuse it (synthesis, public inputs). Thread-safe; the
// newest first; an entry stays alive while a caller holds it.

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <utility>

namespace zk::engine {

template <class Key, class Value>
class RecentInputs {
 public:
  explicit RecentInputs(std::size_t capacity = 4) : capacity_(capacity) {}

  std::shared_ptr<const Value> find(const Key& key) {
    std::lock_guard lock(m_);
    for (auto it = items_.begin(); it != items_.end(); ++it) {
      if (it->first == key) {
        items_.splice(items_.begin(), items_, it);
        return items_.front().second;
      }
    }
    return nullptr;
  }

  void put(Key key, std::shared_ptr<const Value> value) {
    std::lock_guard lock(m_);
    items_.emplace_front(std::move(key), std::move(value));
    if (items_.size() > capacity_) items_.pop_back();
  }

 private:
  std::size_t capacity_;
  std::mutex m_;
  std::list<std::pair<Key, std::shared_ptr<const Value>>> items_;
};

}  // namespace zk::engine
