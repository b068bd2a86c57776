#include "engine/aggregation_workload.hpp"

#include <nlohmann/json.hpp>

#include "base/base64.hpp"
#include "base/hex.hpp"
#include "groth16/io.hpp"
#include "snarkpack/filecoin.hpp"

namespace zk::engine {
namespace {

struct Aggregated : Synthesized, Pending {
  std::vector<std::uint8_t> bytes;
};

/// Bytes a job of n proofs holds while it is aggregated (the SRS prefix is the workload's, counted
/// once): the proofs and their working copies, the keys' folds, and per thread the G2 preparations
/// of one chunk (96 x ~20 KB), rounded up.
std::uint64_t aggregation_bytes(std::size_t n) {
  const std::uint64_t padded = snarkpack::padded_count(n);
  return padded * 4096 + (std::uint64_t{8} << 20);
}

}  // namespace

std::size_t AggregationWorkload::Input::count() const {
  return proofs.size() / groth16::proof_bytes<groth16::Bls12_381>();
}

Result<AggregationWorkload::Input> AggregationWorkload::parse(const std::vector<std::uint8_t>& bytes) {
  const auto j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return Status::invalid_argument("a snarkpack job's input is JSON {\"proofs\": base64, \"transcript_input\": hex}");
  }
  for (const char* key : {"proofs", "transcript_input"}) {
    if (!j.contains(key) || !j[key].is_string()) {
      return Status::invalid_argument(std::string("the snarkpack input has no string \"") + key + "\"");
    }
  }
  Input in;
  auto proofs = base64_decode(j["proofs"].get<std::string>());
  if (!proofs.ok()) return Status::invalid_argument("proofs: " + proofs.status().message());
  in.proofs = std::move(*proofs);
  if (auto n = snarkpack::filecoin_proof_count(in.proofs); !n.ok()) return n.status();
  auto include = hex_decode(j["transcript_input"].get<std::string>(), "transcript_input", 4096);
  if (!include.ok()) return include.status();
  in.transcript_input = std::move(*include);
  return in;
}

std::string AggregationWorkload::input_json(std::span<const std::uint8_t> proofs,
                                            std::span<const std::uint8_t> transcript_input) {
  return nlohmann::json{{"proofs", base64_encode(proofs)}, {"transcript_input", hex_encode(transcript_input)}}.dump();
}

Status AggregationWorkload::validate(const JobRequest& job) {
  if (job.shape != "v2") {
    return Status::invalid_argument("a snarkpack job's shape is \"v2\" (Filecoin's AggregateVersion), not '" +
                                    bounded_message(job.shape, 64) + "'");
  }
  if (job.partitions != 1) return Status::invalid_argument("a snarkpack job has one partition");
  auto in = parse(job.input);
  if (!in.ok()) return in.status();
  // The SRS: its lengths only (reading the points waits for the job).
  Status st = snarkpack::check_srs_file_capacity(srs_path_, snarkpack::padded_count(in->count()));
  return st.ok() ? st : Status(st.code(), st.message() + " (the SnarkPack SRS)");
}

Result<WorkingSet> AggregationWorkload::working_set(const JobRequest& job) {
  auto in = parse(job.input);
  if (!in.ok()) return in.status();
  return WorkingSet{.aux = aggregation_bytes(in->count())};
}

Result<std::shared_ptr<const snarkpack::Srs>> AggregationWorkload::srs_for(std::size_t n) {
  std::lock_guard lock(m_);
  if (srs_ && srs_proofs_ >= n) return srs_;
  auto srs = snarkpack::read_srs_file(srs_path_, n);
  if (!srs.ok()) return srs.status();
  srs_ = std::make_shared<const snarkpack::Srs>(std::move(*srs));
  srs_proofs_ = n;
  return srs_;
}

Result<std::unique_ptr<Synthesized>> AggregationWorkload::synthesize(const JobRequest& job, std::size_t /*partition*/) {
  auto in = parse(job.input);
  if (!in.ok()) return in.status();
  auto srs = srs_for(snarkpack::padded_count(in->count()));
  if (!srs.ok()) return srs.status();
  auto bytes = snarkpack::aggregate_filecoin(**srs, in->proofs, in->transcript_input);
  if (!bytes.ok()) return bytes.status();
  auto out = std::make_unique<Aggregated>();
  out->bytes = std::move(*bytes);
  return std::unique_ptr<Synthesized>(std::move(out));
}

Result<bool> AggregationWorkload::verify(const JobRequest& job, std::size_t /*partition*/,
                                         const std::vector<std::uint8_t>& proof) {
  auto in = parse(job.input);
  if (!in.ok()) return in.status();
  auto p = snarkpack::read_aggregate_proof(proof);
  if (!p.ok()) return p.status();
  auto srs = srs_for(snarkpack::padded_count(in->count()));
  if (!srs.ok()) return srs.status();
  auto vs = snarkpack::verifier_srs(**srs);
  if (!vs.ok()) return vs.status();
  const snarkpack::Derived d = snarkpack::derive(*p, in->transcript_input, snarkpack::Version::kV2);
  return snarkpack::check_srs_free(*p, d).all() && snarkpack::check_kzg(*vs, *p, d).all();
}

Result<std::unique_ptr<Pending>> AggregationWorkload::prove_start(std::unique_ptr<Synthesized> s) {
  auto out = std::make_unique<Aggregated>();
  out->bytes = std::move(static_cast<Aggregated&>(*s).bytes);
  return std::unique_ptr<Pending>(std::move(out));
}

Result<std::vector<std::uint8_t>> AggregationWorkload::prove_finish(std::unique_ptr<Pending> p) {
  return std::move(static_cast<Aggregated&>(*p).bytes);
}

}  // namespace zk::engine
