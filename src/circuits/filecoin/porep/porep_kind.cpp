// Filecoin's PoRep C2 as a proof kind (proof_kind.hpp): the StackedDrg circuit of a sector size,
// fed by a C1 (filecoin-proofs-api's SealCommitPhase1Output JSON or cuzk's wrapper, porep/c1.hpp).
// One key per sector size serves every registered seal proof of it (API 1.0, 1.1, 1.2, synthetic
// and non-interactive draw their challenges differently; the circuit is the same).

#include <nlohmann/json.hpp>

#include "base/decimal.hpp"
#include "base/file.hpp"
#include "circuits/filecoin/commitment.hpp"
#include "circuits/filecoin/partition_circuit.hpp"
#include "circuits/filecoin/porep/aggregation.hpp"
#include "circuits/filecoin/porep/c1.hpp"
#include "circuits/filecoin/porep/random_sector.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"
#include "circuits/filecoin/porep/synthetic_c1.hpp"
#include "circuits/filecoin/porep/vanilla.hpp"

namespace zk::circuits::filecoin {
namespace {

/// The transcript input of an aggregate of this sector's partitions alone: what a non-interactive
/// C2 returns (sha256(comm_r)), or a batch of one interactive sector (sha256(seed || comm_r)).
std::array<std::uint8_t, 32> own_transcript_input(const C1& c1) {
  const AggregatedSector sector{c1.comm_r, c1.seed};
  return seal_transcript_input(std::span(&sector, 1),
                               c1.registered_proof.challenges == PorepChallenges::kNonInteractive);
}

/// A parsed C1 with its registered proof's circuit, graph and challenge rule.
class PorepInput final : public KindInput {
 public:
  PorepInput(C1Input in, C1Context ctx) : in_(std::move(in)), ctx_(std::move(ctx)) {}
  const std::string& proof_name() const override { return in_.c1.registered_proof.name; }
  std::uint64_t proof_id() const override { return in_.c1.registered_proof.id; }
  const SectorSize& size() const override { return in_.c1.registered_proof.size; }
  unsigned partitions() const override { return in_.c1.registered_proof.partitions(); }
  Status check() const override { return check_c1(in_.c1, ctx_); }
  Result<std::vector<Fr>> public_inputs(std::size_t k) const override { return c1_public_inputs(in_.c1, ctx_, k); }
  Result<std::unique_ptr<PartitionCircuit>> circuit(std::size_t k) const override {
    auto w = c1_witness(in_.c1, ctx_, k);
    if (!w.ok()) return w.status();
    return partition_circuit(
        [shape = ctx_.shape, w = std::move(*w)](auto& cs) { return synthesize_stacked(cs, shape, w); });
  }
  std::optional<std::array<std::uint8_t, 32>> aggregate_transcript_input() const override {
    // A non-interactive C2's answer is the aggregate of its partitions.
    if (in_.c1.registered_proof.challenges != PorepChallenges::kNonInteractive) return std::nullopt;
    return own_transcript_input(in_.c1);
  }

 private:
  C1Input in_;
  C1Context ctx_;
};

class PorepKind final : public ProofKind {
 public:
  std::string_view name() const override { return "porep"; }
  std::string_view title() const override { return "PoRep"; }
  int cuzk_proof_kind() const override { return 1; }  // POREP_SEAL_COMMIT
  std::string_view cuzk_queue() const override { return "porep-c2"; }
  std::string_view cuzk_id_prefix() const override { return "porep"; }
  std::vector<std::string> api_versions() const override { return {"1.0", "1.1", "1.2"}; }
  bool always_verify() const override { return true; }  // a PoRep proof goes on chain: a bad one costs the sector

