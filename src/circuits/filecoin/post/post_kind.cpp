// Filecoin's WindowPoSt and WinningPoSt as proof kinds (proof_kind.hpp): the FallbackPoSt circuit
// of a registered PoSt proof, fed by one partition's input (post_input.hpp: the registered proof,
// the randomness, the partition index, the sectors' bincode vanilla proofs). One job proves one
// partition, as cuzk's PoSt requests do. Window V1 and V1_2 share their circuit and key files; the
// shapes name V1_2 (and WinningPoSt's V1).

#include <nlohmann/json.hpp>

#include "base/base64.hpp"
#include "base/decimal.hpp"
#include "base/file.hpp"
#include "circuits/filecoin/commitment.hpp"
#include "circuits/filecoin/partition_circuit.hpp"
#include "circuits/filecoin/porep/random_sector.hpp"
#include "circuits/filecoin/post/fallback_circuit.hpp"
#include "circuits/filecoin/post/fallback_post.hpp"
#include "circuits/filecoin/post/post_input.hpp"
#include "circuits/filecoin/post/vanilla_post.hpp"
#include "circuits/filecoin/vanilla_json.hpp"

namespace zk::circuits::filecoin {
namespace {

std::unique_ptr<PartitionCircuit> fallback_circuit(const FallbackShape& shape, FallbackWitness w) {
  return partition_circuit([shape, w = std::move(w)](auto& cs) { return synthesize_fallback(cs, shape, w); });
}

class PostKindInput final : public KindInput {
 public:
  explicit PostKindInput(PostInput in) : in_(std::move(in)) {}
  const std::string& proof_name() const override { return in_.proof.name; }
  std::uint64_t proof_id() const override { return in_.proof.id; }
  const SectorSize& size() const override { return in_.proof.size; }
  unsigned partitions() const override { return 1; }
  std::size_t partition_index(std::size_t) const override { return in_.partition; }
  Status check() const override { return check_post_input(in_); }
  Result<std::vector<Fr>> public_inputs(std::size_t) const override { return post_public_inputs(in_); }
  Result<std::unique_ptr<PartitionCircuit>> circuit(std::size_t) const override {
    auto w = post_witness(in_);
    if (!w.ok()) return w.status();
    return fallback_circuit(fallback_shape(in_.proof), std::move(*w));
  }
  const PostInput& input() const { return in_; }

 private:
  PostInput in_;
};

/// `zkpipe check`'s view of a PoSt input: its sectors against public values named on the command
/// line, in a partition of fewer sectors than production (one real 32 GiB sector without a
/// 125M-constraint synthesis); the native check is the input's own.
class PostCheckInput final : public KindInput {
 public:
  PostCheckInput(std::shared_ptr<const KindInput> original, PostInput shaped, std::vector<Fr> want)
      : original_(std::move(original)), shaped_(std::move(shaped)), want_(std::move(want)) {}
  const std::string& proof_name() const override { return original_->proof_name(); }
  std::uint64_t proof_id() const override { return original_->proof_id(); }
  const SectorSize& size() const override { return original_->size(); }
  unsigned partitions() const override { return 1; }
  std::size_t partition_index(std::size_t) const override { return shaped_.partition; }
  Status check() const override { return original_->check(); }
  Result<std::vector<Fr>> public_inputs(std::size_t) const override { return want_; }
  Result<std::unique_ptr<PartitionCircuit>> circuit(std::size_t) const override {
    auto w = post_witness(shaped_);
    if (!w.ok()) return w.status();
    return fallback_circuit(fallback_shape(shaped_.proof), std::move(*w));
  }

 private:
  std::shared_ptr<const KindInput> original_;
  PostInput shaped_;
  std::vector<Fr> want_;  // from the public values
};

/// The sectors `--sector NUMBER:COMM_R` names, in order.
Result<std::vector<PoStSector>> given_sectors(const KindOptions& o) {
  std::vector<PoStSector> out;
  if (auto given = o.find("sector"); given != o.end()) {
    for (const auto& text : given->second) {
      auto ps = parse_post_sector(text);
      if (!ps.ok())
        return Status::invalid_argument("--sector '" + bounded_message(text, 80) + "': " + ps.status().message());
      out.push_back(*ps);
    }
  }
  return out;
}

std::string hex_bytes(std::string_view b) {
  return hex_string(std::span(reinterpret_cast<const std::uint8_t*>(b.data()), b.size()));
}

class PostKind final : public ProofKind {
 public:
  explicit PostKind(bool winning) : winning_(winning) {}
  std::string_view name() const override { return winning_ ? "winning-post" : "window-post"; }
  std::string_view title() const override { return winning_ ? "WinningPoSt" : "WindowPoSt"; }
  int cuzk_proof_kind() const override { return winning_ ? 4 : 3; }  // WINNING_POST, WINDOW_POST_PARTITION
  std::string_view cuzk_queue() const override { return name(); }
  std::string_view cuzk_id_prefix() const override { return winning_ ? "winning" : "wpost"; }
  int default_priority() const override {
    return winning_ ? 20 : 10;
  }  // a missed deadline costs more than a late sector

