#pragma once

// Vanilla proofs inside zkpipe's input JSONs (PoSt's and SnapDeals', post_input.hpp and
// update_input.hpp): "vanilla_proofs" is an array of base64 strings, each the bincode bytes Curio
// sends. One reader (bounded counts and lengths, errors naming the element) and one writer.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/base64.hpp"
#include "base/json_reader.hpp"
#include "base/status.hpp"

namespace zk::circuits::filecoin {

/// The array at the reader's position: at most `max_count` strings (more: `too_many` as the error)
/// of at most `max_base64` bytes each. Throws the reader's JsonError.
std::vector<std::string> read_vanilla_proofs(JsonReader& r, std::size_t max_count, std::size_t max_base64,
                                             const std::string& too_many);

/// Each string decoded and parsed with `parse(bytes)` (a Result<T>); errors name "vanilla_proofs[i]".
template <class T, class Parse>
Result<std::vector<T>> decode_vanilla_proofs(const std::vector<std::string>& base64, Parse&& parse) {
  std::vector<T> out;
  for (std::size_t i = 0; i < base64.size(); ++i) {
    const std::string where = "vanilla_proofs[" + std::to_string(i) + "]: ";
    auto bytes = base64_decode(base64[i]);
    if (!bytes.ok()) return Status::invalid_argument(where + bytes.status().message());
    auto p = parse(*bytes);
    if (!p.ok()) return Status::invalid_argument(where + p.status().message());
    out.push_back(std::move(*p));
  }
  return out;
}

/// The JSON object: the members `head` ("\"registered_proof\":10,…"), then "vanilla_proofs" with
/// each proof's bytes as base64.
std::string vanilla_proofs_json(const std::string& head, const std::vector<std::string>& proofs);
std::string vanilla_proofs_json(const std::string& head, const std::vector<std::string_view>& proofs);
std::string vanilla_proofs_json(const std::string& head, const std::vector<std::vector<std::uint8_t>>& proofs);

}  // namespace zk::circuits::filecoin
