// libFuzzer target: Filecoin's C1 (SealCommitPhase1Output JSON or cuzk's wrapper), parsed and,
// when it parses, checked against its registered proof (every vanilla proof natively).
// Any input must give a value or an error Status: never a crash, a hang, an uncaught exception or
// an allocation beyond -malloc_limit_mb (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "circuits/filecoin/porep/c1.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fc = zk::circuits::filecoin;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto in = fc::parse_c1(text);
  if (!in.ok()) return 0;
  if (in->c1.registered_proof.size.bytes > 2048) return 0;  // bigger graphs: the same code, slower
  auto ctx = fc::c1_context(in->c1.registered_proof);
  if (ctx.ok()) (void)fc::check_c1(in->c1, *ctx);
  return 0;
}
