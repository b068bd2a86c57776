// zkpipe: the command-line entry point. Subcommands arrive with the issues that build them
// (setup, prove, verify, serve, bench, plan, ...); today: selftest and version.

#include <CLI/CLI.hpp>

#include <cstdio>

#include "selftest.hpp"

int main(int argc, char** argv) {
  CLI::App app{"zkpipe: a pipelined Groth16 proving engine (BLS12-381 and BN254)"};
  app.require_subcommand(1);
  bool json = false;
  auto* selftest = app.add_subcommand("selftest", "check the arithmetic core (pairings, encodings, MSM, NTT quotient)");
  selftest->add_flag("--json", json, "machine-readable output");
  auto* version = app.add_subcommand("version", "print the version");
  CLI11_PARSE(app, argc, argv);
  if (*version) {
    std::printf("zkpipe 0.1.0\n");
    return 0;
  }
  if (*selftest) return zk::app::run_selftest(json);
  return 1;
}
