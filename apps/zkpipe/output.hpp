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
/// ("2KiB PoRep, "); `valid[i]` is partition `first_partition + i`; every partition that fails is
/// named.
inline int report_verification(const std::vector<bool>& valid, const std::string& what, bool json,
                               std::size_t first_partition = 0) {
  std::vector<std::size_t> bad;
  for (std::size_t k = 0; k < valid.size(); ++k) {
    if (!valid[k]) bad.push_back(first_partition + k);
  }
  if (json) {
    std::printf("%s\n", nlohmann::json{{"ok", true},
                                       {"valid", bad.empty()},
                                       {"first_partition", first_partition},
                                       {"partitions", valid},
                                       {"failed_partitions", bad}}
                            .dump()
                            .c_str());
  } else if (bad.empty()) {
    if (first_partition == 0) {
      std::printf("valid (%s%zu partition%s)\n", what.c_str(), valid.size(), valid.size() == 1 ? "" : "s");
    } else {
      std::printf("valid (%spartition %zu only)\n", what.c_str(), first_partition);
    }
  } else {
    std::string list;
    for (std::size_t i = 0; i < bad.size() && i < 16; ++i) list += (i ? ", " : "") + std::to_string(bad[i]);
    if (bad.size() > 16) list += ", ...";
    std::printf("INVALID: partition%s %s do%s not verify (%s%zu partition%s checked)\n", bad.size() == 1 ? "" : "s",
                list.c_str(), bad.size() == 1 ? "es" : "", what.c_str(), valid.size(), valid.size() == 1 ? "" : "s");
  }
  return bad.empty() ? 0 : 1;
}

}  // namespace zk::app
