#pragma once

// public.json: the public inputs (without ONE) as decimal strings, one array per partition; a flat
// array is one partition (the snarkjs shape). Values must be canonical field elements.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.hpp"
#include "field/decimal.hpp"

namespace zk::groth16 {

template <class F>
std::string public_inputs_to_json(const std::vector<std::vector<F>>& partitions) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& p : partitions) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& x : p) a.push_back(field::to_decimal(x));
    j.push_back(std::move(a));
  }
  if (partitions.size() == 1) j = j[0];
  return j.dump(1) + "\n";
}

template <class F>
Result<std::vector<std::vector<F>>> public_inputs_from_json(std::string_view text) {
  const auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::invalid_argument("public inputs: not valid JSON");
  if (!j.is_array()) return Status::invalid_argument("public inputs: expected a JSON array");
  const bool nested = !j.empty() && j[0].is_array();
  std::vector<std::vector<F>> out;
  auto parse_list = [&](const nlohmann::json& list, std::size_t part) -> Status {
    if (!list.is_array())
      return Status::invalid_argument("public inputs: partition " + std::to_string(part) + " is not an array");
    std::vector<F> xs;
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!list[i].is_string()) {
        return Status::invalid_argument("public inputs: partition " + std::to_string(part) + " entry " +
                                        std::to_string(i) + " must be a decimal string");
      }
      auto x = field::from_decimal<F>(list[i].get<std::string>());
      if (!x.ok()) {
        return Status::invalid_argument("public inputs: partition " + std::to_string(part) + " entry " +
                                        std::to_string(i) + ": " + x.status().message());
      }
      xs.push_back(*x);
    }
    out.push_back(std::move(xs));
    return {};
  };
  if (nested) {
    for (std::size_t k = 0; k < j.size(); ++k) {
      if (Status s = parse_list(j[k], k); !s.ok()) return s;
    }
  } else {
    if (Status s = parse_list(j, 0); !s.ok()) return s;
  }
  return out;
}

}  // namespace zk::groth16
