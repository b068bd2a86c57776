#pragma once

#include <string>

namespace zk::app {

/// `zkpipe bench --circuit mixed` (bench_mixed.cpp): PoSt latency under PoRep load.
struct MixedBenchArgs {
  std::string shape = "2KiB";
  std::string params_dir;
  std::string porep_input, window_input, winning_input;
  double seconds = 120;        // per phase (PoRep alone, then mixed)
  double window_every = 6;     // a WindowPoSt partition every this many seconds
  double winning_every = 15;   // a WinningPoSt at uniform random times around this period
  std::size_t post_alone = 5;  // PoSt jobs of each kind measured alone
  unsigned synthesis_workers = 1;
  bool json = false;
};
int run_bench_mixed(const MixedBenchArgs& a);

}  // namespace zk::app