  Result<KindShape> shape(const SectorSize& size) const override {
    KindShape s{.size = size,
                .proof = std::string("StackedDrg") + size.name + "V1_1",
                .params_stem = size.published ? stacked_params_stem(size) : std::string(),
                .partitions = size.partitions,
                .inputs = stacked_shape(size).num_inputs()};
    return s;
  }
  std::unique_ptr<PartitionCircuit> blank_circuit(const KindShape& k) const override {
    return partition_circuit(
        [s = stacked_shape(k.size)](auto& cs) { return synthesize_stacked(cs, s, StackedWitness::blank(s)); });
  }
  std::optional<KeySections> pinned_key_sections(const KindShape& k) const override {
    return stacked_key_sections(k.size);
  }
  bool quick_to_count(const KindShape& k) const override { return k.size.bytes <= (std::uint64_t{8} << 20); }
  std::string describe(const KindShape& k) const override {
    const StackedShape s = stacked_shape(k.size);
    return "porep " + std::string(k.size.name) + " (" + std::to_string(s.layers) + " layers, " +
           std::to_string(s.challenges) + " challenges per partition, " + std::to_string(k.size.partitions) +
           " partitions)";
  }
  std::string shape_json(const KindShape& k) const override {
    // The StackedCircuit is one circuit for API 1.0, 1.1 and 1.2 (they differ in the parent graph
    // and the public inputs, not in the constraints), so one key per sector size serves them all.
    const StackedShape s = stacked_shape(k.size);
    return "{\"layers\":" + std::to_string(s.layers) + ",\"challenges_per_partition\":" + std::to_string(s.challenges) +
           ",\"partitions\":" + std::to_string(k.size.partitions) + ",\"api_versions\":[\"1.0\",\"1.1\",\"1.2\"]}";
  }
  std::string job_description(const KindShape& k) const override {
    const unsigned n = k.partitions;
    return std::to_string(n) + " partition" + (n == 1 ? "" : "s") + " of Filecoin's " + k.size.name + " PoRep";
  }

  Result<std::shared_ptr<const KindInput>> parse(std::string_view bytes) const override {
    auto in = parse_c1(bytes);
    if (!in.ok()) return in.status();
    auto ctx = c1_context(in->c1.registered_proof);
    if (!ctx.ok()) return ctx.status();
    return std::shared_ptr<const KindInput>(std::make_shared<PorepInput>(std::move(*in), std::move(*ctx)));
  }
  Result<KindJob> from_wire(const WirePayload& p) const override {
    auto proof = find_registered_seal_proof(std::to_string(p.registered_proof));
    if (!proof.ok()) return Status::invalid_argument("registered_proof: " + proof.status().message());
    if (Status st = check_wire_sector_size(p, proof->name, proof->size.bytes); !st.ok()) return st;
    if (p.vanilla_proof.empty()) return Status::invalid_argument("vanilla_proof (the C1 output) is empty");
    // NI-PoRep: 13 or 126 partitions (validation checks the C1 agrees), and the C1 must be of this
    // very proof (V1 vs V1_1).
    return KindJob{proof->size.name, proof->partitions(), proof->id,
                   std::vector<std::uint8_t>(p.vanilla_proof.begin(), p.vanilla_proof.end())};
  }
  std::vector<KindOption> input_options() const override {
    return {{"c1", "the commit-phase-1 output (SealCommitPhase1Output JSON, or cuzk's wrapper)"}};
  }
  Result<NamedInput> input_from_options(const KindOptions& o) const override {
    const std::string c1 = option_value(o, "c1");
    if (c1.empty()) return Status::invalid_argument("--kind porep needs --c1 FILE");
    auto bytes = read_file(c1, std::uint64_t{1} << 31);
    if (!bytes.ok()) return bytes.status();
    return NamedInput{std::move(*bytes), c1};
  }

