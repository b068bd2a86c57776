// libFuzzer target: one PoSt partition's input (zkpipe's JSON: registered proof, randomness,
// partition, base64 bincode vanilla proofs; circuits/filecoin/post/post_input.hpp), parsed and, when
// it parses, checked natively and turned into the circuit's witness and public inputs.
// Any input must give a value or an error Status: never a crash, a hang, an uncaught exception or
// an allocation beyond -malloc_limit_mb (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "circuits/filecoin/post/post_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fc = zk::circuits::filecoin;
  auto in = fc::parse_post_input(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!in.ok()) return 0;
  (void)fc::post_input_json(*in);
  if (!fc::check_post_input(*in).ok()) return 0;
  (void)fc::post_witness(*in);
  (void)fc::post_public_inputs(*in);
  return 0;
}
