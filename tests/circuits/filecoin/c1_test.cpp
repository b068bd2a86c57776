// Filecoin's C1 (SealCommitPhase1Output JSON and cuzk's wrapper): a sealed 2 KiB sector's C1 is
// written in filecoin-proofs-api's layout, read back unchanged, checked natively, and its witness
// satisfies the exact circuit with the public inputs of the sector's public values. Every kind of
// damage is refused with the field named. And Filecoin's parameter-file names.

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "base/base64.hpp"
#include "circuits/filecoin/parameter_files.hpp"
#include "circuits/filecoin/porep/c1.hpp"
#include "circuits/filecoin/porep/synthetic_c1.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/test_cs.hpp"
#include "sealed_sector.hpp"
#include "test_util.hpp"

namespace zk::circuits::filecoin {
namespace {

struct Fixture {
  test::SealedTwoKib sealed;
  RegisteredSealProof proof = *find_registered_seal_proof("StackedDrg2KiBV1_1");
  std::optional<C1Context> ctx;
  C1 c1;
};

const Fixture& fixture() {
  static const Fixture f = [] {
    Fixture f;
    auto rng = zk::test::rng(171);
    f.sealed = test::seal_random_two_kib(rng, 42);
    auto ctx = c1_context(f.proof);
    EXPECT_TRUE(ctx.ok());
    f.ctx.emplace(std::move(*ctx));
    Bytes32 seed;
    seed.fill(7);
    auto c1 = make_c1(f.proof, *f.ctx, *f.sealed.sector, seed, f.sealed.in.ticket);
    EXPECT_TRUE(c1.ok()) << c1.status().to_string();
    f.c1 = std::move(*c1);
    return f;
  }();
  return f;
}

Status check_text(const std::string& text) {
  auto in = parse_c1(text);
  if (!in.ok()) return in.status();
  auto ctx = c1_context(in->c1.registered_proof);
  if (!ctx.ok()) return ctx.status();
  return check_c1(in->c1, *ctx);
}

/// Replaces the first occurrence of `from` after `anchor` (both must exist).
std::string replace_after(std::string s, const std::string& anchor, const std::string& from, const std::string& to) {
  const auto a = s.find(anchor);
  EXPECT_NE(a, std::string::npos) << anchor;
  const auto p = s.find(from, a + anchor.size());
  EXPECT_NE(p, std::string::npos) << from;
  s.replace(p, from.size(), to);
  return s;
}

/// The first byte of the 32-byte array that follows `key` changed.
std::string bump_first_byte(std::string s, const std::string& key) {
  const auto at = s.find(key);
  EXPECT_NE(at, std::string::npos) << key;
  const auto start = at + key.size();
  const auto end = s.find(',', start);
  const int v = std::stoi(s.substr(start, end - start));
  s.replace(start, end - start, std::to_string((v + 1) % 256));
  return s;
}

TEST(C1, ASealedSectorsC1IsWrittenInFilecoinsLayoutAndReadsBackUnchanged) {
  const auto& f = fixture();
  ASSERT_TRUE(check_c1(f.c1, *f.ctx).ok()) << check_c1(f.c1, *f.ctx).to_string();
  const std::string text = c1_json(f.c1);
  EXPECT_EQ(text.rfind("{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[[{"
                       "\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":[",
                       0),
            0u);
  EXPECT_NE(text.find("\"rows\":[[") , std::string::npos);
  EXPECT_NE(text.find("],\"_h\":null},\"inclusion_proof\":{\"data\":{\"Single\":"), std::string::npos);
  EXPECT_NE(text.find("]]},\"comm_r\":["), std::string::npos);
  auto back = parse_c1(text);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_FALSE(back->wrapped);
  EXPECT_EQ(c1_json(back->c1), text);
  // The wrapper: Go's layout, base64 of the same bytes.
  const std::string wrapped = c1_wrapper_json(f.c1, 42);
  EXPECT_EQ(wrapped.rfind("{\"SectorNum\":42,\"Phase1Out\":\"eyJyZWdpc3RlcmVkX3Byb29mIjoiU3RhY2tlZERyZzJLaUJWMV8xIiwid", 0), 0u);
  EXPECT_NE(wrapped.find("\",\"SectorSize\":2048}"), std::string::npos);
  auto unwrapped = parse_c1(wrapped);
  ASSERT_TRUE(unwrapped.ok()) << unwrapped.status().to_string();
  EXPECT_TRUE(unwrapped->wrapped);
  EXPECT_EQ(unwrapped->sector_num, 42u);
  EXPECT_EQ(c1_json(unwrapped->c1), text);
}

TEST(C1, ItsWitnessSatisfiesTheCircuitWithTheSectorsPublicInputs) {
  const auto& f = fixture();
  auto w = c1_witness(f.c1, *f.ctx, 0);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  r1cs::TestSystem<Fr> cs;
  ASSERT_TRUE(synthesize_stacked(cs, f.ctx->shape, *w).ok());
  EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
  // The inputs are those of the public values alone (replica id recomputed from prover, sector, ticket).
  const auto& sector = *f.sealed.sector;
  const auto replica_id = sdr::replica_id(f.sealed.in.prover_id, 42, f.sealed.in.ticket, sector.replica.comm_d,
                                          f.proof.porep_id());
  EXPECT_EQ(replica_id, f.c1.replica_id);
  auto pub = c1_public_inputs(f.c1, *f.ctx, 0);
  ASSERT_TRUE(pub.ok());
  ASSERT_EQ(cs.inputs().size(), pub->size() + 1);
  for (std::size_t i = 0; i < pub->size(); ++i) EXPECT_EQ(cs.inputs()[i + 1], (*pub)[i]) << "input " << i;
}

TEST(C1, KeysInAnyOrderAndUnknownKeysAreAccepted) {
  const auto& f = fixture();
  std::string text = c1_json(f.c1);
  // Curio's Go re-encoding puts comm_d first; serde ignores unknown keys.
  const auto comm_d_at = text.find(",\"comm_d\":");
  const auto replica_at = text.find(",\"replica_id\":");
  const std::string comm_d = text.substr(comm_d_at + 1, replica_at - comm_d_at - 1);
  text.erase(comm_d_at, replica_at - comm_d_at);
  text.insert(1, comm_d + ",\"extra\":{\"a\":[1,2.5e3,\"x\",null,true]},");
  ASSERT_TRUE(check_text(text).ok()) << check_text(text).to_string();
}

TEST(C1, DamageIsRefusedWithTheFieldNamed) {
  const auto& f = fixture();
  const std::string text = c1_json(f.c1);
  struct Case {
    std::string text, expect;
  };
  std::vector<Case> cases = {
      {text.substr(0, text.size() / 2), "unexpected end"},
      {text + "x", "trailing data"},
      {replace_after(text, "\"registered_proof\":\"", "StackedDrg2KiBV1_1", "StackedDrg2KiBV9"), "unknown registered"},
      {replace_after(text, "\"registered_proof\":\"", "StackedDrg2KiBV1_1", "StackedDrg8MiBV1_1"), "does not match"},
      {replace_after(text, "\"seed\":[", "7,", "8,"), "the challenge drawn for it is node"},
      {replace_after(text, "\"seed\":[", "7,", "300,"), "seed: byte 0 is 300"},
      {replace_after(text, "\"ticket\":[", ",", ",1,"), "ticket: more than 32 bytes"},
      {replace_after(text, "\"drg_parents\":[{", "\"hashes\":[[", "\"hashes\":[[1,"), "more than 32 bytes"},
      {bump_first_byte(text, "\"comm_r\":["), "comm_r is not Poseidon"},
      {bump_first_byte(text, "\"replica_id\":["), "but the challenge drawn for it is node"},
      {replace_after(text, "\"replica_column_proofs\"", "\"index\":", "\"index\":1"), "c_x: column of node"},
      {replace_after(text, "\"exp_parents\":[", "\"inclusion_proof\":{\"data\":{\"Single\":{\"root\":[", "\"inclusion_proof\":{\"data\":{\"Single\":{\"root\":[1,"), ""},
      {replace_after(text, "\"labeling_proofs\":[", "\"layer_index\":1", "\"layer_index\":2"), "labeling_proofs[0]"},
      {replace_after(text, "\"encoding_proof\":", "\"layer_index\":2", "\"layer_index\":1"), "encoding_proof"},
      {replace_after(text, "\"comm_d_proofs\"", "\"Single\"", "\"Double\""), "unknown proof kind"},
      {replace_after(text, "\"comm_d_proofs\"", "\"index\":", "\"index\":0,\"index\":"), "duplicate key \"index\""},
      {replace_after(text, "{\"column\":", "\"rows\"", "\"rowz\""), "missing field \"rows\""},
      {"{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":2048}", "Phase1Out: missing field"},
      {"{\"SectorNum\":1,\"Phase1Out\":\"e30\",\"SectorSize\":2048}", "base64"},
      {"{\"SectorNum\":1,\"Phase1Out\":\"" + base64_encode(std::span<const std::uint8_t>(
                                                  reinterpret_cast<const std::uint8_t*>(text.data()), text.size())) +
           "\",\"SectorSize\":4096}",
       "SectorSize 4096"},
      {std::string(100, '[') + std::string(100, ']'), "expected an object"},
      {"{\"a\":" + std::string(100, '[') + std::string(100, ']') + "}", "nested deeper"},
  };
  for (const auto& c : cases) {
    const Status st = check_text(c.text);
    EXPECT_FALSE(st.ok()) << c.expect;
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.to_string();
    EXPECT_NE(st.message().find(c.expect), std::string::npos) << "expected '" << c.expect << "' in: " << st.message();
  }
}

TEST(C1, ZeroCommitmentsAWrongPartitionCountAndOtherChallengesAreRefused) {
  const auto& f = fixture();
  auto refuse = [&](C1 c1, const std::string& expect) {
    const Status st = check_c1(c1, *f.ctx);
    EXPECT_FALSE(st.ok()) << expect;
    EXPECT_NE(st.message().find(expect), std::string::npos) << st.message();
  };
  C1 c1 = f.c1;
  c1.seed = {};
  refuse(c1, "seed is all zeros");
  c1 = f.c1;
  c1.comm_d = {};
  refuse(c1, "comm_d is all zeros");
  c1 = f.c1;
  c1.vanilla_proofs.push_back(c1.vanilla_proofs[0]);
  refuse(c1, "2 partitions");
  c1 = f.c1;
  c1.vanilla_proofs[0].pop_back();
  refuse(c1, "1 challenge proofs");
  // The same proofs under another challenge mode (same graph here): other challenges.
  c1 = f.c1;
  c1.registered_proof = *find_registered_seal_proof("StackedDrg2KiBV1_1_Feat_SyntheticPoRep");
  refuse(c1, "the challenge drawn for it is node");
  // The comm_r of another sector: its proofs no longer hash to it.
  c1 = f.c1;
  c1.comm_r[0] ^= 1;
  refuse(c1, "comm_r is not Poseidon");
}

// Synthetic (10-14) and non-interactive (15-19) PoRep: the same circuit and keys, their own porep
// id (hence graph and replica id), challenges and (NI) partition count. A 2 KiB sector sealed
// under each gives a C1 that checks, round-trips, and whose partitions satisfy the circuit with
// the public inputs of the public values.
TEST(C1, SyntheticAndNonInteractiveSectorsProveWithTheirOwnChallenges) {
  for (const char* name : {"StackedDrg2KiBV1_1_Feat_SyntheticPoRep", "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"}) {
    SCOPED_TRACE(name);
    const auto proof = *find_registered_seal_proof(name);
    auto rng = zk::test::rng(proof.id);
    auto sealed = test::seal_random_two_kib(rng, 42, proof.porep_id());
    ASSERT_TRUE(sealed.sector.has_value());
    auto ctx = c1_context(proof);
    ASSERT_TRUE(ctx.ok());
    Bytes32 seed;
    seed.fill(1);  // what the chain passes for NI-PoRep
    auto c1 = make_c1(proof, *ctx, *sealed.sector, seed, sealed.in.ticket);
    ASSERT_TRUE(c1.ok()) << c1.status().to_string();
    const bool ni = proof.challenges == PorepChallenges::kNonInteractive;
    EXPECT_EQ(c1->vanilla_proofs.size(), ni ? 13u : 1u);
    ASSERT_TRUE(check_c1(*c1, *ctx).ok()) << check_c1(*c1, *ctx).to_string();
    auto back = parse_c1(c1_json(*c1));
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_EQ(back->c1.registered_proof.id, proof.id);
    // The challenges: synthetic ones come from the set the seed selects from; NI ones ignore the seed.
    auto drawn = ctx->challenges(*c1, ni ? 12 : 0);
    ASSERT_TRUE(drawn.ok());
    if (ni) {
      EXPECT_EQ(*drawn, sdr::ni_challenges(c1->replica_id, c1->comm_r, 64, 12, 2));
      C1 other = *c1;
      other.seed.fill(9);
      EXPECT_EQ(*ctx->challenges(other, 12), *drawn);
    } else {
      auto synth = sdr::SyntheticChallenges::create(c1->replica_id, c1->comm_r, 64);
      ASSERT_TRUE(synth.ok());
      EXPECT_EQ(*drawn, *synth->select(seed, 0, 2));
    }
    const std::size_t k = ni ? 12 : 0;
    auto w = c1_witness(*c1, *ctx, k);
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    r1cs::TestSystem<Fr> cs;
    ASSERT_TRUE(synthesize_stacked(cs, ctx->shape, *w).ok());
    EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
    auto pub = c1_public_inputs(*c1, *ctx, k);
    ASSERT_TRUE(pub.ok());
    ASSERT_EQ(cs.inputs().size(), pub->size() + 1);
    for (std::size_t i = 0; i < pub->size(); ++i) EXPECT_EQ(cs.inputs()[i + 1], (*pub)[i]) << "input " << i;
    // Relabelled as interactive V1_1 (another porep id, graph and challenges), it is refused.
    C1 relabelled = *c1;
    relabelled.registered_proof = *find_registered_seal_proof("StackedDrg2KiBV1_1");
    EXPECT_FALSE(check_c1(relabelled, *c1_context(relabelled.registered_proof)).ok());
  }
}

TEST(C1, TheLegacyV1GraphIsCheckedWithItsOwnParents) {
  // A C1 of StackedDrg2KiBV1_1 relabelled V1 (API 1.0: other parents, other porep id) fails.
  const auto& f = fixture();
  C1 c1 = f.c1;
  c1.registered_proof = *find_registered_seal_proof("0");
  auto ctx = c1_context(c1.registered_proof);
  ASSERT_TRUE(ctx.ok());
  EXPECT_FALSE(check_c1(c1, *ctx).ok());
}

TEST(SyntheticC1, An8MibOneIsAcceptedAndSatisfiesTheCircuit) {
  const auto proof = *find_registered_seal_proof("StackedDrg8MiBV1_1");
  auto ctx = c1_context(proof);
  ASSERT_TRUE(ctx.ok());
  auto c1 = synthetic_c1(proof, *ctx, 3);
  ASSERT_TRUE(c1.ok()) << c1.status().to_string();
  ASSERT_TRUE(check_c1(*c1, *ctx).ok()) << check_c1(*c1, *ctx).to_string();
  auto w = c1_witness(*c1, *ctx, 0);
  ASSERT_TRUE(w.ok());
  r1cs::TestSystem<Fr> cs;
  ASSERT_TRUE(synthesize_stacked(cs, ctx->shape, *w).ok());
  EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
  auto pub = c1_public_inputs(*c1, *ctx, 0);
  ASSERT_TRUE(pub.ok());
  ASSERT_EQ(cs.inputs().size(), pub->size() + 1);
  for (std::size_t i = 0; i < pub->size(); ++i) EXPECT_EQ(cs.inputs()[i + 1], (*pub)[i]) << "input " << i;
}

TEST(SyntheticC1, ThirtyTwoAndSixtyFourGibOnesHaveFilecoinsSubAndTopProofs) {
  for (const char* name : {"StackedDrg32GiBV1_1", "StackedDrg64GiBV1_1"}) {
    const auto proof = *find_registered_seal_proof(name);
    auto ctx = c1_context(proof);
    ASSERT_TRUE(ctx.ok());
    auto c1 = synthetic_c1(proof, *ctx, 1);
    ASSERT_TRUE(c1.ok()) << c1.status().to_string();
    ASSERT_EQ(c1->vanilla_proofs.size(), 10u);
    ASSERT_EQ(c1->vanilla_proofs[9].size(), 18u);
    EXPECT_TRUE(check_c1(*c1, *ctx).ok()) << check_c1(*c1, *ctx).to_string();
    const std::string text = c1_json(*c1);
    const bool top = proof.size.top_arity != 0;
    EXPECT_NE(text.find(top ? "\"comm_r_last_proof\":{\"data\":{\"Top\":{\"base_proof\":{\"path\":["
                            : "\"comm_r_last_proof\":{\"data\":{\"Sub\":{\"base_proof\":{\"path\":["),
              std::string::npos);
    auto back = parse_c1(text);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_TRUE(check_c1(back->c1, *ctx).ok());
    EXPECT_EQ(c1_json(back->c1), text);
    std::printf("%s synthetic C1: %zu bytes of JSON\n", name, text.size());
  }
}

TEST(FilecoinParameterFiles, NamesReproduceThePublishedOnes) {
  // filecoin-proofs parameters.json (v28), the .params names of the five published PoRep sizes.
  const std::pair<const char*, const char*> published[] = {
      {"2KiB", "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
               "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"},
      {"8MiB", "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
               "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb"},
      {"512MiB", "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
                 "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472"},
      {"32GiB", "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
                "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820"},
      {"64GiB", "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
                "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2"},
  };
  for (const auto& [size, name] : published) EXPECT_EQ(stacked_params_stem(*find_sector_size(size)), name) << size;
}

TEST(FilecoinParameterFiles, PoStNamesReproduceThePublishedOnes) {
  // Every registered PoSt proof's files are in the published list (Window V1 and V1_2 share theirs).
  for (const auto& p : registered_post_proofs()) {
    for (const char* ext : {".params", ".vk"}) {
      const auto f = find_published(post_params_stem(p) + ext);
      ASSERT_TRUE(f.has_value()) << p.name << ext << ": " << post_params_stem(p);
      EXPECT_EQ(f->sector_size, p.size.bytes);
    }
  }
  EXPECT_EQ(post_params_stem(*find_registered_post_proof("StackedDrgWindow2KiBV1_2")),
            "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
            "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0");
}

TEST(FilecoinParameterFiles, ThePublishedListHasEveryPorepSizesParamsAndVk) {
  EXPECT_EQ(published_parameter_files().size(), 44u);
  for (const auto& size : sector_sizes()) {
    if (!size.published) continue;
    for (const char* ext : {".params", ".vk"}) {
      const auto f = find_published(stacked_params_stem(size) + ext);
      ASSERT_TRUE(f.has_value()) << size.name << ext;
      EXPECT_EQ(f->sector_size, size.bytes);
      EXPECT_EQ(std::string(f->digest).size(), 32u);
    }
  }
  EXPECT_FALSE(find_published("v28-nothing.params").has_value());
}

TEST(FilecoinParameterFiles, KeySectionsAreTheCircuits) {
  // The pinned table params check compares against, recomputed from the circuit (the larger sizes
  // are recomputed by `zkpipe circuit-info`, docs/filecoin-porep.md).
  for (const char* name : {"2KiB", "8MiB"}) {
    const auto size = *find_sector_size(name);
    const StackedShape s = stacked_shape(size);
    r1cs::DensitySystem<Fr> m;
    ASSERT_TRUE(synthesize_stacked(m, s, StackedWitness::blank(s)).ok());
    m.finish_with_input_rows();
    std::uint64_t domain = 1;
    while (domain < m.num_constraints()) domain *= 2;
    const auto k = stacked_key_sections(size);
    ASSERT_TRUE(k.has_value());
    EXPECT_EQ(k->ic, m.num_inputs()) << name;
    EXPECT_EQ(k->h, domain - 1) << name;
    EXPECT_EQ(k->l, m.num_aux()) << name;
    EXPECT_EQ(k->a, m.num_inputs() + m.a_aux_density()) << name;
    EXPECT_EQ(k->b, m.b_input_density() + m.b_aux_density()) << name;
  }
}

TEST(FilecoinRegisteredProofs, NumbersNamesAndPorepIds) {
  EXPECT_EQ(registered_seal_proofs().size(), 20u);
  auto p = find_registered_seal_proof("8");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->name, "StackedDrg32GiBV1_1");
  EXPECT_EQ(p->porep_id()[0], 8);
  EXPECT_EQ(p->vanilla_variant(), "StackedDrg32GiBV1");
  EXPECT_TRUE(find_registered_seal_proof("0")->legacy_graph());
  EXPECT_EQ(find_registered_seal_proof("stackeddrg64gibv1_2_feat_noninteractiveporep")->id, 19u);
  EXPECT_FALSE(find_registered_seal_proof("20").ok());
  // Miner 1000 = LEB128 e8 07 (cuzk / filecoin-ffi); 0 and 2^63 at the edges.
  const auto id = prover_id_from_miner(1000);
  EXPECT_EQ(id[0], 0xe8);
  EXPECT_EQ(id[1], 0x07);
  EXPECT_EQ(id[2], 0);
  EXPECT_EQ(prover_id_from_miner(0)[0], 0);
  EXPECT_EQ(prover_id_from_miner(std::uint64_t{1} << 63)[9], 0x01);
  EXPECT_FALSE(find_registered_seal_proof("").ok());
}

}  // namespace
}  // namespace zk::circuits::filecoin
