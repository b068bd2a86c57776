// Mapped proving keys (groth16/key_cache.hpp): the mapped key equals the decoded one and proves
// the same statements; the cache is built once and reused; a changed source or a damaged cache is
// noticed and rebuilt; a bad parameter file is refused before anything is written.

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "groth16/io.hpp"
#include "groth16/key_cache.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "test_circuits.hpp"
#include "test_util.hpp"

namespace zk::groth16 {
namespace {

namespace fs = std::filesystem;

/// A fresh directory under the system's temporary directory, removed afterwards.
struct ScratchDir {
  fs::path path;
  ScratchDir() {
    std::string tmpl = (fs::temp_directory_path() / "zk-key-cache-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

template <class E>
class KeyCacheTest : public ::testing::Test {};
using Engines = ::testing::Types<Bls12_381, Bn254>;
TYPED_TEST_SUITE(KeyCacheTest, Engines);

template <class E, class Q>
void expect_same_points(const Q& mapped, const Q& decoded, const char* name) {
  ASSERT_EQ(mapped.size(), decoded.size()) << name;
  EXPECT_TRUE(mapped.mapped()) << name;
  for (std::size_t i = 0; i < decoded.size(); ++i) ASSERT_TRUE(mapped[i] == decoded[i]) << name << "[" << i << "]";
}

TYPED_TEST(KeyCacheTest, MappedKeyEqualsDecodedKeyAndProves) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  ScratchDir dir;
  auto rng = test::rng(71);
  const auto circuit = test::RandomCircuit<Fr>::make(rng, 2, 5, 300);
  r1cs::ShapeRecorder<Fr> rec;
  ASSERT_TRUE(circuit.synthesize(rec).ok());
  const auto pk = *generate_parameters<E>(rec.shape(), Trapdoor<E>::random(rng));
  const fs::path params = dir.path / "key.params";
  ASSERT_TRUE(write_file(params, write_parameters(pk)).ok());

  KeyCacheStats stats;
  auto mapped = map_parameters<E>(params, dir.path / "cache", &stats);
  ASSERT_TRUE(mapped.ok()) << mapped.status().to_string();
  EXPECT_TRUE(stats.built);
  EXPECT_TRUE(fs::is_regular_file(stats.file));
  expect_same_points<E>(mapped->h, pk.h, "h");
  expect_same_points<E>(mapped->l, pk.l, "l");
  expect_same_points<E>(mapped->a, pk.a, "a");
  expect_same_points<E>(mapped->b_g1, pk.b_g1, "b_g1");
  expect_same_points<E>(mapped->b_g2, pk.b_g2, "b_g2");
  EXPECT_EQ(write_verifying_key(mapped->vk), write_verifying_key(pk.vk));
  // The same randomness gives the same proof from either key.
  const Fr r = Fr::random(rng), s = Fr::random(rng);
  r1cs::ProvingSystem<Fr> cs1, cs2;
  ASSERT_TRUE(circuit.synthesize(cs1).ok());
  ASSERT_TRUE(circuit.synthesize(cs2).ok());
  auto p1 = prove(*mapped, std::move(cs1).finish(), r, s);
  auto p2 = prove(pk, std::move(cs2).finish(), r, s);
  ASSERT_TRUE(p1.ok() && p2.ok());
  EXPECT_TRUE(*p1 == *p2);
  EXPECT_TRUE(*verify(prepare_verifying_key(mapped->vk), *p1, circuit.public_inputs()));
  // Every mapped page was just read by the prover: the key reports them resident.
  EXPECT_GT(mapped_resident_bytes(*mapped), 0u);

  // A second load maps the same cache without rebuilding it.
  KeyCacheStats again;
  auto second = map_parameters<E>(params, dir.path / "cache", &again);
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(again.built);
  EXPECT_EQ(again.file, stats.file);
}

TYPED_TEST(KeyCacheTest, StaleOrDamagedCacheIsRebuilt) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  ScratchDir dir;
  auto rng = test::rng(72);
  auto make_key = [&](std::size_t constraints) {
    const auto circuit = test::RandomCircuit<Fr>::make(rng, 1, 3, constraints);
    r1cs::ShapeRecorder<Fr> rec;
    EXPECT_TRUE(circuit.synthesize(rec).ok());
    return *generate_parameters<E>(rec.shape(), Trapdoor<E>::random(rng));
  };
  const fs::path params = dir.path / "key.params";
  const fs::path cache = dir.path / "cache";
  const auto first = make_key(40);
  ASSERT_TRUE(write_file(params, write_parameters(first)).ok());
  KeyCacheStats stats;
  ASSERT_TRUE(map_parameters<E>(params, cache, &stats).ok());
  ASSERT_TRUE(stats.built);

  // Damage the cache: the first point of h no longer matches the parameter file.
  {
    std::fstream f(stats.file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4096 + 3);
    f.put('\x5a');
  }
  KeyCacheStats rebuilt;
  auto mapped = map_parameters<E>(params, cache, &rebuilt);
  ASSERT_TRUE(mapped.ok());
  EXPECT_TRUE(rebuilt.built);
  EXPECT_TRUE(mapped->h[0] == first.h[0]);

  // Replace the parameter file (same name, another key): the cache follows it.
  const auto second = make_key(70);
  ASSERT_TRUE(write_file(params, write_parameters(second)).ok());
  KeyCacheStats replaced;
  auto remapped = map_parameters<E>(params, cache, &replaced);
  ASSERT_TRUE(remapped.ok());
  EXPECT_TRUE(replaced.built);
  ASSERT_EQ(remapped->l.size(), second.l.size());
  for (std::size_t i = 0; i < second.l.size(); ++i) EXPECT_TRUE(remapped->l[i] == second.l[i]);
  // The earlier mapping stays valid: its cache file was replaced, not rewritten in place.
  EXPECT_TRUE(mapped->h[0] == first.h[0]);
}

TYPED_TEST(KeyCacheTest, BadParameterFilesAreRefusedBeforeACacheIsWritten) {
  using E = TypeParam;
  ScratchDir dir;
  const fs::path cache = dir.path / "cache";
  // A truncated file, a directory, and a missing file.
  const fs::path truncated = dir.path / "truncated.params";
  ASSERT_TRUE(write_file(truncated, std::vector<std::uint8_t>(100, 0)).ok());
  EXPECT_EQ(map_parameters<E>(truncated, cache).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(map_parameters<E>(dir.path, cache).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(map_parameters<E>(dir.path / "missing.params", cache).status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(fs::exists(cache) && !fs::is_empty(cache));
  // A key point off the curve is found while the cache is built, and no cache file is left.
  auto rng = test::rng(73);
  using Fr = typename E::Fr;
  const auto circuit = test::RandomCircuit<Fr>::make(rng, 1, 3, 30);
  r1cs::ShapeRecorder<Fr> rec;
  ASSERT_TRUE(circuit.synthesize(rec).ok());
  auto bytes = write_parameters(*generate_parameters<E>(rec.shape(), Trapdoor<E>::random(rng)));
  auto sections = parameter_sections<E>(bytes);
  ASSERT_TRUE(sections.ok());
  bytes[sections->l_at + key_point_bytes<E>(false) - 1] ^= 1;  // the last byte of l[0]'s y
  const fs::path bad = dir.path / "bad.params";
  ASSERT_TRUE(write_file(bad, bytes).ok());
  auto r = map_parameters<E>(bad, cache);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("l[0]"), std::string::npos) << r.status().message();
  for (const auto& f : fs::directory_iterator(cache)) {
    EXPECT_EQ(f.path().extension(), ".lock") << "only the builders' lock may be left: " << f.path();
  }
  // Bytes after the last section: refused everywhere, as a .vk with trailing bytes is (issue 47).
  bytes[sections->l_at + key_point_bytes<E>(false) - 1] ^= 1;  // sound again
  bytes.push_back(0);
  const fs::path longer = dir.path / "longer.params";
  ASSERT_TRUE(write_file(longer, bytes).ok());
  auto t = map_parameters<E>(longer, cache);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("1 bytes follow the b_g2 section, and they are not an MPC transcript"),
            std::string::npos)
      << t.status().message();
  EXPECT_FALSE(read_parameters<E>(bytes).ok());
  EXPECT_FALSE(parameter_sections<E>(bytes).ok());
  EXPECT_FALSE(read_parameter_sections<E>(longer).ok());
  bytes.pop_back();
  EXPECT_TRUE(read_parameters<E>(bytes).ok());
}

/// A development key of `constraints` random constraints written to dir/key.params.
template <class E>
ProvingKey<E> write_key(const fs::path& params, std::size_t constraints, std::uint64_t seed) {
  using Fr = typename E::Fr;
  auto rng = test::rng(seed);
  const auto circuit = test::RandomCircuit<Fr>::make(rng, 1, 3, constraints);
  r1cs::ShapeRecorder<Fr> rec;
  EXPECT_TRUE(circuit.synthesize(rec).ok());
  auto pk = *generate_parameters<E>(rec.shape(), Trapdoor<E>::random(rng));
  EXPECT_TRUE(write_file(params, write_parameters(pk)).ok());
  return pk;
}

void make_writable(const fs::path& f) { fs::permissions(f, fs::perms::owner_write, fs::perm_options::add); }

TYPED_TEST(KeyCacheTest, AnInteriorBitFlipIsFoundByItsBlockChecksumAndRebuilt) {
  // Issue 47: the first and last points of every query were all that was checked; a flipped
  // middle point made every proof with the key fail for ever.
  using E = TypeParam;
  ScratchDir dir;
  const fs::path params = dir.path / "key.params";
  const auto pk = write_key<E>(params, 400, 74);
  KeyCacheStats stats;
  ASSERT_TRUE(map_parameters<E>(params, dir.path / "cache", &stats).ok());
  EXPECT_EQ(fs::status(stats.file).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);  // read-only
  ASSERT_TRUE(check_key_cache(stats.file).ok());
  // Flip one bit of l's middle point (neither its first nor its last).
  ASSERT_GT(pk.l.size(), 4u);
  auto mapped = map_parameters<E>(params, dir.path / "cache");
  ASSERT_TRUE(mapped.ok());
  const std::uint64_t at = static_cast<std::uint64_t>(reinterpret_cast<const std::uint8_t*>(&mapped->l[pk.l.size() / 2]) -
                                                      mapped->h.mapping()->bytes().data()) + 5;
  mapped = Status::internal("dropped");
  make_writable(stats.file);
  {
    std::fstream f(stats.file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(at));
    const char c = static_cast<char>(f.get());
    f.seekp(static_cast<std::streamoff>(at));
    f.put(static_cast<char>(c ^ 0x10));
  }
  auto damaged = check_key_cache(stats.file);
  ASSERT_FALSE(damaged.ok());
  EXPECT_NE(damaged.message().find(stats.file.string()), std::string::npos) << damaged.message();
  EXPECT_NE(damaged.message().find("fails its checksum"), std::string::npos) << damaged.message();
  KeyCacheStats rebuilt;
  auto again = map_parameters<E>(params, dir.path / "cache", &rebuilt);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(rebuilt.built);
  EXPECT_NE(rebuilt.rebuilt_because.find("fails its checksum"), std::string::npos) << rebuilt.rebuilt_because;
  for (std::size_t i = 0; i < pk.l.size(); ++i) ASSERT_TRUE(again->l[i] == pk.l[i]) << i;
  EXPECT_TRUE(check_key_cache(rebuilt.file).ok());
}

TYPED_TEST(KeyCacheTest, ACacheTruncatedWhileMappedReadsAsZerosCountedNotACrash) {
  // Issue 47: a daemon died of SIGBUS when its key cache was truncated under it. Lost pages read as
  // zeros and are counted; the work that read them is failed by whoever checks (the workload).
  using E = TypeParam;
  ScratchDir dir;
  const fs::path params = dir.path / "key.params";
  const auto pk = write_key<E>(params, 400, 75);
  KeyCacheStats stats;
  auto mapped = map_parameters<E>(params, dir.path / "cache", &stats);
  ASSERT_TRUE(mapped.ok());
  EXPECT_EQ(mapped_lost_pages(*mapped), 0u);
  EXPECT_EQ(mapped_cache_file(*mapped), stats.file);
  make_writable(stats.file);
  fs::resize_file(stats.file, 4096);
  std::uint64_t ones = 0;
  for (std::size_t i = 0; i < mapped->l.size(); ++i) {
    typename E::G1Affine p = mapped->l[i];  // would be SIGBUS
    ones += p == pk.l[i] ? 1 : 0;
  }
  EXPECT_EQ(ones, 0u);
  EXPECT_GT(mapped_lost_pages(*mapped), 0u);
  // The next load notices and rebuilds.
  KeyCacheStats rebuilt;
  auto again = map_parameters<E>(params, dir.path / "cache", &rebuilt);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(rebuilt.built);
  EXPECT_NE(rebuilt.rebuilt_because.find("bytes"), std::string::npos) << rebuilt.rebuilt_because;
  EXPECT_EQ(mapped_lost_pages(*again), 0u);
  for (std::size_t i = 0; i < pk.l.size(); ++i) ASSERT_TRUE(again->l[i] == pk.l[i]) << i;
}

TYPED_TEST(KeyCacheTest, ConcurrentLoadsBuildTheCacheOnce) {
  using E = TypeParam;
  ScratchDir dir;
  const fs::path params = dir.path / "key.params";
  write_key<E>(params, 2000, 76);
  constexpr int kLoads = 3;
  std::vector<KeyCacheStats> stats(kLoads);
  std::vector<Result<ProvingKey<E>>> keys(kLoads, Status::internal("not run"));
  std::vector<std::thread> threads;
  for (int i = 0; i < kLoads; ++i) {
    threads.emplace_back([&, i] { keys[i] = map_parameters<E>(params, dir.path / "cache", &stats[i]); });
  }
  for (auto& t : threads) t.join();
  int built = 0;
  for (int i = 0; i < kLoads; ++i) {
    ASSERT_TRUE(keys[i].ok()) << keys[i].status().message();
    built += stats[i].built ? 1 : 0;
  }
  EXPECT_EQ(built, 1);
  int files = 0;
  for (const auto& f : fs::directory_iterator(dir.path / "cache")) files += f.path().extension() == ".zkkey";
  EXPECT_EQ(files, 1);
}

TYPED_TEST(KeyCacheTest, ACacheDirectoryOthersCanWriteIsRefused) {
  using E = TypeParam;
  ScratchDir dir;
  const fs::path params = dir.path / "key.params";
  write_key<E>(params, 50, 77);
  const fs::path open_dir = dir.path / "shared";
  fs::create_directory(open_dir);
  fs::permissions(open_dir, fs::perms::all);  // 0777, as /tmp/zkpipe-keys made by anyone
  auto r = map_parameters<E>(params, open_dir);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("writable by other users"), std::string::npos) << r.status().message();
  EXPECT_TRUE(fs::is_empty(open_dir));
  // A directory the cache makes itself is private.
  ASSERT_TRUE(map_parameters<E>(params, dir.path / "made" / "keys").ok());
  EXPECT_EQ(fs::status(dir.path / "made" / "keys").permissions() & (fs::perms::group_write | fs::perms::others_write),
            fs::perms::none);
}

TEST(KeyCacheDirectory, NeverAPredictableSharedPath) {
  struct Saved {
    const char* name;
    std::optional<std::string> value;
  };
  std::vector<Saved> saved;
  for (const char* n : {"ZKPIPE_KEY_CACHE", "XDG_CACHE_HOME", "HOME"}) {
    const char* v = std::getenv(n);
    saved.push_back({n, v ? std::optional<std::string>(v) : std::nullopt});
    ::unsetenv(n);
  }
  auto none = default_key_cache_dir();
  ::setenv("HOME", "/home/someone", 1);
  auto home = default_key_cache_dir();
  ::setenv("ZKPIPE_KEY_CACHE", "/srv/keys", 1);
  auto explicit_dir = default_key_cache_dir();
  for (const auto& s : saved) {
    if (s.value) {
      ::setenv(s.name, s.value->c_str(), 1);
    } else {
      ::unsetenv(s.name);
    }
  }
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("ZKPIPE_KEY_CACHE"), std::string::npos);
  ASSERT_TRUE(home.ok());
  EXPECT_EQ(*home, fs::path("/home/someone/.cache/zkpipe/keys"));
  ASSERT_TRUE(explicit_dir.ok());
  EXPECT_EQ(*explicit_dir, fs::path("/srv/keys"));
}

}  // namespace
}  // namespace zk::groth16
