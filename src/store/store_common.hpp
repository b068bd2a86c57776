#pragma once

// What both job stores share: hashes, ids and the text encodings of an outcome's lists.
// Internal to src/store.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "store/job_store.hpp"

namespace zk::store::detail {

std::optional<JobState> parse_state(std::string_view s);
/// SHA-256 of an input, hex: the key it is stored under (once, however many jobs share it).
std::string content_hash(std::span<const std::uint8_t> bytes);
/// SHA-256 over the fields that make two submissions "the same payload" for a request id.
std::string payload_digest(const NewJob& job, const std::string& input_hash);
/// 63 random bits from the OS, never 0 (ids never restart at 1: an old id never names a new job).
std::uint64_t new_job_id();
std::string encode_public_inputs(const std::vector<std::vector<std::string>>& v);
std::vector<std::vector<std::string>> decode_public_inputs(const std::string& text);
std::string encode_errors(const std::vector<std::string>& v);
std::vector<std::string> decode_errors(const std::string& text);
/// The error of a job failed after max_attempts claims without an outcome, listing each reason.
std::string attempts_exhausted(const std::vector<std::string>& errors, std::uint32_t attempts);

}  // namespace zk::store::detail
