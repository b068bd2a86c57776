// Filecoin's StackedCircuit against rust-fil-proofs' pins (storage-proofs-porep tests
// stacked_circuit.rs: 8 / 8 / 32 / 64 nodes, trees U2 / U8 / U8-U4 / U8-U4-U2, 2 layers, one
// challenge: 1,206,212 / 1,199,620 / 1,296,576 / 1,346,982 constraints and 22 inputs) and
// create_label's (532,025 with every bit allocated). The 32 GiB count (130,278,541, 328 inputs) is
// the `slow` test porep_32gib_count.

#include <gtest/gtest.h>

#include "circuits/filecoin/porep/sectors.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"
#include "r1cs/constraint_system.hpp"
#include "groth16/setup.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/test_cs.hpp"
#include "test_util.hpp"

namespace zk::circuits::filecoin {
namespace {

struct Pin {
  std::uint64_t nodes;
  std::vector<unsigned> tree;
  std::size_t constraints;
};

TEST(StackedCircuit, CountsMatchRustFilProofsTestPins) {
  for (const Pin& p : {Pin{8, {2, 2, 2}, 1'206'212}, Pin{8, {8}, 1'199'620}, Pin{32, {8, 4}, 1'296'576},
                       Pin{64, {8, 4, 2}, 1'346'982}}) {
    StackedShape s;
    s.nodes = p.nodes;
    s.layers = 2;
    s.challenges = 1;
    s.tree_c = {gadgets::TreeHasher::kPoseidon, p.tree};
    s.tree_d.hasher = gadgets::TreeHasher::kSha256;
    for (std::uint64_t n = p.nodes; n > 1; n /= 2) s.tree_d.arities.push_back(2);
    r1cs::MetricsSystem<Fr> m;
    ASSERT_TRUE(synthesize_stacked(m, s, StackedWitness::blank(s)).ok());
    EXPECT_EQ(m.num_constraints(), p.constraints) << p.nodes << " nodes";
    EXPECT_EQ(m.num_inputs(), 22u);
    EXPECT_EQ(m.num_inputs(), s.num_inputs());
  }
}

TEST(StackedCircuit, TwoKibPartitionCountsAsTheModelPredicts) {
  auto size = find_sector_size("2KiB");
  ASSERT_TRUE(size.ok());
  const StackedShape s = stacked_shape(*size);
  r1cs::MetricsSystem<Fr> m;
  ASSERT_TRUE(synthesize_stacked(m, s, StackedWitness::blank(s)).ok());
  // filecoin-circuits.md: "PoRep 2,687,921 constraints and 40 inputs" for 2 KiB.
  EXPECT_EQ(m.num_constraints(), 2'687'921u);
  EXPECT_EQ(m.num_inputs(), 40u);
}

// storage-proofs-porep create_label.rs test: 64 nodes, layer 3, node 22; the replica id and each
// of the 37 parents as 256 freshly allocated bits (9,728 allocations), the node a constant.
TEST(CreateLabel, CircuitMatchesThePinAndTheNativeLabel) {
  auto rng = zk::test::rng(111);
  r1cs::TestSystem<Fr> cs;
  std::vector<std::uint8_t> bytes(32 * 38);
  for (auto& b : bytes) b = static_cast<std::uint8_t>(rng.next());
  bytes[31] &= 0x3f;
  std::vector<Bit<Fr>> all;
  for (auto b : bytes) {
    for (int i = 7; i >= 0; --i) all.push_back(Bit<Fr>::alloc(cs, ((b >> i) & 1) != 0));
  }
  std::vector<Bit<Fr>> node;
  for (unsigned i = 0; i < 64; ++i) node.push_back(Bit<Fr>::of_constant(((std::uint64_t{22} >> i) & 1) != 0));
  const auto label = create_label_circuit(cs, std::span<const Bit<Fr>>(all).first(256),
                                          std::span<const Bit<Fr>>(all).subspan(256), 3, std::span<const Bit<Fr>>(node));
  EXPECT_EQ(cs.num_constraints(), 532'025u);
  EXPECT_TRUE(cs.is_satisfied()) << cs.which_is_unsatisfied().value_or("");
  // Native: SHA-256(replica_id || layer u32 BE || node u64 BE || zeros to 64 bytes || parents), Fr32.
  std::vector<std::uint8_t> msg(bytes.begin(), bytes.begin() + 32);
  for (int i = 3; i >= 0; --i) msg.push_back(static_cast<std::uint8_t>(3u >> (8 * i)));
  for (int i = 7; i >= 0; --i) msg.push_back(static_cast<std::uint8_t>(22ull >> (8 * i)));
  msg.resize(64, 0);
  msg.insert(msg.end(), bytes.begin() + 32, bytes.end());
  EXPECT_EQ(label.value, gadgets::fr32_to_field(gadgets::sha256_native(msg)));
}

// circuit-info predicts a proving key's sections from DensitySystem; they must be what the key
// generator makes (which filters identity points as bellperson does) — on a PoR circuit small
// enough for a setup here, over both hashers.
TEST(DensitySystem, PredictsTheKeySectionsOfTheGenerator) {
  auto rng = zk::test::rng(141);
  for (auto hasher : {gadgets::TreeHasher::kPoseidon, gadgets::TreeHasher::kSha256}) {
    const gadgets::TreeShape shape{hasher, {8}};
    const auto path = gadgets::blank_path(shape);
    r1cs::DensitySystem<Fr> d;
    ASSERT_TRUE(gadgets::por_circuit(d, shape, Fr::zero(), path, Fr::zero(), false).ok());
    d.finish_with_input_rows();
    r1cs::ShapeRecorder<Fr> rec;
    ASSERT_TRUE(gadgets::por_circuit(rec, shape, Fr::zero(), path, Fr::zero(), false).ok());
    auto pk = groth16::generate_parameters<groth16::Bls12_381>(rec.shape(),
                                                              groth16::Trapdoor<groth16::Bls12_381>::random(rng));
    ASSERT_TRUE(pk.ok());
    EXPECT_EQ(pk->vk.ic.size(), d.num_inputs());
    EXPECT_EQ(pk->l.size(), d.num_aux());
    EXPECT_EQ(pk->a.size(), d.num_inputs() + d.a_aux_density());
    EXPECT_EQ(pk->b_g1.size(), d.b_input_density() + d.b_aux_density());
    EXPECT_EQ(pk->b_g2.size(), pk->b_g1.size());
    EXPECT_EQ(rec.shape().qap_rows(), d.num_constraints());
  }
}

}  // namespace
}  // namespace zk::circuits::filecoin
