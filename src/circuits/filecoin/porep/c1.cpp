#include "circuits/filecoin/porep/c1.hpp"

#include <algorithm>
#include <set>

#include "base/base64.hpp"
#include "base/json_reader.hpp"

namespace zk::circuits::filecoin {

namespace {

// ---- Reading.

std::string index_name(std::size_t i) {
  std::string s(1, '[');
  s += std::to_string(i);
  s += ']';
  return s;
}

/// A single pass over the document; `where_` is the path of the value being read, for errors.
class C1Reader {
 public:
  explicit C1Reader(std::string_view text) : r_(text) {}

  C1Input read_top() {
    C1Input out;
    std::set<std::string> seen;
    bool has_proof = false;
    std::string phase1;
    r_.begin_object();
    std::string key;
    while (r_.next_key(key)) {
      if (!seen.insert(key).second) fail("duplicate key \"" + bounded_message(key, 64) + "\"");
      Scope s(*this, key);
      if (key == "SectorNum") {
        out.sector_num = r_.read_u64();
      } else if (key == "SectorSize") {
        out.sector_size = r_.read_u64();
      } else if (key == "Phase1Out") {
        phase1 = r_.read_string(std::size_t{1} << 31);
      } else if (read_c1_field(key, out.c1, has_proof)) {
      } else {
        r_.skip_value();
      }
    }
    r_.expect_end();
    const bool wrapper = seen.count("Phase1Out") != 0;
    if (wrapper) {
      for (const char* k : {"SectorNum", "SectorSize"}) {
        if (seen.count(k) == 0) fail(std::string("the wrapper has no \"") + k + "\"");
      }
      for (const char* k : {"registered_proof", "vanilla_proofs"}) {
        if (seen.count(k) != 0) fail(std::string("both a wrapper (Phase1Out) and a C1 field (") + k + ")");
      }
      auto bytes = base64_decode(phase1);
      if (!bytes.ok()) fail("Phase1Out: " + bytes.status().message());
      C1Reader inner(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
      inner.prefix_ = "Phase1Out: ";
      C1Input in = inner.read_top();
      if (in.wrapped) fail("Phase1Out holds another wrapper");
      in.wrapped = true;
      in.sector_num = out.sector_num;
      in.sector_size = out.sector_size;
      if (in.sector_size != in.c1.registered_proof.size.bytes) {
        fail("SectorSize " + std::to_string(in.sector_size) + " is not the size of " + in.c1.registered_proof.name);
      }
      return in;
    }
    for (const char* k : {"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket"}) {
      if (seen.count(k) == 0) fail(std::string("missing field \"") + k + "\"");
    }
    return out;
  }

 private:
  struct Scope {
    Scope(C1Reader& r, std::string name) : r_(r) { r_.where_.push_back(std::move(name)); }
    ~Scope() { r_.where_.pop_back(); }
    C1Reader& r_;
  };

  [[noreturn]] void fail(const std::string& what) const {
    std::string path;
    for (const auto& w : where_) {
      if (!path.empty() && w.front() != '[') path += '.';
      path += w;
    }
    throw JsonError(prefix_ + (path.empty() ? "" : path + ": ") + what + " (byte " + std::to_string(r_.offset()) + ")");
  }

  /// Reads a top-level C1 field; false if `key` is not one.
  bool read_c1_field(const std::string& key, C1& c1, bool& has_proof) {
    if (key == "registered_proof") {
      const std::string name = r_.read_string(64);
      auto p = find_registered_seal_proof(name);
      if (!p.ok() || std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        fail("unknown registered seal proof \"" + bounded_message(name, 64) + "\"");
      }
      c1.registered_proof = *p;
      has_proof = true;
      if (!variant_.empty() && variant_ != c1.registered_proof.vanilla_variant()) mismatch();
    } else if (key == "vanilla_proofs") {
      r_.begin_object();
      std::string v;
      if (!r_.next_key(v)) fail("no proof variant");
      variant_ = v;
      if (has_proof && variant_ != c1.registered_proof.vanilla_variant()) mismatch(&c1);
      {
        Scope s(*this, v);
        r_.begin_array();
        while (r_.next_element()) {
          Scope p(*this, index_name(c1.vanilla_proofs.size()));
          std::vector<VanillaProof> partition;
          r_.begin_array();
          while (r_.next_element()) {
            Scope c(*this, index_name(partition.size()));
            partition.push_back(read_vanilla());
          }
          c1.vanilla_proofs.push_back(std::move(partition));
        }
      }
      if (r_.next_key(v)) fail("more than one proof variant");
    } else if (key == "comm_r") {
      c1.comm_r = read_domain();
    } else if (key == "comm_d") {
      c1.comm_d = read_domain();
    } else if (key == "replica_id") {
      c1.replica_id = read_domain();
    } else if (key == "seed") {
      c1.seed = read_domain();
    } else if (key == "ticket") {
      c1.ticket = read_domain();
    } else {
      return false;
    }
    return true;
  }

  [[noreturn]] void mismatch(const C1* c1 = nullptr) {
    (void)c1;
    fail("the proof variant \"" + bounded_message(variant_, 64) + "\" does not match registered_proof");
  }

  Bytes32 read_domain() {
    Bytes32 out{};
    r_.begin_array();
    std::size_t n = 0;
    while (r_.next_element()) {
      if (n == 32) fail("more than 32 bytes");
      const std::uint64_t b = r_.read_u64();
      if (b > 255) fail("byte " + std::to_string(n) + " is " + std::to_string(b));
      out[n++] = static_cast<std::uint8_t>(b);
    }
    if (n != 32) fail(std::to_string(n) + " bytes, 32 expected");
    return out;
  }

  std::vector<Bytes32> read_domains(std::size_t max) {
    std::vector<Bytes32> out;
    r_.begin_array();
    while (r_.next_element()) {
      if (out.size() == max) fail("more than " + std::to_string(max) + " values");
      Scope s(*this, index_name(out.size()));
      out.push_back(read_domain());
    }
    return out;
  }

  template <class T>
  T read_uint(std::uint64_t max) {
    const std::uint64_t v = r_.read_u64();
    if (v > max) fail("value " + std::to_string(v) + " out of range");
    return static_cast<T>(v);
  }

  /// Reads an object's keys with `field(key)` returning false for unknown ones (skipped); then
  /// checks that every name in `required` was seen.
  template <class F>
  void read_object(const std::vector<const char*>& required, F&& field) {
    std::set<std::string> seen;
    r_.begin_object();
    std::string key;
    while (r_.next_key(key)) {
      if (!seen.insert(key).second) fail("duplicate key \"" + bounded_message(key, 64) + "\"");
      Scope s(*this, key);
      if (!field(key)) r_.skip_value();
    }
    for (const char* k : required) {
      if (seen.count(k) == 0) fail(std::string("missing field \"") + k + "\"");
    }
  }

  std::vector<PathElement> read_path() {
    std::vector<PathElement> out;
    read_object({"path"}, [&](const std::string& k) {
      if (k != "path") return false;
      r_.begin_array();
      while (r_.next_element()) {
        if (out.size() == 64) fail("more than 64 path levels");
        Scope s(*this, index_name(out.size()));
        PathElement e;
        read_object({"hashes", "index"}, [&](const std::string& f) {
          if (f == "hashes") e.hashes = read_domains(15);
          else if (f == "index") e.index = r_.read_u64();
          else return false;
          return true;
        });
        out.push_back(std::move(e));
      }
      return true;
    });
    return out;
  }

  MerkleProof read_merkle() {
    MerkleProof p;
    read_object({"data"}, [&](const std::string& k) {
      if (k != "data") return false;
      r_.begin_object();
      std::string kind;
      if (!r_.next_key(kind)) fail("no proof kind");
      Scope s(*this, kind);
      if (kind == "Single") {
        p.kind = MerkleProof::Kind::kSingle;
        read_object({"root", "leaf", "path"}, [&](const std::string& f) {
          if (f == "root") p.root = read_domain();
          else if (f == "leaf") p.leaf = read_domain();
          else if (f == "path") p.base = read_path();
          else return false;
          return true;
        });
      } else if (kind == "Sub" || kind == "Top") {
        const bool top = kind == "Top";
        p.kind = top ? MerkleProof::Kind::kTop : MerkleProof::Kind::kSub;
        const std::vector<const char*> required =
            top ? std::vector<const char*>{"base_proof", "sub_proof", "top_proof", "root", "leaf"}
                : std::vector<const char*>{"base_proof", "sub_proof", "root", "leaf"};
        read_object(required, [&](const std::string& f) {
          if (f == "root") p.root = read_domain();
          else if (f == "leaf") p.leaf = read_domain();
          else if (f == "base_proof") p.base = read_path();
          else if (f == "sub_proof") p.sub = read_path();
          else if (f == "top_proof" && top) p.top = read_path();
          else return false;
          return true;
        });
      } else {
        fail("unknown proof kind \"" + bounded_message(kind, 64) + "\" (Single, Sub or Top)");
      }
      std::string more;
      if (r_.next_key(more)) fail("more than one proof kind");
      return true;
    });
    return p;
  }

  ColumnProof read_column_proof() {
    ColumnProof c;
    read_object({"column", "inclusion_proof"}, [&](const std::string& k) {
      if (k == "column") {
        // "_h" is serde's PhantomData (always null); Filecoin requires it, zkpipe does not.
        read_object({"index", "rows"}, [&](const std::string& f) {
          if (f == "index") c.index = read_uint<std::uint32_t>(UINT32_MAX);
          else if (f == "rows") c.rows = read_domains(64);
          else return false;
          return true;
        });
      } else if (k == "inclusion_proof") {
        c.inclusion_proof = read_merkle();
      } else {
        return false;
      }
      return true;
    });
    return c;
  }

  std::vector<ColumnProof> read_columns(std::size_t max) {
    std::vector<ColumnProof> out;
    r_.begin_array();
    while (r_.next_element()) {
      if (out.size() == max) fail("more than " + std::to_string(max) + " columns");
      Scope s(*this, index_name(out.size()));
      out.push_back(read_column_proof());
    }
    return out;
  }

  LabelingProof read_labeling() {
    LabelingProof l;
    read_object({"parents", "layer_index", "node"}, [&](const std::string& k) {
      if (k == "parents") l.parents = read_domains(kLabelParents);
      else if (k == "layer_index") l.layer_index = read_uint<std::uint32_t>(UINT32_MAX);
      else if (k == "node") l.node = r_.read_u64();
      else return false;
      return true;
    });
    return l;
  }

  VanillaProof read_vanilla() {
    VanillaProof v;
    read_object({"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs", "labeling_proofs", "encoding_proof"},
                [&](const std::string& k) {
                  if (k == "comm_d_proofs") {
                    v.comm_d_proofs = read_merkle();
                  } else if (k == "comm_r_last_proof") {
                    v.comm_r_last_proof = read_merkle();
                  } else if (k == "replica_column_proofs") {
                    read_object({"c_x", "drg_parents", "exp_parents"}, [&](const std::string& f) {
                      if (f == "c_x") v.c_x = read_column_proof();
                      else if (f == "drg_parents") v.drg_parents = read_columns(kDrgParents);
                      else if (f == "exp_parents") v.exp_parents = read_columns(kExpParents);
                      else return false;
                      return true;
                    });
                  } else if (k == "labeling_proofs") {
                    r_.begin_array();
                    while (r_.next_element()) {
                      if (v.labeling_proofs.size() == 64) fail("more than 64 labeling proofs");
                      Scope s(*this, index_name(v.labeling_proofs.size()));
                      v.labeling_proofs.push_back(read_labeling());
                    }
                  } else if (k == "encoding_proof") {
                    v.encoding_proof = read_labeling();
                  } else {
                    return false;
                  }
                  return true;
                });
    return v;
  }

  JsonReader r_;
  std::vector<std::string> where_;
  std::string prefix_;
  std::string variant_;
};

// ---- Writing (compact, filecoin-proofs-api's field order).

void put_domain(std::string& o, const Bytes32& b) {
  o += '[';
  for (std::size_t i = 0; i < 32; ++i) {
    if (i) o += ',';
    o += std::to_string(b[i]);
  }
  o += ']';
}
void put_domains(std::string& o, const std::vector<Bytes32>& v) {
  o += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) o += ',';
    put_domain(o, v[i]);
  }
  o += ']';
}
void put_path(std::string& o, const std::vector<PathElement>& path) {
  o += "{\"path\":[";
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (i) o += ',';
    o += "{\"hashes\":";
    put_domains(o, path[i].hashes);
    o += ",\"index\":" + std::to_string(path[i].index) + "}";
  }
  o += "]}";
}
void put_merkle(std::string& o, const MerkleProof& p) {
  o += "{\"data\":{";
  if (p.kind == MerkleProof::Kind::kSingle) {
    o += "\"Single\":{\"root\":";
    put_domain(o, p.root);
    o += ",\"leaf\":";
    put_domain(o, p.leaf);
    o += ",\"path\":";
    put_path(o, p.base);
  } else {
    o += p.kind == MerkleProof::Kind::kSub ? "\"Sub\":{\"base_proof\":" : "\"Top\":{\"base_proof\":";
    put_path(o, p.base);
    o += ",\"sub_proof\":";
    put_path(o, p.sub);
    if (p.kind == MerkleProof::Kind::kTop) {
      o += ",\"top_proof\":";
      put_path(o, p.top);
    }
    o += ",\"root\":";
    put_domain(o, p.root);
    o += ",\"leaf\":";
    put_domain(o, p.leaf);
  }
  o += "}}}";
}
void put_column(std::string& o, const ColumnProof& c) {
  o += "{\"column\":{\"index\":" + std::to_string(c.index) + ",\"rows\":";
  put_domains(o, c.rows);
  o += ",\"_h\":null},\"inclusion_proof\":";
  put_merkle(o, c.inclusion_proof);
  o += '}';
}
void put_labeling(std::string& o, const LabelingProof& l) {
  o += "{\"parents\":";
  put_domains(o, l.parents);
  o += ",\"layer_index\":" + std::to_string(l.layer_index) + ",\"node\":" + std::to_string(l.node) + "}";
}

}  // namespace

