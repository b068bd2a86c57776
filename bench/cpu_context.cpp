// Every benchmark binary reports which arithmetic paths it ran (base/cpu.hpp: IFMA, MULX/ADX or
// the portable code, and an environment override that turned one off) in Google Benchmark's
// context: the console header and the JSON output's "context" object.
#include <benchmark/benchmark.h>

#include "base/cpu.hpp"

namespace {
const bool kRegistered = [] {
  benchmark::AddCustomContext("zkpipe_cpu_paths", zk::cpu::kernel_paths());
  return true;
}();
}  // namespace
