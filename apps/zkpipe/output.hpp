#pragma once

// How every zkpipe subcommand reports a failure: one bounded line on stderr ("zkpipe: ..."), or
// {"ok": false, "error": ...} on stdout with --json; the exit code (2: bad input or an error).

#include <cstdio>
#include <string>

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

}  // namespace zk::app
