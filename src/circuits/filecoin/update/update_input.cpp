#include "circuits/filecoin/update/update_input.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "base/base64.hpp"
#include "base/json_reader.hpp"
#include "circuits/filecoin/commitment.hpp"
#include "circuits/filecoin/vanilla_json.hpp"

namespace zk::circuits::filecoin {

namespace {

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

Result<Fr> commitment(const std::string& text, CommitmentKind kind, const char* field) {
  auto b = parse_commitment(text, kind);
  if (!b.ok()) return Status::invalid_argument(std::string(field) + ": " + b.status().message());
  auto f = Fr::from_bytes(*b, field::Endian::kLittle);
  if (!f.ok())
    return Status::invalid_argument(std::string(field) +
                                    ": not a field element (little-endian, below the BLS12-381 scalar modulus)");
  return *f;
}

}  // namespace

const std::vector<RegisteredUpdateProof>& registered_update_proofs() {
  static const std::vector<RegisteredUpdateProof> proofs = [] {
    std::vector<RegisteredUpdateProof> out;
    const char* sizes[] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};  // filecoin-proofs-api's order
    for (std::uint64_t id = 0; id < 5; ++id) {
      auto s = find_sector_size(sizes[id]);
      out.push_back({id, std::string("StackedDrg") + sizes[id] + "V1", *s});
    }
    return out;
  }();
  return proofs;
}

Result<RegisteredUpdateProof> find_registered_update_proof(const std::string& name_or_number) {
  for (const auto& p : registered_update_proofs()) {
    if (name_or_number == std::to_string(p.id) || iequal(name_or_number, p.name)) return p;
  }
  return Status::invalid_argument("unknown registered update proof '" + name_or_number.substr(0, 64) +
                                  "' (0-4: StackedDrg2KiBV1, StackedDrg8MiBV1, StackedDrg512MiBV1, StackedDrg32GiBV1, "
                                  "StackedDrg64GiBV1)");
}

Result<RegisteredUpdateProof> update_proof_for_size(const SectorSize& size) {
  for (const auto& p : registered_update_proofs()) {
    if (p.size.bytes == size.bytes) return p;
  }
  return Status::invalid_argument(std::string("Filecoin has no SnapDeals update proof for ") + size.name +
                                  " sectors (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)");
}

std::array<std::uint8_t, 32> update_commitment_bytes(const Fr& c) { return c.to_bytes(field::Endian::kLittle); }

