// The kind table (proof_kind.hpp): every kind found by its name, its published shapes naming
// Filecoin's published parameter files with the public-input count its blank circuit has (and the
// pinned key sections equal to the counted ones where counting is quick), cuzk.v1's numbering; and
// for each kind a real 2 KiB input sealed here — parsed, checked natively, every partition's circuit
// satisfied with the kind's public inputs — the same input made from cuzk.v1's payload, another
// kind's input refused.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "base/base64.hpp"
#include "circuits/filecoin/commitment.hpp"
#include "circuits/filecoin/porep/aggregation.hpp"
#include "circuits/filecoin/porep/c1.hpp"
#include "circuits/filecoin/post/post_input.hpp"
#include "circuits/filecoin/proof_kind.hpp"
#include "circuits/filecoin/update/update_input.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/test_cs.hpp"
#include "sealed_sector.hpp"
#include "test_util.hpp"

namespace zk::circuits::filecoin {
namespace {

const ProofKind& kind(std::string_view name) {
  auto k = find_proof_kind(name);
  EXPECT_TRUE(k.ok()) << name;
  return **k;
}

TEST(KindTable, EveryKindIsFoundByItsNameAndTheRestAreRefused) {
  std::set<std::string> names, queues, prefixes;
  std::set<int> cuzk;
  for (const ProofKind* k : proof_kinds()) {
    EXPECT_EQ(*find_proof_kind(k->name()), k);
    names.insert(std::string(k->name()));
    queues.insert(std::string(k->cuzk_queue()));
    prefixes.insert(std::string(k->cuzk_id_prefix()));
    cuzk.insert(k->cuzk_proof_kind());
  }
  EXPECT_EQ(names.size(), proof_kinds().size());
  EXPECT_EQ(queues.size(), proof_kinds().size());
  EXPECT_EQ(prefixes.size(), proof_kinds().size());
  EXPECT_EQ(cuzk, (std::set<int>{1, 2, 3, 4}));  // cuzk.v1 ProofKind: POREP_SEAL_COMMIT .. WINNING_POST
  EXPECT_EQ(proof_kind_names(), "porep, window-post, winning-post or snap-update");
  auto bad = find_proof_kind("post", "--kind");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "--kind: porep, window-post, winning-post or snap-update");
  EXPECT_EQ(kind("winning-post").default_priority(), 20);
  EXPECT_EQ(kind("window-post").default_priority(), 10);
  EXPECT_TRUE(kind("porep").always_verify());
}

TEST(KindTable, PublishedShapesNameFilecoinsFilesAndTheirCircuitsInputs) {
  for (const ProofKind* k : proof_kinds()) {
    const auto shapes = k->published_shapes();
    EXPECT_EQ(shapes.size(), 5u) << k->name();  // 2KiB, 8MiB, 512MiB, 32GiB, 64GiB
    for (const KindShape& s : shapes) {
      SCOPED_TRACE(std::string(k->name()) + " " + s.size.name);
      EXPECT_TRUE(find_published(s.params_stem + ".params").has_value());
      EXPECT_TRUE(find_published(s.params_stem + ".vk").has_value());
      if (!k->quick_to_count(s)) continue;
      auto counted = count_key_sections(*k->blank_circuit(s));
      ASSERT_TRUE(counted.ok()) << counted.status().to_string();
      EXPECT_EQ(counted->ic, s.inputs);
      if (auto pinned = k->pinned_key_sections(s)) {
        EXPECT_EQ(pinned->ic, counted->ic);
        EXPECT_EQ(pinned->h, counted->h);
        EXPECT_EQ(pinned->l, counted->l);
        EXPECT_EQ(pinned->a, counted->a);
        EXPECT_EQ(pinned->b, counted->b);
      }
    }
  }
  EXPECT_FALSE(kind("winning-post").shape(*find_sector_size("4KiB")).ok());
  EXPECT_TRUE(kind("porep").shape(*find_sector_size("4KiB"))->params_stem.empty());  // a test size
}

/// 2 KiB inputs of every kind, sealed here once.
struct Inputs {
  std::string porep, window, winning, update;
};

std::string text_of(const std::vector<std::uint8_t>& b) { return std::string(b.begin(), b.end()); }

const Inputs& inputs() {
  static const Inputs in = [] {
    Inputs out;
    auto rng = zk::test::rng(4343);
    const auto sealed = test::seal_random_two_kib(rng, 21);
    EXPECT_TRUE(sealed.sector.has_value());
    // PoRep: the C1 of the sector.
    const auto seal_proof = *find_registered_seal_proof("StackedDrg2KiBV1_1");
    auto ctx = c1_context(seal_proof);
    sdr::Bytes32 seed;
    seed.fill(3);
    auto c1 = make_c1(seal_proof, *ctx, *sealed.sector, seed, sealed.in.ticket);
    EXPECT_TRUE(c1.ok()) << c1.status().to_string();
    out.porep = c1_json(*c1);
    // PoSt: the sector's vanilla proof for a randomness.
    for (const char* name : {"StackedDrgWindow2KiBV1_2", "StackedDrgWinning2KiBV1"}) {
      PostInput p;
      p.proof = *find_registered_post_proof(name);
      p.randomness.fill(9);
      p.randomness[31] &= 0x3f;
      auto v = make_post_sector_proof(p.proof, p.randomness, sealed.in.sector_id, sealed.shape, *sealed.sector, 0);
      EXPECT_TRUE(v.ok()) << v.status().to_string();
      p.sectors.push_back(std::move(*v));
      (p.proof.winning ? out.winning : out.window) = post_input_json(p);
    }
    // SnapDeals: the sector updated with random data.
    std::vector<Fr> replica_old, data_new;
    for (const auto& node : sealed.sector->replica.replica)
      replica_old.push_back(*Fr::from_bytes(node, field::Endian::kLittle));
    const auto shape = *update_shape(2048);
    for (std::uint64_t i = 0; i < shape.nodes; ++i) data_new.push_back(Fr::from_u64(rng.next() >> 2));
    const Fr comm_c = *Fr::from_bytes(sealed.sector->replica.comm_c, field::Endian::kLittle);
    auto u = update_in_memory(shape, update_h_default(shape), comm_c, replica_old, data_new);
    EXPECT_TRUE(u.ok()) << u.status().to_string();
    UpdateInput up{*find_registered_update_proof("0"), shape, u->comm_r_old, u->comm_d_new, u->comm_r_new, {}};
    for (unsigned k = 0; k < shape.partitions; ++k) up.partitions.push_back(*make_update_partition_proof(shape, *u, k));
    out.update = update_input_json(up);
    return out;
  }();
  return in;
}

void expect_proves(const ProofKind& k, const std::string& text) {
  SCOPED_TRACE(std::string(k.name()));
  auto in = k.parse(text);
  ASSERT_TRUE(in.ok()) << in.status().to_string();
  ASSERT_TRUE((*in)->check().ok()) << (*in)->check().to_string();
  auto shape = k.shape((*in)->size());
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ((*in)->partitions(), shape->partitions);
  for (std::size_t p = 0; p < (*in)->partitions(); ++p) {
    auto circuit = (*in)->circuit(p);
    auto want = (*in)->public_inputs(p);
    ASSERT_TRUE(circuit.ok() && want.ok());
    r1cs::TestSystem<Fr> cs;
    ASSERT_TRUE((*circuit)->synthesize(cs).ok());
    EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
    ASSERT_EQ(cs.inputs().size(), shape->inputs);
    ASSERT_EQ(want->size() + 1, shape->inputs);
    for (std::size_t i = 0; i < want->size(); ++i) EXPECT_EQ(cs.inputs()[i + 1], (*want)[i]) << "input " << i;
  }
}

TEST(Kinds, EachKindsInputChecksAndEveryPartitionSatisfiesItsCircuit) {
  expect_proves(kind("porep"), inputs().porep);
  expect_proves(kind("window-post"), inputs().window);
  expect_proves(kind("winning-post"), inputs().winning);
  expect_proves(kind("snap-update"), inputs().update);
}

TEST(Kinds, PorepVerifyPlansOfOneOrSeveralSectorsNameTheirAggregatesStatement) {
  // One C1: its partitions, bound (as an aggregate of this sector alone) to sha256(seed || comm_r).
  // Several: every sector's partitions in order, sha256 over all; a non-interactive sector among
  // interactive ones is refused.
  const auto dir = std::filesystem::temp_directory_path() / ("zkpipe-plan-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    const auto path = (dir / name).string();
    std::ofstream(path) << text;
    return path;
  };
  auto other = nlohmann::json::parse(inputs().porep);
  other["seed"][0] = (other["seed"][0].get<int>() + 1) % 256;
  const std::string a = write("a.json", inputs().porep), b = write("b.json", other.dump());
  const ProofKind& k = *find_proof_kind("porep", "test").value();
  auto one = k.verify_plan({{"c1", {a}}});
  auto other_one = k.verify_plan({{"c1", {b}}});
  auto both = k.verify_plan({{"c1", {a, b}}});
  ASSERT_TRUE(one.ok() && other_one.ok() && both.ok()) << both.status().to_string();
  const auto c1a = parse_c1(inputs().porep).value().c1, c1b = parse_c1(other.dump()).value().c1;
  const AggregatedSector sa{c1a.comm_r, c1a.seed}, sb{c1b.comm_r, c1b.seed};
  ASSERT_TRUE(one->aggregate_transcript_input.has_value());
  EXPECT_EQ(*one->aggregate_transcript_input, seal_transcript_input(std::span(&sa, 1), false));
  const AggregatedSector pair[] = {sa, sb};
  EXPECT_EQ(*both->aggregate_transcript_input, seal_transcript_input(pair, false));
  ASSERT_EQ(both->partitions.size(), 2u);
  EXPECT_EQ(both->public_inputs(0).value(), one->public_inputs(0).value());
  EXPECT_EQ(both->public_inputs(1).value(), other_one->public_inputs(0).value());
  EXPECT_NE(both->public_inputs(1).value(), one->public_inputs(0).value());  // another seed: other challenges
  EXPECT_EQ(both->what, "2 sectors of 2KiB PoRep, ");
  // The same two sectors from their public values (one prover id and registered proof, the rest
  // repeated in sector order) give the same plan as their C1s.
  std::vector<std::string> paths;
  KindOptions values{{"registered-proof", {"5"}}, {"sector-size", {"2KiB"}}};
  for (const char* n : {"7", "8"}) {
    auto g = k.generate({{"registered-proof", {"5"}}, {"sector-number", {n}}, {"data-seed", {n}}});
    ASSERT_TRUE(g.ok()) << g.status().to_string();
    paths.push_back(write(std::string("g") + n + ".json", g->text));
    const auto j = nlohmann::json::parse(g->json);
    values["prover-id"] = {j["prover_id"].get<std::string>()};
    values["sector-number"].push_back(n);
    for (const char* f : {"ticket", "seed", "comm_d", "comm_r"}) {
      std::string opt = f;
      std::replace(opt.begin(), opt.end(), '_', '-');
      values[opt].push_back(j[f].get<std::string>());
    }
  }
  auto from_c1s = k.verify_plan({{"c1", paths}});
  auto from_values = k.verify_plan(values);
  ASSERT_TRUE(from_c1s.ok() && from_values.ok()) << from_values.status().to_string();
  EXPECT_EQ(*from_c1s->aggregate_transcript_input, *from_values->aggregate_transcript_input);
  ASSERT_EQ(from_values->partitions.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_EQ(from_c1s->public_inputs(i).value(), from_values->public_inputs(i).value());
  values["seed"].pop_back();
  auto short_values = k.verify_plan(values);
  ASSERT_FALSE(short_values.ok());
  EXPECT_NE(short_values.status().message().find("--seed"), std::string::npos) << short_values.status().message();

  auto ni = k.generate({{"registered-proof", {"15"}}});
  ASSERT_TRUE(ni.ok()) << ni.status().to_string();
  auto mixed = k.verify_plan({{"c1", {a, write("ni.json", ni->text)}}});
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.status().message().find("interactive or not"), std::string::npos) << mixed.status().message();
  auto ni_plan = k.verify_plan({{"c1", {write("ni2.json", ni->text)}}});
  ASSERT_TRUE(ni_plan.ok());
  const auto c1n = parse_c1(ni->text).value().c1;
  const AggregatedSector sn{c1n.comm_r, {}};
  EXPECT_EQ(*ni_plan->aggregate_transcript_input, seal_transcript_input(std::span(&sn, 1), true));
  std::filesystem::remove_all(dir);
}

TEST(Kinds, AnotherKindsInputIsRefused) {
  auto w = kind("window-post").parse(inputs().winning);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("is not a window-post proof"), std::string::npos) << w.status().message();
  EXPECT_FALSE(kind("porep").parse(inputs().window).ok());
  EXPECT_FALSE(kind("snap-update").parse(inputs().porep).ok());
}

