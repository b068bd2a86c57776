#include "engine/ledger.hpp"

#include <spdlog/spdlog.h>

#include <sstream>

namespace zk::engine {

const char* buffer_class_name(BufferClass c) {
  static constexpr const char* kNames[] = {"abc", "aux", "density", "pending", "params"};
  return kNames[static_cast<std::size_t>(c)];
}

const char* stage_name(Stage s) {
  static constexpr const char* kNames[] = {"queued", "synthesizing", "in_channel", "proving", "finalizing"};
  return kNames[static_cast<std::size_t>(s)];
}

const char* event_name(Event e) {
  static constexpr const char* kNames[] = {"synth_start",       "synth_done",    "channel_send",
                                           "prove_start_begin", "abc_freed",     "finalize_done",
                                           "dealloc_done",      "params_loaded", "params_evicted"};
  return kNames[static_cast<std::size_t>(e)];
}

void BufferLedger::record(Event e, const ClassBytes& delta_bytes,
                          const std::array<std::int64_t, kBufferClasses>& delta_count, std::optional<Stage> from,
                          std::optional<Stage> to) {
  std::string line;
  bool negative = false;
  {
    std::lock_guard lock(m_);
    for (std::size_t c = 0; c < kBufferClasses; ++c) {
      s_.bytes.bytes[c] += delta_bytes.bytes[c];
      s_.count[c] += delta_count[c];
      if (s_.bytes.bytes[c] < 0 || s_.count[c] < 0) s_.went_negative = true;
      s_.high_water.bytes[c] = std::max(s_.high_water.bytes[c], s_.bytes.bytes[c]);
    }
    if (from) {
      if (--s_.partitions_in_stage[static_cast<std::size_t>(*from)] < 0) s_.went_negative = true;
    }
    if (to) {
      const auto i = static_cast<std::size_t>(*to);
      s_.stage_high_water[i] = std::max(s_.stage_high_water[i], ++s_.partitions_in_stage[i]);
    }
    ++s_.events;
    negative = s_.went_negative;
    if (spdlog::should_log(spdlog::level::debug)) line = s_.to_string();
  }
  if (negative) spdlog::error("buffer ledger went negative at event {}", event_name(e));
  if (!line.empty()) spdlog::debug("ledger {}: {}", event_name(e), line);
}

LedgerSnapshot BufferLedger::snapshot() const {
  std::lock_guard lock(m_);
  return s_;
}

std::string LedgerSnapshot::to_string() const {
  std::ostringstream o;
  for (std::size_t c = 0; c < kBufferClasses; ++c) {
    o << buffer_class_name(static_cast<BufferClass>(c)) << "=" << bytes.bytes[c] << "B/" << count[c] << " ";
  }
  o << "| ";
  for (std::size_t s = 0; s < kStages; ++s)
    o << stage_name(static_cast<Stage>(s)) << "=" << partitions_in_stage[s] << " ";
  return o.str();
}

}  // namespace zk::engine
