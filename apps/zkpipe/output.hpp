#pragma once

// How every zkpipe subcommand reports a failure: one bounded line on stderr ("zkpipe: ..."), or
// {"ok": false, "error": ...} on stdout with --json; the exit code (2: bad input or an error).

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.hpp"

namespace zk::app {

inline int fail(const std::string& full_message, bool json, int code = 2) {
  const std::string message = bounded_message(full_message);
  if (json) {
    // Messages may quote input bytes that are not UTF-8: replaced, never an exception.
    std::printf("%s\n", nlohmann::json{{"ok", false}, {"error", message}}
                            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                            .c_str());
  } else {
    std::fprintf(stderr, "zkpipe: %s\n", message.c_str());
  }
  return code;
}

/// The answer of `verify` for per-partition results: "valid (...)" / "INVALID: partition k ..." or
/// the JSON form; exit 0 when every partition verifies, 1 otherwise. `what` prefixes the count
/// ("2KiB PoRep, ").
inline int report_verification(const std::vector<bool>& valid, const std::string& what, bool json) {
  long first_bad = -1;
  for (std::size_t k = 0; k < valid.size() && first_bad < 0; ++k) {
    if (!valid[k]) first_bad = static_cast<long>(k);
  }
  if (json) {
    std::printf("%s\n", nlohmann::json{{"ok", true}, {"valid", first_bad < 0}, {"partitions", valid}}.dump().c_str());
  } else if (first_bad < 0) {
    std::printf("valid (%s%zu partition%s)\n", what.c_str(), valid.size(), valid.size() == 1 ? "" : "s");
  } else {
    std::printf("INVALID: partition %ld does not verify\n", first_bad);
  }
  return first_bad < 0 ? 0 : 1;
}

}  // namespace zk::app