Result<C1Input> parse_c1(std::string_view text) {
  try {
    C1Reader r(text);
    return r.read_top();
  } catch (const JsonError& e) {
    return Status::invalid_argument(std::string("C1: ") + e.what());
  }
}

std::string c1_json(const C1& c1) {
  std::string o = "{\"registered_proof\":\"" + c1.registered_proof.name + "\",\"vanilla_proofs\":{\"" +
                  c1.registered_proof.vanilla_variant() + "\":[";
  for (std::size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    if (k) o += ',';
    o += '[';
    for (std::size_t i = 0; i < c1.vanilla_proofs[k].size(); ++i) {
      const VanillaProof& v = c1.vanilla_proofs[k][i];
      if (i) o += ',';
      o += "{\"comm_d_proofs\":";
      put_merkle(o, v.comm_d_proofs);
      o += ",\"comm_r_last_proof\":";
      put_merkle(o, v.comm_r_last_proof);
      o += ",\"replica_column_proofs\":{\"c_x\":";
      put_column(o, v.c_x);
      o += ",\"drg_parents\":[";
      for (std::size_t j = 0; j < v.drg_parents.size(); ++j) {
        if (j) o += ',';
        put_column(o, v.drg_parents[j]);
      }
      o += "],\"exp_parents\":[";
      for (std::size_t j = 0; j < v.exp_parents.size(); ++j) {
        if (j) o += ',';
        put_column(o, v.exp_parents[j]);
      }
      o += "]},\"labeling_proofs\":[";
      for (std::size_t j = 0; j < v.labeling_proofs.size(); ++j) {
        if (j) o += ',';
        put_labeling(o, v.labeling_proofs[j]);
      }
      o += "],\"encoding_proof\":";
      put_labeling(o, v.encoding_proof);
      o += '}';
    }
    o += ']';
  }
  o += "]},\"comm_r\":";
  put_domain(o, c1.comm_r);
  o += ",\"comm_d\":";
  put_domain(o, c1.comm_d);
  o += ",\"replica_id\":";
  put_domain(o, c1.replica_id);
  o += ",\"seed\":";
  put_domain(o, c1.seed);
  o += ",\"ticket\":";
  put_domain(o, c1.ticket);
  o += '}';
  return o;
}

