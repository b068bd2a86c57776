// Filecoin's SnapDeals (EmptySectorUpdate) as a proof kind (proof_kind.hpp): the update circuit of
// a sector size, fed by the SnapDeals input (update_input.hpp: the registered update proof, the
// three commitments, every partition's bincode PartitionProof). One job proves every partition, as
// filecoin-proofs' generate_empty_sector_update_proof_with_vanilla does.

#include <nlohmann/json.hpp>

#include "base/file.hpp"
#include "circuits/filecoin/commitment.hpp"
#include "circuits/filecoin/partition_circuit.hpp"
#include "circuits/filecoin/porep/random_sector.hpp"
#include "circuits/filecoin/update/update_circuit.hpp"
#include "circuits/filecoin/update/update_input.hpp"
#include "circuits/filecoin/vanilla_json.hpp"

namespace zk::circuits::filecoin {
namespace {

std::unique_ptr<PartitionCircuit> update_circuit(const UpdateShape& shape, UpdateWitness w) {
  return partition_circuit([shape, w = std::move(w)](auto& cs) { return synthesize_update(cs, shape, w); });
}

class UpdateKindInput final : public KindInput {
 public:
  explicit UpdateKindInput(UpdateInput in) : in_(std::move(in)) {}
  const std::string& proof_name() const override { return in_.proof.name; }
  std::uint64_t proof_id() const override { return in_.proof.id; }
  const SectorSize& size() const override { return in_.proof.size; }
  unsigned partitions() const override { return in_.shape.partitions; }
  Status check() const override { return check_update_input(in_); }
  Result<std::vector<Fr>> public_inputs(std::size_t k) const override {
    return update_input_public_inputs(in_, static_cast<unsigned>(k));
  }
  Result<std::unique_ptr<PartitionCircuit>> circuit(std::size_t k) const override {
    auto w = update_input_witness(in_, static_cast<unsigned>(k));
    if (!w.ok()) return w.status();
    return update_circuit(in_.shape, std::move(*w));
  }
  Result<std::unique_ptr<PartitionCircuit>> unchecked_circuit(std::size_t k) const override {
    // The witness straight from the proof, so the circuit names what the native check refuses.
    if (k >= in_.partitions.size()) return Status::invalid_argument("no partition " + std::to_string(k));
    auto w = update_witness_from_proof(in_.shape, static_cast<unsigned>(k), in_.h(), in_.comm_r_old, in_.comm_d_new,
                                       in_.comm_r_new, in_.partitions[k]);
    if (!w.ok()) return w.status();
    return update_circuit(in_.shape, std::move(*w));
  }

 private:
  UpdateInput in_;
};

class UpdateKind final : public ProofKind {
 public:
  std::string_view name() const override { return "snap-update"; }
  std::string_view title() const override { return "SnapDeals"; }
  int cuzk_proof_kind() const override { return 2; }  // SNAP_DEALS_UPDATE
  std::string_view cuzk_queue() const override { return "snap-update"; }
  std::string_view cuzk_id_prefix() const override { return "snap"; }
  bool cuzk_queue_always_listed() const override { return false; }  // cuzk's GetStatus lists three queues

  Result<KindShape> shape(const SectorSize& size) const override {
    auto u = update_shape(size.bytes);
    if (!u.ok()) return u.status();
    auto proof = update_proof_for_size(size);
    auto stem = update_params_stem(size);
    return KindShape{.size = size,
                     .proof = proof.ok() ? proof->name : std::string(),
                     .params_stem = stem.ok() ? *stem : std::string(),
                     .partitions = u->partitions,
                     .inputs = u->num_inputs()};
  }
  std::unique_ptr<PartitionCircuit> blank_circuit(const KindShape& k) const override {
    const UpdateShape u = *update_shape(k.size.bytes);
    return update_circuit(u, UpdateWitness::blank(u));
  }
  bool quick_to_count(const KindShape& k) const override { return k.size.bytes <= (std::uint64_t{8} << 20); }
  std::string describe(const KindShape& k) const override {
    const UpdateShape u = *update_shape(k.size.bytes);
    return "snap-update " + std::string(k.size.name) + " (" + std::to_string(u.partitions) + " partitions, " +
           std::to_string(u.challenges) + " challenges per partition, h " + std::to_string(update_h_default(u)) + ")";
  }
  std::string shape_json(const KindShape& k) const override {
    const UpdateShape u = *update_shape(k.size.bytes);
    return "{\"partitions\":" + std::to_string(u.partitions) +
           ",\"challenges_per_partition\":" + std::to_string(u.challenges) +
           ",\"h\":" + std::to_string(update_h_default(u)) + "}";
  }
  std::string job_description(const KindShape& k) const override {
    const unsigned n = k.partitions;
    return std::to_string(n) + " partition" + (n == 1 ? "" : "s") + " of a " + k.size.name + " SnapDeals update";
  }

