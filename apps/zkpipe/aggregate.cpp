#include "aggregate.hpp"

#include <nlohmann/json.hpp>

#include <chrono>

#include "base/file.hpp"
#include "base/hex.hpp"
#include "circuits/filecoin/commitment.hpp"
#include "circuits/filecoin/porep/aggregation.hpp"
#include "circuits/filecoin/porep/c1.hpp"
#include "engine/aggregation_workload.hpp"
#include "groth16/io.hpp"
#include "output.hpp"
#include "snarkpack/aggregate_proof.hpp"
#include "snarkpack/filecoin.hpp"
#include "snarkpack/verify.hpp"

namespace zk::app {
namespace {

std::string hex_of(const snarkpack::Fr& x) { return hex_encode(x.to_bytes(field::Endian::kLittle)); }

Result<std::vector<std::uint8_t>> from_hex(const std::string& text) { return hex_decode(text, "--transcript-input"); }

}  // namespace

bool looks_like_aggregate(const std::vector<std::uint8_t>& bytes) {
  constexpr std::size_t at = 5 * snarkpack::kGtCompressedBytes + 48;  // nproofs, after com_ab, com_c, ip_ab, agg_c
  if (bytes.size() < at + 4) return false;
  const std::uint32_t n = std::uint32_t{bytes[at]} | std::uint32_t{bytes[at + 1]} << 8 |
                          std::uint32_t{bytes[at + 2]} << 16 | std::uint32_t{bytes[at + 3]} << 24;
  return n >= 2 && n <= snarkpack::kMaxAggregatedProofs && (n & (n - 1)) == 0 &&
         bytes.size() == snarkpack::aggregate_proof_bytes(n);
}

int run_inspect_aggregate(const std::string& path, const std::vector<std::uint8_t>& bytes,
                          const InspectAggregateArgs& a) {
  if (a.version != "v1" && a.version != "v2") return fail("--version: v1 or v2 (SnarkPack's AggregateVersion)", a.json);
  auto proof = snarkpack::read_aggregate_proof(bytes);
  if (!proof.ok()) return fail(path + ": not an aggregate proof (" + proof.status().message() + ")", a.json);
  nlohmann::json out{
      {"file", path}, {"kind", "snarkpack aggregate proof"}, {"nproofs", proof->gipa.nproofs}, {"bytes", bytes.size()}};
  if (a.transcript_input.empty()) {
    out["checked"] = false;
    if (a.json) {
      std::printf("%s\n", out.dump().c_str());
    } else {
      std::printf("%s: SnarkPack aggregate of %u proofs (%zu bytes); --transcript-input HEX runs the SRS-free checks\n",
                  path.c_str(), proof->gipa.nproofs, bytes.size());
    }
    return 0;
  }
  auto include = from_hex(a.transcript_input);
  if (!include.ok()) return fail(include.status().message(), a.json);
  const auto version = a.version == "v1" ? snarkpack::Version::kV1 : snarkpack::Version::kV2;
  const snarkpack::Derived d = snarkpack::derive(*proof, *include, version);
  const snarkpack::SrsFreeChecks c = snarkpack::check_srs_free(*proof, d);
  nlohmann::json challenges = nlohmann::json::array();
  for (const auto& x : d.challenges) challenges.push_back(hex_of(x));
  out["version"] = a.version;
  out["hcom"] = hex_of(d.hcom);
  out["r"] = hex_of(d.r);
  out["challenges"] = challenges;
  out["final_r"] = hex_of(d.final_r);
  out["srs_free_checks"] = {{"tipp_z", c.tipp_z}, {"tipp_t", c.tipp_t}, {"tipp_u", c.tipp_u},
                            {"mipp_z", c.mipp_z}, {"mipp_t", c.mipp_t}, {"mipp_u", c.mipp_u}};
  out["ok"] = c.all();
  out["checked"] = "SRS-free TIPP/MIPP equations only (not the KZG openings, not the Groth16 equation)";
  if (a.json) {
    std::printf("%s\n", out.dump().c_str());
  } else {
    std::printf("%s: SnarkPack %s aggregate of %u proofs (%zu bytes)\n", path.c_str(), a.version.c_str(),
                proof->gipa.nproofs, bytes.size());
    std::printf("hcom    %s\nr       %s\n", hex_of(d.hcom).c_str(), hex_of(d.r).c_str());
    for (std::size_t i = 0; i < d.challenges.size(); ++i)
      std::printf("c_%-5zu %s\n", i, hex_of(d.challenges[i]).c_str());
    std::printf("final_r %s\n", hex_of(d.final_r).c_str());
    std::printf("TIPP: Z %s, T %s, U %s; MIPP: Z %s, T %s, U %s\n", c.tipp_z ? "ok" : "FAILS",
                c.tipp_t ? "ok" : "FAILS", c.tipp_u ? "ok" : "FAILS", c.mipp_z ? "ok" : "FAILS",
                c.mipp_t ? "ok" : "FAILS", c.mipp_u ? "ok" : "FAILS");
    // Not "valid": the KZG openings and the Groth16 equation (the proofs themselves) are not checked.
    std::printf(
        "%s (the six SRS-free equations only; NOT a full verification: the KZG openings and the Groth16 "
        "equation over the aggregated proofs are not checked)\n",
        c.all() ? "srs-free checks hold" : "srs-free checks FAIL");
  }
  return c.all() ? 0 : 1;
}

namespace {

namespace fc = circuits::filecoin;

/// The transcript input from the command line: given, or from the sectors' C1s or commitments.
Result<std::vector<std::uint8_t>> transcript_input_of(const AggregateArgs& a, std::vector<std::size_t>* partitions) {
  const int forms = (!a.transcript_input.empty()) + (!a.c1s.empty()) + (!a.comm_rs.empty());
  if (forms != 1) {
    return Status::invalid_argument(
        "aggregate: name the statement one way: --c1 per sector, --comm-r (and --seed) per sector, or "
        "--transcript-input HEX");
  }
  if (!a.transcript_input.empty()) return from_hex(a.transcript_input);
  std::vector<fc::AggregatedSector> sectors;
  bool non_interactive = a.non_interactive;
  if (!a.c1s.empty()) {
    if (a.c1s.size() != a.proofs.size()) {
      return Status::invalid_argument("aggregate: " + std::to_string(a.proofs.size()) + " --proof but " +
                                      std::to_string(a.c1s.size()) + " --c1 (one per sector, in the same order)");
    }
    for (std::size_t i = 0; i < a.c1s.size(); ++i) {
      auto text = read_text_file(a.c1s[i], std::uint64_t{1} << 31);
      if (!text.ok()) return text.status();
      auto in = fc::parse_c1(*text);
      if (!in.ok()) return Status::invalid_argument(a.c1s[i] + ": " + in.status().message());
      const bool ni = in->c1.registered_proof.challenges == fc::PorepChallenges::kNonInteractive;
      if (i > 0 && ni != non_interactive) {
        return Status::invalid_argument("aggregate: " + a.c1s[i] +
                                        " mixes interactive and non-interactive sectors in one aggregate");
      }
      non_interactive = ni;
      sectors.push_back({in->c1.comm_r, in->c1.seed});
      partitions->push_back(in->c1.registered_proof.partitions());
    }
  } else {
    if (a.comm_rs.size() != a.proofs.size() || (!non_interactive && a.seeds.size() != a.proofs.size()) ||
        (non_interactive && !a.seeds.empty())) {
      return Status::invalid_argument(
          "aggregate: one --comm-r" + std::string(non_interactive ? "" : " and one --seed") +
          " per --proof, in the same order" + (non_interactive ? " (--non-interactive takes no seeds)" : ""));
    }
    for (std::size_t i = 0; i < a.comm_rs.size(); ++i) {
      auto r = fc::parse_commitment(a.comm_rs[i], fc::CommitmentKind::kSealed);
      if (!r.ok()) return Status::invalid_argument("--comm-r " + a.comm_rs[i] + ": " + r.status().message());
      fc::AggregatedSector s{*r, {}};
      if (!non_interactive) {
        auto seed = fc::parse_hex32("--seed", a.seeds[i]);
        if (!seed.ok()) return seed.status();
        s.seed = *seed;
      }
      sectors.push_back(s);
    }
  }
  // The chain's limits (../shared/design/snarkpack.md): ProveCommitAggregate takes at most 819
  // sectors, a non-interactive aggregate 65. Fewer than Curio's 4 interactive sectors still make a
  // valid aggregate (tests, a single sector's check) and are not refused here.
  const std::size_t limit = non_interactive ? 65 : 819;
  if (sectors.size() > limit) {
    return Status::invalid_argument("aggregate: " + std::to_string(sectors.size()) + " sectors; Filecoin takes " +
                                    std::to_string(limit) + " at most in one " +
                                    (non_interactive ? "non-interactive aggregate" : "ProveCommitAggregate"));
  }
  const auto h = fc::seal_transcript_input(sectors, non_interactive);
  return std::vector<std::uint8_t>(h.begin(), h.end());
}

}  // namespace

int run_aggregate(const AggregateArgs& a) {
  if (a.proofs.empty()) return fail("aggregate: name each sector's proof file with --proof", a.json);
  const bool remote = !a.client.addr.empty();
  if (a.out.empty()) return fail("aggregate needs --out FILE", a.json);
  if (remote == !a.srs.empty()) {
    return fail("aggregate needs --srs FILE (here) or --addr ADDR (a daemon, with its params directory's SRS)", a.json);
  }
  std::vector<std::size_t> partitions;
  auto include = transcript_input_of(a, &partitions);
  if (!include.ok()) return fail(include.status().message(), a.json);
  std::vector<std::uint8_t> all;
  for (std::size_t i = 0; i < a.proofs.size(); ++i) {
    auto bytes = read_file(a.proofs[i], std::uint64_t{1} << 24);
    if (!bytes.ok()) return fail(bytes.status().message(), a.json);
    const std::size_t n = bytes->size() / groth16::proof_bytes<groth16::Bls12_381>();
    if (bytes->empty() || bytes->size() % groth16::proof_bytes<groth16::Bls12_381>() != 0 ||
        (!partitions.empty() && n != partitions[i])) {
      return fail(a.proofs[i] + ": " + std::to_string(bytes->size()) + " bytes, not " +
                      (partitions.empty() ? std::string("whole 192-byte proofs")
                                          : std::to_string(partitions[i]) + " partition proofs of its C1's sector"),
                  a.json);
    }
    all.insert(all.end(), bytes->begin(), bytes->end());
  }
  const std::size_t count = all.size() / groth16::proof_bytes<groth16::Bls12_381>();
  if (remote) {
    RemoteProveArgs r;
    r.job.circuit = "snarkpack", r.job.shape = "v2", r.job.partitions = 1;
    const std::string input = engine::AggregationWorkload::input_json(all, *include);
    r.job.input.assign(input.begin(), input.end());
    r.out = a.out;
    r.timeout_ms = a.timeout_ms;
    ClientArgs c = a.client;
    c.json = a.json;
    return run_remote_prove(c, r);
  }
  const auto t0 = std::chrono::steady_clock::now();
  snarkpack::AggregateTimings t;
  auto agg = snarkpack::aggregate_filecoin(a.srs, all, *include, &t);
  if (!agg.ok()) return fail(agg.status().message(), a.json);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (Status st = groth16::write_file(a.out, *agg); !st.ok()) return fail(st.message(), a.json);
  const std::size_t padded = snarkpack::padded_count(count);
  if (a.json) {
    std::printf("%s\n",
                nlohmann::json{{"ok", true},
                               {"aggregate", a.out},
                               {"sectors", a.proofs.size()},
                               {"proofs", count},
                               {"aggregated_proofs", padded},
                               {"bytes", agg->size()},
                               {"version", "v2"},
                               {"s", s},
                               {"stages_s", {{"commitments", t.commitments}, {"gipa", t.gipa}, {"kzg", t.openings}}}}
                    .dump()
                    .c_str());
  } else {
    std::printf(
        "wrote %s: SnarkPack V2 aggregate of %zu proof%s from %zu sector%s (padded to %zu), %zu bytes, in %.2f s\n",
        a.out.c_str(), count, count == 1 ? "" : "s", a.proofs.size(), a.proofs.size() == 1 ? "" : "s", padded,
        agg->size(), s);
  }
  return 0;
}

}  // namespace zk::app