std::string c1_wrapper_json(const C1& c1, std::uint64_t sector_num) {
  const std::string inner = c1_json(c1);
  return "{\"SectorNum\":" + std::to_string(sector_num) + ",\"Phase1Out\":\"" +
         base64_encode(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(inner.data()), inner.size())) +
         "\",\"SectorSize\":" + std::to_string(c1.registered_proof.size.bytes) + "}";
}

Result<std::vector<std::uint64_t>> C1Context::challenges(const C1& c1, std::size_t partition) const {
  const auto k = static_cast<std::uint32_t>(partition);
  switch (c1.registered_proof.challenges) {
    case PorepChallenges::kInteractive:
      return sdr::challenges(c1.replica_id, c1.seed, shape.nodes, k, shape.challenges);
    case PorepChallenges::kNonInteractive:
      return sdr::ni_challenges(c1.replica_id, c1.comm_r, shape.nodes, k, shape.challenges);
    case PorepChallenges::kSynthetic: {
      auto synth = sdr::SyntheticChallenges::create(c1.replica_id, c1.comm_r, shape.nodes);
      if (!synth.ok()) return synth.status();
      return synth->select(c1.seed, k, shape.challenges);
    }
  }
  return Status::internal("unknown challenge mode");
}

Result<C1Context> c1_context(const RegisteredSealProof& proof) {
  const StackedShape shape = stacked_shape(proof.size);
  auto graph = sdr::ParentGraph::create(shape.nodes, proof.porep_id(), proof.legacy_graph());
  if (!graph.ok()) return graph.status();
  return C1Context{shape, std::move(*graph)};
}

