#include "snarkpack/filecoin.hpp"

#include "groth16/io.hpp"

namespace zk::snarkpack {

std::size_t padded_count(std::size_t n) {
  std::size_t p = 2;
  while (p < n) p *= 2;
  return p;
}

Result<std::size_t> filecoin_proof_count(std::span<const std::uint8_t> proofs) {
  const std::size_t each = groth16::proof_bytes<groth16::Bls12_381>();
  if (proofs.empty() || proofs.size() % each != 0) {
    return Status::invalid_argument("SnarkPack: " + std::to_string(proofs.size()) + " bytes are not whole " +
                                    std::to_string(each) + "-byte proofs");
  }
  if (proofs.size() / each > kFilecoinMaxAggregatedProofs) {
    return Status::invalid_argument("SnarkPack: " + std::to_string(proofs.size() / each) +
                                    " proofs; Filecoin aggregates " + std::to_string(kFilecoinMaxAggregatedProofs) +
                                    " at most");
  }
  return proofs.size() / each;
}

Result<std::vector<std::uint8_t>> aggregate_filecoin(const Srs& srs, std::span<const std::uint8_t> proofs,
                                                     std::span<const std::uint8_t> transcript_input,
                                                     AggregateTimings* timings) {
  if (auto n = filecoin_proof_count(proofs); !n.ok()) return n.status();
  auto read = groth16::read_proofs<groth16::Bls12_381>(proofs);
  if (!read.ok()) return read.status();
  std::vector<Groth16Proof> padded = std::move(*read);
  padded.resize(padded_count(padded.size()), padded.back());
  auto p = aggregate(srs, padded, transcript_input, Version::kV2, timings);
  if (!p.ok()) return p.status();
  return write_aggregate_proof(*p);
}

Result<std::vector<std::uint8_t>> aggregate_filecoin(const std::string& srs_path, std::span<const std::uint8_t> proofs,
                                                     std::span<const std::uint8_t> transcript_input,
                                                     AggregateTimings* timings) {
  auto n = filecoin_proof_count(proofs);
  if (!n.ok()) return n.status();
  auto srs = read_srs_file(srs_path, padded_count(*n));
  if (!srs.ok()) return srs.status();
  return aggregate_filecoin(*srs, proofs, transcript_input, timings);
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