  std::vector<KindOption> verify_options() const override {
    return {{"c1",
             "take the public values from this C1 file instead; repeat, in sector order, for an aggregate of several "
             "sectors",
             true},
            {"sector-size", "2KiB, 8MiB, 512MiB, 32GiB, 64GiB (or bytes)"},
            {"prover-id", "32-byte prover id, hex"},
            {"sector-number",
             "the sector number; with --registered-proof, repeat it with --ticket, --seed, --comm-d and --comm-r, in "
             "sector order, for an aggregate of several sectors",
             true},
            {"ticket", "32-byte ticket, hex", true},
            {"seed", "32-byte interactive seed, hex", true},
            {"comm-d", "the sector's comm_d (hex or CID)", true},
            {"comm-r", "the sector's comm_r (hex or CID)", true},
            {"registered-proof", "registered seal proof number (0..19), sets the porep id"},
            {"porep-id", "32-byte porep id, hex (instead of --registered-proof)"},
            {"api-version", "with --porep-id: 1.0, 1.1 or 1.2"}};
  }
  Result<VerifyPlan> verify_plan(const KindOptions& o) const override {
    const std::string sector_size = option_value(o, "sector-size");
    if (auto it = o.find("c1"); it != o.end() && it->second.size() > 1) return sectors_plan(it->second, sector_size);
    if (const std::string path = option_value(o, "c1"); !path.empty()) {
      // The public values of a C1: replica_id, comm_d, comm_r, the seed and the registered proof.
      auto text = read_text_file(path, std::uint64_t{1} << 31);
      if (!text.ok()) return text.status();
      auto in = parse_c1(*text);
      if (!in.ok()) return Status::invalid_argument(path + ": " + in.status().message());
      auto c1 = std::make_shared<const C1>(std::move(in->c1));
      if (!sector_size.empty()) {
        auto size = find_sector_size(sector_size);
        if (!size.ok()) return size.status();
        if (size->bytes != c1->registered_proof.size.bytes) {
          return Status::invalid_argument(path + " is a " + c1->registered_proof.name + " C1, not " + size->name);
        }
      }
      auto ctx = c1_context(c1->registered_proof);
      if (!ctx.ok()) return ctx.status();
      return plan(
          c1->registered_proof.size, c1->registered_proof.partitions(),
          [c1, ctx = std::make_shared<const C1Context>(std::move(*ctx))](std::size_t k) {
            return c1_public_inputs(*c1, *ctx, k);
          },
          own_transcript_input(*c1));
    }
    auto size = find_sector_size(sector_size);
    if (!size.ok()) return size.status();
    const StackedShape s = stacked_shape(*size);
    sdr::Bytes32 porep_id{};
    bool legacy = false;
    std::optional<RegisteredSealProof> proof;  // with --registered-proof: its challenge mode
    if (const std::string registered = option_value(o, "registered-proof"); !registered.empty()) {
      auto n = base::parse_decimal_u64(registered);
      if (!n.ok() || *n > 19) {
        return Status::invalid_argument("--registered-proof: Filecoin's seal proofs are numbered 0..19");
      }
      if (!option_value(o, "porep-id").empty()) {
        return Status::invalid_argument("give --registered-proof or --porep-id, not both");
      }
      proof = registered_seal_proofs()[static_cast<std::size_t>(*n)];
      if (proof->size.bytes != size->bytes) {
        return Status::invalid_argument("--registered-proof " + registered + " is " + proof->name + ", not a " +
                                        size->name + " proof");
      }
      porep_id = proof->porep_id();
      legacy = proof->legacy_graph();  // StackedDrg*V1: API 1.0, the legacy expander graph
    } else {
      const std::string id = option_value(o, "porep-id");
      auto p = parse_hex32("--porep-id", id.empty() ? std::string(64, '0') : id);
      if (!p.ok()) return p.status();
      porep_id = *p;
      const std::string api = option_value(o, "api-version").empty() ? "1.1" : option_value(o, "api-version");
      if (api != "1.0" && api != "1.1" && api != "1.2")
        return Status::invalid_argument("--api-version: 1.0, 1.1 or 1.2");
      legacy = api == "1.0";
    }
    if (auto it = o.find("comm-r"); it != o.end() && it->second.size() > 1) {
      return public_values_plan(o, *size, proof, porep_id, legacy);
    }
    sdr::Bytes32 prover{}, ticket{}, seed{};
    for (auto [name, out] : {std::pair{"prover-id", &prover}, std::pair{"ticket", &ticket}, std::pair{"seed", &seed}}) {
      auto v = parse_hex32("--" + std::string(name), option_value(o, name));
      if (!v.ok()) return v.status();
      *out = *v;
    }
    std::uint64_t sector_number = 0;
    if (const std::string n = option_value(o, "sector-number"); !n.empty()) {
      auto v = base::parse_decimal_u64(n);
      if (!v.ok()) return Status::invalid_argument("--sector-number: " + v.status().message());
      sector_number = *v;
    }
    // Commitments: hex or Filecoin CIDs.
    auto d = parse_commitment(option_value(o, "comm-d"), CommitmentKind::kUnsealed);
    if (!d.ok()) return Status::invalid_argument("--comm-d: " + d.status().message());
    auto r = parse_commitment(option_value(o, "comm-r"), CommitmentKind::kSealed);
    if (!r.ok()) return Status::invalid_argument("--comm-r: " + r.status().message());
    const auto replica_id = sdr::replica_id(prover, sector_number, ticket, *d, porep_id);
    if (proof) {
      // The registered proof decides how the challenges are drawn (interactive, synthetic, NI).
      auto pub = std::make_shared<C1>();
      pub->registered_proof = *proof, pub->replica_id = replica_id, pub->comm_d = *d, pub->comm_r = *r;
      pub->seed = seed, pub->ticket = ticket;
      auto ctx = c1_context(*proof);
      if (!ctx.ok()) return ctx.status();
      return plan(
          *size, proof->partitions(),
          [pub, ctx = std::make_shared<const C1Context>(std::move(*ctx))](std::size_t k) {
            return c1_public_inputs(*pub, *ctx, k);
          },
          own_transcript_input(*pub));
    }
    auto graph = sdr::ParentGraph::create(s.nodes, porep_id, legacy);
    if (!graph.ok()) return graph.status();
    return plan(
        *size, size->partitions,
        [s, graph = std::make_shared<const sdr::ParentGraph>(std::move(*graph)), replica_id, seed,
         pub = PorepPublic{replica_id, *d, *r}](std::size_t k) {
          const auto ch = sdr::challenges(replica_id, seed, s.nodes, static_cast<std::uint32_t>(k), s.challenges);
          return porep_public_inputs(s, *graph, pub, ch);
        },
        [&] {
          const AggregatedSector sector{*r, seed};
          return seal_transcript_input(std::span(&sector, 1), false);
        }());
  }

