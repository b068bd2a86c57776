#include "store/job_store.hpp"

#include <openssl/sha.h>

#include <random>

#include <nlohmann/json.hpp>

#include "store/store_common.hpp"

namespace zk::store {

const char* job_state_name(JobState s) {
  switch (s) {
    case JobState::kQueued:
      return "queued";
    case JobState::kRunning:
      return "running";
    case JobState::kDone:
      return "done";
    case JobState::kFailed:
      return "failed";
    case JobState::kCancelled:
      return "cancelled";
  }
  return "?";
}

std::uint64_t& QueueStatus::count(JobState state) {
  switch (state) {
    case JobState::kQueued:
      return queued;
    case JobState::kRunning:
      return running;
    case JobState::kDone:
      return done;
    case JobState::kFailed:
      return failed;
    case JobState::kCancelled:
      break;
  }
  return cancelled;
}

bool is_finished(JobState s) { return s == JobState::kDone || s == JobState::kFailed || s == JobState::kCancelled; }

namespace detail {

std::optional<JobState> parse_state(std::string_view s) {
  for (JobState x : {JobState::kQueued, JobState::kRunning, JobState::kDone, JobState::kFailed, JobState::kCancelled}) {
    if (s == job_state_name(x)) return x;
  }
  return std::nullopt;
}

namespace {
std::string hex(const unsigned char* p, std::size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (std::size_t i = 0; i < n; ++i) s[2 * i] = d[p[i] >> 4], s[2 * i + 1] = d[p[i] & 15];
  return s;
}
void feed_field(std::string& buf, std::string_view v) {
  // Length-prefixed, so ("ab", "c") and ("a", "bc") differ.
  buf += std::to_string(v.size());
  buf += ':';
  buf += v;
}
}  // namespace

std::string content_hash(std::span<const std::uint8_t> bytes) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(bytes.data(), bytes.size(), md);
  return hex(md, sizeof md);
}

std::string payload_digest(const NewJob& job, const std::string& input_hash) {
  std::string buf;
  feed_field(buf, job.circuit);
  feed_field(buf, job.shape);
  feed_field(buf, std::to_string(job.partitions));
  feed_field(buf, std::to_string(job.priority));
  feed_field(buf, input_hash);
  return content_hash(std::span(reinterpret_cast<const std::uint8_t*>(buf.data()), buf.size()));
}

std::uint64_t new_job_id() {
  thread_local std::random_device rd;
  for (;;) {
    const std::uint64_t v = ((std::uint64_t{rd()} << 32) ^ std::uint64_t{rd()}) >> 1;  // 63 bits: a signed BIGINT
    if (v != 0) return v;
  }
}

std::string encode_public_inputs(const std::vector<std::vector<std::string>>& v) { return nlohmann::json(v).dump(); }

std::vector<std::vector<std::string>> decode_public_inputs(const std::string& text) {
  if (text.empty()) return {};
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_array()) return {};
  std::vector<std::vector<std::string>> out;
  for (const auto& part : j) {
    std::vector<std::string> p;
    if (part.is_array()) {
      for (const auto& x : part) {
        if (x.is_string()) p.push_back(x.get<std::string>());
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::string encode_errors(const std::vector<std::string>& v) { return nlohmann::json(v).dump(); }

std::vector<std::string> decode_errors(const std::string& text) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_array()) return out;
  for (const auto& x : j) {
    if (x.is_string()) out.push_back(x.get<std::string>());
  }
  return out;
}

std::string attempts_exhausted(const std::vector<std::string>& errors, std::uint32_t attempts) {
  std::string why = "gave up after " + std::to_string(attempts) + " attempt(s) without a result (store.max_attempts):";
  for (std::size_t i = 0; i < errors.size(); ++i) why += (i ? "; " : " ") + errors[i];
  return why;
}

}  // namespace detail
}  // namespace zk::store
