#pragma once

// Shared helpers for zkpipe's tests: the logged, overridable random seed and test-data paths.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "base/rng.hpp"

namespace zk::test {

/// The seed of this test run: ZKPIPE_TEST_SEED if set, else a fixed default. Printed once so a
/// failure can be replayed.
inline std::uint64_t seed() {
  static const std::uint64_t s = [] {
    std::uint64_t v = 0x7a6b70697065ull;  // "zkpipe"
    if (const char* env = std::getenv("ZKPIPE_TEST_SEED"); env != nullptr && *env != '\0') {
      v = std::strtoull(env, nullptr, 0);
    }
    std::cerr << "[zkpipe] test seed " << v << " (override with ZKPIPE_TEST_SEED)\n";
    return v;
  }();
  return s;
}

/// A generator seeded from the run seed and a per-test salt.
inline Rng rng(std::uint64_t salt = 0) { return Rng(seed() ^ (salt * 0x9e3779b97f4a7c15ull)); }

/// tests/data in the source tree (set by CMake), or $ZKPIPE_TEST_DATA_DIR when the binaries run
/// from another copy of the tree (scripts/gpu-check.sh on the device machine).
inline std::filesystem::path data_dir() {
  if (const char* env = std::getenv("ZKPIPE_TEST_DATA_DIR"); env != nullptr && *env != '\0') return env;
  return ZK_TEST_DATA_DIR;
}

/// The team's shared test vectors (../shared/testdata beside the checkout, or $ZKPIPE_TESTDATA);
/// empty when neither exists (tests then skip, saying so).
inline std::filesystem::path shared_testdata() {
  if (const char* env = std::getenv("ZKPIPE_TESTDATA"); env != nullptr && *env != '\0') {
    if (std::filesystem::is_directory(env)) return env;
  }
  const auto beside = data_dir() / ".." / ".." / ".." / "shared" / "testdata";
  if (std::filesystem::is_directory(beside)) return std::filesystem::canonical(beside);
  return {};
}

inline std::vector<std::uint8_t> from_hex(const std::string& hex) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
  return out;
}

/// The payload offset of section `type` in a snarkjs binary container (zkey, r1cs, wtns); 0 if
/// absent. For tests that craft malformed files.
inline std::size_t snarkjs_section_offset(const std::vector<std::uint8_t>& b, std::uint32_t type) {
  auto u32 = [&](std::size_t at) {
    return std::uint32_t{b[at]} | std::uint32_t{b[at + 1]} << 8 | std::uint32_t{b[at + 2]} << 16 |
           std::uint32_t{b[at + 3]} << 24;
  };
  std::size_t pos = 12;
  for (std::uint32_t i = 0; i < u32(8); ++i) {
    const std::uint32_t t = u32(pos);
    std::uint64_t size = 0;
    for (int k = 7; k >= 0; --k) size = (size << 8) | b[pos + 4 + static_cast<std::size_t>(k)];
    pos += 12;
    if (t == type) return pos;
    pos += size;
  }
  return 0;
}

inline std::vector<std::uint8_t> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot open " << p;
    return {};
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace zk::test