  std::string_view generate_command() const override { return "gen-c1"; }
  std::vector<KindOption> generate_options() const override {
    return {
        {"registered-proof", "number (0..19) or name (default StackedDrg2KiBV1_1)"},
        {"sector-size", "instead: that size's StackedDrg*V1_1"},
        {"miner-id", "the prover id is this miner's (LEB128, as Filecoin; default 1000)"},
        {"prover-id", "32-byte prover id, hex (instead of --miner-id)"},
        {"sector-number", "sector number (default 1)"},
        {"ticket", "32-byte ticket, hex (default: from --data-seed)"},
        {"seed", "32-byte interactive seed, hex (default: from --data-seed)"},
        {"data-seed", "derives the sector's data (and ticket, seed; default 1)"},
        {"wrap", "write cuzk/Curio's wrapper {SectorNum, Phase1Out, SectorSize}", false, true},
        {"synthetic", "any size (32GiB, 64GiB): a consistent synthetic C1 (random columns and sparse trees), no sector",
         false, true}};
  }
  Result<GeneratedInput> generate(const KindOptions& o) const override {
    Result<RegisteredSealProof> proof = Status::internal("unset");
    if (const std::string size_name = option_value(o, "sector-size"); !size_name.empty()) {
      auto size = find_sector_size(size_name);
      if (!size.ok()) return size.status();
      proof = test_seal_proof(*size);
    } else {
      const std::string name = option_value(o, "registered-proof");
      proof = find_registered_seal_proof(name.empty() ? "StackedDrg2KiBV1_1" : name);
    }
    if (!proof.ok()) return proof.status();
    const bool synthetic = option_flag(o, "synthetic"), wrap = option_flag(o, "wrap");
    if (proof->size.bytes > (std::uint64_t{8} << 20) && !synthetic) {
      return Status::invalid_argument(proof->name +
                                      ": gen-c1 seals in memory, up to 8 MiB sectors (2KiB, 8MiB); --synthetic writes "
                                      "a consistent synthetic C1 of any size");
    }
    auto miner = option_u64(o, "miner-id", 1000);
    auto sector_number = option_u64(o, "sector-number", 1);
    auto data_seed = option_u64(o, "data-seed", 1);
    for (const auto* v : {&miner, &sector_number, &data_seed}) {
      if (!v->ok()) return v->status();
    }
    auto ctx = c1_context(*proof);
    if (!ctx.ok()) return ctx.status();
    auto checked = [&](const C1& c1) -> Status {
      if (Status st = check_c1(c1, *ctx); !st.ok()) {
        return Status::invalid_argument("the options make an input that does not check (" + st.message() + ")");
      }
      return {};
    };
    using Json = nlohmann::json;
    GeneratedInput out;
    if (synthetic) {
      if (proof->challenges != PorepChallenges::kInteractive) {
        return Status::invalid_argument(proof->name + ": synthetic C1s are made for interactive PoRep (V1, V1_1)");
      }
      auto c1 = synthetic_c1(*proof, *ctx, *data_seed);
      if (!c1.ok()) return c1.status();
      if (Status st = checked(*c1); !st.ok()) return st;
      // Marked for whoever finds the file: serde and zkpipe ignore the unknown key.
      out.text = c1_json(*c1);
      out.text.insert(out.text.size() - 1, ",\"zkpipe_synthetic\":true");
      if (wrap) {
        auto in = parse_c1(out.text);
        if (!in.ok()) {
          return Status::invalid_argument("the options make an input that does not check (" + in.status().message() +
                                          ")");
        }
        out.text = c1_wrapper_json(in->c1, *sector_number);
      }
      out.headline = "SYNTHETIC " + std::string(proof->size.name) + " C1 (" + proof->name + ", " +
                     std::to_string(proof->size.partitions) +
                     " partitions): consistent paths and labels, but no sector behind it";
      out.json = Json{{"registered_proof", proof->name},
                      {"synthetic", true},
                      {"wrapped", wrap},
                      {"replica_id", hex_string(c1->replica_id)},
                      {"seed", hex_string(c1->seed)},
                      {"comm_d", hex_string(c1->comm_d)},
                      {"comm_r", hex_string(c1->comm_r)}}
                     .dump();
      return out;
    }
    Rng rng(*data_seed);
    SealInputs in;
    in.porep_id = proof->porep_id();
    in.sector_id = *sector_number;
    in.prover_id = prover_id_from_miner(*miner);
    if (const std::string p = option_value(o, "prover-id"); !p.empty()) {
      auto id = parse_hex32("--prover-id", p);
      if (!id.ok()) return id.status();
      in.prover_id = *id;
    }
    in.ticket = random_bytes32(rng);
    Bytes32 seed = random_bytes32(rng);
    for (auto [name, value] : {std::pair{"ticket", &in.ticket}, std::pair{"seed", &seed}}) {
      const std::string given = option_value(o, name);
      if (given.empty()) continue;
      auto v = parse_hex32("--" + std::string(name), given);
      if (!v.ok()) return v.status();
      *value = *v;
    }
    auto sector = seal_random_sector(*ctx, in, rng);
    if (!sector.ok()) return sector.status();
    auto c1 = make_c1(*proof, *ctx, *sector, seed, in.ticket);
    if (!c1.ok()) return c1.status();
    if (Status st = checked(*c1); !st.ok()) return st;
    out.text = wrap ? c1_wrapper_json(*c1, *sector_number) : c1_json(*c1);
    const std::string comm_d_cid = commitment_cid(c1->comm_d, CommitmentKind::kUnsealed),
                      comm_r_cid = commitment_cid(c1->comm_r, CommitmentKind::kSealed);
    out.headline = "sealed a " + std::string(proof->size.name) + " sector of random data (" + proof->name + ")" +
                   (wrap ? ", cuzk wrapper" : "");
    out.details = "prover id " + hex_string(in.prover_id) + ", sector " + std::to_string(*sector_number) + "\nticket " +
                  hex_string(in.ticket) + "\nseed   " + hex_string(seed) + "\ncomm_d " + hex_string(c1->comm_d) + " (" +
                  comm_d_cid + ")\ncomm_r " + hex_string(c1->comm_r) + " (" + comm_r_cid + ")\n";
    out.json = Json{{"registered_proof", proof->name},
                    {"wrapped", wrap},
                    {"prover_id", hex_string(in.prover_id)},
                    {"sector_number", *sector_number},
                    {"ticket", hex_string(in.ticket)},
                    {"seed", hex_string(seed)},
                    {"comm_d", hex_string(c1->comm_d)},
                    {"comm_r", hex_string(c1->comm_r)},
                    {"comm_d_cid", comm_d_cid},
                    {"comm_r_cid", comm_r_cid}}
                   .dump();
    return out;
  }

