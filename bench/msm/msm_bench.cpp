// MSM benchmarks: G1 2^12..2^20 and G2 2^12..2^18 over BLS12-381, one and two threads.
//
// First calls (issue 22): `bench_msm --first-call=GROUP,LOG_N,THREADS` (GROUP bls-g1, bls-g2, bn-g1,
// bn-g2) times the first three MSMs of a fresh process on the same input, with the minor page faults
// and the user / system CPU time of each (getrusage): what a CLI prover, which only ever makes first
// calls, pays on top of the warm figures above. GROUP-noglv (bls-g1-noglv, ...) runs without the GLV split.
//
// Side by side with blst (docs/benchmarks.md): `bench_msm --export=FILE,GROUP,LOG_N` writes the exact
// points and scalars these benchmarks use (GROUP 1 = G1, 2 = G2; format in docs/benchmarks.md) and
// prints zkpipe's single-threaded result and time, so an external harness can run
// blst_p1s_mult_pippenger on the same input and compare both the time and the point.
//
// Window sweeps (issue 22, the cost model): `bench_msm --sweep=GROUP,LOG_N,CMIN,CMAX,REPS[,BATCH]`
// times single-threaded MSMs (GLV on; GROUP-noglv without it, GROUP-xyzz with XYZZ buckets) with
// every forced window c in [CMIN, CMAX], REPS rounds that visit the windows in turn (so drifts in the
// machine's load hit all of them alike), and prints each c's min and median, wall and CPU time, next
// to choose_window's cost, and the plan's own choice. BATCH forces the batch size (0: default_batch).
// `bench_msm --costs=GROUP` measures WindowCosts' constants on the bucket classes themselves: 2^17
// distinct points added to 2^(c-1) filled buckets at uniformly random indices (batch-affine with several
// batch sizes, and XYZZ), the bucket reduction, and one field inversion; min of 3, single thread.
// `bench_msm --plans` prints the default single-threaded plan of every group at 2^4 ... 2^24 points.
// `bench_msm --mix=GROUP,N,ONES,ZEROS,THREADS` times three MSMs whose scalars have a witness's shape
// (ONES ones, ZEROS zeros, the rest uniform; e.g. a 32 GiB PoRep partition's B_G2, docs/msm.md).

#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <tbb/task_arena.h>
#include <time.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "curve/bls12_381.hpp"
#include "curve/bn254.hpp"
#include "curve/serialize.hpp"
#include "msm/pippenger.hpp"

