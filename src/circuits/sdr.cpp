#include "circuits/sdr.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>
#include <string>

namespace zk::circuits::sdr {
namespace {

Bytes32 sha256(const std::uint8_t* data, std::size_t n) {
  Bytes32 out{};
  SHA256(data, n, out.data());
  return out;
}

/// ChaCha with 8 rounds (rand_chacha's ChaCha8Rng): a 32-byte key, a 64-bit block counter from 0 in
/// words 12-13, a zero stream id in words 14-15; the keystream as little-endian 64-bit draws.
class ChaCha8 {
 public:
  explicit ChaCha8(const std::array<std::uint8_t, 32>& key) {
    static constexpr std::uint32_t kSigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};  // "expand 32-byte k"
    for (int i = 0; i < 4; ++i) state_[i] = kSigma[i];
    for (int i = 0; i < 8; ++i) {
      state_[4 + i] = static_cast<std::uint32_t>(key[4 * i]) | static_cast<std::uint32_t>(key[4 * i + 1]) << 8 |
                      static_cast<std::uint32_t>(key[4 * i + 2]) << 16 |
                      static_cast<std::uint32_t>(key[4 * i + 3]) << 24;
    }
    state_[12] = state_[13] = state_[14] = state_[15] = 0;
  }
  std::uint64_t next_u64() {
    if (pos_ >= 16) refill();
    const std::uint64_t lo = block_[pos_], hi = block_[pos_ + 1];
    pos_ += 2;
    return lo | (hi << 32);
  }

 private:
  static std::uint32_t rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
  static void quarter(std::uint32_t* x, int a, int b, int c, int d) {
    x[a] += x[b], x[d] = rotl(x[d] ^ x[a], 16);
    x[c] += x[d], x[b] = rotl(x[b] ^ x[c], 12);
    x[a] += x[b], x[d] = rotl(x[d] ^ x[a], 8);
    x[c] += x[d], x[b] = rotl(x[b] ^ x[c], 7);
  }
  void refill() {
    std::uint32_t x[16];
    std::memcpy(x, state_, sizeof(x));
    for (int r = 0; r < 4; ++r) {  // 8 rounds = 4 double rounds
      quarter(x, 0, 4, 8, 12), quarter(x, 1, 5, 9, 13), quarter(x, 2, 6, 10, 14), quarter(x, 3, 7, 11, 15);
      quarter(x, 0, 5, 10, 15), quarter(x, 1, 6, 11, 12), quarter(x, 2, 7, 8, 13), quarter(x, 3, 4, 9, 14);
    }
    for (int i = 0; i < 16; ++i) block_[i] = x[i] + state_[i];
    if (++state_[12] == 0) ++state_[13];
    pos_ = 0;
  }
  std::uint32_t state_[16];
  std::uint32_t block_[16]{};
  int pos_ = 16;
};

__extension__ typedef unsigned __int128 u128;  // __extension__: silences -Wpedantic

unsigned bit_length(std::uint64_t x) { return x == 0 ? 0 : 64 - static_cast<unsigned>(__builtin_clzll(x)); }

}  // namespace

