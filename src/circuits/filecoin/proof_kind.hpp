#pragma once

// A Filecoin proof kind, described once (style.md, "Where the next capabilities go"; the table in
// docs/architecture.md): its name as the CLI and zkpipe.v1 say it, its names in cuzk.v1, the shapes
// (sector sizes) it proves with their parameter files, partitions and public-input counts, its
// circuit, the inputs it accepts (the engine's bytes, cuzk.v1's payload, the command line's files)
// and what follows from one input: the native check, each partition's public inputs and circuit.
// The CLI, both protocols and the engine loop over `proof_kinds()` and never branch on a kind; a
// new kind is one more ProofKind (its own file) in the table.

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/parameter_files.hpp"
#include "circuits/filecoin/porep/sectors.hpp"

namespace zk::r1cs {
template <class F>
class DensitySystem;
template <class F>
class ShapeRecorder;
template <class F>
class ProvingSystem;
template <class F>
class TestSystem;
}  // namespace zk::r1cs

namespace zk::circuits::filecoin {

/// One partition's circuit, with its witness (or blank, for counting and key generation), for each
/// constraint system zkpipe synthesizes into: the same `synthesize` in every case
/// (partition_circuit.hpp makes one from a generic function).
class PartitionCircuit {
 public:
  virtual ~PartitionCircuit() = default;
  virtual Status synthesize(r1cs::DensitySystem<Fr>& cs) const = 0;
  virtual Status synthesize(r1cs::ShapeRecorder<Fr>& cs) const = 0;
  virtual Status synthesize(r1cs::ProvingSystem<Fr>& cs) const = 0;
  virtual Status synthesize(r1cs::TestSystem<Fr>& cs) const = 0;
};

/// What a kind proves at one sector size.
struct KindShape {
  SectorSize size;
  std::string proof;        // the registered proof whose circuit this is (one key serves the size's others)
  std::string params_stem;  // Filecoin's parameter files without ".params" / ".vk"; "" where none are published
  unsigned partitions = 1;  // partitions one job proves (a PoSt job: its one partition)
  std::size_t inputs = 0;   // one partition's public inputs, ONE included (the verifying key's IC points)
};

/// One parsed input of a kind (the engine's bytes): what a job of it proves.
class KindInput {
 public:
  virtual ~KindInput() = default;
  virtual const std::string& proof_name() const = 0;  // its registered proof
  virtual std::uint64_t proof_id() const = 0;         // ... in filecoin-proofs-api's / Curio's numbering
  virtual const SectorSize& size() const = 0;
  virtual unsigned partitions() const = 0;  // partitions this input's job proves
  /// Partition k's index in the whole proof (a PoSt input is one partition of many).
  virtual std::size_t partition_index(std::size_t k) const { return k; }
  /// The native check (every vanilla proof against its challenges) before anything is proved.
  virtual Status check() const = 0;
  /// Partition k's public inputs (ONE excluded).
  virtual Result<std::vector<Fr>> public_inputs(std::size_t k) const = 0;
  /// Partition k's circuit with its witness, as proved (after check()).
  virtual Result<std::unique_ptr<PartitionCircuit>> circuit(std::size_t k) const = 0;
  /// The same without checking the vanilla proof first, so a test constraint system can name what
  /// a bad input breaks (`zkpipe check`).
  virtual Result<std::unique_ptr<PartitionCircuit>> unchecked_circuit(std::size_t k) const { return circuit(k); }
  /// Where Filecoin's answer for this input is the SnarkPack aggregate of its partition proofs (a
  /// non-interactive PoRep's C2), the aggregate's transcript input (porep/aggregation.hpp); nullopt:
  /// the answer is the partition proofs themselves.
  virtual std::optional<std::array<std::uint8_t, 32>> aggregate_transcript_input() const { return std::nullopt; }
};

/// cuzk.v1's SubmitProofRequest payload, without its protocol types (server/cuzk_service.cpp fills it):
/// views into the request, which outlives from_wire (its vanilla proofs can be 100 MB: not copied).
struct WirePayload {
  std::uint64_t registered_proof = 0;
  std::uint64_t sector_size = 0;
  std::string_view vanilla_proof;                       // PoRep: the C1 output
  std::vector<std::string_view> vanilla_proofs;         // PoSt: one per sector; SnapDeals: one per partition
  std::string_view randomness;                          // PoSt: 32 bytes
  std::uint64_t partition_index = 0;                    // WindowPoSt
  std::string_view comm_r_old, comm_d_new, comm_r_new;  // SnapDeals: 32 bytes each
};

/// An input named on the command line: the engine's bytes, and what to call it in messages (a file
/// name, or "--vanilla").
struct NamedInput {
  std::vector<std::uint8_t> bytes;
  std::string where;
};

/// A wire input made into a job: its shape (a sector size name) and the engine's input bytes.
struct KindJob {
  std::string shape;
  unsigned partitions = 1;
  std::uint64_t registered_proof = 0;
  std::vector<std::uint8_t> input;
};

/// Options of a command for a kind, by their names without dashes ("c1", "randomness"), as given.
using KindOptions = std::map<std::string, std::vector<std::string>>;

/// One option a kind takes on the command line.
struct KindOption {
  const char* name;  // without dashes
  const char* help;
  bool repeated = false;
  bool flag = false;  // takes no value (given: one empty value)
};

/// A test input sealed in memory (`zkpipe gen-c1`, `gen-vanilla`).
struct GeneratedInput {
  std::string text;      // the input file's contents
  std::string headline;  // what was made: "sealed a 2KiB sector of random data (StackedDrg2KiBV1_1)"
  std::string details;   // the values a verifier needs, lines each ending in a newline
  std::string json;      // the same as a JSON object
};

/// What `zkpipe verify --kind` checks a proof file against, derived from a verifier's public values
/// (no input, no witness): which partitions the file holds and each one's public inputs.
struct VerifyPlan {
  std::string what;                     // "2KiB PoRep, ": the verdict's prefix
  std::string partition;                // "a 2KiB PoRep partition": named when the key has the wrong input count
  std::size_t inputs = 0;               // a partition's public inputs, ONE included (the key's IC points)
  std::string expected;                 // "this 2KiB PoRep has 1 partitions": named when the file holds another count
  std::vector<std::size_t> partitions;  // the file's partitions' indexes, in order
  std::function<Result<std::vector<Fr>>(std::size_t position)> public_inputs;  // ONE excluded
  /// Set where the proof may be the SnarkPack aggregate of the partitions (PoRep: what a
  /// non-interactive C2 returns, or a batch of this one sector): its transcript input.
  std::optional<std::array<std::uint8_t, 32>> aggregate_transcript_input;
};

class ProofKind {
 public:
  virtual ~ProofKind() = default;