Result<UpdateInput> parse_update_input(std::string_view json) {
  UpdateInput in;
  bool have_proof = false, have_proofs = false;
  std::string comm[3];
  bool have_comm[3] = {false, false, false};
  const char* comm_names[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
  std::vector<std::string> proofs_b64;
  try {
    JsonReader r(json, 8);
    if (r.peek() != JsonReader::Type::kObject) r.fail("a SnapDeals input is a JSON object");
    r.begin_object();
    std::set<std::string> seen;
    std::string key;
    while (r.next_key(key)) {
      if (!seen.insert(key).second) r.fail("duplicate key '" + key + "'");
      if (key == "registered_proof") {
        std::string name = r.peek() == JsonReader::Type::kNumber ? std::to_string(r.read_u64()) : r.read_string(64);
        auto p = find_registered_update_proof(name);
        if (!p.ok()) return Status::invalid_argument("registered_proof: " + p.status().message());
        in.proof = *p;
        have_proof = true;
      } else if (key == "comm_r_old" || key == "comm_d_new" || key == "comm_r_new") {
        const int i = key == "comm_r_old" ? 0 : key == "comm_d_new" ? 1 : 2;
        comm[i] = r.read_string(128);
        have_comm[i] = true;
      } else if (key == "vanilla_proofs") {
        have_proofs = true;
        // 32 and 64 GiB have 16 partitions of ~562 KB each (base64 ~750 KB).
        proofs_b64 = read_vanilla_proofs(r, 16, std::size_t{4} << 20,
                                         "vanilla_proofs: more than 16 partitions (the most a sector has)");
      } else {
        r.skip_value();
      }
    }
    r.expect_end();
  } catch (const JsonError& e) {
    return Status::invalid_argument(std::string("SnapDeals input: ") + e.what());
  }
  if (!have_proof) return Status::invalid_argument("SnapDeals input: registered_proof is missing");
  Fr* out[3] = {&in.comm_r_old, &in.comm_d_new, &in.comm_r_new};
  for (int i = 0; i < 3; ++i) {
    if (!have_comm[i])
      return Status::invalid_argument(std::string("SnapDeals input: ") + comm_names[i] + " is missing");
    auto c = commitment(comm[i], i == 1 ? CommitmentKind::kUnsealed : CommitmentKind::kSealed, comm_names[i]);
    if (!c.ok()) return c.status();
    *out[i] = *c;
  }
  auto shape = update_shape(in.proof.size.bytes);
  if (!shape.ok()) return shape.status();
  in.shape = *shape;
  if (!have_proofs || proofs_b64.size() != in.shape.partitions) {
    return Status::invalid_argument("SnapDeals input: vanilla_proofs: a " + in.proof.name + " update has " +
                                    std::to_string(in.shape.partitions) + " partition(s), not " +
                                    std::to_string(proofs_b64.size()));
  }
  auto partitions = decode_vanilla_proofs<UpdatePartitionProof>(
      proofs_b64, [&](const std::vector<std::uint8_t>& b) { return parse_update_partition_proof(b, in.shape); });
  if (!partitions.ok()) return partitions.status();
  in.partitions = std::move(*partitions);
  return in;
}

std::string update_input_json(const UpdateInput& in) {
  std::vector<std::vector<std::uint8_t>> proofs;
  for (const auto& p : in.partitions) proofs.push_back(update_partition_proof_bytes(p));
  return vanilla_proofs_json("\"registered_proof\":" + std::to_string(in.proof.id) + ",\"comm_r_old\":\"" +
                                 hex_string(update_commitment_bytes(in.comm_r_old)) + "\",\"comm_d_new\":\"" +
                                 hex_string(update_commitment_bytes(in.comm_d_new)) + "\",\"comm_r_new\":\"" +
                                 hex_string(update_commitment_bytes(in.comm_r_new)) + "\"",
                             proofs);
}

Status check_update_input(const UpdateInput& in) {
  if (in.partitions.size() != in.shape.partitions) {
    return Status::invalid_argument("a " + in.proof.name + " update has " + std::to_string(in.shape.partitions) +
                                    " partition(s), not " + std::to_string(in.partitions.size()));
  }
  for (unsigned k = 0; k < in.partitions.size(); ++k) {
    if (Status st = verify_update_partition_proof(in.shape, k, in.h(), in.comm_r_old, in.comm_d_new, in.comm_r_new,
                                                  in.partitions[k]);
        !st.ok()) {
      return Status::invalid_argument("vanilla_proofs[" + std::to_string(k) + "]: " + st.message());
    }
  }
  return {};
}

Result<UpdateWitness> update_input_witness(const UpdateInput& in, unsigned k) {
  if (k >= in.partitions.size()) return Status::invalid_argument("partition " + std::to_string(k) + " is out of range");
  auto w =
      update_witness_from_proof(in.shape, k, in.h(), in.comm_r_old, in.comm_d_new, in.comm_r_new, in.partitions[k]);
  if (!w.ok()) return Status::invalid_argument("vanilla_proofs[" + std::to_string(k) + "]: " + w.status().message());
  return w;
}

Result<std::vector<Fr>> update_input_public_inputs(const UpdateInput& in, unsigned k) {
  if (k >= in.shape.partitions) return Status::invalid_argument("partition " + std::to_string(k) + " is out of range");
  return update_public_inputs(in.shape, k, in.h(), in.comm_r_old, in.comm_d_new, in.comm_r_new);
}

}  // namespace zk::circuits::filecoin
