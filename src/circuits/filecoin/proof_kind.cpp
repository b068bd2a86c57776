#include "circuits/filecoin/proof_kind.hpp"

#include "base/decimal.hpp"
#include "r1cs/constraint_system.hpp"

namespace zk::circuits::filecoin {

// Each kind's file (porep/porep_kind.cpp, post/post_kind.cpp, update/update_kind.cpp).
const ProofKind& porep_kind();
const ProofKind& window_post_kind();
const ProofKind& winning_post_kind();
const ProofKind& snap_update_kind();

const std::vector<const ProofKind*>& proof_kinds() {
  static const std::vector<const ProofKind*> kinds = {&porep_kind(), &window_post_kind(), &winning_post_kind(),
                                                      &snap_update_kind()};
  return kinds;
}

std::string proof_kind_names() {
  std::string out;
  const auto& kinds = proof_kinds();
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == kinds.size() ? " or " : ", ") + std::string(kinds[i]->name());
  }
  return out;
}

Result<const ProofKind*> find_proof_kind(std::string_view name, std::string_view what) {
  for (const ProofKind* k : proof_kinds()) {
    if (k->name() == name) return k;
  }
  return Status::invalid_argument(std::string(what) + ": " + proof_kind_names());
}

std::vector<KindShape> ProofKind::published_shapes() const {
  std::vector<KindShape> out;
  for (const auto& size : sector_sizes()) {
    if (!size.published) continue;
    auto s = shape(size);
    if (s.ok() && !s->params_stem.empty()) out.push_back(std::move(*s));
  }
  return out;
}

KeySections key_sections_of(const r1cs::DensitySystem<Fr>& m) {
  std::uint64_t domain = 1;
  while (domain < m.num_constraints()) domain *= 2;
  return KeySections{m.num_inputs(), domain - 1, m.num_aux(), m.num_inputs() + m.a_aux_density(),
                     m.b_input_density() + m.b_aux_density()};
}

Result<KeySections> count_key_sections(const PartitionCircuit& blank) {
  r1cs::DensitySystem<Fr> m;
  if (Status st = blank.synthesize(m); !st.ok()) return st;
  m.finish_with_input_rows();  // what the key generator adds: one row per input
  return key_sections_of(m);
}

std::optional<KeySections> expected_key_sections(const ProofKind& kind, const KindShape& s) {
  if (auto k = kind.pinned_key_sections(s)) return k;
  if (!kind.quick_to_count(s)) return std::nullopt;
  auto k = count_key_sections(*kind.blank_circuit(s));
  return k.ok() ? std::optional<KeySections>(*k) : std::nullopt;
}

std::string option_value(const KindOptions& o, const std::string& name) {
  auto it = o.find(name);
  return it == o.end() || it->second.empty() ? std::string() : it->second.front();
}

Result<std::uint64_t> option_u64(const KindOptions& o, const std::string& name, std::uint64_t fallback) {
  const std::string v = option_value(o, name);
  if (v.empty()) return fallback;
  auto n = base::parse_decimal_u64(v);
  if (!n.ok()) return Status::invalid_argument("--" + name + ": " + n.status().message());
  return *n;
}

bool option_flag(const KindOptions& o, const std::string& name) { return o.contains(name); }

Status check_wire_sector_size(const WirePayload& p, const std::string& proof, std::uint64_t bytes) {
  if (p.sector_size == bytes) return {};
  return Status::invalid_argument("sector_size " + std::to_string(p.sector_size) + " is not " + proof + "'s (" +
                                  std::to_string(bytes) + ")" + (p.sector_size == 0 ? ": it is required" : ""));
}

}  // namespace zk::circuits::filecoin