/// cuzk.v1's payload of a JSON input of vanilla proofs: the bincode bytes Curio sends (`store` owns
/// them; the payload views them, as it views a request).
WirePayload payload_of(const std::string& json, std::vector<std::string>& store) {
  const auto j = nlohmann::json::parse(json);
  WirePayload p;
  p.registered_proof = j["registered_proof"].get<std::uint64_t>();
  p.sector_size = 2048;
  store.clear();
  for (const auto& v : j["vanilla_proofs"]) store.push_back(text_of(*base64_decode(v.get<std::string>())));
  for (const auto& v : store) p.vanilla_proofs.emplace_back(v);
  return p;
}

TEST(Kinds, CuzkPayloadsMakeTheSameInputs) {
  {  // WindowPoSt: randomness and partition index beside the vanilla proofs.
    std::vector<std::string> store, store2;
    WirePayload p = payload_of(inputs().window, store);
    const auto r = *parse_hex32("randomness", nlohmann::json::parse(inputs().window)["randomness"].get<std::string>());
    std::string randomness(r.begin(), r.end());
    p.randomness = randomness;
    auto job = kind("window-post").from_wire(p);
    ASSERT_TRUE(job.ok()) << job.status().to_string();
    EXPECT_EQ(job->shape, "2KiB");
    EXPECT_EQ(job->partitions, 1u);
    EXPECT_EQ(job->registered_proof, 10u);
    auto a = kind("window-post").parse(text_of(job->input));
    auto b = kind("window-post").parse(inputs().window);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(*(*a)->public_inputs(0), *(*b)->public_inputs(0));
    EXPECT_TRUE((*a)->check().ok());
    p.randomness.remove_suffix(1);
    EXPECT_FALSE(kind("window-post").from_wire(p).ok());
    EXPECT_FALSE(kind("winning-post").from_wire(payload_of(inputs().window, store2)).ok());  // a Window proof number
  }
  {  // SnapDeals: the three commitments.
    std::vector<std::string> store;
    WirePayload p = payload_of(inputs().update, store);
    const auto j = nlohmann::json::parse(inputs().update);
    std::string comms[3];
    std::string_view* out[3] = {&p.comm_r_old, &p.comm_d_new, &p.comm_r_new};
    const char* fields[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
    for (int i = 0; i < 3; ++i) {
      const auto b = *parse_hex32(fields[i], j[fields[i]].get<std::string>());
      comms[i].assign(b.begin(), b.end());
      *out[i] = comms[i];
    }
    auto job = kind("snap-update").from_wire(p);
    ASSERT_TRUE(job.ok()) << job.status().to_string();
    auto a = kind("snap-update").parse(text_of(job->input));
    ASSERT_TRUE(a.ok()) << a.status().to_string();
    EXPECT_TRUE((*a)->check().ok());
    p.sector_size = 0;
    auto refused = kind("snap-update").from_wire(p);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.status().message().find("it is required"), std::string::npos);
  }
  {  // PoRep: the C1 as it is.
    WirePayload p;
    p.registered_proof = 5;
    p.sector_size = 2048;
    p.vanilla_proof = inputs().porep;
    auto job = kind("porep").from_wire(p);
    ASSERT_TRUE(job.ok()) << job.status().to_string();
    EXPECT_EQ(text_of(job->input), inputs().porep);
    EXPECT_EQ(job->partitions, 1u);
  }
}

}  // namespace
}  // namespace zk::circuits::filecoin
