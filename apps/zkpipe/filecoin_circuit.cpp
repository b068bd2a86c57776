// Filecoin's circuits and keys on the command line: `zkpipe circuit-info` (a kind's exact circuit
// counted), `zkpipe setup --kind` (development keys under Filecoin's file names) and `zkpipe params
// check` (which of Filecoin's parameter files a directory holds, and whether they are usable). Every
// kind comes from the kind table (circuits/filecoin/proof_kind.hpp).

#include <openssl/evp.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "base/file.hpp"
#include "base/rng.hpp"
#include "filecoin.hpp"
#include "filecoin_common.hpp"
#include "groth16/io.hpp"
#include "groth16/setup.hpp"
#include "output.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/shape.hpp"
#include "snarkpack/filecoin.hpp"
#include "snarkpack/srs.hpp"

namespace zk::app {
namespace {

using Json = nlohmann::json;

/// The kind an option names, and its shape at a sector size.
struct KindAt {
  const fc::ProofKind* kind;
  fc::KindShape shape;
};
Result<KindAt> kind_at(const std::string& kind, const std::string& sector_size, const std::string& command) {
  auto size = fc::find_sector_size(sector_size);
  if (!size.ok()) return size.status();
  auto k = fc::find_proof_kind(kind, command + " --kind");
  if (!k.ok()) return k.status();
  auto shape = (*k)->shape(*size);
  if (!shape.ok()) return shape.status();
  return KindAt{*k, std::move(*shape)};
}

}  // namespace

int run_circuit_info(const CircuitInfoArgs& a) {
  auto at = kind_at(a.kind, a.sector_size, "circuit-info");
  if (!at.ok()) return fail(at.status().message(), a.json);
  const fc::ProofKind& kind = *at->kind;
  const fc::KindShape& shape = at->shape;
  if (!a.api_version.empty()) {
    const auto versions = kind.api_versions();
    if (versions.empty()) {
      std::string with;
      for (const auto* k : fc::proof_kinds()) {
        if (!k->api_versions().empty()) with += (with.empty() ? "--kind " : " or ") + std::string(k->name());
      }
      return fail("--api-version is for " + with, a.json);
    }
    if (std::find(versions.begin(), versions.end(), a.api_version) == versions.end()) {
      std::string list;
      for (std::size_t i = 0; i < versions.size(); ++i) {
        list += (i == 0 ? "" : i + 1 == versions.size() ? " or " : ", ") + versions[i];
      }
      return fail("--api-version: " + list, a.json);
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  r1cs::DensitySystem<fc::Fr> m;
  if (Status st = kind.blank_circuit(shape)->synthesize(m); !st.ok()) return fail(st.message(), a.json);
  const std::size_t constraints = m.num_constraints();
  m.finish_with_input_rows();  // what the key generator adds: one row per input
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::size_t with_inputs = m.num_constraints();
  unsigned log = 0;
  while ((std::size_t{1} << log) < with_inputs) ++log;
  const fc::KeySections key = fc::key_sections_of(m);
  const std::string params_file = shape.params_stem.empty() ? std::string() : shape.params_stem + ".params";
  if (a.json) {
    std::printf("%s\n",
                Json{{"ok", true},
                     {"kind", a.kind},
                     {"sector_size", shape.size.name},
                     {"constraints", constraints},
                     {"constraints_with_input_rows", with_inputs},
                     {"inputs", m.num_inputs()},
                     {"aux", m.num_aux()},
                     {"nonzeros", {{"a", m.nnz(0)}, {"b", m.nnz(1)}, {"c", m.nnz(2)}}},
                     {"density",
                      {{"a_aux", m.a_aux_density()}, {"b_input", m.b_input_density()}, {"b_aux", m.b_aux_density()}}},
                     {"key_points",
                      {{"ic", key.ic}, {"h", key.h}, {"l", key.l}, {"a", key.a}, {"b_g1", key.b}, {"b_g2", key.b}}},
                     {"domain_log", log},
                     {"shape", Json::parse(kind.shape_json(shape))},
                     {"params_file", params_file},
                     {"seconds", seconds}}
                    .dump()
                    .c_str());
  } else {
    std::printf("%s, one partition:\n", kind.describe(shape).c_str());
    std::printf("  constraints %zu (%zu with the input rows), inputs %zu (ONE included), aux %zu, domain 2^%u\n",
                constraints, with_inputs, m.num_inputs(), m.num_aux(), log);
    std::printf("  non-zeros (with the input rows): A %zu, B %zu, C %zu\n", m.nnz(0), m.nnz(1), m.nnz(2));
    std::printf("  density: a_aux %zu, b_input %zu, b_aux %zu\n", m.a_aux_density(), m.b_input_density(),
                m.b_aux_density());
    std::printf("  key points: ic %zu, h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu\n", m.num_inputs(), key.h, key.l, key.a,
                key.b, key.b);
    if (!params_file.empty()) std::printf("  parameter file: %s (.vk)\n", params_file.c_str());
    std::printf("  counted in %.1f s\n", seconds);
  }
  return 0;
}

int run_setup_srs(const SrsSetupArgs& a) {
  if (a.out_dir.empty()) return fail("setup --srs needs --out DIR", a.json);
  if (a.proofs < 2 || a.proofs > snarkpack::kMaxSrsPoints / 2) {
    return fail("--srs-proofs: between 2 and " + std::to_string(snarkpack::kMaxSrsPoints / 2), a.json);
  }
  const std::size_t n = snarkpack::padded_count(a.proofs);
  if (!a.json) {
    std::printf(
        "DEVELOPMENT SnarkPack SRS for %zu proofs: its secrets derive from the seed; anyone can forge aggregates "
        "under it. Filecoin's: the published %s.\n",
        n, snarkpack::kFilecoinSrsName);
    std::fflush(stdout);
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto bytes = snarkpack::write_srs(snarkpack::development_srs(a.seed, 2 * n, n));
  std::error_code ec;
  std::filesystem::create_directories(a.out_dir, ec);
  if (ec) return fail("cannot create " + a.out_dir + ": " + ec.message(), a.json);
  const std::string path = (std::filesystem::path(a.out_dir) / snarkpack::kFilecoinSrsName).string();
  if (Status st = groth16::write_file(path, bytes); !st.ok()) return fail(st.message(), a.json);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (a.json) {
    std::printf("%s\n", Json{{"ok", true},
                             {"srs", path},
                             {"proofs", n},
                             {"bytes", bytes.size()},
                             {"s", s},
                             {"insecure_development_setup", true}}
                            .dump()
                            .c_str());
  } else {
    std::printf("wrote %s (%zu bytes) in %.1f s\n", path.c_str(), bytes.size(), s);
  }
  return 0;
}

int run_setup_filecoin(const FilecoinSetupArgs& a) {
  auto at = kind_at(a.kind, a.sector_size, "setup");
  if (!at.ok()) return fail(at.status().message(), a.json);
  const fc::ProofKind& kind = *at->kind;
  const fc::KindShape& shape = at->shape;
  if (!shape.size.published || shape.params_stem.empty()) {
    return fail(
        std::string("Filecoin has no parameters for ") + shape.size.name + " (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)",
        a.json);
  }
  if (a.out_dir.empty()) return fail("setup --kind " + a.kind + " needs --out DIR", a.json);
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); };
  const auto t0 = Clock::now();
  r1cs::ShapeRecorder<fc::Fr> rec;
  if (Status st = kind.blank_circuit(shape)->synthesize(rec); !st.ok()) return fail(st.message(), a.json);
  const std::string& file_stem = shape.params_stem;
  const double shape_ms = ms(t0);
  if (!a.json) {
    std::printf(
        "DEVELOPMENT SETUP of Filecoin's %s %s circuit (%zu constraints): the trapdoor derives from the seed; "
        "anyone can forge proofs for these keys. Filecoin's real keys: the published .params / .vk.\n",
        shape.size.name, a.kind.c_str(), rec.shape().num_constraints());
    std::fflush(stdout);
  }
  Rng rng(a.seed ^ 0x736574757021ull);
  const auto t1 = Clock::now();
  auto pk =
      groth16::generate_parameters<groth16::Bls12_381>(rec.shape(), groth16::Trapdoor<groth16::Bls12_381>::random(rng));
  if (!pk.ok()) return fail(pk.status().to_string(), a.json);
  const double keys_ms = ms(t1);
  std::error_code ec;
  std::filesystem::create_directories(a.out_dir, ec);
  if (ec) return fail("cannot create " + a.out_dir + ": " + ec.message(), a.json);
  const std::string stem = (std::filesystem::path(a.out_dir) / file_stem).string();
  const auto params = groth16::write_parameters(*pk);
  const auto vk = groth16::write_verifying_key(pk->vk);
  if (Status st = groth16::write_file(stem + ".params", params); !st.ok()) return fail(st.message(), a.json);
  if (Status st = groth16::write_file(stem + ".vk", vk); !st.ok()) return fail(st.message(), a.json);
  if (a.json) {
    std::printf("%s\n", Json{{"ok", true},
                             {"kind", a.kind},
                             {"sector_size", shape.size.name},
                             {"constraints", rec.shape().num_constraints()},
                             {"params", stem + ".params"},
                             {"vk", stem + ".vk"},
                             {"params_bytes", params.size()},
                             {"ms", {{"shape", shape_ms}, {"keys", keys_ms}, {"total", ms(t0)}}},
                             {"insecure_development_setup", true}}
                            .dump()
                            .c_str());
  } else {
    std::printf("wrote %s.params (%zu bytes) and .vk (%zu bytes)\n", stem.c_str(), params.size(), vk.size());
    std::printf("time: shape %.1f s, keys %.1f s\n", shape_ms / 1e3, keys_ms / 1e3);
  }
  return 0;
}

namespace {

/// BLAKE2b-512 of a file, streamed; the first 32 hex digits (parameters.json's digest).
Result<std::string> file_digest(const std::string& path, bool progress) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Status::io_error("cannot open " + path);
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_blake2b512(), nullptr) != 1)
    return Status::internal("BLAKE2b unavailable");
  std::vector<char> buf(std::size_t{8} << 20);
  std::uint64_t done = 0, next_report = std::uint64_t{4} << 30;
  while (f) {
    f.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto n = static_cast<std::size_t>(f.gcount());
    if (n == 0) break;
    EVP_DigestUpdate(ctx.get(), buf.data(), n);
    done += n;
    if (progress && done >= next_report) {
      std::fprintf(stderr, "  ... %.0f GB hashed\n", static_cast<double>(done) / 1e9);
      next_report += std::uint64_t{4} << 30;
    }
  }
  if (f.bad()) return Status::io_error("cannot read " + path);
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx.get(), md, &len);
  std::string hex;
  char b[3];
  for (unsigned i = 0; i < 16 && i < len; ++i) std::snprintf(b, sizeof(b), "%02x", md[i]), hex += b;
  return hex;
}

}  // namespace

