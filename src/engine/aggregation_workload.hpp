#pragma once

// SnarkPack aggregation as an engine kind (zkpipe.v1 circuit "snarkpack", shape "v2"): Groth16
// proofs over BLS12-381 made into one V2 aggregate as Filecoin does it (padded to a power of two by
// repeating the last proof; src/snarkpack/filecoin.hpp) — a Curio-side ProveCommitAggregate, or
// non-interactive sectors batched. One partition per job; the work (pairings and MSMs, threaded) runs
// in the synthesis stage, on the engine's CPU workers; prove_start and prove_finish pass the bytes on.
//
// Input: JSON {"proofs": base64 of the 192-byte proofs concatenated in order, "transcript_input":
// hex} — the statement's bytes, for Filecoin sha256(seed_1 || comm_r_1 || ...) over the sectors in
// the order of their proofs (non-interactive: sha256(comm_r_1 || ...); `zkpipe aggregate --addr`
// computes it). At most 8192 proofs. The SRS is Filecoin's file in the params directory; the prefix
// a count needs is read once and kept (the largest read so far).

#include <memory>
#include <mutex>
#include <string>

#include "engine/workload.hpp"
#include "snarkpack/srs.hpp"

namespace zk::engine {

class AggregationWorkload : public Workload {
 public:
  explicit AggregationWorkload(std::string srs_path) : srs_path_(std::move(srs_path)) {}

  Status validate(const JobRequest& job) override;
  std::size_t partitions_of(const JobRequest& /*job*/) override { return 1; }
  Result<WorkingSet> working_set(const JobRequest& job) override;
  Result<std::unique_ptr<Synthesized>> synthesize(const JobRequest& job, std::size_t partition) override;
  Result<std::unique_ptr<Pending>> prove_start(std::unique_ptr<Synthesized> s) override;
  Result<std::vector<std::uint8_t>> prove_finish(std::unique_ptr<Pending> p) override;
  std::string curve() const override { return "bls12-381"; }
  /// Self-verification: the aggregate's TIPP/MIPP equations and KZG openings against the SRS (the
  /// Groth16 equation needs the proofs' key and public inputs, which the job does not carry).
  Result<bool> verify(const JobRequest& job, std::size_t partition, const std::vector<std::uint8_t>& proof) override;

  /// The parsed input: the proofs' bytes and the transcript input.
  struct Input {
    std::vector<std::uint8_t> proofs, transcript_input;
    std::size_t count() const;
  };
  static Result<Input> parse(const std::vector<std::uint8_t>& bytes);
  /// The input bytes for `proofs` bound to `transcript_input` (what a client sends).
  static std::string input_json(std::span<const std::uint8_t> proofs, std::span<const std::uint8_t> transcript_input);

 private:
  /// The SRS prefix for n proofs (kept: a larger earlier read serves).
  Result<std::shared_ptr<const snarkpack::Srs>> srs_for(std::size_t n);

  std::string srs_path_;
  std::mutex m_;
  std::shared_ptr<const snarkpack::Srs> srs_;  // the largest prefix read so far
  std::size_t srs_proofs_ = 0;
};

}  // namespace zk::engine
