#include "circuits/filecoin/vanilla_json.hpp"

#include <span>

namespace zk::circuits::filecoin {

std::vector<std::string> read_vanilla_proofs(JsonReader& r, std::size_t max_count, std::size_t max_base64,
                                             const std::string& too_many) {
  std::vector<std::string> out;
  r.begin_array();
  while (r.next_element()) {
    if (out.size() >= max_count) r.fail(too_many);
    out.push_back(r.read_string(max_base64));
  }
  return out;
}

namespace {

template <class Proofs>
std::string json_of(const std::string& head, const Proofs& proofs) {
  std::string json = "{" + head + ",\"vanilla_proofs\":[";
  for (std::size_t i = 0; i < proofs.size(); ++i) {
    const auto& v = proofs[i];
    json +=
        (i ? ",\"" : "\"") + base64_encode(std::span(reinterpret_cast<const std::uint8_t*>(v.data()), v.size())) + "\"";
  }
  return json + "]}";
}

}  // namespace

std::string vanilla_proofs_json(const std::string& head, const std::vector<std::string>& proofs) {
  return json_of(head, proofs);
}

std::string vanilla_proofs_json(const std::string& head, const std::vector<std::string_view>& proofs) {
  return json_of(head, proofs);
}

std::string vanilla_proofs_json(const std::string& head, const std::vector<std::vector<std::uint8_t>>& proofs) {
  return json_of(head, proofs);
}

}  // namespace zk::circuits::filecoin