Status check_c1(const C1& c1, const C1Context& ctx) {
  const auto& p = c1.registered_proof;
  const Bytes32 zero{};
  if (c1.comm_d == zero) return Status::invalid_argument("C1: comm_d is all zeros");
  if (c1.comm_r == zero) return Status::invalid_argument("C1: comm_r is all zeros");
  if (c1.seed == zero) return Status::invalid_argument("C1: seed is all zeros");
  if ((c1.replica_id[31] & 0xc0) != 0) return Status::invalid_argument("C1: replica_id is not an Fr32 value");
  if ((c1.comm_d[31] & 0xc0) != 0) return Status::invalid_argument("C1: comm_d is not an Fr32 value");
  if (!Fr::from_bytes(c1.comm_r, field::Endian::kLittle).ok()) {
    return Status::invalid_argument("C1: comm_r is not a canonical field element");
  }
  if (c1.vanilla_proofs.size() != p.partitions()) {
    return Status::invalid_argument("C1: " + std::to_string(c1.vanilla_proofs.size()) + " partitions of vanilla proofs, " +
                                    p.name + " has " + std::to_string(p.partitions()));
  }
  const PorepPublic pub{c1.replica_id, c1.comm_d, c1.comm_r};
  for (std::size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    const auto challenges = ctx.challenges(c1, k);
    if (!challenges.ok()) return challenges.status();
    Status st = verify_vanilla_partition(ctx.shape, ctx.graph, pub, c1.vanilla_proofs[k], *challenges);
    if (!st.ok()) return Status::invalid_argument("C1 partition " + std::to_string(k) + ": " + st.message());
  }
  return {};
}

