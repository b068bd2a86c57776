#include "circuits/filecoin/bincode.hpp"

namespace zk::circuits::filecoin::bincode {

Result<std::vector<PathElement>> read_path(BinReader& r, const std::string& what) {
  auto n = r.length(what, 16, 64);
  if (!n.ok()) return n.status();
  std::vector<PathElement> out;
  for (std::uint64_t i = 0; i < *n; ++i) {
    const std::string w = what + "[" + std::to_string(i) + "]";
    auto h = r.length(w + ".hashes", 32, 16);
    if (!h.ok()) return h.status();
    PathElement e;
    for (std::uint64_t j = 0; j < *h; ++j) {
      auto d = r.domain(w + ".hashes");
      if (!d.ok()) return d.status();
      e.hashes.push_back(*d);
    }
    auto idx = r.uint(8, w + ".index");
    if (!idx.ok()) return idx.status();
    e.index = *idx;
    out.push_back(std::move(e));
  }
  return out;
}

Result<MerkleProof> read_merkle(BinReader& r, const std::string& what) {
  const std::size_t at = r.offset();
  auto tag = r.uint(4, what + " variant");
  if (!tag.ok()) return tag.status();
  MerkleProof p;
  auto take = [&](Bytes32& out, const char* f) -> Status {
    auto d = r.domain(what + "." + f);
    if (!d.ok()) return d.status();
    out = *d;
    return {};
  };
  auto path = [&](std::vector<PathElement>& out, const char* f) -> Status {
    auto v = read_path(r, what + "." + f);
    if (!v.ok()) return v.status();
    out = std::move(*v);
    return {};
  };
  if (*tag == 0) {  // Single { root, leaf, path }
    p.kind = MerkleProof::Kind::kSingle;
    if (Status s = take(p.root, "root"); !s.ok()) return s;
    if (Status s = take(p.leaf, "leaf"); !s.ok()) return s;
    if (Status s = path(p.base, "path"); !s.ok()) return s;
  } else if (*tag == 1 || *tag == 2) {  // Sub { base, sub, root, leaf }, Top { base, sub, top, root, leaf }
    p.kind = *tag == 1 ? MerkleProof::Kind::kSub : MerkleProof::Kind::kTop;
    if (Status s = path(p.base, "base_proof"); !s.ok()) return s;
    if (Status s = path(p.sub, "sub_proof"); !s.ok()) return s;
    if (*tag == 2) {
      if (Status s = path(p.top, "top_proof"); !s.ok()) return s;
    }
    if (Status s = take(p.root, "root"); !s.ok()) return s;
    if (Status s = take(p.leaf, "leaf"); !s.ok()) return s;
  } else {
    return Status::invalid_argument(what + ": unknown proof variant " + std::to_string(*tag) + " at byte " +
                                    std::to_string(at) + " (0 Single, 1 Sub, 2 Top)");
  }
  return p;
}

void put_uint(std::vector<std::uint8_t>& o, std::uint64_t v, unsigned width) {
  for (unsigned i = 0; i < width; ++i) o.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_domain(std::vector<std::uint8_t>& o, const Bytes32& d) { o.insert(o.end(), d.begin(), d.end()); }
void put_path(std::vector<std::uint8_t>& o, const std::vector<PathElement>& path) {
  put_uint(o, path.size(), 8);
  for (const auto& e : path) {
    put_uint(o, e.hashes.size(), 8);
    for (const auto& h : e.hashes) put_domain(o, h);
    put_uint(o, e.index, 8);
  }
}
void put_merkle(std::vector<std::uint8_t>& o, const MerkleProof& m) {
  put_uint(o, m.kind == MerkleProof::Kind::kSingle ? 0 : m.kind == MerkleProof::Kind::kSub ? 1 : 2, 4);
  if (m.kind == MerkleProof::Kind::kSingle) {
    put_domain(o, m.root);
    put_domain(o, m.leaf);
    put_path(o, m.base);
  } else {
    put_path(o, m.base);
    put_path(o, m.sub);
    if (m.kind == MerkleProof::Kind::kTop) put_path(o, m.top);
    put_domain(o, m.root);
    put_domain(o, m.leaf);
  }
}

}  // namespace zk::circuits::filecoin::bincode
