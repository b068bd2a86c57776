#pragma once

// The command-line options of the Filecoin kinds for one command, registered from the kind table
// (circuits/filecoin/proof_kind.hpp): each option once, its help naming the kinds that take it, and
// after parsing the values given — refused, naming the kind's own options, when the kind named by
// --kind does not take one. So `--help` and the errors say what each kind needs, and a new kind's
// options appear without touching the CLI.

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/status.hpp"
#include "circuits/filecoin/proof_kind.hpp"

namespace zk::app {

class KindCli {
 public:
  using Options = std::function<std::vector<circuits::filecoin::KindOption>(const circuits::filecoin::ProofKind&)>;
  /// Registers on `cmd` every option `which` gives for any kind; `rename` maps a kind's option name
  /// to the command's where the command uses that name for something else.
  KindCli(CLI::App* cmd, std::vector<Options> which, std::map<std::string, std::string> rename = {});
  KindCli(const KindCli&) = delete;
  KindCli& operator=(const KindCli&) = delete;

  /// The options given for `kind`, by the kind's names; INVALID_ARGUMENT for one given twice or one
  /// the kind does not take.
  Result<circuits::filecoin::KindOptions> given(const circuits::filecoin::ProofKind& kind) const;

 private:
  std::string cli_name(const std::string& kind_name) const;
  std::vector<Options> which_;
  std::map<std::string, std::string> rename_;
  std::map<std::string, std::vector<std::string>> values_;  // by the kinds' names
  std::map<std::string, bool> repeated_, flags_;
};

}  // namespace zk::app
