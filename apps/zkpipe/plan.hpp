#pragma once

#include <cstdint>
#include <string>

namespace zk::app {

struct PlanArgs {
  std::string profile;    // zkpipe bench --json output
  std::string reference;  // or a built-in profile: porep-32g
  // Urgent work (PoSt) beside it: print how late it can be (engine::urgent_bound).
  std::string urgent_profile;    // zkpipe bench --json of a PoSt kind
  std::string urgent_reference;  // or a built-in profile: winning-32g
  double memory_gib = 0;
  unsigned devices = 1;
  unsigned synthesis_workers = 0;  // 0: sweep 1..max_workers and recommend
  unsigned max_workers = 16;
  unsigned prover_workers_per_device = 1;
  std::size_t channel_capacity = 1;
  std::size_t proofs = 20;
  bool json = false;
};

int run_plan(const PlanArgs& a);

}  // namespace zk::app
