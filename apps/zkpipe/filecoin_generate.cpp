// Test inputs sealed in memory: `zkpipe gen-c1` (a PoRep C1 of a sector of random data, or a
// consistent synthetic one of any size) and `zkpipe gen-vanilla --kind` (a PoSt partition's vanilla
// proofs, a SnapDeals update's). Each kind makes its own (ProofKind::generate); this file writes the
// file and tells the user what was made.

#include <chrono>

#include <nlohmann/json.hpp>

#include "filecoin.hpp"
#include "filecoin_common.hpp"
#include "groth16/io.hpp"
#include "output.hpp"

namespace zk::app {

int run_generate(const GenerateArgs& a) {
  auto kind = fc::find_proof_kind(a.kind);
  if (!kind.ok() || (*kind)->generate_command() != a.command) {
    std::string known;
    for (const auto* k : fc::proof_kinds()) {
      if (k->generate_command() == a.command) known += (known.empty() ? "" : ", ") + std::string(k->name());
    }
    return fail(a.command + " --kind: " + known, a.json);
  }
  if (a.out.empty()) return fail(a.command + " needs --out FILE", a.json);
  const auto t0 = std::chrono::steady_clock::now();
  auto made = (*kind)->generate(a.options);
  if (!made.ok()) return fail(made.status().message(), a.json);
  const std::string& text = made->text;
  if (Status st =
          groth16::write_file(a.out, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
      !st.ok()) {
    return fail(st.message(), a.json);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (a.json) {
    auto j = nlohmann::json::parse(made->json);
    j["ok"] = true;
    j["out"] = a.out;
    j["bytes"] = text.size();
    j["seconds"] = seconds;
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("%s; wrote %s (%zu bytes) in %.1f s\n%s", made->headline.c_str(), a.out.c_str(), text.size(), seconds,
                made->details.c_str());
  }
  return 0;
}

}  // namespace zk::app