 private:
  /// Several sectors' public values: --sector-number, --ticket, --seed, --comm-d and --comm-r each
  /// repeated once per sector in sector order, one --prover-id and --registered-proof (or --porep-id:
  /// interactive challenges on its graph).
  static Result<VerifyPlan> public_values_plan(const KindOptions& o, const SectorSize& size,
                                               const std::optional<RegisteredSealProof>& proof,
                                               const sdr::Bytes32& porep_id, bool legacy) {
    const auto values = [&](const char* name) {
      auto it = o.find(name);
      return it == o.end() ? std::vector<std::string>() : it->second;
    };
    const std::size_t n = values("comm-r").size();
    for (const char* name : {"sector-number", "ticket", "seed", "comm-d"}) {
      if (values(name).size() != n) {
        return Status::invalid_argument(std::to_string(n) + " --comm-r but " + std::to_string(values(name).size()) +
                                        " --" + name + " (one of each per sector, in sector order)");
      }
    }
    auto prover = parse_hex32("--prover-id", option_value(o, "prover-id"));
    if (!prover.ok()) return prover.status();
    std::vector<std::shared_ptr<const C1>> c1s;  // the public values only (no vanilla proofs)
    for (std::size_t i = 0; i < n; ++i) {
      auto c1 = std::make_shared<C1>();
      if (proof) c1->registered_proof = *proof;
      auto ticket = parse_hex32("--ticket", values("ticket")[i]);
      if (!ticket.ok()) return ticket.status();
      auto seed = parse_hex32("--seed", values("seed")[i]);
      if (!seed.ok()) return seed.status();
      auto number = base::parse_decimal_u64(values("sector-number")[i]);
      if (!number.ok()) return Status::invalid_argument("--sector-number: " + number.status().message());
      auto d = parse_commitment(values("comm-d")[i], CommitmentKind::kUnsealed);
      if (!d.ok()) return Status::invalid_argument("--comm-d: " + d.status().message());
      auto r = parse_commitment(values("comm-r")[i], CommitmentKind::kSealed);
      if (!r.ok()) return Status::invalid_argument("--comm-r: " + r.status().message());
      c1->ticket = *ticket, c1->seed = *seed, c1->comm_d = *d, c1->comm_r = *r;
      c1->replica_id = sdr::replica_id(*prover, *number, *ticket, *d, porep_id);
      c1s.push_back(std::move(c1));
    }
    if (proof) return sectors_plan(c1s);
    // A porep id of no registered proof: interactive challenges on its graph, as the one-sector plan.
    const StackedShape s = stacked_shape(size);
    auto graph = sdr::ParentGraph::create(s.nodes, porep_id, legacy);
    if (!graph.ok()) return graph.status();
    std::vector<AggregatedSector> statement;
    for (const auto& c1 : c1s) statement.push_back({c1->comm_r, c1->seed});
    VerifyPlan p = plan(
        size, n * size.partitions,
        [s, c1s, graph = std::make_shared<const sdr::ParentGraph>(std::move(*graph)),
         per = size.partitions](std::size_t position) -> Result<std::vector<Fr>> {
          if (position >= c1s.size() * per) return Status::invalid_argument("no such partition");
          const C1& c1 = *c1s[position / per];
          const auto k = static_cast<std::uint32_t>(position % per);
          const auto ch = sdr::challenges(c1.replica_id, c1.seed, s.nodes, k, s.challenges);
          return porep_public_inputs(s, *graph, PorepPublic{c1.replica_id, c1.comm_d, c1.comm_r}, ch);
        },
        seal_transcript_input(statement, false));
    p.what = std::to_string(n) + " sectors of " + size.name + " PoRep, ";
    p.expected =
        "these " + std::to_string(n) + " sectors have " + std::to_string(n * size.partitions) + " partitions in all";
    return p;
  }