  // --- names
  /// The CLI's --kind and the daemon's circuit ("porep", "window-post", ...).
  virtual std::string_view name() const = 0;
  /// In sentences: "PoRep", "WindowPoSt", "WinningPoSt", "SnapDeals".
  virtual std::string_view title() const = 0;
  /// cuzk.v1: its ProofKind enum value (0: the kind is not in cuzk.v1), queue label (GetStatus),
  /// circuit-id prefix ("porep" in "porep-32g"), and whether GetStatus lists its queue while it is
  /// empty.
  virtual int cuzk_proof_kind() const = 0;
  virtual std::string_view cuzk_queue() const = 0;
  virtual std::string_view cuzk_id_prefix() const = 0;
  virtual bool cuzk_queue_always_listed() const { return true; }
  /// A job's priority when its client names none (zkpipe.v1 and cuzk.v1's UNSPECIFIED).
  virtual int default_priority() const { return 0; }
  /// The filecoin-proofs API versions its one circuit serves (PoRep: "1.0", "1.1", "1.2"); empty
  /// where the kind has no such choice.
  virtual std::vector<std::string> api_versions() const { return {}; }
  /// Whether every proof is verified before it is answered (a bad PoRep proof costs a sector).
  virtual bool always_verify() const { return false; }

  // --- shapes
  /// The kind at a sector size (INVALID_ARGUMENT where Filecoin defines none).
  virtual Result<KindShape> shape(const SectorSize& size) const = 0;
  /// Its shapes with published parameter files, smallest first.
  std::vector<KindShape> published_shapes() const;
  /// One partition's blank circuit (counting, key generation).
  virtual std::unique_ptr<PartitionCircuit> blank_circuit(const KindShape& s) const = 0;
  /// The key sections pinned for a shape (sizes whose circuit takes minutes to count).
  virtual std::optional<KeySections> pinned_key_sections(const KindShape&) const { return std::nullopt; }
  /// Whether counting the shape's circuit is quick (seconds): `params check` counts those it has
  /// no pinned sections for.
  virtual bool quick_to_count(const KindShape& s) const = 0;
  /// circuit-info's first line and its "shape" object (as JSON text).
  virtual std::string describe(const KindShape& s) const = 0;
  virtual std::string shape_json(const KindShape& s) const = 0;
  /// "2 partitions of Filecoin's 2KiB PoRep": what one job of a shape is (bench).
  virtual std::string job_description(const KindShape& s) const = 0;