  Result<std::shared_ptr<const KindInput>> parse(std::string_view bytes) const override {
    auto in = parse_update_input(bytes);
    if (!in.ok()) return in.status();
    return std::shared_ptr<const KindInput>(std::make_shared<UpdateKindInput>(std::move(*in)));
  }
  Result<KindJob> from_wire(const WirePayload& p) const override {
    auto proof = find_registered_update_proof(std::to_string(p.registered_proof));
    if (!proof.ok()) return Status::invalid_argument("registered_proof: " + proof.status().message());
    const std::pair<const char*, const std::string_view*> comms[] = {
        {"comm_r_old", &p.comm_r_old}, {"comm_d_new", &p.comm_d_new}, {"comm_r_new", &p.comm_r_new}};
    for (const auto& [field, bytes] : comms) {
      if (bytes->size() != 32) {
        return Status::invalid_argument(std::string(field) + " must be 32 bytes, not " + std::to_string(bytes->size()));
      }
    }
    if (Status st = check_wire_sector_size(p, proof->name, proof->size.bytes); !st.ok()) return st;
    auto u = update_shape(proof->size.bytes);
    if (!u.ok()) return u.status();
    if (p.vanilla_proofs.size() != u->partitions) {
      return Status::invalid_argument("vanilla_proofs has " + std::to_string(p.vanilla_proofs.size()) +
                                      " partition proofs; a " + proof->name + " update has " +
                                      std::to_string(u->partitions));
    }
    // The engine's SnapDeals input (update_input.hpp); validation checks it.
    std::string head = "\"registered_proof\":" + std::to_string(proof->id);
    for (const auto& [field, bytes] : comms) {
      head += std::string(",\"") + field + "\":\"" +
              hex_string(std::span(reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size())) + "\"";
    }
    const std::string json = vanilla_proofs_json(head, p.vanilla_proofs);
    return KindJob{proof->size.name, u->partitions, proof->id, std::vector<std::uint8_t>(json.begin(), json.end())};
  }
  std::vector<KindOption> input_options() const override {
    return {{"update-input", "the SnapDeals input JSON (every partition's vanilla proof; zkpipe gen-vanilla)"}};
  }
  Result<NamedInput> input_from_options(const KindOptions& o) const override {
    const std::string file = option_value(o, "update-input");
    if (file.empty()) return Status::invalid_argument("--kind snap-update needs --update-input FILE");
    auto bytes = read_file(file, std::uint64_t{1} << 30);
    if (!bytes.ok()) return bytes.status();
    return NamedInput{std::move(*bytes), file};
  }
  std::vector<KindOption> verify_options() const override {
    return {{"registered-proof", "the registered update proof (0-4: StackedDrg2KiBV1 ... 64GiBV1)"},
            {"comm-r-old", "the sector's comm_r before the update (hex or CID)"},
            {"comm-d-new", "the new data's comm_d (hex or CID)"},
            {"comm-r-new", "the updated sector's comm_r (hex or CID)"},
            {"sector-size", "refuse a registered proof of another size"}};
  }
  Result<VerifyPlan> verify_plan(const KindOptions& o) const override {
    const std::string registered = option_value(o, "registered-proof");
    if (registered.empty()) {
      return Status::invalid_argument(
          "--kind snap-update needs --registered-proof (0-4: StackedDrg2KiBV1 ... 64GiBV1)");
    }
    auto proof = find_registered_update_proof(registered);
    if (!proof.ok()) return Status::invalid_argument("--registered-proof: " + proof.status().message());
    if (const std::string size_name = option_value(o, "sector-size"); !size_name.empty()) {
      auto size = find_sector_size(size_name);
      if (!size.ok()) return size.status();
      if (size->bytes != proof->size.bytes) {
        return Status::invalid_argument(proof->name + " is not a " + size->name + " proof");
      }
    }
    auto shape = update_shape(proof->size.bytes);
    if (!shape.ok()) return shape.status();
    Fr comm[3];
    const char* names[3] = {"comm-r-old", "comm-d-new", "comm-r-new"};
    for (int i = 0; i < 3; ++i) {
      const std::string given = option_value(o, names[i]);
      if (given.empty()) return Status::invalid_argument(std::string("--kind snap-update needs --") + names[i]);
      auto b = parse_commitment(given, i == 1 ? CommitmentKind::kUnsealed : CommitmentKind::kSealed);
      if (!b.ok()) return Status::invalid_argument(std::string("--") + names[i] + ": " + b.status().message());
      auto f = Fr::from_bytes(*b, field::Endian::kLittle);
      if (!f.ok()) return Status::invalid_argument(std::string("--") + names[i] + ": not a field element");
      comm[i] = *f;
    }
    VerifyPlan plan;
    plan.what = proof->name + " update, ";
    plan.partition = "a " + proof->name + " update partition";
    plan.inputs = shape->num_inputs();
    plan.expected = "a " + proof->name + " update has " + std::to_string(shape->partitions) + " partitions";
    for (unsigned k = 0; k < shape->partitions; ++k) plan.partitions.push_back(k);
    plan.public_inputs = [u = *shape, r_old = comm[0], d_new = comm[1], r_new = comm[2]](std::size_t k) {
      return update_public_inputs(u, static_cast<unsigned>(k), update_h_default(u), r_old, d_new, r_new);
    };
    return plan;
  }

