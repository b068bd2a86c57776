#include "snarkpack/aggregate_proof.hpp"

#include <string>

#include "curve/serialize.hpp"

namespace zk::snarkpack {
namespace {

namespace bls = curve::bls12_381;

/// Reads the fields in order from a span, naming the first that fails.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> b) : b_(b) {}
  void gt(Fq12& out, const std::string& what) { field(out, kGtCompressedBytes, gt_from_compressed, what); }
  void g1(G1Affine& out, const std::string& what) {
    field(
        out, bls::kG1CompressedBytes, [](auto b) { return bls::g1_from_compressed(b); }, what);
  }
  void g2(G2Affine& out, const std::string& what) {
    field(
        out, bls::kG2CompressedBytes, [](auto b) { return bls::g2_from_compressed(b); }, what);
  }
  void commitment(Commitment& c, const std::string& what) {
    gt(c.t, what + ".T");
    gt(c.u, what + ".U");
  }
  std::uint32_t u32_le() {
    const auto s = take(4);
    return std::uint32_t{s[0]} | std::uint32_t{s[1]} << 8 | std::uint32_t{s[2]} << 16 | std::uint32_t{s[3]} << 24;
  }
  const Status& status() const { return st_; }

 private:
  /// The next `n` bytes decoded into `out`; the first failure is kept, naming `what`.
  template <class T, class Decode>
  void field(T& out, std::size_t n, Decode&& decode, const std::string& what) {
    if (!st_.ok()) return;
    auto v = decode(take(n));
    if (!v.ok()) {
      st_ = Status::invalid_argument(what + ": " + v.status().message());
      return;
    }
    out = *v;
  }
  std::span<const std::uint8_t> take(std::size_t n) {  // the caller checked the total length
    auto s = b_.subspan(at_, n);
    at_ += n;
    return s;
  }
  std::span<const std::uint8_t> b_;
  std::size_t at_ = 0;
  Status st_;
};

class Writer {
 public:
  void gt(const Fq12& g) {
    if (!st_.ok()) return;
    auto c = gt_to_compressed(g);
    if (!c.ok()) {
      st_ = c.status();
      return;
    }
    put(*c);
  }
  void g1(const G1Affine& p) { put(bls::to_compressed(p)); }
  void g2(const G2Affine& p) { put(bls::to_compressed(p)); }
  void commitment(const Commitment& c) {
    gt(c.t);
    gt(c.u);
  }
  void u32_le(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  Result<std::vector<std::uint8_t>> finish() && {
    if (!st_.ok()) return st_;
    return std::move(out_);
  }

 private:
  template <std::size_t K>
  void put(const std::array<std::uint8_t, K>& a) {
    out_.insert(out_.end(), a.begin(), a.end());
  }
  std::vector<std::uint8_t> out_;
  Status st_;
};

constexpr std::size_t kHeadBytes = 5 * kGtCompressedBytes + bls::kG1CompressedBytes;  // before nproofs

}  // namespace

unsigned log2_exact(std::uint32_t n) {
  unsigned l = 0;
  while ((std::uint32_t{1} << l) < n) ++l;
  return l;
}

std::size_t aggregate_proof_bytes(std::uint32_t nproofs) { return 2260 + std::size_t{2976} * log2_exact(nproofs); }

Result<AggregateProof> read_aggregate_proof(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kHeadBytes + 4) {
    return Status::invalid_argument("an aggregate proof has at least " + std::to_string(aggregate_proof_bytes(2)) +
                                    " bytes, not " + std::to_string(bytes.size()));
  }
  const auto n = bytes.subspan(kHeadBytes, 4);
  const std::uint32_t nproofs =
      std::uint32_t{n[0]} | std::uint32_t{n[1]} << 8 | std::uint32_t{n[2]} << 16 | std::uint32_t{n[3]} << 24;
  if (nproofs < 2 || nproofs > kMaxAggregatedProofs || (nproofs & (nproofs - 1)) != 0) {
    return Status::invalid_argument("nproofs " + std::to_string(nproofs) +
                                    " is not a power of two between 2 and 2^20 (an aggregate's proof count)");
  }
  if (bytes.size() != aggregate_proof_bytes(nproofs)) {
    return Status::invalid_argument("an aggregate of " + std::to_string(nproofs) + " proofs has " +
                                    std::to_string(aggregate_proof_bytes(nproofs)) + " bytes, not " +
                                    std::to_string(bytes.size()));
  }
  const unsigned rounds = log2_exact(nproofs);
  AggregateProof p;
  Reader r(bytes);
  r.commitment(p.com_ab, "com_ab");
  r.commitment(p.com_c, "com_c");
  r.gt(p.ip_ab, "ip_ab");
  r.g1(p.agg_c, "agg_c");
  GipaProof& g = p.gipa;
  g.nproofs = r.u32_le();
  g.comms_ab.resize(rounds);
  g.comms_c.resize(rounds);
  g.z_ab.resize(rounds);
  g.z_c.resize(rounds);
  // Each per-round vector: (left, right) in every round, named "what[i].left" in errors.
  const auto rounds_of = [&](auto& v, const char* what, auto read_one) {
    for (unsigned i = 0; i < rounds; ++i) {
      const std::string at = std::string(what) + "[" + std::to_string(i) + "].";
      read_one(v[i][0], at + "left");
      read_one(v[i][1], at + "right");
    }
  };
  rounds_of(g.comms_ab, "comms_ab", [&](Commitment& c, const std::string& w) { r.commitment(c, w); });
  rounds_of(g.comms_c, "comms_c", [&](Commitment& c, const std::string& w) { r.commitment(c, w); });
  rounds_of(g.z_ab, "z_ab", [&](Fq12& x, const std::string& w) { r.gt(x, w); });
  rounds_of(g.z_c, "z_c", [&](G1Affine& x, const std::string& w) { r.g1(x, w); });
  r.g1(g.final_a, "final_a");
  r.g2(g.final_b, "final_b");
  r.g1(g.final_c, "final_c");
  r.g2(g.final_vkey[0], "final_vkey.0");
  r.g2(g.final_vkey[1], "final_vkey.1");
  r.g1(g.final_wkey[0], "final_wkey.0");
  r.g1(g.final_wkey[1], "final_wkey.1");
  r.g2(p.vkey_opening[0], "vkey_opening.0");
  r.g2(p.vkey_opening[1], "vkey_opening.1");
  r.g1(p.wkey_opening[0], "wkey_opening.0");
  r.g1(p.wkey_opening[1], "wkey_opening.1");
  if (!r.status().ok()) return r.status();
  return p;
}

