// The porep circuit family: native sealing agrees with the Filecoin-checked SDR labels, generated
// inputs satisfy every preset small enough, each kind of tampering is caught by the named
// constraint, the input file round-trips and rejects malformed or inconsistent content, counts are
// pinned, and a tiny partition proves and verifies.

#include <gtest/gtest.h>

#include "circuits/porep.hpp"
#include "circuits/porep_input.hpp"
#include "circuits/replicate.hpp"
#include "groth16/engine.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/test_cs.hpp"
#include "base/rng.hpp"

namespace zk::circuits::porep {
namespace {

Shape must_preset(const char* name) {
  auto s = preset(name);
  EXPECT_TRUE(s.ok());
  return *s;
}

struct Checked {
  bool satisfied;
  std::string failure;
  std::vector<Fr> inputs;
};

Checked check(const Shape& s, const PublicInputs& pub, const PartitionWitness& w) {
  r1cs::TestSystem<Fr> cs;
  const Status st = synthesize(cs, s, pub, w);
  EXPECT_TRUE(st.ok()) << st.to_string();
  return {cs.is_satisfied(), cs.which_is_unsatisfied().value_or(""), cs.inputs()};
}

Bytes32 seed_of(std::uint8_t b) {
  Bytes32 x;
  x.fill(b);
  return x;
}

TEST(Porep, PresetsValidateAndUnknownNamesAreRejected) {
  for (const auto& n : preset_names()) {
    auto s = preset(n);
    ASSERT_TRUE(s.ok()) << n;
    EXPECT_TRUE(s->validate().ok()) << n;
  }
  auto bad = preset("huge");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("tiny, small, bench, 32g"), std::string::npos);
  Shape s = must_preset("tiny");
  s.nodes = 32;
  EXPECT_NE(s.validate().message().find("power of 8"), std::string::npos);
  s = must_preset("tiny");
  s.parent_slots = 5;  // Poseidon-7 does not exist
  EXPECT_FALSE(s.validate().ok());
  s = must_preset("small");
  s.layers = 3;
  EXPECT_NE(s.validate().message().find("layers"), std::string::npos);
}

TEST(Porep, ShaLabelsAreTheSdrLabelsFilecoinUses) {
  // sdr::label_layers reproduces rust-fil-proofs' test labels (sdr_test); the porep sealer must
  // compute the same labels from field elements, for Filecoin's degrees and for reduced ones.
  for (const char* name : {"small", "bench"}) {
    const Shape s = must_preset(name);
    auto sec = random_sector(s, 7);
    ASSERT_TRUE(sec.ok());
    auto g = s.graph();
    ASSERT_TRUE(g.ok());
    const auto want = sdr::label_layers(*g, gadgets::field_to_fr32(sec->replica_id), s.layers, s.parent_slots);
    for (std::uint32_t l = 0; l < s.layers; ++l) {
      for (std::uint64_t i = 0; i < s.nodes; ++i)
        ASSERT_EQ(gadgets::field_to_fr32(sec->labels[l][i]), want[l][i]) << name << " layer " << l << " node " << i;
    }
  }
}

TEST(Porep, SealMatchesTheInMemoryReplicatorForFilecoinsShape) {
  // sdr::replicate seals with Filecoin's graph and 37 slots; the bench preset is that shape.
  const Shape s = must_preset("bench");
  auto sec = random_sector(s, 3);
  ASSERT_TRUE(sec.ok());
  auto g = s.graph();
  ASSERT_TRUE(g.ok());
  std::vector<Bytes32> data;
  for (const auto& d : sec->data) data.push_back(gadgets::field_to_fr32(d));
  auto tree = gadgets::Sha256Tree::build(data);
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ(gadgets::field_to_fr32(sec->comm_d), tree->root());
  sdr::SealInputs in;
  in.porep_id = s.porep_id();
  in.layers = s.layers;
  auto r = sdr::replicate(*g, data, in);
  ASSERT_TRUE(r.ok());
  SealIds ids;  // the same (zero) ids as `in`
  auto sec2 = seal(s, sec->data, ids);
  ASSERT_TRUE(sec2.ok());
  EXPECT_EQ(gadgets::field_to_fr32(sec2->comm_r), r->comm_r);
  EXPECT_EQ(gadgets::field_to_fr32(sec2->comm_c), r->comm_c);
  EXPECT_EQ(gadgets::field_to_fr32(sec2->comm_r_last), r->comm_r_last);
}

class PorepPreset : public ::testing::TestWithParam<const char*> {};

TEST_P(PorepPreset, GeneratedInputsSatisfyEveryPartition) {
  const Shape s = must_preset(GetParam());
  auto c1 = generate_c1(s, 11);
  ASSERT_TRUE(c1.ok()) << c1.status().to_string();
  for (std::uint32_t k = 0; k < s.partitions; ++k) {
    auto pub = c1->public_inputs(k);
    ASSERT_TRUE(pub.ok());
    EXPECT_TRUE(check_witness(s, *pub, c1->partitions[k]).ok());
    const auto r = check(s, *pub, c1->partitions[k]);
    EXPECT_TRUE(r.satisfied) << GetParam() << " partition " << k << ": " << r.failure;
    // The circuit's inputs are the derived public inputs, ONE first.
    const auto want = pub->to_field();
    ASSERT_EQ(r.inputs.size(), want.size() + 1);
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(r.inputs[i + 1], want[i]);
    if (std::string(GetParam()) == "small") break;  // one partition of the SHA-256 shape is enough
  }
}

TEST_P(PorepPreset, BlankAndRealWitnessesHaveOneShape) {
  const Shape s = must_preset(GetParam());
  auto c1 = generate_c1(s, 5);
  ASSERT_TRUE(c1.ok());
  auto pub = c1->public_inputs(0);
  ASSERT_TRUE(pub.ok());
  r1cs::ShapeRecorder<Fr> blank, real;
  ASSERT_TRUE(synthesize(blank, s, blank_public_inputs(s), blank_witness(s)).ok());
  ASSERT_TRUE(synthesize(real, s, *pub, c1->partitions[0]).ok());
  EXPECT_EQ(r1cs::shape_hash(blank.shape()), r1cs::shape_hash(real.shape()));
  EXPECT_EQ(blank.shape().num_inputs, 1 + s.num_public_inputs());
}

INSTANTIATE_TEST_SUITE_P(Presets, PorepPreset, ::testing::Values("tiny", "small"));

struct Counts {
  const char* name;
  std::size_t constraints, inputs, aux;
};

TEST(Porep, ConstraintCountsArePinned) {
  // docs/porep.md explains each count; a change here must update the table there.
  for (const Counts c : {Counts{"tiny", 14055, 11, 14171}, Counts{"small", 434977, 8, 434606},
                       Counts{"bench", 1344153, 19, 1343037}}) {
    const Shape s = must_preset(c.name);
    r1cs::MetricsSystem<Fr> m;
    ASSERT_TRUE(synthesize(m, s, blank_public_inputs(s), blank_witness(s)).ok());
    EXPECT_EQ(m.num_constraints(), c.constraints) << c.name;
    EXPECT_EQ(m.num_inputs(), c.inputs) << c.name;
    EXPECT_EQ(m.num_aux(), c.aux) << c.name;
  }
}

/// Tampering: a sealed tiny (Poseidon) and small (SHA-256) sector, with a mutation applied to a copy.
class Tamper : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    s_ = must_preset(GetParam());
    auto sec = random_sector(s_, 21);
    ASSERT_TRUE(sec.ok());
    sec_ = std::move(*sec);
    auto g = s_.graph();
    ASSERT_TRUE(g.ok());
    g_ = std::make_unique<sdr::ParentGraph>(*g);
    auto pub = derive_public_inputs(s_, *g_, sec_.replica_id, sec_.comm_d, sec_.comm_r, seed_of(1), 0);
    ASSERT_TRUE(pub.ok());
    pub_ = *pub;
    auto w = open_partition(sec_, *g_, seed_of(1), 0);
    ASSERT_TRUE(w.ok());
    w_ = *w;
    ASSERT_TRUE(check(s_, pub_, w_).satisfied);
  }
  void expect_caught(const PublicInputs& pub, const PartitionWitness& w, const std::string& where) {
    const auto r = check(s_, pub, w);
    EXPECT_FALSE(r.satisfied);
    EXPECT_NE(r.failure.find(where), std::string::npos) << "first failure: " << r.failure;
    EXPECT_FALSE(check_witness(s_, pub, w).ok());
  }
  Shape s_;
  Sector sec_;
  std::unique_ptr<sdr::ParentGraph> g_;
  PublicInputs pub_;
  PartitionWitness w_;
};