  std::string_view generate_command() const override { return "gen-vanilla"; }
  std::vector<KindOption> generate_options() const override {
    return {{"registered-proof", "number (0..4) or name (default: the kind at --sector-size)"},
            {"sector-size", "2KiB or 8MiB (default 2KiB)"},
            {"first-sector", "the sector's number (default 1)"},
            {"miner-id", "the sector's miner (default 1000)"},
            {"data-seed", "derives the sector's data and the new data (default 1)"}};
  }
  Result<GeneratedInput> generate(const KindOptions& o) const override {
    // One sector sealed in memory, updated with random data, every partition's PartitionProof.
    auto proof = gen_vanilla_proof(
        o, [](const std::string& name) { return find_registered_update_proof(name); },
        [](const SectorSize& size) { return update_proof_for_size(size); });
    if (!proof.ok()) return proof.status();
    auto first = option_u64(o, "first-sector", 1), miner = option_u64(o, "miner-id", 1000),
         data_seed = option_u64(o, "data-seed", 1);
    for (const auto* v : {&first, &miner, &data_seed}) {
      if (!v->ok()) return v->status();
    }
    auto sealer = TestSealer::of(proof->size);
    if (!sealer.ok()) return sealer.status();
    auto shape = update_shape(proof->size.bytes);
    if (!shape.ok()) return shape.status();
    Rng rng(*data_seed);
    auto sector = sealer->seal(*first, *miner, rng);
    if (!sector.ok()) return sector.status();
    std::vector<Fr> replica_old, data_new;
    for (const auto& node : sector->replica.replica)
      replica_old.push_back(*Fr::from_bytes(node, field::Endian::kLittle));
    for (std::uint64_t i = 0; i < shape->nodes; ++i) {
      auto b = random_bytes32(rng);
      b[31] &= 0x3f;
      data_new.push_back(*Fr::from_bytes(b, field::Endian::kLittle));
    }
    const Fr comm_c = *Fr::from_bytes(sector->replica.comm_c, field::Endian::kLittle);
    auto u = update_in_memory(*shape, update_h_default(*shape), comm_c, std::move(replica_old), std::move(data_new));
    if (!u.ok()) return u.status();
    UpdateInput in{*proof, *shape, u->comm_r_old, u->comm_d_new, u->comm_r_new, {}};
    for (unsigned k = 0; k < shape->partitions; ++k) {
      auto p = make_update_partition_proof(*shape, *u, k);
      if (!p.ok()) return p.status();
      in.partitions.push_back(std::move(*p));
    }
    if (Status st = check_update_input(in); !st.ok()) {
      return Status::invalid_argument("the options make an input that does not check (" + st.message() + ")");
    }
    const std::string r_old = hex_string(update_commitment_bytes(in.comm_r_old)),
                      d_new = hex_string(update_commitment_bytes(in.comm_d_new)),
                      r_new = hex_string(update_commitment_bytes(in.comm_r_new));
    GeneratedInput out;
    out.text = update_input_json(in);
    out.headline = "sealed a " + std::string(proof->size.name) + " sector, updated it with random data: its " +
                   proof->name + " input (" + std::to_string(shape->partitions) + " partition(s))";
    out.details = "registered_proof " + std::to_string(proof->id) + "\ncomm_r_old " + r_old + "\ncomm_d_new " + d_new +
                  "\ncomm_r_new " + r_new + "\n";
    out.json = nlohmann::json{
        {"registered_proof", proof->name},
        {"registered_proof_id", proof->id},
        {"partitions", shape->partitions},
        {"comm_r_old", r_old},
        {"comm_d_new", d_new},
        {"comm_r_new",
         r_new}}.dump();
    return out;
  }
};

}  // namespace

const ProofKind& snap_update_kind() {
  static const UpdateKind kind;
  return kind;
}

}  // namespace zk::circuits::filecoin
