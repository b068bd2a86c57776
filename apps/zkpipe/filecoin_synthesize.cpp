// `zkpipe synthesize --kind porep` (and `zkpipe bench --synthesis-only`): one partition's witness
// and a/b as the prover needs them, measured — wall and CPU time, bytes, peak RSS during synthesis,
// optionally a digest and a census of the values (docs/synthesis.md).

#include <openssl/evp.h>

#include <sys/resource.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "circuits/filecoin/porep/c1.hpp"
#include "filecoin.hpp"
#include "filecoin_common.hpp"
#include "output.hpp"
#include "r1cs/prover_cs.hpp"

namespace zk::app {
namespace {

using Json = nlohmann::json;

/// A byte count from /proc/self/status ("VmRSS:", "VmHWM:" = peak RSS), 0 where /proc is absent.
std::uint64_t proc_status_bytes(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == field) {
      std::uint64_t kb = 0;
      in >> kb;
      return kb * 1024;
    }
    std::getline(in, key);
  }
  return 0;
}

/// Restarts the kernel's peak-RSS count at the present RSS (Linux 4.0+, "5" > clear_refs), so the
/// peak read afterwards is the synthesis's; false where that is not possible.
bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

/// SHA-256 over everything the prover receives (counts, Montgomery limbs, density words), in a
/// fixed order: equal digests mean byte-identical partitions.
std::string partition_digest(const r1cs::Partition<fc::Fr>& p) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
  std::vector<unsigned char> buffer;  // values are put 32 bytes at a time: hashed in 1 MiB pieces
  auto flush = [&] {
    EVP_DigestUpdate(ctx.get(), buffer.data(), buffer.size());
    buffer.clear();
  };
  auto put = [&](const void* data, std::size_t n) {
    if (buffer.size() + n > (1 << 20)) flush();
    if (n > (1 << 20)) {
      EVP_DigestUpdate(ctx.get(), data, n);
      return;
    }
    const auto* p = static_cast<const unsigned char*>(data);
    buffer.insert(buffer.end(), p, p + n);
  };
  auto vec = [&](const auto& v) {
    const std::uint64_t n = v.size();
    put(&n, sizeof n);
    put(v.data(), v.size() * sizeof(v[0]));
  };
  static_assert(sizeof(fc::Fr) == 32 && std::is_trivially_copyable_v<fc::Fr>);
  vec(p.inputs);
  {  // the witness as the dense vector it was before it became compact: the same bytes
    const std::uint64_t n = p.aux.size();
    put(&n, sizeof n);
    p.aux.for_each([&](const fc::Fr& x) { put(&x, sizeof x); });
  }
  // a and b dense, then c as the prover forms it (a o b), in the layout of the builds that kept
  // dense a, b, c: digests stay comparable with theirs (docs/synthesis.md).
  const std::uint64_t rows = p.a.size();
  for (const auto* col : {&p.a, &p.b}) {
    put(&rows, sizeof rows);
    col->for_each([&](const fc::Fr& x) { put(&x, sizeof x); });
  }
  put(&rows, sizeof rows);
  {
    const auto b = p.b.expand(p.b.size());
    std::size_t i = 0;
    p.a.for_each([&](const fc::Fr& x) {
      const fc::Fr c = x * b[i++];
      put(&c, sizeof c);
    });
  }
  for (const auto* d : {&p.a_aux, &p.b_input, &p.b_aux}) {
    const std::uint64_t bits = d->size();
    put(&bits, sizeof bits);
    vec(d->words());
  }
  flush();
  unsigned char md[32];
  unsigned len = 0;
  EVP_DigestFinal_ex(ctx.get(), md, &len);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) out += {kHex[md[i] >> 4], kHex[md[i] & 15]};
  return out;
}

/// How many values of a vector are 0, 1, other values below 2^64, and full field elements: what a
/// compact witness and compact a/b would store (docs/synthesis.md).
/// `each(visit)` calls visit(value) for every value.
template <class Each>
Json value_census(Each each) {
  std::size_t n = 0, zero = 0, one = 0, small = 0;
  each([&](const fc::Fr& x) {
    ++n;
    if (x.is_zero()) {
      ++zero;
    } else if (x.is_one()) {
      ++one;
    } else {
      const auto r = x.to_canonical();
      small += (r[1] | r[2] | r[3]) == 0 ? 1 : 0;
    }
  });
  return Json{{"zero", zero}, {"one", one}, {"u64", small}, {"full", n - zero - one - small}};
}
Json value_census(const r1cs::CompactColumn<fc::Fr>& v) {
  return value_census([&](auto visit) { v.for_each(visit); });
}

}  // namespace