TEST_P(Tamper, WrongLabelInAColumn) {
  auto w = w_;
  w.challenges[0].columns[2].labels[0] = w.challenges[0].columns[2].labels[0] + Fr::one();
  expect_caught(pub_, w, "challenge 0/column 2/root is comm_c");
}

TEST_P(Tamper, WrongLabelWithConsistentTrees) {
  // A forger who changes a label of the challenged node and recommits everything: the openings
  // hold, the label derivation does not.
  Sector forged = sec_;
  const std::uint64_t c = pub_.nodes[0];
  forged.labels[0][c] = forged.labels[0][c] + Fr::one();
  commit(forged);
  auto pub = derive_public_inputs(s_, *g_, forged.replica_id, forged.comm_d, forged.comm_r, seed_of(1), 0);
  ASSERT_TRUE(pub.ok());
  auto w = open_partition(forged, *g_, seed_of(1), 0);
  ASSERT_TRUE(w.ok());
  expect_caught(*pub, *w, "challenge 0/label of layer 1/label = H(parents)");
}

TEST_P(Tamper, WrongPathElements) {
  auto w = w_;
  w.challenges[0].data_path[2] = w.challenges[0].data_path[2] + Fr::one();
  expect_caught(pub_, w, "challenge 0/comm_d path/root is comm_d");
  w = w_;
  w.challenges[0].replica_path[1][3] = w.challenges[0].replica_path[1][3] + Fr::one();
  expect_caught(pub_, w, "challenge 0/comm_r_last path/root is comm_r_last");
  w = w_;
  w.challenges[0].columns[0].path[0][0] = w.challenges[0].columns[0].path[0][0] + Fr::one();
  expect_caught(pub_, w, "challenge 0/column 0/root is comm_c");
}