Bytes32 porep_id(std::uint64_t registered_proof) {
  Bytes32 id{};
  for (int i = 0; i < 8; ++i) id[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(registered_proof >> (8 * i));
  return id;
}

Result<ParentGraph> ParentGraph::create(std::uint64_t nodes, const Bytes32& porep_id, bool legacy_v1_0,
                                        unsigned base_degree, unsigned expansion_degree) {
  if (nodes < 2 || nodes > (std::uint64_t{1} << 40))
    return Status::invalid_argument("SDR graph: node count out of range");
  if (base_degree < 2 || base_degree > 64 || expansion_degree < 1 || expansion_degree > 64)
    return Status::invalid_argument("SDR graph: degrees must be base 2..64 and expansion 1..64");
  ParentGraph g;
  g.base_degree_ = base_degree;
  g.expansion_degree_ = expansion_degree;
  g.nodes_ = nodes;
  g.legacy_ = legacy_v1_0;
  {
    std::uint8_t buf[17 + 32];
    std::memcpy(buf, "Filecoin_DRSample", 17);
    std::memcpy(buf + 17, porep_id.data(), 32);
    const auto h = sha256(buf, sizeof(buf));
    std::memcpy(g.drg_seed_.data(), h.data(), 28);
  }
  {
    std::uint8_t buf[16 + 32];
    std::memcpy(buf, "Filecoin_Feistel", 16);
    std::memcpy(buf + 16, porep_id.data(), 32);
    const auto h = sha256(buf, sizeof(buf));
    for (int k = 0; k < 4; ++k) {
      std::uint64_t v = 0;
      for (int b = 7; b >= 0; --b) v = (v << 8) | h[static_cast<std::size_t>(8 * k + b)];
      g.feistel_keys_[static_cast<std::size_t>(k)] = v;
    }
  }
  const std::uint64_t n = nodes * expansion_degree;
  g.half_bits_ = 1;
  while ((std::uint64_t{1} << (2 * g.half_bits_)) < n) ++g.half_bits_;
  return g;
}

std::vector<std::uint64_t> ParentGraph::base_parents(std::uint64_t i) const {
  std::vector<std::uint64_t> p(base_degree_, 0);
  if (i < 2) return p;
  std::array<std::uint8_t, 32> seed{};
  std::memcpy(seed.data(), drg_seed_.data(), 28);
  for (int b = 0; b < 4; ++b)
    seed[static_cast<std::size_t>(28 + b)] = static_cast<std::uint8_t>(static_cast<std::uint32_t>(i) >> (8 * b));
  ChaCha8 rng(seed);
  const std::uint64_t m = base_degree_ - 1;  // 5 sampled parents in Filecoin's graph
  const std::uint64_t meta = i * m;
  const unsigned n_buckets = bit_length(meta - 1);  // ceil(log2(meta))
  std::vector<std::uint64_t> draws(m);
  for (std::uint64_t k = 0; k < m; ++k) {
    const std::uint64_t bucket = rng.next_u64() % n_buckets + 1;
    const std::uint64_t hi = std::min<std::uint64_t>(meta, std::uint64_t{1} << bucket);
    const std::uint64_t lo = std::max<std::uint64_t>(2, hi >> 1);
    const std::uint64_t dist = lo + rng.next_u64() % (hi - lo + 1);
    std::uint64_t parent = static_cast<std::uint32_t>((meta - dist) / m);
    if (parent == i) parent = i - 1;
    draws[k] = parent;
  }
  if (legacy_) {
    for (std::uint64_t k = 0; k < m; ++k) p[k] = draws[k];
    p[m] = i - 1;
  } else {
    p[0] = i - 1;
    for (std::uint64_t k = 0; k < m; ++k) p[k + 1] = draws[k];
  }
  return p;
}

std::uint64_t ParentGraph::feistel_permute(std::uint64_t a) const {
  const unsigned h = half_bits_;
  const std::uint64_t right_mask = (std::uint64_t{1} << h) - 1, left_mask = right_mask << h;
  auto round = [&](std::uint64_t r, std::uint64_t key) {
    std::uint8_t in[16];
    for (int b = 0; b < 8; ++b) in[b] = static_cast<std::uint8_t>(r >> (56 - 8 * b));
    for (int b = 0; b < 8; ++b) in[8 + b] = static_cast<std::uint8_t>(key >> (56 - 8 * b));
    std::uint8_t out[64];
    unsigned int len = 0;
    EVP_Digest(in, sizeof(in), out, &len, EVP_blake2b512(), nullptr);
    std::uint64_t v = 0;
    for (int b = 0; b < 8; ++b) v = (v << 8) | out[b];
    return v & right_mask;
  };
  auto encode = [&](std::uint64_t x) {
    std::uint64_t l = (x & left_mask) >> h, r = x & right_mask;
    for (int k = 0; k < 3; ++k) {  // FEISTEL_ROUNDS = 3: keys 0..2
      const std::uint64_t nl = r;
      r = l ^ round(r, feistel_keys_[static_cast<std::size_t>(k)]);
      l = nl;
    }
    return (l << h) | r;
  };
  const std::uint64_t n = nodes_ * expansion_degree_;
  std::uint64_t u = encode(a);
  while (u >= n) u = encode(u);  // cycle walking back into [0, n)
  return u;
}

std::vector<std::uint64_t> ParentGraph::expander_parents(std::uint64_t i) const {
  std::vector<std::uint64_t> p(expansion_degree_);
  for (unsigned j = 0; j < expansion_degree_; ++j) {
    const std::uint64_t t = feistel_permute(i * expansion_degree_ + j);
    p[j] = legacy_ ? static_cast<std::uint32_t>(t) / expansion_degree_ : t / expansion_degree_;
  }
  return p;
}

Bytes32 label_from_slots(const Bytes32& replica_id, std::uint32_t layer, std::uint64_t node,
                         std::span<const Bytes32> slots) {
  std::vector<std::uint8_t> m(64 + 32 * slots.size(), 0);
  std::memcpy(m.data(), replica_id.data(), 32);
  for (int b = 0; b < 4; ++b) m[static_cast<std::size_t>(32 + b)] = static_cast<std::uint8_t>(layer >> (24 - 8 * b));
  for (int b = 0; b < 8; ++b) m[static_cast<std::size_t>(36 + b)] = static_cast<std::uint8_t>(node >> (56 - 8 * b));
  for (std::size_t k = 0; k < slots.size(); ++k) std::memcpy(m.data() + 64 + 32 * k, slots[k].data(), 32);
  Bytes32 out = sha256(m.data(), m.size());
  out[31] &= 0x3f;
  return out;
}

Bytes32 label(const ParentGraph& g, const Bytes32& replica_id, std::uint32_t layer, std::uint64_t i,
              const std::vector<Bytes32>& current, const std::vector<Bytes32>& previous, unsigned slots) {
  std::vector<Bytes32> s;
  if (i > 0) {  // node 0 has no parents: its label hashes the header alone
    std::vector<const Bytes32*> parents;
    for (auto p : g.base_parents(i)) parents.push_back(&current[p]);
    if (layer > 1) {
      for (auto p : g.expander_parents(i)) parents.push_back(&previous[p]);
    }
    for (unsigned k = 0; k < slots; ++k) s.push_back(*parents[k % parents.size()]);
  }
  return label_from_slots(replica_id, layer, i, s);
}

std::vector<std::vector<Bytes32>> label_layers(const ParentGraph& g, const Bytes32& replica_id, std::uint32_t layers,
                                               unsigned slots) {
  std::vector<std::vector<Bytes32>> out;
  for (std::uint32_t l = 1; l <= layers; ++l) {
    std::vector<Bytes32> cur(g.nodes());
    static const std::vector<Bytes32> kNone;
    const auto& prev = l > 1 ? out.back() : kNone;
    for (std::uint64_t i = 0; i < g.nodes(); ++i) cur[i] = label(g, replica_id, l, i, cur, prev, slots);
    out.push_back(std::move(cur));
  }
  return out;
}

Bytes32 replica_id(const Bytes32& prover_id, std::uint64_t sector_id, const Bytes32& ticket, const Bytes32& comm_d,
                   const Bytes32& porep_id) {
  std::uint8_t buf[32 + 8 + 32 + 32 + 32];
  std::memcpy(buf, prover_id.data(), 32);
  for (int b = 0; b < 8; ++b) buf[32 + b] = static_cast<std::uint8_t>(sector_id >> (56 - 8 * b));
  std::memcpy(buf + 40, ticket.data(), 32);
  std::memcpy(buf + 72, comm_d.data(), 32);
  std::memcpy(buf + 104, porep_id.data(), 32);
  Bytes32 out = sha256(buf, sizeof(buf));
  out[31] &= 0x3f;
  return out;
}

namespace {

/// A challenge from 32 hash bytes: (the bytes as a little-endian integer) mod (nodes - 1), plus 1
/// (node 0 is never challenged); Horner from the top byte.
std::uint64_t node_of(const Bytes32& h, std::uint64_t nodes) {
  const u128 mod = nodes - 1;
  u128 r = 0;
  for (int b = 31; b >= 0; --b) r = ((r << 8) | h[static_cast<std::size_t>(b)]) % mod;
  return static_cast<std::uint64_t>(r) + 1;
}

}  // namespace

std::vector<std::uint64_t> challenges(const Bytes32& replica_id, const Bytes32& seed, std::uint64_t nodes,
                                      std::uint32_t partition, std::uint32_t cpp) {
  std::vector<std::uint64_t> out;
  for (std::uint32_t i = 0; i < cpp; ++i) {
    const std::uint32_t j = cpp * partition + i;
    std::uint8_t buf[68];
    std::memcpy(buf, replica_id.data(), 32);
    std::memcpy(buf + 32, seed.data(), 32);
    for (int b = 0; b < 4; ++b) buf[64 + b] = static_cast<std::uint8_t>(j >> (8 * b));
    out.push_back(node_of(sha256(buf, sizeof(buf)), nodes));
  }
  return out;
}

std::vector<std::uint64_t> ni_challenges(const Bytes32& replica_id, const Bytes32& comm_r, std::uint64_t nodes,
                                         std::uint32_t partition, std::uint32_t cpp) {
  static constexpr std::string_view kTag = "filecoin.io|PoRep|1|NonInteractive|1";
  std::vector<std::uint64_t> out;
  for (std::uint32_t i = 0; i < cpp; ++i) {
    const std::uint32_t j = cpp * partition + i;
    std::uint8_t buf[kTag.size() + 68];
    std::memcpy(buf, kTag.data(), kTag.size());
    std::memcpy(buf + kTag.size(), replica_id.data(), 32);
    std::memcpy(buf + kTag.size() + 32, comm_r.data(), 32);
    for (int b = 0; b < 4; ++b) buf[kTag.size() + 64 + b] = static_cast<std::uint8_t>(j >> (8 * b));
    out.push_back(node_of(sha256(buf, sizeof(buf)), nodes));
  }
  return out;
}

namespace {

/// BLAKE2b with a 32-byte digest, keyed (RFC 7693's key, not personalization) with `key`, of a || b.
Result<Bytes32> blake2b256_keyed(std::string_view key, const Bytes32& a, const Bytes32& b) {
  Bytes32 out{};
  EVP_MAC* mac = EVP_MAC_fetch(nullptr, "BLAKE2BMAC", nullptr);
  EVP_MAC_CTX* ctx = mac != nullptr ? EVP_MAC_CTX_new(mac) : nullptr;
  std::size_t size = 32, len = 0;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size), OSSL_PARAM_construct_end()};
  const bool ok = ctx != nullptr &&
                  EVP_MAC_init(ctx, reinterpret_cast<const unsigned char*>(key.data()), key.size(), params) == 1 &&
                  EVP_MAC_update(ctx, a.data(), a.size()) == 1 && EVP_MAC_update(ctx, b.data(), b.size()) == 1 &&
                  EVP_MAC_final(ctx, out.data(), &len, out.size()) == 1 && len == out.size();
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(mac);
  if (!ok) return Status::internal("OpenSSL's BLAKE2BMAC is unavailable (synthetic PoRep needs keyed BLAKE2b)");
  return out;
}

