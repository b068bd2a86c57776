#include "circuits/porep_input.hpp"

#include <nlohmann/json.hpp>

#include "base/rng.hpp"

namespace zk::circuits::porep {
namespace {

using Json = nlohmann::json;

constexpr std::string_view kFormat = "zkpipe-porep-c1";
constexpr int kVersion = 1;

std::string hex(const Bytes32& b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (auto x : b) s += kDigits[x >> 4], s += kDigits[x & 15];
  return s;
}
std::string hex(const Fr& x) { return hex(gadgets::field_to_fr32(x)); }

/// Errors carry the JSON path of the offending field.
struct Bad {
  std::string field, what;
};

Bytes32 bytes_at(const Json& j, const std::string& field) {
  if (!j.is_string()) throw Bad{field, "expected a string of 64 hex digits"};
  const auto& s = j.get_ref<const std::string&>();
  if (s.size() != 64) throw Bad{field, "expected 64 hex digits, got " + std::to_string(s.size()) + " characters"};
  Bytes32 b{};
  for (std::size_t i = 0; i < 64; ++i) {
    const char c = s[i];
    int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (v < 0) throw Bad{field, "not a hex digit: '" + std::string(1, c) + "'"};
    b[i / 2] = static_cast<std::uint8_t>(b[i / 2] | (v << (i % 2 == 0 ? 4 : 0)));
  }
  return b;
}

Fr field_at(const Json& j, const std::string& field) {
  const Bytes32 b = bytes_at(j, field);
  auto x = Fr::from_bytes(b, field::Endian::kLittle);
  if (!x.ok()) throw Bad{field, "not a canonical BLS12-381 scalar (32 little-endian bytes below r)"};
  return *x;
}

const Json& member(const Json& j, const char* key, const std::string& at) {
  if (!j.is_object()) throw Bad{at.empty() ? "the file" : at, "expected a JSON object"};
  auto it = j.find(key);
  if (it == j.end()) throw Bad{at.empty() ? key : at + "." + key, "missing"};
  return *it;
}

std::uint64_t uint_at(const Json& j, const std::string& field) {
  if (!j.is_number_unsigned()) throw Bad{field, "expected a non-negative integer"};
  return j.get<std::uint64_t>();
}

const Json& array_at(const Json& j, const std::string& field, std::size_t want) {
  if (!j.is_array()) throw Bad{field, "expected an array"};
  if (j.size() != want)
    throw Bad{field, std::to_string(j.size()) + " entries, the shape needs " + std::to_string(want)};
  return j;
}

Json octal_path_json(const std::vector<std::array<Fr, 7>>& path) {
  Json out = Json::array();
  for (const auto& level : path) {
    Json l = Json::array();
    for (const auto& x : level) l.push_back(hex(x));
    out.push_back(std::move(l));
  }
  return out;
}

std::vector<std::array<Fr, 7>> octal_path_at(const Json& j, const std::string& field, std::size_t depth) {
  array_at(j, field, depth);
  std::vector<std::array<Fr, 7>> out(depth);
  for (std::size_t l = 0; l < depth; ++l) {
    const std::string f = field + "[" + std::to_string(l) + "]";
    array_at(j[l], f, 7);
    for (std::size_t k = 0; k < 7; ++k) out[l][k] = field_at(j[l][k], f + "[" + std::to_string(k) + "]");
  }
  return out;
}

Json shape_json(const Shape& s) {
  return {{"name", s.name},
          {"nodes", s.nodes},
          {"layers", s.layers},
          {"base_degree", s.base_degree},
          {"expansion_degree", s.expansion_degree},
          {"parent_slots", s.parent_slots},
          {"challenges", s.challenges},
          {"partitions", s.partitions},
          {"hash", std::string(hash_name(s.hash))},
          {"registered_proof", s.registered_proof}};
}

Shape shape_at(const Json& j) {
  Shape s;
  auto u = [&](const char* key) { return uint_at(member(j, key, "shape"), std::string("shape.") + key); };
  auto u32 = [&](const char* key) {
    const auto v = u(key);
    if (v > 0xffffffffull) throw Bad{std::string("shape.") + key, "out of range"};
    return static_cast<std::uint32_t>(v);
  };
  const Json& name = member(j, "name", "shape");
  if (!name.is_string()) throw Bad{"shape.name", "expected a string"};
  s.name = name.get<std::string>();
  s.nodes = u("nodes");
  s.layers = u32("layers");
  s.base_degree = u32("base_degree");
  s.expansion_degree = u32("expansion_degree");
  s.parent_slots = u32("parent_slots");
  s.challenges = u32("challenges");
  s.partitions = u32("partitions");
  s.registered_proof = u("registered_proof");
  const Json& h = member(j, "hash", "shape");
  if (h == "sha256") {
    s.hash = Hash::kSha256;
  } else if (h == "poseidon") {
    s.hash = Hash::kPoseidon;
  } else {
    throw Bad{"shape.hash", "expected \"sha256\" or \"poseidon\""};
  }
  if (Status st = s.validate(); !st.ok()) throw Bad{"shape", st.message()};
  return s;
}

}  // namespace

Result<PublicInputs> C1::public_inputs(std::uint32_t partition) const {
  auto g = shape.graph();
  if (!g.ok()) return g.status();
  return derive_public_inputs(shape, *g, replica_id, comm_d, comm_r, seed, partition);
}

Result<C1> generate_c1(const Shape& s, std::uint64_t seed, const Progress& progress) {
  auto sector = random_sector(s, seed, progress);
  if (!sector.ok()) return sector.status();
  auto g = s.graph();
  if (!g.ok()) return g.status();
  C1 c1;
  c1.shape = s;
  Rng rng(seed ^ 0x7365656421ull);
  for (std::size_t k = 0; k < 32; k += 8) {
    const std::uint64_t v = rng.next();
    for (std::size_t i = 0; i < 8; ++i) c1.seed[k + i] = static_cast<std::uint8_t>(v >> (8 * i));
  }
  c1.replica_id = sector->replica_id, c1.comm_d = sector->comm_d, c1.comm_c = sector->comm_c;
  c1.comm_r_last = sector->comm_r_last, c1.comm_r = sector->comm_r;
  for (std::uint32_t k = 0; k < s.partitions; ++k) {
    auto w = open_partition(*sector, *g, c1.seed, k);
    if (!w.ok()) return w.status();
    c1.partitions.push_back(std::move(*w));
    if (progress) progress("partitions", k + 1, s.partitions);
  }
  return c1;
}

std::string c1_to_json(const C1& c1) {
  Json parts = Json::array();
  for (const auto& w : c1.partitions) {
    Json chals = Json::array();
    for (const auto& cp : w.challenges) {
      Json data_path = Json::array();
      for (const auto& x : cp.data_path) data_path.push_back(hex(x));
      Json cols = Json::array();
      for (const auto& co : cp.columns) {
        Json labels = Json::array();
        for (const auto& x : co.labels) labels.push_back(hex(x));
        cols.push_back({{"node", co.node}, {"labels", std::move(labels)}, {"path", octal_path_json(co.path)}});
      }
      chals.push_back({{"node", cp.node},
                       {"data", hex(cp.data)},
                       {"data_path", std::move(data_path)},
                       {"replica_path", octal_path_json(cp.replica_path)},
                       {"columns", std::move(cols)}});
    }
    parts.push_back({{"partition", w.partition}, {"challenges", std::move(chals)}});
  }
  Json j{{"format", kFormat},          {"version", kVersion},         {"shape", shape_json(c1.shape)},
         {"seed", hex(c1.seed)},       {"replica_id", hex(c1.replica_id)}, {"comm_d", hex(c1.comm_d)},
         {"comm_c", hex(c1.comm_c)},   {"comm_r_last", hex(c1.comm_r_last)}, {"comm_r", hex(c1.comm_r)},
         {"partitions", std::move(parts)}};
  return j.dump(1) + "\n";
}

Result<C1> c1_from_json(std::string_view text, const Shape* expected, bool check_openings) {
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::invalid_argument("porep input: not valid JSON");
  C1 c1;
  try {
    const Json& format = member(j, "format", "");
    if (format != kFormat) throw Bad{"format", "expected \"" + std::string(kFormat) + "\""};
    if (member(j, "version", "") != kVersion) throw Bad{"version", "this zkpipe reads version 1"};
    c1.shape = shape_at(member(j, "shape", ""));
    if (expected && !(c1.shape == *expected)) {
      throw Bad{"shape", "the file was generated for shape '" + c1.shape.name + "' (" +
                             shape_json(c1.shape).dump() + "), not '" + expected->name + "'"};
    }
    const Shape& s = c1.shape;
    c1.seed = bytes_at(member(j, "seed", ""), "seed");
    c1.replica_id = field_at(member(j, "replica_id", ""), "replica_id");
    c1.comm_d = field_at(member(j, "comm_d", ""), "comm_d");
    c1.comm_c = field_at(member(j, "comm_c", ""), "comm_c");
    c1.comm_r_last = field_at(member(j, "comm_r_last", ""), "comm_r_last");
    c1.comm_r = field_at(member(j, "comm_r", ""), "comm_r");
    const Json& parts = array_at(member(j, "partitions", ""), "partitions", s.partitions);
    const unsigned per = 1 + s.parents();
    for (std::uint32_t k = 0; k < s.partitions; ++k) {
      const std::string at = "partitions[" + std::to_string(k) + "]";
      const Json& p = parts[k];
      if (uint_at(member(p, "partition", at), at + ".partition") != k)
        throw Bad{at + ".partition", "partitions must be listed in order"};
      PartitionWitness w;
      w.partition = k;
      w.comm_c = c1.comm_c, w.comm_r_last = c1.comm_r_last;
      const Json& chals = array_at(member(p, "challenges", at), at + ".challenges", s.challenges);
      for (std::size_t c = 0; c < s.challenges; ++c) {
        const std::string ca = at + ".challenges[" + std::to_string(c) + "]";
        const Json& cj = chals[c];
        ChallengeProof cp;
        cp.node = uint_at(member(cj, "node", ca), ca + ".node");
        if (cp.node >= s.nodes) throw Bad{ca + ".node", "beyond the sector"};
        cp.data = field_at(member(cj, "data", ca), ca + ".data");
        const Json& dp = array_at(member(cj, "data_path", ca), ca + ".data_path", s.node_bits());
        for (std::size_t l = 0; l < dp.size(); ++l)
          cp.data_path.push_back(field_at(dp[l], ca + ".data_path[" + std::to_string(l) + "]"));
        cp.replica_path = octal_path_at(member(cj, "replica_path", ca), ca + ".replica_path", s.octal_depth());
        const Json& cols = array_at(member(cj, "columns", ca), ca + ".columns", per);
        for (unsigned t = 0; t < per; ++t) {
          const std::string ct = ca + ".columns[" + std::to_string(t) + "]";
          ColumnOpening co;
          co.node = uint_at(member(cols[t], "node", ct), ct + ".node");
          if (co.node >= s.nodes) throw Bad{ct + ".node", "beyond the sector"};
          const Json& labels = array_at(member(cols[t], "labels", ct), ct + ".labels", s.layers);
          for (std::size_t l = 0; l < labels.size(); ++l)
            co.labels.push_back(field_at(labels[l], ct + ".labels[" + std::to_string(l) + "]"));
          co.path = octal_path_at(member(cols[t], "path", ct), ct + ".path", s.octal_depth());
          cp.columns.push_back(std::move(co));
        }
        w.challenges.push_back(std::move(cp));
      }
      c1.partitions.push_back(std::move(w));
    }
  } catch (const Bad& b) {
    return Status::invalid_argument("porep input: " + b.field + ": " + b.what);
  }
  if (check_openings) {
    for (std::uint32_t k = 0; k < c1.shape.partitions; ++k) {
      auto pub = c1.public_inputs(k);
      if (!pub.ok()) return pub.status();
      if (Status st = check_witness(c1.shape, *pub, c1.partitions[k]); !st.ok())
        return Status::invalid_argument("porep input: partitions[" + std::to_string(k) + "]." + st.message());
    }
  }
  return c1;
}

}  // namespace zk::circuits::porep
