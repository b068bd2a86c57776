// A 2 KiB sector sealed natively (SDR labels, trees D / C / R-last) proves through the exact
// StackedCircuit: the test system is satisfied, its public inputs are exactly those derived from
// the public values alone, and tampered witnesses fail. And the real Filecoin 2 KiB proof of
// ../shared/testdata/filecoin/polka_2kib_porep.json (made by filecoin-proofs 18.1) verifies from
// its public values (prover id, sector number, ticket, seed, comm_d, comm_r); a changed value fails.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "circuits/filecoin/porep/sectors.hpp"
#include "circuits/filecoin/porep/vanilla.hpp"
#include "groth16/io.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/test_cs.hpp"
#include "sealed_sector.hpp"
#include "test_util.hpp"

namespace zk::circuits::filecoin {
namespace {

StackedShape two_kib() { return stacked_shape(*find_sector_size("2KiB")); }

// Replica nodes and Poseidon roots are canonical Fr values, not Fr32: read them without masking.
Fr as_field(const Bytes32& b) { return *Fr::from_bytes(b, field::Endian::kLittle); }

TEST(PorepVanilla, SealingIsConsistentDecodesAndRefusesBadData) {
  auto rng = zk::test::rng(120);
  auto sealed = test::seal_random_two_kib(rng, 42);
  ASSERT_TRUE(sealed.sector.has_value());
  const Replica& r = sealed.sector->replica;
  const auto& in = sealed.in;
  EXPECT_EQ(r.labels.size(), sealed.shape.layers);
  EXPECT_EQ(r.replica_id, sdr::replica_id(in.prover_id, 42, in.ticket, r.comm_d, in.porep_id));
  EXPECT_EQ(r.labels, sdr::label_layers(*sealed.graph, r.replica_id, sealed.shape.layers));
  EXPECT_EQ(r.comm_d[31] & 0xc0, 0);  // tree D's root is an Fr32
  for (std::size_t i = 0; i < r.data.size(); ++i) {  // decoding: data = replica - key (the last layer)
    EXPECT_EQ(as_field(r.replica[i]) - gadgets::fr32_to_field(r.labels.back()[i]), gadgets::fr32_to_field(r.data[i]))
        << i;
  }
  const Fr pair[2] = {as_field(r.comm_c), as_field(r.comm_r_last)};
  EXPECT_EQ(as_field(r.comm_r), *gadgets::poseidon_hash(pair));
  EXPECT_EQ(as_field(r.comm_c), sealed.sector->tree_c.root());
  EXPECT_EQ(as_field(r.comm_r_last), sealed.sector->tree_r.root());
  // Another sector id changes the replica id, hence every label and comm_r, but not comm_d.
  auto again = seal_in_memory(sealed.shape, *sealed.graph, r.data, SealInputs{in.prover_id, in.ticket, in.porep_id, 43});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->replica.comm_d, r.comm_d);
  EXPECT_NE(again->replica.comm_r, r.comm_r);
  // Bad data: a node that is not Fr32, the wrong number of nodes.
  auto bad = r.data;
  bad[3][31] |= 0x80;
  EXPECT_FALSE(seal_in_memory(sealed.shape, *sealed.graph, bad, in).ok());
  EXPECT_FALSE(seal_in_memory(sealed.shape, *sealed.graph, std::vector<Bytes32>(8), in).ok());
}

TEST(PorepVanilla, ASealedTwoKibSectorSatisfiesTheCircuit) {
  auto rng = zk::test::rng(121);
  const auto sealed_two_kib = test::seal_random_two_kib(rng, 4);
  ASSERT_TRUE(sealed_two_kib.sector.has_value());
  const StackedShape& s = sealed_two_kib.shape;
  const auto& graph = sealed_two_kib.graph;
  const auto& sealed = sealed_two_kib.sector;
  sdr::Bytes32 seed;
  seed.fill(3);
  const auto challenges = sdr::challenges(sealed->replica.replica_id, seed, s.nodes, 0, s.challenges);
  auto w = partition_witness(s, *graph, *sealed, challenges);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  r1cs::TestSystem<Fr> cs;
  ASSERT_TRUE(synthesize_stacked(cs, s, *w).ok());
  EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
  EXPECT_EQ(cs.num_constraints(), 2'687'921u);
  const PorepPublic pub{sealed->replica.replica_id, sealed->replica.comm_d, sealed->replica.comm_r};
  const auto expect = porep_public_inputs(s, *graph, pub, challenges);
  ASSERT_TRUE(expect.ok());
  ASSERT_EQ(cs.inputs().size(), expect->size() + 1);
  for (std::size_t i = 0; i < expect->size(); ++i) EXPECT_EQ(cs.inputs()[i + 1], (*expect)[i]) << "input " << i;
  // Tampering: a data leaf, a parent's label, a tree C sibling.
  for (int which = 0; which < 3; ++which) {
    auto bad = *w;
    auto& c = bad.challenges[1];
    if (which == 0) c.data_leaf = c.data_leaf + Fr::one();
    if (which == 1) c.drg[2].rows[0] = c.drg[2].rows[0] + Fr::one();
    if (which == 2) c.comm_c_path[0].siblings[3] = c.comm_c_path[0].siblings[3] + Fr::one();
    r1cs::TestSystem<Fr> t;
    ASSERT_TRUE(synthesize_stacked(t, s, bad).ok());
    EXPECT_FALSE(t.is_satisfied()) << "tampering " << which;
  }
}

sdr::Bytes32 bytes32(const std::string& hex) {
  const auto v = zk::test::from_hex(hex);
  sdr::Bytes32 out{};
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

TEST(PorepVanilla, TheRealPolkaTwoKibProofVerifiesFromItsPublicValues) {
  const auto dir = zk::test::shared_testdata();
  if (dir.empty()) GTEST_SKIP() << "shared testdata not found (../shared/testdata or ZKPIPE_TESTDATA)";
  const auto j = nlohmann::json::parse(zk::test::read_file(dir / "filecoin" / "polka_2kib_porep.json"));
  auto vk = groth16::read_verifying_key_compressed(zk::test::from_hex(j["vk_hex"].get<std::string>()));
  ASSERT_TRUE(vk.ok()) << vk.status().to_string();
  ASSERT_EQ(vk->ic.size(), 40u);
  auto proof = groth16::read_proofs<groth16::Bls12_381>(zk::test::from_hex(j["proof_hex"].get<std::string>()));
  ASSERT_TRUE(proof.ok());
  const auto pvk = groth16::prepare_verifying_key(*vk);
  const StackedShape s = two_kib();
  const auto porep_id = bytes32(j["porep_id_hex"].get<std::string>());
  auto graph = sdr::ParentGraph::create(s.nodes, porep_id, false);
  ASSERT_TRUE(graph.ok());
  auto inputs = [&](std::uint64_t sector, sdr::Bytes32 ticket, sdr::Bytes32 seed, sdr::Bytes32 comm_d,
                    sdr::Bytes32 comm_r) {
    const auto rid = sdr::replica_id(bytes32(j["prover_id_hex"].get<std::string>()), sector, ticket, comm_d, porep_id);
    const auto ch = sdr::challenges(rid, seed, s.nodes, j["partition"].get<std::uint32_t>(), s.challenges);
    return *porep_public_inputs(s, *graph, PorepPublic{rid, comm_d, comm_r}, ch);
  };
  const std::uint64_t sector = j["sector_number"].get<std::uint64_t>();
  const auto ticket = bytes32(j["ticket_hex"].get<std::string>()), seed = bytes32(j["seed_hex"].get<std::string>());
  const auto comm_d = bytes32(j["comm_d_hex"].get<std::string>()), comm_r = bytes32(j["comm_r_hex"].get<std::string>());
  auto ok = groth16::verify(pvk, (*proof)[0], inputs(sector, ticket, seed, comm_d, comm_r));
  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
  EXPECT_TRUE(*ok);
  auto changed = [](sdr::Bytes32 b) {
    b[0] ^= 1;
    return b;
  };
  EXPECT_FALSE(*groth16::verify(pvk, (*proof)[0], inputs(sector + 1, ticket, seed, comm_d, comm_r)));
  EXPECT_FALSE(*groth16::verify(pvk, (*proof)[0], inputs(sector, changed(ticket), seed, comm_d, comm_r)));
  EXPECT_FALSE(*groth16::verify(pvk, (*proof)[0], inputs(sector, ticket, changed(seed), comm_d, comm_r)));
  EXPECT_FALSE(*groth16::verify(pvk, (*proof)[0], inputs(sector, ticket, seed, changed(comm_d), comm_r)));
  EXPECT_FALSE(*groth16::verify(pvk, (*proof)[0], inputs(sector, ticket, seed, comm_d, changed(comm_r))));
}

}  // namespace
}  // namespace zk::circuits::filecoin