  // --- inputs
  /// The engine's input bytes, parsed (not checked: KindInput::check).
  virtual Result<std::shared_ptr<const KindInput>> parse(std::string_view bytes) const = 0;
  /// cuzk.v1's payload as a job (counts and sizes checked; the input is checked at submit).
  virtual Result<KindJob> from_wire(const WirePayload& p) const = 0;
  /// The options `prove` and `check` take for the kind's input, and the input they name (read,
  /// not parsed: parse() follows).
  virtual std::vector<KindOption> input_options() const = 0;
  virtual Result<NamedInput> input_from_options(const KindOptions& o) const = 0;
  /// `zkpipe verify --kind`'s options for the kind (the public values), and the plan they make.
  virtual std::vector<KindOption> verify_options() const = 0;
  virtual Result<VerifyPlan> verify_plan(const KindOptions& o) const = 0;
  /// Its test inputs: the command that makes them ("gen-c1", "gen-vanilla"), its options for the
  /// kind, and one input sealed in memory (2 KiB, 8 MiB sectors) from them.
  virtual std::string_view generate_command() const = 0;
  virtual std::vector<KindOption> generate_options() const = 0;
  virtual Result<GeneratedInput> generate(const KindOptions& o) const = 0;
  /// `zkpipe check`'s own options for the kind, and the input it checks with them applied (PoSt:
  /// public values named on the command line, a smaller partition); default: the input itself.
  virtual std::vector<KindOption> check_options() const { return {}; }
  virtual Result<std::shared_ptr<const KindInput>> for_check(std::shared_ptr<const KindInput> in,
                                                             const KindOptions& /*o*/) const {
    return in;
  }
};

/// Every kind, in the order the CLI lists them: porep, window-post, winning-post, snap-update.
const std::vector<const ProofKind*>& proof_kinds();
/// By name; INVALID_ARGUMENT listing the kinds otherwise (`what` names the option: "--kind").
Result<const ProofKind*> find_proof_kind(std::string_view name, std::string_view what = "--kind");
/// "porep, window-post, winning-post or snap-update".
std::string proof_kind_names();
/// An option's one value ("" when not given); a decimal one (`fallback` when not given; errors name
/// the option); whether a flag is given.
std::string option_value(const KindOptions& o, const std::string& name);
Result<std::uint64_t> option_u64(const KindOptions& o, const std::string& name, std::uint64_t fallback);
bool option_flag(const KindOptions& o, const std::string& name);
/// cuzk.v1's sector_size: Curio always sends it; 0 or one that is not the registered proof's is
/// refused, both values named.
Status check_wire_sector_size(const WirePayload& p, const std::string& proof, std::uint64_t bytes);
/// The key sections of a counted circuit (after finish_with_input_rows), as bellperson's generator
/// makes them: IC over the inputs, H over the domain minus one, L over every aux, A over every
/// input and the A-dense aux, B over the B-dense inputs and aux.
KeySections key_sections_of(const r1cs::DensitySystem<Fr>& counted);
/// The same from the blank circuit, counted now (seconds at 2 KiB, minutes at 32 GiB).
Result<KeySections> count_key_sections(const PartitionCircuit& blank);
/// Its pinned sections, else counted where quick; nullopt otherwise.
std::optional<KeySections> expected_key_sections(const ProofKind& kind, const KindShape& s);

}  // namespace zk::circuits::filecoin