namespace {

/// One file `params check` looks at: the row's JSON (`e`), its problems, whether it is present.
struct FileCheck {
  const ParamsCheckArgs& a;
  Json& files;
  int present = 0, bad = 0;

  /// `name` in the directory: present or missing, its own checks (`inspect(path, bytes, e, problems)`),
  /// its digest against `published` ("": none known; `kind_of_file` names what a mismatch suggests),
  /// printed as one row (or one per problem) under `label` and `ext`.
  template <class Inspect>
  void check(const std::string& name, Json e, const std::string& label, const char* ext, const std::string& published,
             const char* kind_of_file, const char* ok_without_digest, Inspect&& inspect) {
    const std::string path = (std::filesystem::path(a.dir) / name).string();
    std::vector<std::string> problems;
    auto bytes = regular_file_size(path);
    e["file"] = name;
    e["present"] = bytes.ok();
    if (!bytes.ok()) {
      if (bytes.status().code() != StatusCode::kNotFound) problems.push_back(bytes.status().message());
    } else {
      ++present;
      e["bytes"] = *bytes;
      inspect(path, *bytes, e, problems);
      if (a.digest) {
        if (!a.json && *bytes > (std::uint64_t{1} << 30)) {
          std::fprintf(stderr, "hashing %s (%.1f GB)\n", name.c_str(), static_cast<double>(*bytes) / 1e9);
        }
        auto d = file_digest(path, !a.json);
        if (!d.ok()) {
          problems.push_back(d.status().message());
        } else {
          e["digest"] = *d;
          e["published_digest"] = published;
          e["filecoins"] = !published.empty() && *d == published;
          if (published.empty() || *d != published) {
            problems.push_back("its digest " + *d + " is not the published " + (published.empty() ? "?" : published) +
                               " (" + kind_of_file + ", or a damaged download)");
          }
        }
      }
    }
    e["ok"] = problems.empty();
    e["problems"] = problems;
    bad += problems.empty() ? 0 : 1;
    if (!a.json) {
      if (!bytes.ok() && problems.empty()) {
        std::printf("%-20s %-7s missing\n", label.c_str(), ext);
      } else if (problems.empty()) {
        std::printf("%-20s %-7s ok (%s)\n", label.c_str(), ext,
                    a.digest ? "Filecoin's published file" : ok_without_digest);
      } else {
        for (const auto& p : problems) std::printf("%-20s %-7s PROBLEM: %s\n", label.c_str(), ext, p.c_str());
      }
    }
    files.push_back(std::move(e));
  }
};

}  // namespace