namespace zk::msm {
namespace {

using curve::Affine;
using curve::Jacobian;

template <class C>
struct Input {
  std::vector<Affine<C>> bases;
  std::vector<typename C::Scalar> scalars;
};

// Deterministic inputs: 64 random points, then each point the previous plus a pseudo-random earlier
// one (cheap to make, unstructured enough for an MSM), and uniform scalars.
template <class C>
const Input<C>& input(unsigned log_n) {
  static std::vector<std::unique_ptr<Input<C>>> cache(32);
  if (!cache[log_n]) {
    const std::size_t n = std::size_t{1} << log_n;
    Rng rng(0x6d736d + log_n);
    std::vector<Jacobian<C>> pts;
    pts.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      pts.push_back(i < 64 ? Jacobian<C>::random(rng) : pts[i - 1] + pts[rng.next() % i]);
    }
    auto in = std::make_unique<Input<C>>();
    in->bases = curve::batch_to_affine<C>(pts);
    in->scalars.resize(n);
    for (auto& s : in->scalars) s = C::Scalar::random(rng);
    cache[log_n] = std::move(in);
  }
  return *cache[log_n];
}

template <class C, Endomorphism kEndo = Endomorphism::kAuto>
void BM_msm(benchmark::State& state) {
  const auto& in = input<C>(static_cast<unsigned>(state.range(0)));
  tbb::task_arena arena(static_cast<int>(state.range(1)));
  MsmConfig config{.endomorphism = kEndo};
  if (state.range(2) != 0) config.window_bits = static_cast<unsigned>(state.range(2));
  if (state.range(3) != 0) config.batch_size = static_cast<std::size_t>(state.range(3));
  for (auto _ : state) {
    Jacobian<C> r;
    arena.execute([&] { r = *msm<C>(in.bases, in.scalars, config); });
    benchmark::DoNotOptimize(r);
  }
  const MsmPlan plan = make_plan<C>(in.bases.size(), config, static_cast<int>(state.range(1)));
  state.counters["c"] = plan.window_bits;
  state.counters["glv"] = plan.glv ? 1 : 0;
  state.counters["affine"] = plan.batch_affine ? 1 : 0;
  state.counters["scratch_MiB"] = static_cast<double>(scratch_bytes<C>(plan)) / (1 << 20);
}
BENCHMARK(BM_msm<curve::Bls12_381G1>)
    ->Name("g1_msm")
    ->ArgsProduct({{4, 6, 8, 10, 12, 14, 16, 18, 20}, {1, 2}, {0}, {0}})
    ->ArgsProduct({{16}, {1}, {10, 11, 12, 13, 14, 15}, {0}})
    ->ArgsProduct({{18}, {1}, {13, 14, 15, 16}, {0}})
    ->ArgsProduct({{14}, {1}, {10, 11, 12}, {64, 128, 256, 512}})
    ->ArgsProduct({{16}, {1}, {12}, {128, 256, 512, 1024}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
// Without the GLV split (the path before issue 22), and BN254 G1 both ways.
BENCHMARK(BM_msm<curve::Bls12_381G1, Endomorphism::kOff>)
    ->Name("g1_msm_noglv")
    ->ArgsProduct({{4, 6, 8, 10, 12, 14, 16, 18}, {1, 2}, {0}, {0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_msm<curve::Bn254G1>)
    ->Name("bn_g1_msm")
    ->ArgsProduct({{4, 6, 8, 10, 12, 14, 16, 18}, {1, 2}, {0}, {0}})
    ->ArgsProduct({{10}, {1}, {6, 7, 8, 9, 10}, {0}})
    ->ArgsProduct({{12}, {1}, {8, 9, 10, 11, 12}, {0}})
    ->ArgsProduct({{14}, {1}, {10, 11, 12, 13, 14}, {0}})
    ->ArgsProduct({{16}, {1}, {11, 12, 13, 14, 15, 16}, {0}})
    ->ArgsProduct({{18}, {1}, {13, 14, 15, 16, 17}, {0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_msm<curve::Bn254G1, Endomorphism::kOff>)
    ->Name("bn_g1_msm_noglv")
    ->ArgsProduct({{4, 6, 8, 10, 12, 14, 16, 18}, {1, 2}, {0}, {0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_msm<curve::Bls12_381G2>)
    ->Name("g2_msm")
    ->ArgsProduct({{12, 14, 16, 18}, {1, 2}, {0}, {0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_msm<curve::Bls12_381G2, Endomorphism::kOff>)
    ->Name("g2_msm_noglv")
    ->ArgsProduct({{12, 14, 16, 18}, {1, 2}, {0}, {0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Groth16-like scalars: half zeros, half ones (the A/B/L queries of bit-heavy circuits).
template <class C>
void BM_msm_bits(benchmark::State& state) {
  const auto& in = input<C>(static_cast<unsigned>(state.range(0)));
  std::vector<typename C::Scalar> bits(in.scalars.size());
  Rng rng(9);
  for (auto& b : bits) b = (rng.next() & 1) ? C::Scalar::one() : C::Scalar::zero();
  tbb::task_arena arena(1);
  MsmConfig config;
  if (state.range(1) != 0) config.accumulation = Accumulation::kXyzz;
  for (auto _ : state) {
    Jacobian<C> r;
    arena.execute([&] { r = *msm<C>(in.bases, bits, config); });
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_msm_bits<curve::Bls12_381G1>)
    ->Name("g1_msm_bits")
    ->ArgsProduct({{16}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Random scalars with a share of ones (percent, range 1): a dense witness that is not mostly bits.
template <class C>
void BM_msm_some_ones(benchmark::State& state) {
  const auto& in = input<C>(static_cast<unsigned>(state.range(0)));
  std::vector<typename C::Scalar> scalars(in.scalars.begin(), in.scalars.end());
  Rng rng(10);
  for (auto& s : scalars) {
    if (static_cast<std::int64_t>(rng.next() % 100) < state.range(1)) s = C::Scalar::one();
  }
  tbb::task_arena arena(1);
  for (auto _ : state) {
    Jacobian<C> r;
    arena.execute([&] { r = *msm<C>(in.bases, scalars); });
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_msm_some_ones<curve::Bls12_381G1>)
    ->Name("g1_msm_some_ones")
    ->ArgsProduct({{16}, {0, 15, 30}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

template <class C>
int export_input(const std::string& path, unsigned group, unsigned log_n) {
  const auto& in = input<C>(log_n);
  std::ofstream out(path, std::ios::binary);
  const char magic[8] = {'Z', 'K', 'M', 'S', 'M', 0, 0, 1};
  out.write(magic, 8);
  const std::uint32_t hdr[2] = {group, 0};
  out.write(reinterpret_cast<const char*>(hdr), sizeof(hdr));
  const std::uint64_t n = in.bases.size();
  out.write(reinterpret_cast<const char*>(&n), sizeof(n));
  for (const auto& p : in.bases) {
    const auto bytes = curve::bls12_381::to_uncompressed(p);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  for (const auto& s : in.scalars) {
    std::uint8_t b[32];
    s.to_bytes(b, field::Endian::kLittle);
    out.write(reinterpret_cast<const char*>(b), 32);
  }
  if (!out) {
    std::cerr << "cannot write " << path << "\n";
    return 1;
  }
  tbb::task_arena arena(1);
  Jacobian<C> r;
  const auto t0 = std::chrono::steady_clock::now();
  arena.execute([&] { r = *msm<C>(in.bases, in.scalars); });
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const auto c = curve::bls12_381::to_compressed(r.to_affine());
  std::string hex;
  for (auto b : c) {
    char buf[3];
    std::snprintf(buf, sizeof(buf), "%02x", b);
    hex += buf;
  }
  std::cout << "zkpipe G" << group << " n=" << n << " ms=" << ms << "\nresult " << hex << "\n";
  return 0;
}

template <class C>
int first_calls(const char* group, unsigned log_n, int threads, Endomorphism endo = Endomorphism::kAuto) {
  const auto& in = input<C>(log_n);
  tbb::task_arena arena(threads);
  auto usage = [] {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    auto s = [](const timeval& t) {
      return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3;
    };
    return std::array<double, 3>{s(u.ru_utime), s(u.ru_stime), static_cast<double>(u.ru_minflt)};
  };
  for (int call = 1; call <= 3; ++call) {
    const auto u0 = usage();
    const auto t0 = std::chrono::steady_clock::now();
    Jacobian<C> r;
    arena.execute([&] { r = *msm<C>(in.bases, in.scalars, {.endomorphism = endo}); });
    benchmark::DoNotOptimize(r);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const auto u1 = usage();
    std::printf("%s 2^%u threads=%d call %d: %.1f ms, user %.1f ms, sys %.1f ms, minor faults %.0f\n", group, log_n,
                threads, call, ms, u1[0] - u0[0], u1[1] - u0[1], u1[2] - u0[2]);
  }
  return 0;
}

/// `--mix=GROUP,N,ONES,ZEROS,THREADS`: an MSM of N points whose scalars are ONES ones, ZEROS zeros
/// and the rest uniform, at random positions — a witness's shape, e.g. a 32 GiB PoRep partition's
/// B_G2 query from `zkpipe synthesize --census` (docs/msm.md). The bases repeat 2^16 points from
/// input() (the work of an MSM does not depend on the bases being distinct). Three calls.
template <class C>
int mix(const char* group, std::size_t n, std::size_t ones, std::size_t zeros, int threads) {
  if (ones + zeros > n || n > (std::size_t{1} << 31)) {
    std::fprintf(stderr, "--mix: ONES + ZEROS must be at most N, N at most 2^31\n");
    return 2;
  }
  const auto& tile = input<C>(16);
  std::vector<Affine<C>> bases(n);
  for (std::size_t i = 0; i < n; ++i) bases[i] = tile.bases[i & 0xffff];
  std::vector<typename C::Scalar> scalars(n);
  Rng rng(0x6d6978);
  for (std::size_t i = 0; i < n; ++i) {
    scalars[i] = i < ones ? C::Scalar::one() : i < ones + zeros ? C::Scalar::zero() : C::Scalar::random(rng);
  }
  for (std::size_t i = n; i > 1; --i) std::swap(scalars[i - 1], scalars[rng.next() % i]);  // Fisher-Yates
  tbb::task_arena arena(threads);
  for (int call = 1; call <= 3; ++call) {
    rusage u0{}, u1{};
    ::getrusage(RUSAGE_SELF, &u0);
    const auto t0 = std::chrono::steady_clock::now();
    Jacobian<C> r;
    Status status;
    arena.execute([&] {
      auto m = msm<C>(bases, scalars);
      if (m.ok()) r = *m;
      status = m.status();
    });
    if (!status.ok()) {
      std::fprintf(stderr, "--mix: %s\n", status.message().c_str());
      return 1;
    }
    benchmark::DoNotOptimize(r);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ::getrusage(RUSAGE_SELF, &u1);
    const double cpu_s = static_cast<double>(u1.ru_utime.tv_sec - u0.ru_utime.tv_sec) +
                         static_cast<double>(u1.ru_utime.tv_usec - u0.ru_utime.tv_usec) / 1e6;
    std::printf("%s n=%zu ones=%zu zeros=%zu other=%zu threads=%d call %d: %.1f ms, user %.2f s\n", group, n, ones,
                zeros, n - ones - zeros, threads, call, ms, cpu_s);
  }
  return 0;
}

template <class C>
int sweep(const std::string& tag, unsigned log_n, unsigned cmin, unsigned cmax, int reps, std::size_t batch,
          Endomorphism endo, Accumulation acc) {
  const auto& in = input<C>(log_n);
  const std::size_t n = in.bases.size();
  tbb::task_arena arena(1);
  const MsmPlan auto_plan = make_plan<C>(n, {.accumulation = acc, .endomorphism = endo}, 1);
  std::printf("%s 2^%u: plan c=%u glv=%d batch_affine=%d\n", tag.c_str(), log_n, auto_plan.window_bits,
              auto_plan.glv ? 1 : 0, auto_plan.batch_affine ? 1 : 0);
  // Wall time and the process's CPU time: on a shared machine the CPU time leaves out the waits for a
  // core (not the cache and memory contention).
  auto cpu_ms = [] {
    timespec t{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
  };
  std::vector<std::vector<double>> ms(cmax + 1), cpu(cmax + 1);
  for (int r = 0; r < reps; ++r) {
    for (unsigned c = cmin; c <= cmax; ++c) {
      const MsmConfig config{.window_bits = c, .accumulation = acc, .batch_size = batch, .endomorphism = endo};
      Jacobian<C> out;
      const double c0 = cpu_ms();
      const auto t0 = std::chrono::steady_clock::now();
      arena.execute([&] { out = *msm<C>(in.bases, in.scalars, config); });
      benchmark::DoNotOptimize(out);
      ms[c].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      cpu[c].push_back(cpu_ms() - c0);
    }
  }
  for (unsigned c = cmin; c <= cmax; ++c) {
    std::sort(ms[c].begin(), ms[c].end());
    std::sort(cpu[c].begin(), cpu[c].end());
    const MsmPlan plan = make_plan<C>(n, {.window_bits = c, .accumulation = acc, .endomorphism = endo}, 1);
    double log2 = 0;
    if constexpr (curve::HasGlv<C>) log2 = plan.glv ? glv_scalar_log2<C>() : 0;
    const double model =
        window_cost(plan.glv ? 2 * n : n, plan.scalar_bits, c, plan.batch_affine, window_costs<C>(), log2);
    std::printf("%s 2^%u c=%2u min %.1f median %.1f ms, cpu min %.1f median %.1f ms  model %.4g  batch %zu\n",
                tag.c_str(), log_n, c, ms[c].front(), ms[c][ms[c].size() / 2], cpu[c].front(),
                cpu[c][cpu[c].size() / 2], model, batch != 0 ? batch : plan.batch_size);
  }
  return 0;
}

/// The default plan (1 thread, random scalars) at 2^4 ... 2^24 points: window, accumulator, GLV, scratch.
template <curve::CurveConfig C>
int plans(const std::string& tag) {
  for (unsigned log_n = 4; log_n <= 24; log_n += 2) {
    const MsmPlan plan = make_plan<C>(std::size_t{1} << log_n, {}, 1);
    std::printf("%s 2^%u: c=%u glv=%d batch_affine=%d scratch %.1f MiB\n", tag.c_str(), log_n, plan.window_bits,
                plan.glv ? 1 : 0, plan.batch_affine ? 1 : 0, static_cast<double>(scratch_bytes<C>(plan)) / (1 << 20));
  }
  return 0;
}

template <class C>
int costs(const std::string& tag) {
  using Field = typename C::Field;
  constexpr unsigned kLog = 17;
  const auto& in = input<C>(kLog);
  const std::size_t n = in.bases.size();
  // f() returns the moment its timed part starts (or void: all of it is timed).
  auto time_ns = [](auto&& f) {
    double best = INFINITY;
    for (int r = 0; r < 3; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      if constexpr (!std::is_void_v<decltype(f())>) {
        t0 = f();
      } else {
        f();
      }
      best = std::min(best, std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
  };
  Rng rng(17);
  Field x = Field::random(rng);
  constexpr int kInversions = 2000;
  const double inv_ns = time_ns([&] {
                          for (int i = 0; i < kInversions; ++i) x = (x + Field::one()).inverse();
                          benchmark::DoNotOptimize(x);
                        }) /
                        kInversions;
  std::printf("%s inversion %.0f ns\n", tag.c_str(), inv_ns);
  std::printf("%s   c  buckets  batch  conflicts/add  affine ns/pt  reduce ns/bucket | xyzz ns/pt  reduce ns/bucket\n",
              tag.c_str());
  for (unsigned c = 6; c <= kLog; ++c) {
    const std::size_t count = std::size_t{1} << (c - 1);
    std::vector<std::uint32_t> idx(n);
    std::vector<std::uint8_t> neg(n);
    for (std::size_t i = 0; i < n; ++i)
      idx[i] = static_cast<std::uint32_t>(rng.next() % count), neg[i] = rng.next() & 1;
    // Every bucket is filled first (untimed, other indices): the first point into an empty bucket
    // is a copy, which the model counts separately (fill_fraction).
    std::vector<std::uint32_t> pre(n);
    for (auto& i : pre) i = static_cast<std::uint32_t>(rng.next() % count);
    XyzzBuckets<C> xb(count);
    const double xyzz = time_ns([&] {
                          XyzzBuckets<C> b(count);
                          for (std::size_t i = 0; i < count; ++i)
                            b.add(static_cast<std::uint32_t>(i), in.bases[n - 1 - i], false);
                          const auto t0 = std::chrono::steady_clock::now();
                          for (std::size_t i = 0; i < n; ++i) b.add(idx[i], in.bases[i], neg[i] != 0);
                          xb = std::move(b);
                          return t0;
                        }) /
                        static_cast<double>(n);
    curve::Jacobian<C> sink;
    const double xyzz_red = time_ns([&] { sink = xb.reduce(); }) / static_cast<double>(count);
    for (std::size_t batch : {std::size_t{32}, std::size_t{64}, std::size_t{128}, std::size_t{256}, std::size_t{512},
                              std::size_t{1024}, std::size_t{2048}}) {
      if (batch > count && batch != default_batch(c)) continue;
      std::vector<AffineBuckets<C>> keep;
      const double affine = time_ns([&] {
                              AffineBuckets<C> b(count, batch);
                              for (std::size_t i = 0; i < count; ++i)
                                b.add(static_cast<std::uint32_t>(i), in.bases[n - 1 - i], false);
                              const auto t0 = std::chrono::steady_clock::now();
                              for (std::size_t i = 0; i < n; ++i) b.add(idx[i], in.bases[i], neg[i] != 0);
                              b.finish();
                              keep.clear();
                              keep.push_back(std::move(b));
                              return t0;
                            }) /
                            static_cast<double>(n);
      const double red = time_ns([&] { sink = keep.front().reduce(); }) / static_cast<double>(count);
      benchmark::DoNotOptimize(sink);
      std::printf("%s  %2u  %7zu  %5zu%s  %.3f  %7.1f  %7.1f | %7.1f  %7.1f\n", tag.c_str(), c, count, batch,
                  batch == default_batch(c) ? "*" : " ",
                  conflicts_per_add(static_cast<double>(batch), static_cast<double>(count)), affine, red, xyzz,
                  xyzz_red);
    }
  }
  return 0;
}

}  // namespace
}  // namespace zk::msm

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--first-call=", 0) == 0) {
      const std::string spec = a.substr(13);
      const auto c1 = spec.find(','), c2 = spec.rfind(',');
      if (c1 == std::string::npos || c1 == c2) {
        std::cerr << "usage: --first-call=GROUP(bls-g1|bls-g2|bn-g1|bn-g2[-noglv]),LOG_N,THREADS\n";
        return 2;
      }
      std::string group = spec.substr(0, c1);
      // GROUP-noglv: the same MSM without the GLV split, for side-by-side runs.
      const bool noglv = group.size() > 6 && group.ends_with("-noglv");
      const auto endo = noglv ? zk::msm::Endomorphism::kOff : zk::msm::Endomorphism::kAuto;
      const std::string tag = group;
      if (noglv) group.resize(group.size() - 6);
      const unsigned log_n = static_cast<unsigned>(std::stoul(spec.substr(c1 + 1, c2 - c1 - 1)));
      const int threads = std::stoi(spec.substr(c2 + 1));
      if (log_n > 24 || threads < 1) {
        std::cerr << "LOG_N at most 24, THREADS at least 1\n";
        return 2;
      }
      if (group == "bls-g1") return zk::msm::first_calls<zk::curve::Bls12_381G1>(tag.c_str(), log_n, threads, endo);
      if (group == "bls-g2") return zk::msm::first_calls<zk::curve::Bls12_381G2>(tag.c_str(), log_n, threads, endo);
      if (group == "bn-g1") return zk::msm::first_calls<zk::curve::Bn254G1>(tag.c_str(), log_n, threads, endo);
      if (group == "bn-g2") return zk::msm::first_calls<zk::curve::Bn254G2>(tag.c_str(), log_n, threads, endo);
      std::cerr << "GROUP must be bls-g1, bls-g2, bn-g1 or bn-g2, optionally with -noglv\n";
      return 2;
    }
    if (a.rfind("--mix=", 0) == 0) {
      std::vector<std::string> f;
      for (std::size_t at = 6;;) {
        const auto comma = a.find(',', at);
        f.push_back(a.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        if (comma == std::string::npos) break;
        at = comma + 1;
      }
      std::size_t v[4] = {0, 0, 0, 0};
      bool ok = f.size() == 5;
      for (std::size_t i = 0; ok && i < 4; ++i) {
        const std::string& x = f[i + 1];
        ok = !x.empty() && x.size() < 12 && x.find_first_not_of("0123456789") == std::string::npos;
        if (ok) v[i] = std::stoull(x);
      }
      if (!ok || v[3] < 1 || v[3] > 1024) {
        std::cerr << "usage: --mix=GROUP(bls-g1|bls-g2|bn-g1|bn-g2),N,ONES,ZEROS,THREADS\n";
        return 2;
      }
      const int threads = static_cast<int>(v[3]);
      if (f[0] == "bls-g1") return zk::msm::mix<zk::curve::Bls12_381G1>("bls-g1", v[0], v[1], v[2], threads);
      if (f[0] == "bls-g2") return zk::msm::mix<zk::curve::Bls12_381G2>("bls-g2", v[0], v[1], v[2], threads);
      if (f[0] == "bn-g1") return zk::msm::mix<zk::curve::Bn254G1>("bn-g1", v[0], v[1], v[2], threads);
      if (f[0] == "bn-g2") return zk::msm::mix<zk::curve::Bn254G2>("bn-g2", v[0], v[1], v[2], threads);
      std::cerr << "GROUP must be bls-g1, bls-g2, bn-g1 or bn-g2\n";
      return 2;
    }
    if (a == "--plans") {
      using namespace zk::curve;
      return zk::msm::plans<Bls12_381G1>("bls-g1") | zk::msm::plans<Bls12_381G2>("bls-g2") |
             zk::msm::plans<Bn254G1>("bn-g1") | zk::msm::plans<Bn254G2>("bn-g2");
    }
    if (a.rfind("--costs=", 0) == 0) {
      const std::string group = a.substr(8);
      if (group == "bls-g1") return zk::msm::costs<zk::curve::Bls12_381G1>(group);
      if (group == "bls-g2") return zk::msm::costs<zk::curve::Bls12_381G2>(group);
      if (group == "bn-g1") return zk::msm::costs<zk::curve::Bn254G1>(group);
      if (group == "bn-g2") return zk::msm::costs<zk::curve::Bn254G2>(group);
      std::cerr << "usage: --costs=GROUP(bls-g1|bls-g2|bn-g1|bn-g2)\n";
      return 2;
    }
    if (a.rfind("--sweep=", 0) == 0) {
      std::vector<std::string> f;
      for (std::size_t b = 8, e; b <= a.size(); b = e + 1) {
        e = a.find(',', b);
        if (e == std::string::npos) e = a.size();
        f.push_back(a.substr(b, e - b));
      }
      if (f.size() < 5) {
        std::cerr << "usage: --sweep=GROUP(bls-g1|bls-g2|bn-g1|bn-g2[-noglv|-xyzz]),LOG_N,CMIN,CMAX,REPS[,BATCH]\n";
        return 2;
      }
      std::string group = f[0];
      auto endo = zk::msm::Endomorphism::kOn;  // GLV also where the model would leave it off
      auto acc = zk::msm::Accumulation::kAuto;
      if (group.ends_with("-noglv")) endo = zk::msm::Endomorphism::kOff, group.resize(group.size() - 6);
      if (group.ends_with("-xyzz")) acc = zk::msm::Accumulation::kXyzz, group.resize(group.size() - 5);
      const unsigned log_n = static_cast<unsigned>(std::stoul(f[1]));
      const unsigned cmin = static_cast<unsigned>(std::stoul(f[2])), cmax = static_cast<unsigned>(std::stoul(f[3]));
      const int reps = std::stoi(f[4]);
      const std::size_t batch = f.size() > 5 ? std::stoul(f[5]) : 0;
      if (log_n > 24 || cmin < 1 || cmax > 24 || cmin > cmax || reps < 1) {
        std::cerr << "LOG_N at most 24, 1 <= CMIN <= CMAX <= 24, REPS at least 1\n";
        return 2;
      }
      using namespace zk::curve;
      if (group == "bls-g1") return zk::msm::sweep<Bls12_381G1>(f[0], log_n, cmin, cmax, reps, batch, endo, acc);
      if (group == "bls-g2") return zk::msm::sweep<Bls12_381G2>(f[0], log_n, cmin, cmax, reps, batch, endo, acc);
      if (group == "bn-g1") return zk::msm::sweep<Bn254G1>(f[0], log_n, cmin, cmax, reps, batch, endo, acc);
      if (group == "bn-g2") return zk::msm::sweep<Bn254G2>(f[0], log_n, cmin, cmax, reps, batch, endo, acc);
      std::cerr << "GROUP must be bls-g1, bls-g2, bn-g1 or bn-g2\n";
      return 2;
    }
    if (a.rfind("--export=", 0) == 0) {
      const std::string spec = a.substr(9);
      const auto c1 = spec.find(','), c2 = spec.rfind(',');
      if (c1 == std::string::npos || c1 == c2) {
        std::cerr << "usage: --export=FILE,GROUP(1|2),LOG_N\n";
        return 2;
      }
      const std::string path = spec.substr(0, c1);
      const unsigned group = static_cast<unsigned>(std::stoul(spec.substr(c1 + 1, c2 - c1 - 1)));
      const unsigned log_n = static_cast<unsigned>(std::stoul(spec.substr(c2 + 1)));
      if (log_n > 24 || (group != 1 && group != 2)) {
        std::cerr << "GROUP must be 1 or 2 and LOG_N at most 24\n";
        return 2;
      }
      return group == 1 ? zk::msm::export_input<zk::curve::Bls12_381G1>(path, group, log_n)
                        : zk::msm::export_input<zk::curve::Bls12_381G2>(path, group, log_n);
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
