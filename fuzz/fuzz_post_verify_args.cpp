// libFuzzer target: what `zkpipe verify --kind window-post|winning-post` makes of its arguments.
// Byte 0 picks the registered PoSt proof, byte 1 the --partition (0xff: none); the rest is one
// `--sector NUMBER:COMM_R` value per line (parse_post_sector), then the partitions a proof over
// those sectors must hold are derived (post_partitions: counts, repeated sectors, the partition
// index). Any input must give a value or an error Status: never a crash, a hang, an uncaught
// exception or an allocation beyond -malloc_limit_mb (docs/fuzzing.md).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "base/decimal.hpp"
#include "circuits/filecoin/post/fallback_post.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fc = zk::circuits::filecoin;
  if (size < 2) return 0;
  const auto& proofs = fc::registered_post_proofs();
  const fc::RegisteredPoStProof& proof = proofs[data[0] % proofs.size()];
  const std::optional<std::size_t> only = data[1] == 0xff ? std::nullopt : std::optional<std::size_t>(data[1]);
  std::string_view rest(reinterpret_cast<const char*>(data + 2), size - 2);
  std::vector<fc::PoStSector> sectors;
  while (!rest.empty() && sectors.size() < 64) {
    const auto nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    (void)zk::base::parse_decimal_u64(line);
    if (auto s = fc::parse_post_sector(line); s.ok()) sectors.push_back(*s);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
  }
  std::array<std::uint8_t, 32> randomness{};
  randomness[0] = data[0];
  (void)fc::post_partitions(proof, randomness, sectors, only);
  return 0;
}