  Result<KindShape> shape(const SectorSize& size) const override {
    auto proof = proof_at(size);
    if (!proof.ok()) return proof.status();
    return KindShape{.size = size,
                     .proof = proof->name,
                     .params_stem = post_params_stem(*proof),
                     .partitions = 1,
                     .inputs = fallback_shape(*proof).num_inputs()};
  }
  std::unique_ptr<PartitionCircuit> blank_circuit(const KindShape& k) const override {
    const FallbackShape f = fallback_shape(*find_registered_post_proof(k.proof));
    return fallback_circuit(f, FallbackWitness::blank(f));
  }
  std::optional<KeySections> pinned_key_sections(const KindShape& k) const override {
    return fallback_key_sections(*find_registered_post_proof(k.proof));
  }
  bool quick_to_count(const KindShape& k) const override { return k.inputs <= 1000; }  // the 64 GiB window: minutes
  std::string describe(const KindShape& k) const override {
    const auto p = *find_registered_post_proof(k.proof);
    return std::string(name()) + " " + k.size.name + " (" + p.name + ": " + std::to_string(p.sector_count) +
           " sectors per partition, " + std::to_string(p.challenge_count) + " challenges per sector)";
  }
  std::string shape_json(const KindShape& k) const override {
    const auto p = *find_registered_post_proof(k.proof);
    return "{\"registered_proof\":\"" + p.name + "\",\"sectors_per_partition\":" + std::to_string(p.sector_count) +
           ",\"challenges_per_sector\":" + std::to_string(p.challenge_count) + "}";
  }
  std::string job_description(const KindShape& k) const override {
    return std::string("one ") + (winning_ ? "WinningPoSt" : "WindowPoSt partition") + " of " + k.size.name +
           " sectors";
  }