TEST_P(Tamper, WrongCommR) {
  auto pub = pub_;
  pub.comm_r = pub.comm_r + Fr::one();
  expect_caught(pub, w_, "comm_r/comm_r = H(comm_c, comm_r_last)");
}

TEST_P(Tamper, WrongData) {
  auto w = w_;
  w.challenges[0].data = w.challenges[0].data + Fr::one();
  expect_caught(pub_, w, "challenge 0/comm_d path/root is comm_d");
}

TEST_P(Tamper, SwappedParents) {
  // Swap a base parent with an expander parent at another node: the columns no longer sit where
  // the public parent indices say.
  auto w = w_;
  auto& cols = w.challenges[0].columns;
  std::size_t other = 1 + s_.base_degree;
  while (other < cols.size() && cols[other].node == cols[1].node) ++other;
  ASSERT_LT(other, cols.size());
  std::swap(cols[1], cols[other]);
  expect_caught(pub_, w, "challenge 0/column 1/index bits pack to the public index");
}

TEST_P(Tamper, ChallengeFromAnotherSeed) {
  std::uint8_t other = 2;  // a seed whose first challenge is another node (1 in 63 are not)
  auto w = open_partition(sec_, *g_, seed_of(other), 0);
  while (w.ok() && w->challenges[0].node == pub_.nodes[0]) w = open_partition(sec_, *g_, seed_of(++other), 0);
  ASSERT_TRUE(w.ok());
  expect_caught(pub_, *w, "challenge 0/index bits pack to the public index");
}

TEST_P(Tamper, WrongSizesAreAnErrorNotACrash) {
  auto w = w_;
  w.challenges[0].columns.pop_back();
  r1cs::TestSystem<Fr> cs;
  const Status st = synthesize(cs, s_, pub_, w);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("challenges[0].columns"), std::string::npos) << st.message();
}

