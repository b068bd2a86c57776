#pragma once

// Loads tests/data/noble/vectors.json (made by tools/noble/gen_vectors.mjs with @noble/curves).

#include <nlohmann/json.hpp>

#include <fstream>

#include "test_util.hpp"

namespace zk::test {

inline const nlohmann::json& noble_vectors() {
  static const nlohmann::json j = [] {
    std::ifstream in(data_dir() / "noble" / "vectors.json");
    if (!in) throw std::runtime_error("cannot open tests/data/noble/vectors.json");
    return nlohmann::json::parse(in);
  }();
  return j;
}

/// Parses a canonical hex value into a field element (test failure on error).
template <class F>
F hex_to(const nlohmann::json& v) {
  auto r = F::from_hex(v.get<std::string>());
  if (!r.ok()) {
    ADD_FAILURE() << r.status().to_string();
    return F::zero();
  }
  return *r;
}

}  // namespace zk::test