Result<StackedWitness> c1_witness(const C1& c1, const C1Context& ctx, std::size_t partition) {
  if (partition >= c1.vanilla_proofs.size()) return Status::invalid_argument("C1: no partition " + std::to_string(partition));
  return vanilla_witness(ctx.shape, {c1.replica_id, c1.comm_d, c1.comm_r}, c1.vanilla_proofs[partition]);
}

Result<std::vector<Fr>> c1_public_inputs(const C1& c1, const C1Context& ctx, std::size_t partition) {
  if (partition >= c1.registered_proof.partitions()) {
    return Status::invalid_argument("C1: no partition " + std::to_string(partition));
  }
  const auto challenges = ctx.challenges(c1, partition);
  if (!challenges.ok()) return challenges.status();
  return porep_public_inputs(ctx.shape, ctx.graph, {c1.replica_id, c1.comm_d, c1.comm_r}, *challenges);
}

Result<C1> make_c1(const RegisteredSealProof& proof, const C1Context& ctx, const SealedSector& sector,
                   const Bytes32& seed, const Bytes32& ticket) {
  C1 c1;
  c1.registered_proof = proof;
  c1.comm_r = sector.replica.comm_r;
  c1.comm_d = sector.replica.comm_d;
  c1.replica_id = sector.replica.replica_id;
  c1.seed = seed;
  c1.ticket = ticket;
  for (std::size_t k = 0; k < proof.partitions(); ++k) {
    std::vector<VanillaProof> partition;
    auto challenges = ctx.challenges(c1, k);
    if (!challenges.ok()) return challenges.status();
    for (const std::uint64_t c : *challenges) {
      auto v = vanilla_proof(ctx.shape, ctx.graph, sector, c);
      if (!v.ok()) return v.status();
      partition.push_back(std::move(*v));
    }
    c1.vanilla_proofs.push_back(std::move(partition));
  }
  return c1;
}

}  // namespace zk::circuits::filecoin