Result<std::vector<std::uint8_t>> write_aggregate_proof(const AggregateProof& p) {
  const GipaProof& g = p.gipa;
  const std::size_t rounds = g.comms_ab.size();
  if (g.nproofs < 2 || (g.nproofs & (g.nproofs - 1)) != 0 || log2_exact(g.nproofs) != rounds ||
      g.comms_c.size() != rounds || g.z_ab.size() != rounds || g.z_c.size() != rounds) {
    return Status::invalid_argument("the aggregate's round vectors do not all have log2(nproofs) entries");
  }
  Writer w;
  w.commitment(p.com_ab);
  w.commitment(p.com_c);
  w.gt(p.ip_ab);
  w.g1(p.agg_c);
  w.u32_le(g.nproofs);
  for (const auto& c : g.comms_ab) w.commitment(c[0]), w.commitment(c[1]);
  for (const auto& c : g.comms_c) w.commitment(c[0]), w.commitment(c[1]);
  for (const auto& z : g.z_ab) w.gt(z[0]), w.gt(z[1]);
  for (const auto& z : g.z_c) w.g1(z[0]), w.g1(z[1]);
  w.g1(g.final_a);
  w.g2(g.final_b);
  w.g1(g.final_c);
  w.g2(g.final_vkey[0]), w.g2(g.final_vkey[1]);
  w.g1(g.final_wkey[0]), w.g1(g.final_wkey[1]);
  w.g2(p.vkey_opening[0]), w.g2(p.vkey_opening[1]);
  w.g1(p.wkey_opening[0]), w.g1(p.wkey_opening[1]);
  return std::move(w).finish();
}

}  // namespace zk::snarkpack