int run_params_check(const ParamsCheckArgs& a) {
  std::error_code ec;
  if (!std::filesystem::is_directory(a.dir, ec)) return fail(a.dir + " is not a directory", a.json);
  Json files = Json::array();
  FileCheck fc_files{a, files};
  // Every published circuit of every kind, smallest sector first.
  for (const auto* kind : fc::proof_kinds()) {
    for (const auto& shape : kind->published_shapes()) {
      const std::string kind_name(kind->name());
      const std::string label = kind_name + " " + shape.size.name;
      std::optional<std::optional<fc::KeySections>> expected;  // counted when first needed
      for (const char* ext : {".params", ".vk"}) {
        const std::string name = shape.params_stem + ext;
        const auto pub = fc::find_published(name);
        const Json e{{"kind", kind_name}, {"sector_size", shape.size.name}};
        const bool params = std::string(ext) == ".params";
        fc_files.check(
            name, e, label, ext + 1, pub ? pub->digest : "", "development keys",
            "sections fit the circuit; digest not checked",
            [&](const std::string& path, std::uint64_t, Json& row, std::vector<std::string>& problems) {
              if (!params) {
                auto vk = read_vk(path);
                if (!vk.ok()) {
                  problems.push_back(vk.status().message());
                } else if (vk->ic.size() != shape.inputs) {
                  problems.push_back("it has " + std::to_string(vk->ic.size()) + " IC points; the circuit has " +
                                     std::to_string(shape.inputs) + " inputs");
                }
                return;
              }
              auto s = groth16::read_parameter_sections<groth16::Bls12_381>(path);
              if (!s.ok()) {
                problems.push_back(s.status().message());
                return;
              }
              row["sections"] = {{"ic", s->ic}, {"h", s->h},       {"l", s->l},
                                 {"a", s->a},   {"b_g1", s->b_g1}, {"b_g2", s->b_g2}};
              if (!expected) expected = fc::expected_key_sections(*kind, shape);
              const auto& expect = *expected;
              if (!expect) {
                row["sections_checked"] = false;
                if (s->ic != shape.inputs) {
                  problems.push_back("its ic count " + std::to_string(s->ic) + " is not the circuit's " +
                                     std::to_string(shape.inputs) + " inputs");
                }
              } else if (s->ic != expect->ic || s->h != expect->h || s->l != expect->l || s->a != expect->a ||
                         s->b_g1 != expect->b || s->b_g2 != expect->b) {
                problems.push_back("its sections (ic " + std::to_string(s->ic) + ", h " + std::to_string(s->h) +
                                   ", l " + std::to_string(s->l) + ", a " + std::to_string(s->a) + ", b " +
                                   std::to_string(s->b_g1) + ") are not those of Filecoin's " + shape.size.name + " " +
                                   kind_name + " circuit (ic " + std::to_string(expect->ic) + ", h " +
                                   std::to_string(expect->h) + ", l " + std::to_string(expect->l) + ", a " +
                                   std::to_string(expect->a) + ", b " + std::to_string(expect->b) + ")");
              }
            });
      }
    }
  }
  // SnarkPack's SRS (aggregation): its four lengths against the file size.
  fc_files.check(snarkpack::kFilecoinSrsName, Json{{"kind", "snarkpack-srs"}}, "snarkpack srs", "srs",
                 snarkpack::kFilecoinSrsDigest, "a development SRS", "lengths fit the file; digest not checked",
                 [&](const std::string& path, std::uint64_t bytes, Json& row, std::vector<std::string>& problems) {
                   std::ifstream f(path, std::ios::binary);
                   const snarkpack::ReadAt read = [&](std::uint64_t offset, std::span<std::uint8_t> out) -> Status {
                     f.seekg(static_cast<std::streamoff>(offset));
                     f.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size()));
                     return f ? Status() : Status::io_error("cannot read " + path);
                   };
                   auto h = snarkpack::read_srs_header(read, bytes);
                   if (!h.ok()) {
                     problems.push_back(h.status().message());
                     return;
                   }
                   // A development SRS (zkpipe setup --srs) is shorter: its size is checked by the digest.
                   row["points"] = {
                       {"g_alpha", h->g_alpha}, {"g_beta", h->g_beta}, {"h_alpha", h->h_alpha}, {"h_beta", h->h_beta}};
                   row["aggregates_up_to"] =
                       std::min(std::min(h->g_alpha, h->g_beta) / 2, std::min(h->h_alpha, h->h_beta));
                 });
  const int present = fc_files.present, bad = fc_files.bad;
  if (present == 0 && !a.json) std::printf("no Filecoin parameter files in %s\n", a.dir.c_str());
  if (a.json) {
    std::printf("%s\n", Json{{"ok", bad == 0 && present > 0}, {"dir", a.dir}, {"files", files}}.dump().c_str());
  }
  return bad == 0 && present > 0 ? 0 : 1;
}

}  // namespace zk::app