INSTANTIATE_TEST_SUITE_P(Presets, Tamper, ::testing::Values("tiny", "small"));

TEST(PorepInput, RoundTripsAndChecksEveryField) {
  const Shape s = must_preset("tiny");
  auto c1 = generate_c1(s, 4);
  ASSERT_TRUE(c1.ok());
  const std::string text = c1_to_json(*c1);
  auto back = c1_from_json(text, &s);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(c1_to_json(*back), text);

  auto expect_rejected = [&](std::string t, const std::string& needle) {
    auto r = c1_from_json(t, &s);
    ASSERT_FALSE(r.ok()) << needle;
    EXPECT_NE(r.status().message().find(needle), std::string::npos) << r.status().message();
  };
  auto replace_first = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const auto at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) t.replace(at, from.size(), to);
    return t;
  };
  expect_rejected("{", "not valid JSON");
  expect_rejected("[]", "the file: expected a JSON object");
  expect_rejected(replace_first("\"zkpipe-porep-c1\"", "\"other\""), "format");
  expect_rejected(replace_first("\"layers\": 2", "\"layers\": 3"), "shape");
  expect_rejected(replace_first("\"partitions\": 2", "\"partitions\": 1"), "shape");
  const std::string rid = "\"replica_id\": \"";
  const auto at = text.find(rid) + rid.size();
  std::string t = text;
  t[at] = 'x';
  expect_rejected(t, "replica_id: not a hex digit");
  t = text;
  t.replace(at, 64, std::string(64, 'f'));
  expect_rejected(t, "replica_id: not a canonical BLS12-381 scalar");
  // A changed label: named by the native check before any proving.
  const std::string lab = "\"labels\": [\n";
  const auto la = text.find("\"", text.find(lab) + lab.size()) + 1;
  t = text;
  t[la] = t[la] == '0' ? '1' : '0';
  expect_rejected(t, "partitions[0].challenges[0].columns[0]");
  // Another shape than the one expected.
  const Shape small = must_preset("small");
  auto other = c1_from_json(text, &small);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("generated for shape 'tiny'"), std::string::npos);
}

TEST(PorepProof, TinyPartitionsProveAndVerify) {
  using E = groth16::Bls12_381;
  const Shape s = must_preset("tiny");
  r1cs::ShapeRecorder<Fr> rec;
  ASSERT_TRUE(synthesize(rec, s, blank_public_inputs(s), blank_witness(s)).ok());
  Rng rng(9);
  auto pk = groth16::generate_parameters<E>(rec.shape(), groth16::Trapdoor<E>::random(rng));
  ASSERT_TRUE(pk.ok());
  const auto pvk = groth16::prepare_verifying_key(pk->vk);
  auto c1 = generate_c1(s, 8);
  ASSERT_TRUE(c1.ok());
  for (std::uint32_t k = 0; k < s.partitions; ++k) {
    auto pub = c1->public_inputs(k);
    ASSERT_TRUE(pub.ok());
    r1cs::ProvingSystem<Fr> cs;
    ASSERT_TRUE(synthesize(cs, s, *pub, c1->partitions[k]).ok());
    auto proof = groth16::prove(*pk, std::move(cs).finish(), Fr::from_u64(3 + k), Fr::from_u64(5 + k));
    ASSERT_TRUE(proof.ok()) << proof.status().to_string();
    const auto inputs = pub->to_field();
    auto ok = groth16::verify(pvk, *proof, inputs);
    ASSERT_TRUE(ok.ok());
    EXPECT_TRUE(*ok) << "partition " << k;
    // The other partition's public inputs do not verify this proof.
    auto other = c1->public_inputs((k + 1) % s.partitions);
    ASSERT_TRUE(other.ok());
    auto bad = groth16::verify(pvk, *proof, other->to_field());
    ASSERT_TRUE(bad.ok());
    EXPECT_FALSE(*bad);
  }
}

}  // namespace
}  // namespace zk::circuits::porep