/// One 64-byte RFC 8439 ChaCha20 block: key, 32-bit block counter, 96-bit nonce.
void chacha20_block(const Bytes32& key, std::uint32_t counter, const std::uint8_t (&nonce)[12], std::uint8_t (&out)[64]) {
  auto le32 = [](const std::uint8_t* p) {
    return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
  };
  std::uint32_t st[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  for (int i = 0; i < 8; ++i) st[4 + i] = le32(key.data() + 4 * i);
  st[12] = counter;
  for (int i = 0; i < 3; ++i) st[13 + i] = le32(nonce + 4 * i);
  std::uint32_t x[16];
  std::memcpy(x, st, sizeof(x));
  auto rotl = [](std::uint32_t v, int c) { return (v << c) | (v >> (32 - c)); };
  auto quarter = [&](int a, int b, int c, int d) {
    x[a] += x[b], x[d] = rotl(x[d] ^ x[a], 16);
    x[c] += x[d], x[b] = rotl(x[b] ^ x[c], 12);
    x[a] += x[b], x[d] = rotl(x[d] ^ x[a], 8);
    x[c] += x[d], x[b] = rotl(x[b] ^ x[c], 7);
  };
  for (int round = 0; round < 10; ++round) {
    quarter(0, 4, 8, 12), quarter(1, 5, 9, 13), quarter(2, 6, 10, 14), quarter(3, 7, 11, 15);
    quarter(0, 5, 10, 15), quarter(1, 6, 11, 12), quarter(2, 7, 8, 13), quarter(3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) {
    const std::uint32_t v = x[i] + st[i];
    for (int b = 0; b < 4; ++b) out[4 * i + b] = static_cast<std::uint8_t>(v >> (8 * b));
  }
}

/// `out.size()` bytes of the ChaCha20 keystream under `key` with the nonce "synth-porep\0", from
/// byte `offset` (block counter 0 at byte 0).
void synth_keystream(const Bytes32& key, std::uint64_t offset, std::span<std::uint8_t> out) {
  static constexpr std::uint8_t kNonce[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
  std::uint8_t block[64];
  for (std::size_t done = 0; done < out.size();) {
    const std::uint64_t at = offset + done;
    chacha20_block(key, static_cast<std::uint32_t>(at / 64), kNonce, block);
    const std::size_t skip = static_cast<std::size_t>(at % 64), n = std::min(out.size() - done, 64 - skip);
    std::memcpy(out.data() + done, block + skip, n);
    done += n;
  }
}

constexpr std::string_view kSynthGeneration = "filecoin.io|PoRep|1|Synthetic|1|Generation";
constexpr std::string_view kSynthSelection = "filecoin.io|PoRep|1|Synthetic|1|Selection";
constexpr std::uint64_t kSynthChallengeCount = std::uint64_t{1} << 18;

}  // namespace

Result<SyntheticChallenges> SyntheticChallenges::create(const Bytes32& replica_id, const Bytes32& comm_r,
                                                        std::uint64_t nodes, std::uint64_t count) {
  if (nodes < 2) return Status::invalid_argument("synthetic challenges need at least 2 nodes");
  if (count == 0) count = std::min(nodes, kSynthChallengeCount);
  auto key = blake2b256_keyed(kSynthGeneration, replica_id, comm_r);
  if (!key.ok()) return key.status();
  SyntheticChallenges out;
  out.replica_id_ = replica_id, out.generation_key_ = *key, out.nodes_ = nodes, out.count_ = count;
  return out;
}

std::uint64_t SyntheticChallenges::at(std::uint64_t i) const {
  Bytes32 x{};
  synth_keystream(generation_key_, 32 * i, x);
  return node_of(x, nodes_);
}

Result<std::vector<std::uint64_t>> SyntheticChallenges::selected_indices(const Bytes32& seed, std::uint32_t partition,
                                                                         std::uint32_t cpp) const {
  auto key = blake2b256_keyed(kSynthSelection, replica_id_, seed);
  if (!key.ok()) return key.status();
  std::vector<std::uint8_t> bytes(std::size_t{4} * cpp);
  synth_keystream(*key, std::uint64_t{4} * cpp * partition, bytes);
  std::vector<std::uint64_t> out;
  for (std::uint32_t i = 0; i < cpp; ++i) {
    std::uint32_t v = 0;
    for (int b = 3; b >= 0; --b) v = (v << 8) | bytes[4 * i + static_cast<std::size_t>(b)];
    out.push_back(v % count_);
  }
  return out;
}

Result<std::vector<std::uint64_t>> SyntheticChallenges::select(const Bytes32& seed, std::uint32_t partition,
                                                               std::uint32_t cpp) const {
  auto indices = selected_indices(seed, partition, cpp);
  if (!indices.ok()) return indices.status();
  std::vector<std::uint64_t> out;
  for (const std::uint64_t i : *indices) out.push_back(at(i));
  return out;
}

}  // namespace zk::circuits::sdr
