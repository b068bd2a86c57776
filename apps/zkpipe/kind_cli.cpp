#include "kind_cli.hpp"

#include <algorithm>
#include <set>

namespace zk::app {

namespace fc = circuits::filecoin;

KindCli::KindCli(CLI::App* cmd, std::vector<Options> which, std::map<std::string, std::string> rename)
    : which_(std::move(which)), rename_(std::move(rename)) {
  // Each option once, in the table's order; its help grouped by the kinds that say the same.
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> helps;  // name -> (help, kinds)
  for (const auto* kind : fc::proof_kinds()) {
    for (const auto& w : which_) {
      for (const auto& o : w(*kind)) {
        const std::string name = o.name;
        if (!helps.contains(name)) order.push_back(name);
        auto& list = helps[name];
        auto same = std::find_if(list.begin(), list.end(), [&](const auto& h) { return h.first == o.help; });
        if (same == list.end()) {
          list.emplace_back(o.help, std::string(kind->name()));
        } else if (same->second.find(std::string(kind->name())) == std::string::npos) {
          same->second += ", " + std::string(kind->name());
        }
        repeated_[name] = repeated_[name] || o.repeated;
        flags_[name] = flags_[name] || o.flag;
      }
    }
  }
  for (const auto& name : order) {
    std::string help;
    for (const auto& [text, kinds] : helps[name]) help += (help.empty() ? "" : "; ") + kinds + ": " + text;
    if (flags_[name]) {
      cmd->add_flag_callback(
          "--" + cli_name(name), [this, name] { values_[name].emplace_back(); }, help);
      continue;
    }
    auto* opt = cmd->add_option("--" + cli_name(name), values_[name], help);
    if (!repeated_[name]) opt->expected(1);  // one value per occurrence; twice is refused in given()
  }
}

std::string KindCli::cli_name(const std::string& kind_name) const {
  auto it = rename_.find(kind_name);
  return it == rename_.end() ? kind_name : it->second;
}

Result<fc::KindOptions> KindCli::given(const fc::ProofKind& kind) const {
  std::set<std::string> takes;
  std::string list;
  for (const auto& w : which_) {
    for (const auto& o : w(kind)) {
      if (takes.insert(o.name).second) list += (list.empty() ? "--" : ", --") + cli_name(o.name);
    }
  }
  fc::KindOptions out;
  for (const auto& [name, values] : values_) {
    if (values.empty()) continue;
    if (!takes.contains(name)) {
      return Status::invalid_argument("--" + cli_name(name) + " is not an option of --kind " +
                                      std::string(kind.name()) +
                                      (list.empty() ? std::string(" (it takes none)") : " (it takes " + list + ")"));
    }
    if (values.size() > 1 && !repeated_.at(name)) {
      return Status::invalid_argument("--" + cli_name(name) + " is given " + std::to_string(values.size()) +
                                      " times; it takes one value");
    }
    out[name] = values;
  }
  return out;
}

}  // namespace zk::app
