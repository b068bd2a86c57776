#include "circuits/filecoin/commitment.hpp"

#include <algorithm>
#include <vector>

#include "base/hex.hpp"

namespace zk::circuits::filecoin {
namespace {

constexpr char kBase32[] = "abcdefghijklmnopqrstuvwxyz234567";  // RFC 4648, lower case, no padding

struct Codes {
  std::uint64_t codec, multihash;
};
Codes codes(CommitmentKind k) { return k == CommitmentKind::kUnsealed ? Codes{0xf101, 0x1012} : Codes{0xf102, 0xb401}; }

void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  do {
    std::uint8_t b = v & 0x7f;
    v >>= 7;
    if (v != 0) b |= 0x80;
    out.push_back(b);
  } while (v != 0);
}

bool get_varint(const std::vector<std::uint8_t>& in, std::size_t& pos, std::uint64_t& v) {
  v = 0;
  for (unsigned shift = 0; shift < 63 && pos < in.size(); shift += 7) {
    const std::uint8_t b = in[pos++];
    v |= std::uint64_t{b & 0x7fu} << shift;
    if ((b & 0x80) == 0) return true;
  }
  return false;
}

}  // namespace

Result<std::array<std::uint8_t, 32>> parse_hex32(std::string_view what, std::string_view hex) {
  if (hex.substr(0, 2) == "0x") hex.remove_prefix(2);
  const std::string name(what);
  if (hex.size() != 64) return Status::invalid_argument(name + ": expected 32 bytes as 64 hex digits");
  auto bytes = hex_decode(hex, what, 32);
  if (!bytes.ok()) return Status::invalid_argument(name + ": not hex");
  std::array<std::uint8_t, 32> out{};
  std::copy(bytes->begin(), bytes->end(), out.begin());
  return out;
}

std::string hex_string(std::span<const std::uint8_t> bytes) { return hex_encode(bytes); }

std::string commitment_cid(const std::array<std::uint8_t, 32>& c, CommitmentKind kind) {
  std::vector<std::uint8_t> bytes = {0x01};  // CIDv1
  put_varint(bytes, codes(kind).codec);
  put_varint(bytes, codes(kind).multihash);
  bytes.push_back(32);
  bytes.insert(bytes.end(), c.begin(), c.end());
  std::string out = "b";
  std::uint32_t acc = 0;
  int bits = 0;
  for (const std::uint8_t b : bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out.push_back(kBase32[(acc >> (bits - 5)) & 31]);
      bits -= 5;
    }
  }
  if (bits > 0) out.push_back(kBase32[(acc << (5 - bits)) & 31]);
  return out;
}

Result<std::array<std::uint8_t, 32>> parse_commitment(const std::string& text, CommitmentKind kind) {
  const char* what = kind == CommitmentKind::kUnsealed ? "comm_d" : "comm_r";
  std::array<std::uint8_t, 32> out{};
  if (auto hex = parse_hex32("", text); hex.ok()) return *hex;
  if (text.size() < 2 || text.size() > 80 || text[0] != 'b') {
    return Status::invalid_argument(std::string(what) + ": expected 64 hex digits or a CID (b…)");
  }
  std::vector<std::uint8_t> bytes;
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::size_t i = 1; i < text.size(); ++i) {
    const char c = text[i];
    int v = -1;
    if (c >= 'a' && c <= 'z') v = c - 'a';
    if (c >= '2' && c <= '7') v = c - '2' + 26;
    if (v < 0) return Status::invalid_argument(std::string(what) + ": not a base32 CID");
    acc = (acc << 5) | static_cast<std::uint32_t>(v);
    bits += 5;
    if (bits >= 8) {
      bytes.push_back(static_cast<std::uint8_t>(acc >> (bits - 8)));
      bits -= 8;
    }
  }
  std::size_t pos = 0;
  std::uint64_t version = 0, codec = 0, mh = 0, len = 0;
  if (!get_varint(bytes, pos, version) || !get_varint(bytes, pos, codec) || !get_varint(bytes, pos, mh) ||
      !get_varint(bytes, pos, len) || version != 1) {
    return Status::invalid_argument(std::string(what) + ": not a CIDv1");
  }
  if (codec != codes(kind).codec || mh != codes(kind).multihash) {
    const bool other =
        codec == codes(kind == CommitmentKind::kSealed ? CommitmentKind::kUnsealed : CommitmentKind::kSealed).codec;
    return Status::invalid_argument(
        std::string(what) + ": " +
        (other ? "a CID of the other commitment (comm_d vs comm_r)" : "not a Filecoin commitment CID"));
  }
  if (len != 32 || bytes.size() - pos != 32)
    return Status::invalid_argument(std::string(what) + ": the CID's digest is not 32 bytes");
  std::copy(bytes.begin() + static_cast<std::ptrdiff_t>(pos), bytes.end(), out.begin());
  return out;
}

}  // namespace zk::circuits::filecoin