int run_synthesize_filecoin(const SynthesizeArgs& a) {
  // The command takes a C1 (--c1): the kinds whose input it is.
  auto kind = fc::find_proof_kind(a.kind, "synthesize --kind");
  const auto takes_c1 = [](const fc::ProofKind* k) {
    for (const auto& o : k->input_options()) {
      if (std::string(o.name) == "c1") return true;
    }
    return false;
  };
  if (!kind.ok() || !takes_c1(*kind)) {
    std::string known;
    for (const auto* k : fc::proof_kinds()) {
      if (takes_c1(k)) known += (known.empty() ? "" : ", ") + std::string(k->name());
    }
    return fail("synthesize --kind knows " + known, a.json);
  }
  using Clock = std::chrono::steady_clock;
  auto sec = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  auto cpu = [] {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  };
  const auto t0 = Clock::now();
  auto named = (*kind)->input_from_options({{"c1", {a.c1}}});
  if (!named.ok()) return fail(named.status().message(), a.json);
  auto parsed =
      (*kind)->parse(std::string_view(reinterpret_cast<const char*>(named->bytes.data()), named->bytes.size()));
  if (!parsed.ok()) return fail(a.c1 + ": " + parsed.status().message(), a.json);
  const fc::KindInput& in = **parsed;
  if (!a.sector_size.empty()) {
    auto size = fc::find_sector_size(a.sector_size);
    if (!size.ok()) return fail(size.status().message(), a.json);
    if (size->bytes != in.size().bytes)
      return fail(a.c1 + " is a " + in.proof_name() + " C1, not " + size->name, a.json);
  }
  if (Status st = in.check(); !st.ok()) return fail(a.c1 + ": " + st.message(), a.json);
  if (a.partition >= in.partitions())
    return fail("--partition: the C1 has " + std::to_string(in.partitions()) + " partitions", a.json);
  const double read_s = sec(t0);
  const std::uint64_t rss_before = proc_status_bytes("VmRSS:");
  const bool peak_is_synthesis = reset_peak_rss();
  const double cpu0 = cpu();
  const auto t1 = Clock::now();
  auto circuit = in.circuit(a.partition);  // the witness from the input
  if (!circuit.ok()) return fail(circuit.status().message(), a.json);
  const double witness_s = sec(t1);
  // Sizes from the pinned key-section table (derived from the circuit, no key read): inputs and aux
  // exactly, constraints an upper bound (aux + 1/64: every PoRep size has fewer).
  auto shape = (*kind)->shape(in.size());
  const auto key = shape.ok() ? (*kind)->pinned_key_sections(*shape) : std::nullopt;
  r1cs::SizeHint hint;
  if (key) hint = {.inputs = key->ic, .aux = key->l, .constraints = key->l + key->l / 64};
  const auto t2 = Clock::now();
  r1cs::ProvingSystem<fc::Fr> cs(hint);
  if (Status st = (*circuit)->synthesize(cs); !st.ok()) return fail(st.message(), a.json);
  auto partition = std::move(cs).finish();
  const double circuit_s = sec(t2), synth_s = sec(t1), synth_cpu = cpu() - cpu0;
  const std::uint64_t peak = proc_status_bytes("VmHWM:");
  const auto bytes = partition.bytes();
  const std::size_t rows = partition.a.size();
  const std::size_t constraints = rows - partition.inputs.size();
  const std::string digest = a.digest ? partition_digest(partition) : std::string();
  if (a.json) {
    Json j{
        {"ok", true},
        {"kind", a.kind},
        {"registered_proof", in.proof_name()},
        {"sector_size", in.size().name},
        {"partition", a.partition},
        {"constraints", constraints},
        {"rows", rows},
        {"inputs", partition.inputs.size()},
        {"aux", partition.aux.size()},
        {"bytes",
         {{"abc", bytes.abc}, {"assignment", bytes.assignment}, {"density", bytes.density}, {"total", bytes.total()}}},
        {"seconds",
         {{"read_and_check", read_s}, {"witness_input", witness_s}, {"circuit", circuit_s}, {"synthesis", synth_s}}},
        {"synthesis_cpu_seconds", synth_cpu},
        {"ns_per_constraint", 1e9 * synth_s / static_cast<double>(constraints)},
        {"rss_before_synthesis", rss_before},
        {"peak_rss", peak},
        {"peak_rss_is_synthesis", peak_is_synthesis},
        {"peak_rss_gib", static_cast<double>(peak) / (1 << 30)}};
    if (a.digest) j["digest"] = digest;
    if (a.census) {
      // The aux values A's and B's density select: the scalars of the A and B_G1 / B_G2 MSMs (L's
      // are all of aux).
      const auto selected = [&](const msm::DensityBitmap& density) {
        return value_census([&](auto visit) {
          std::size_t i = 0;
          partition.aux.for_each([&](const fc::Fr& x) {
            if (density.test(i++)) visit(x);
          });
        });
      };
      j["census"] = {{"aux", value_census(partition.aux)},
                     {"a_aux", selected(partition.a_aux)},
                     {"b_aux", selected(partition.b_aux)},
                     {"a", value_census(partition.a)},
                     {"b", value_census(partition.b)},
                     {"c", value_census([&](auto visit) {
                        const auto b = partition.b.expand(partition.b.size());
                        std::size_t i = 0;
                        partition.a.for_each([&](const fc::Fr& x) { visit(x * b[i++]); });
                      })}};
    }
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf(
        "%s partition %zu: %zu constraints (%zu rows), %zu inputs, %zu aux; read + check %.1f s; synthesis "
        "(witness + a/b) %.2f s wall (input witness %.2f s, circuit %.2f s), %.2f CPU-s, %.0f ns/constraint\n"
        "partition bytes: a/b %.2f GiB, assignment %.2f GiB, density %.1f MiB; RSS before synthesis %.2f GiB, "
        "peak %.2f GiB%s\n",
        in.proof_name().c_str(), a.partition, constraints, rows, partition.inputs.size(), partition.aux.size(), read_s,
        synth_s, witness_s, circuit_s, synth_cpu, 1e9 * synth_s / static_cast<double>(constraints),
        static_cast<double>(bytes.abc) / (1 << 30), static_cast<double>(bytes.assignment) / (1 << 30),
        static_cast<double>(bytes.density) / (1 << 20), static_cast<double>(rss_before) / (1 << 30),
        static_cast<double>(peak) / (1 << 30), peak_is_synthesis ? " (during synthesis)" : " (process)");
    if (a.digest) std::printf("digest %s\n", digest.c_str());
  }
  return 0;
}

}  // namespace zk::app