  /// Several sectors' C1s (an aggregate of their proofs, as Curio's ProveCommitAggregate): every
  /// sector's partitions in order, the transcript input over all of them.
  static Result<VerifyPlan> sectors_plan(const std::vector<std::string>& paths, const std::string& sector_size) {
    std::vector<std::shared_ptr<const C1>> c1s;
    for (const std::string& path : paths) {
      auto text = read_text_file(path, std::uint64_t{1} << 31);
      if (!text.ok()) return text.status();
      auto in = parse_c1(*text);
      if (!in.ok()) return Status::invalid_argument(path + ": " + in.status().message());
      const RegisteredSealProof& proof = in->c1.registered_proof;
      if (!sector_size.empty()) {
        auto size = find_sector_size(sector_size);
        if (!size.ok()) return size.status();
        if (size->bytes != proof.size.bytes) {
          return Status::invalid_argument(path + " is a " + proof.name + " C1, not " + size->name);
        }
      }
      if (!c1s.empty()) {
        const RegisteredSealProof& first = c1s.front()->registered_proof;
        if (proof.size.bytes != first.size.bytes || (proof.challenges == PorepChallenges::kNonInteractive) !=
                                                        (first.challenges == PorepChallenges::kNonInteractive)) {
          return Status::invalid_argument(path + " is a " + proof.name + " C1; an aggregate's sectors are all " +
                                          first.name + "'s size and kind (interactive or not)");
        }
      }
      c1s.push_back(std::make_shared<const C1>(std::move(in->c1)));
    }
    return sectors_plan(c1s);
  }