  Result<std::shared_ptr<const KindInput>> parse(std::string_view bytes) const override {
    auto in = parse_post_input(bytes);
    if (!in.ok()) return in.status();
    if (in->proof.winning != winning_) {
      return Status::invalid_argument(in->proof.name + " is not a " + std::string(name()) + " proof");
    }
    return std::shared_ptr<const KindInput>(std::make_shared<PostKindInput>(std::move(*in)));
  }
  Result<KindJob> from_wire(const WirePayload& p) const override {
    auto proof = find_registered_post_proof(std::to_string(p.registered_proof));
    if (!proof.ok()) return Status::invalid_argument("registered_proof: " + proof.status().message());
    if (proof->winning != winning_) {
      return Status::invalid_argument("registered_proof " + std::to_string(p.registered_proof) + " (" + proof->name +
                                      ") is not a " + std::string(title()) + " proof");
    }
    if (Status st = check_wire_sector_size(p, proof->name, proof->size.bytes); !st.ok()) return st;
    if (p.randomness.size() != 32) {
      return Status::invalid_argument("randomness must be 32 bytes, not " + std::to_string(p.randomness.size()));
    }
    if (p.vanilla_proofs.empty()) return Status::invalid_argument("vanilla_proofs is empty (one per sector)");
    if (p.vanilla_proofs.size() > proof->sector_count) {
      return Status::invalid_argument("vanilla_proofs has " + std::to_string(p.vanilla_proofs.size()) + " sectors; a " +
                                      proof->name + " partition holds at most " + std::to_string(proof->sector_count));
    }
    // The engine's PoSt input (post_input.hpp); validation checks it.
    const std::string json =
        vanilla_proofs_json(input_head(proof->id, hex_bytes(p.randomness), p.partition_index), p.vanilla_proofs);
    return KindJob{proof->size.name, 1, proof->id, std::vector<std::uint8_t>(json.begin(), json.end())};
  }
  std::vector<KindOption> input_options() const override {
    return {{"post-input", "one partition's input JSON (zkpipe gen-vanilla)"},
            {"vanilla", "instead, each sector's bincode vanilla proof (as Curio sends them)", true},
            {"randomness", "with --vanilla: the 32-byte randomness, hex"},
            {"registered-proof", "with --vanilla: the registered PoSt proof, number (0..14) or name"},
            {"partition", "with --vanilla: the WindowPoSt partition index"}};
  }
  Result<NamedInput> input_from_options(const KindOptions& o) const override {
    if (const std::string file = option_value(o, "post-input"); !file.empty()) {
      auto bytes = read_file(file, std::uint64_t{1} << 30);
      if (!bytes.ok()) return bytes.status();
      return NamedInput{std::move(*bytes), file};
    }
    const auto v = o.find("vanilla");
    const std::string randomness = option_value(o, "randomness"), registered = option_value(o, "registered-proof");
    if (v == o.end() || v->second.empty() || randomness.empty() || registered.empty()) {
      return Status::invalid_argument("--kind " + std::string(name()) +
                                      " needs --post-input FILE, or --vanilla FILE... with "
                                      "--randomness HEX and --registered-proof N [--partition K]");
    }
    auto proof = find_registered_post_proof(registered);
    if (!proof.ok()) return Status::invalid_argument("--registered-proof: " + proof.status().message());
    auto r = parse_hex32("--randomness", randomness);
    if (!r.ok()) return r.status();
    std::uint64_t partition = 0;
    if (const std::string p = option_value(o, "partition"); !p.empty()) {
      auto n = base::parse_decimal_u64(p);
      if (!n.ok()) return Status::invalid_argument("--partition: " + n.status().message());
      partition = *n;
    }
    std::vector<std::string> proofs;
    for (const auto& path : v->second) {
      auto bytes = read_file(path, std::uint64_t{64} << 20);
      if (!bytes.ok()) return bytes.status();
      proofs.emplace_back(bytes->begin(), bytes->end());
    }
    const std::string json = vanilla_proofs_json(input_head(proof->id, hex_string(*r), partition), proofs);
    return NamedInput{std::vector<std::uint8_t>(json.begin(), json.end()), "--vanilla"};
  }
  std::vector<KindOption> verify_options() const override {
    return {
        {"registered-proof", "the registered PoSt proof number (0-4 Winning, 5-9 Window V1, 10-14 Window V1_1/V1_2)"},
        {"sector-size", "refuse a registered proof of another size"},
        {"randomness", "32-byte randomness, hex"},
        {"sector", "NUMBER:COMM_R (hex or CID) per sector, in the proof's order", true},
        {"partition", "the proof file holds this one partition (default: every partition)"}};
  }
  Result<VerifyPlan> verify_plan(const KindOptions& o) const override {
    const std::string registered = option_value(o, "registered-proof");
    if (registered.empty()) {
      return Status::invalid_argument("--kind " + std::string(name()) +
                                      " needs --registered-proof (0-4 Winning, 5-9 Window V1, 10-14 Window V1_1/V1_2)");
    }
    auto proof = find_registered_post_proof(registered);
    if (!proof.ok()) return Status::invalid_argument("--registered-proof: " + proof.status().message());
    if (proof->winning != winning_) {
      return Status::invalid_argument(proof->name + " is not a " + std::string(name()) + " proof");
    }
    std::optional<std::size_t> only;
    if (const std::string p = option_value(o, "partition"); !p.empty()) {
      auto n = base::parse_decimal_u64(p);
      if (!n.ok()) return Status::invalid_argument("--partition: " + n.status().message());
      if (winning_ && *n != 0) return Status::invalid_argument("--partition: a WinningPoSt has one partition (0)");
      only = static_cast<std::size_t>(*n);
    }
    if (const std::string size_name = option_value(o, "sector-size"); !size_name.empty()) {
      auto size = find_sector_size(size_name);
      if (!size.ok()) return size.status();
      if (size->bytes != proof->size.bytes) {
        return Status::invalid_argument(proof->name + " is not a " + size->name + " proof");
      }
    }
    auto randomness = parse_hex32("--randomness", option_value(o, "randomness"));
    if (!randomness.ok()) return randomness.status();
    auto given = given_sectors(o);
    if (!given.ok()) return given.status();
    const std::vector<PoStSector>& sectors = *given;
    if (sectors.empty()) {
      return Status::invalid_argument("--kind " + std::string(name()) +
                                      " needs --sector NUMBER:COMM_R_HEX (repeat for each sector)");
    }
    auto parts = post_partitions(*proof, *randomness, sectors, only);
    if (!parts.ok()) return parts.status();
    VerifyPlan plan;
    plan.what =
        proof->name + ", " + std::to_string(sectors.size()) + " sector" + (sectors.size() == 1 ? "" : "s") + ", ";
    plan.partition = "a " + proof->name + " partition";
    plan.inputs = 1 + std::size_t{proof->sector_count} * (1 + proof->challenge_count);
    const std::string need =
        only ? "partition " + std::to_string(*only) + " alone (--partition): 1 proof"
             : std::to_string(sectors.size()) + " sector(s) at " + std::to_string(winning_ ? 1 : proof->sector_count) +
                   " per partition: " + std::to_string(parts->size()) + " proof(s), one per partition";
    plan.expected = proof->name + " over " + need;
    for (const auto& p : *parts) plan.partitions.push_back(p.index);
    plan.public_inputs = [parts = std::make_shared<const std::vector<PoStPartition>>(std::move(*parts))](
                             std::size_t k) -> Result<std::vector<Fr>> { return (*parts)[k].inputs; };
    return plan;
  }
  std::vector<KindOption> check_options() const override {
    return {{"sector", "NUMBER:COMM_R (hex or CID) per sector, the public values (default: the proofs' own)", true},
            {"sectors-per-partition",
             "WindowPoSt: check against a partition of this many sectors (e.g. 1 for one real 32GiB sector)"}};
  }
  Result<std::shared_ptr<const KindInput>> for_check(std::shared_ptr<const KindInput> in,
                                                     const KindOptions& o) const override {
    const PostInput& post = static_cast<const PostKindInput&>(*in).input();
    PostInput shaped = post;
    if (const std::string n = option_value(o, "sectors-per-partition"); !n.empty() && n != "0") {
      auto count = base::parse_decimal_u64(n);
      if (!count.ok()) return Status::invalid_argument("--sectors-per-partition: " + count.status().message());
      if (post.proof.winning) return Status::invalid_argument("--sectors-per-partition is for WindowPoSt");
      if (*count < post.sectors.size() || *count > post.proof.sector_count) {
        return Status::invalid_argument("--sectors-per-partition must be between the input's " +
                                        std::to_string(post.sectors.size()) + " sectors and " +
                                        std::to_string(post.proof.sector_count));
      }
      shaped.proof.sector_count = static_cast<unsigned>(*count);
    }
    auto given = given_sectors(o);
    if (!given.ok()) return given.status();
    std::vector<PoStSector> pub = std::move(*given);
    if (pub.empty()) {
      for (const auto& p : post.sectors) pub.push_back({p.sector_id, p.comm_r});
    }
    // The challenges of API 1.0 count the sector's position in the production partition.
    auto want = fallback_partition_inputs(shaped.proof, post.randomness, pub, post.partition * post.proof.sector_count);
    if (!want.ok()) return want.status();
    return std::shared_ptr<const KindInput>(
        std::make_shared<PostCheckInput>(std::move(in), std::move(shaped), std::move(*want)));
  }

