#include "snarkpack/filecoin.hpp"

#include "groth16/io.hpp"

namespace zk::snarkpack {

std::size_t padded_count(std::size_t n) {
  std::size_t p = 2;
  while (p < n) p *= 2;
  return p;
}

Result<std::vector<std::uint8_t>> aggregate_filecoin(const std::string& srs_path, std::span<const std::uint8_t> proofs,
                                                     std::span<const std::uint8_t> transcript_input,
                                                     AggregateTimings* timings) {
  auto read = groth16::read_proofs<groth16::Bls12_381>(proofs);
  if (!read.ok()) return read.status();
  std::vector<Groth16Proof> padded = std::move(*read);
  if (padded.empty()) return Status::invalid_argument("SnarkPack: no proofs to aggregate");
  if (padded.size() > kFilecoinMaxAggregatedProofs) {
    return Status::invalid_argument("SnarkPack: " + std::to_string(padded.size()) + " proofs; Filecoin aggregates " +
                                    std::to_string(kFilecoinMaxAggregatedProofs) + " at most");
  }
  const std::size_t n = padded_count(padded.size());
  padded.resize(n, padded.back());
  auto srs = read_srs_file(srs_path, n);
  if (!srs.ok()) return srs.status();
  auto p = aggregate(*srs, padded, transcript_input, Version::kV2, timings);
  if (!p.ok()) return p.status();
  return write_aggregate_proof(*p);
}

Result<Verdict> verify_filecoin(const std::string& srs_path, const Groth16VerifyingKey& vk,
                                std::span<const std::vector<Fr>> public_inputs, std::span<const std::uint8_t> aggregate,
                                std::span<const std::uint8_t> transcript_input, Version v) {
  auto p = read_aggregate_proof(aggregate);
  if (!p.ok()) return p.status();
  if (public_inputs.empty() || padded_count(public_inputs.size()) != p->gipa.nproofs) {
    return Status::invalid_argument("SnarkPack: the aggregate holds " + std::to_string(p->gipa.nproofs) + " proofs; " +
                                    std::to_string(public_inputs.size()) + " proofs' inputs do not pad to that");
  }
  auto srs = read_srs_file(srs_path, 2);  // g, h and the first powers
  if (!srs.ok()) return srs.status();
  auto vs = verifier_srs(*srs);
  if (!vs.ok()) return vs.status();
  std::vector<std::vector<Fr>> padded(public_inputs.begin(), public_inputs.end());
  padded.resize(p->gipa.nproofs, padded.back());
  return verify_aggregate(*vs, vk, padded, *p, transcript_input, v);
}

}  // namespace zk::snarkpack