  /// Sectors' public values (as C1s without vanilla proofs), one size and kind: every sector's
  /// partitions in order, the transcript input over all of them (an aggregate of their proofs).
  static Result<VerifyPlan> sectors_plan(const std::vector<std::shared_ptr<const C1>>& c1s) {
    struct Sector {
      std::shared_ptr<const C1> c1;
      std::shared_ptr<const C1Context> ctx;
    };
    std::vector<Sector> sectors;
    std::vector<AggregatedSector> statement;
    std::vector<std::pair<std::size_t, std::size_t>> at;  // position -> (sector, partition)
    for (const auto& c1 : c1s) {
      auto ctx = c1_context(c1->registered_proof);
      if (!ctx.ok()) return ctx.status();
      for (std::size_t k = 0; k < c1->registered_proof.partitions(); ++k) at.emplace_back(sectors.size(), k);
      statement.push_back({c1->comm_r, c1->seed});
      sectors.push_back({c1, std::make_shared<const C1Context>(std::move(*ctx))});
    }
    const RegisteredSealProof& first = sectors.front().c1->registered_proof;
    const bool ni = first.challenges == PorepChallenges::kNonInteractive;
    VerifyPlan p = plan(
        first.size, at.size(),
        [sectors, at](std::size_t position) -> Result<std::vector<Fr>> {
          if (position >= at.size()) return Status::invalid_argument("no such partition");
          const Sector& s = sectors[at[position].first];
          return c1_public_inputs(*s.c1, *s.ctx, at[position].second);
        },
        seal_transcript_input(statement, ni));
    if (sectors.size() > 1) {
      p.what = std::to_string(sectors.size()) + " sectors of " + first.size.name + " PoRep, ";
      p.expected = "these " + std::to_string(sectors.size()) + " sectors have " + std::to_string(at.size()) +
                   " partitions in all";
    }
    return p;
  }

  static VerifyPlan plan(const SectorSize& size, std::size_t partitions,
                         std::function<Result<std::vector<Fr>>(std::size_t)> inputs,
                         std::optional<std::array<std::uint8_t, 32>> aggregate = std::nullopt) {
    VerifyPlan p;
    p.what = std::string(size.name) + " PoRep, ";
    p.partition = std::string("a ") + size.name + " PoRep partition";
    p.inputs = stacked_shape(size).num_inputs();
    p.expected = std::string("this ") + size.name + " PoRep has " + std::to_string(partitions) + " partitions";
    for (std::size_t k = 0; k < partitions; ++k) p.partitions.push_back(k);
    p.public_inputs = std::move(inputs);
    p.aggregate_transcript_input = aggregate;
    return p;
  }
};

}  // namespace

const ProofKind& porep_kind() {
  static const PorepKind kind;
  return kind;
}

}  // namespace zk::circuits::filecoin