  std::string_view generate_command() const override { return "gen-vanilla"; }
  std::vector<KindOption> generate_options() const override {
    return {{"registered-proof", "number (0..14) or name (default: the kind at --sector-size; WindowPoSt V1_2)"},
            {"sector-size", "2KiB or 8MiB (default 2KiB)"},
            {"sectors", "sectors in the partition (WinningPoSt: 1; default 1)"},
            {"first-sector", "the first sector's number (default 1)"},
            {"miner-id", "the sectors' miner (default 1000)"},
            {"partition", "the WindowPoSt partition index (default 0)"},
            {"randomness", "32-byte randomness, hex (default: from --data-seed)"},
            {"data-seed", "derives the sectors' data (and randomness; default 1)"}};
  }
  Result<GeneratedInput> generate(const KindOptions& o) const override {
    auto proof = gen_vanilla_proof(
        o, [](const std::string& name) { return find_registered_post_proof(name); },
        [this](const SectorSize& size) { return proof_at(size); });
    if (!proof.ok()) return proof.status();
    if (proof->winning != winning_)
      return Status::invalid_argument(proof->name + " is not a " + std::string(name()) + " proof");
    auto count = option_u64(o, "sectors", 1), first = option_u64(o, "first-sector", 1),
         miner = option_u64(o, "miner-id", 1000), partition = option_u64(o, "partition", 0),
         data_seed = option_u64(o, "data-seed", 1);
    for (const auto* v : {&count, &first, &miner, &partition, &data_seed}) {
      if (!v->ok()) return v->status();
    }
    if (*count == 0 || *count > proof->sector_count || (winning_ && *count != 1)) {
      return Status::invalid_argument("--sectors: a " + proof->name + " partition holds 1 to " +
                                      std::to_string(winning_ ? 1u : proof->sector_count) + " sectors");
    }
    if (winning_ && *partition != 0) return Status::invalid_argument("a WinningPoSt has one partition (0)");
    if (*partition >= kMaxPostPartitions)
      return Status::invalid_argument("--partition: at most " + std::to_string(kMaxPostPartitions - 1));
    Rng rng(*data_seed);
    PostInput in;
    in.proof = *proof;
    in.partition = *partition;
    in.randomness = random_bytes32(rng);
    in.randomness[31] &= 0x3f;  // as Filecoin draws it (a field element's bytes)
    if (const std::string r = option_value(o, "randomness"); !r.empty()) {
      auto v = parse_hex32("--randomness", r);
      if (!v.ok()) return v.status();
      in.randomness = *v;
    }
    auto sealer = TestSealer::of(proof->size);
    if (!sealer.ok()) return sealer.status();
    using Json = nlohmann::json;
    Json sectors = Json::array();
    std::string lines;
    for (std::uint64_t i = 0; i < *count; ++i) {
      const std::uint64_t number = *first + i;
      auto sector = sealer->seal(number, *miner, rng);
      if (!sector.ok()) return sector.status();
      const std::size_t index = static_cast<std::size_t>(*partition * proof->sector_count + i);
      auto p = make_post_sector_proof(*proof, in.randomness, number, sealer->ctx.shape, *sector, index);
      if (!p.ok()) return p.status();
      sectors.push_back({{"number", number},
                         {"comm_r", hex_string(sector->replica.comm_r)},
                         {"comm_r_cid", commitment_cid(sector->replica.comm_r, CommitmentKind::kSealed)}});
      lines += "sector " + std::to_string(number) + ":" + hex_string(sector->replica.comm_r) + "\n";
      in.sectors.push_back(std::move(*p));
    }
    if (Status st = check_post_input(in); !st.ok()) {
      return Status::invalid_argument("the options make an input that does not check (" + st.message() + ")");
    }
    GeneratedInput out;
    out.text = post_input_json(in);
    out.headline = "sealed " + std::to_string(*count) + " " + proof->size.name +
                   " sector(s) of random data and their " + proof->name + " vanilla proofs";
    out.details =
        "randomness " + hex_string(in.randomness) + ", partition " + std::to_string(*partition) + "\n" + lines;
    out.json = Json{
        {"registered_proof", proof->name},
        {"registered_proof_id", proof->id},
        {"randomness", hex_string(in.randomness)},
        {"partition", *partition},
        {"sectors",
         sectors}}.dump();
    return out;
  }

 private:
  /// WindowPoSt: proofs-api's V1_2 of the size (the circuit of V1 too); WinningPoSt: V1.
  Result<RegisteredPoStProof> proof_at(const SectorSize& size) const {
    auto p = find_registered_post_proof(std::string(winning_ ? "StackedDrgWinning" : "StackedDrgWindow") + size.name +
                                        (winning_ ? "V1" : "V1_2"));
    if (!p.ok()) {
      return Status::invalid_argument("Filecoin has no " + std::string(name()) + " for " + size.name + " sectors");
    }
    return p;
  }
  static std::string input_head(std::uint64_t proof, const std::string& randomness_hex, std::uint64_t partition) {
    return "\"registered_proof\":" + std::to_string(proof) + ",\"randomness\":\"" + randomness_hex +
           "\",\"partition\":" + std::to_string(partition);
  }

  bool winning_;
};

}  // namespace

const ProofKind& window_post_kind() {
  static const PostKind kind(false);
  return kind;
}

const ProofKind& winning_post_kind() {
  static const PostKind kind(true);
  return kind;
}

}  // namespace zk::circuits::filecoin
