#pragma once

// prove_start's work on a device (prover.hpp's Backend): the quotient H and the G1 MSMs run
// through `Ops` (CudaOps: the quotient kept on the device for the H MSM, msm::gpu::msm_points), all of
// a partition's device calls inside one turn of one of the host's devices (gpu/pool.hpp: a gate
// per device, the dual-worker interlock). What needs no device happens before the turn and
// overlaps the other prover worker's kernels: the inputs' few scalars made dense (`gather`; the
// zkey prover also pads its dense a and b). A Groth16 partition's a, b and witness stay compact
// columns on the host: the device expands them (msm::gpu::expand_on_device, msm_points_compact), so no
// dense copy is held or uploaded. Identity bases allowed. B_G2's aux part runs on the device too
// (kG2; its inputs' few points stay in prove_finish on the CPU). Without a device every call is UNAVAILABLE; the engine resolves the device
// before choosing this backend.

#include <algorithm>
#include <memory>
#include <numeric>
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "gpu/pool.hpp"
#include "groth16/prover.hpp"
#include "msm/gpu_msm.hpp"
#include "ntt/gpu_ntt.hpp"

namespace zk::groth16 {

/// The device calls of the CUDA build.
struct CudaOps {
  static constexpr bool kHostTwiddles = false;  // the kernels build theirs from omega
  /// The quotient stays on the device and the H MSM reads it there (no download and upload of h);
  /// c = a o b is formed on the device (never on the host); b is freed once uploaded, a after the
  /// MSM.
  template <class C, class F>
  Result<curve::Jacobian<C>> quotient_and_h(const ntt::Domain<F>& d, base::UninitVector<F>& a, base::UninitVector<F>& b,
                                            bool odd_coset, std::span<const curve::Affine<C>> h_bases,
                                            const void* device_bases, ProveTimings& t) const {
    detail::Stopwatch w;
    auto h = ntt::gpu::quotient_on_device(d, std::span<const F>(a), std::span<const F>(b), odd_coset);
    base::UninitVector<F>().swap(b);
    if (!h.ok()) return h.status();
    t.quotient = w.lap();
    return msm_h<C, F>(*h, h_bases, device_bases, t, w);
  }
  template <class C>
  Result<curve::Jacobian<C>> msm(std::span<const curve::Affine<C>> bases, std::span<const typename C::Scalar> scalars,
                                 const void* device_bases) const {
    return msm::gpu::msm_points<C>(bases, scalars, {.device_bases = device_bases});
  }
  /// The quotient from a and b as compact columns: expanded on the device (uploaded compact:
  /// ~1.5 GB instead of 8 GiB at 2^27) and taken over by the quotient; then the H MSM as above.
  template <class C, class F>
  Result<curve::Jacobian<C>> quotient_and_h_compact(const ntt::Domain<F>& d, const msm::CompactColumn<F>& a,
                                                    const msm::CompactColumn<F>& b, bool odd_coset,
                                                    std::span<const curve::Affine<C>> h_bases,
                                                    const void* device_bases, ProveTimings& t) const {
    detail::Stopwatch w;
    auto a_dev = msm::gpu::expand_on_device(a, d.size());
    if (!a_dev.ok()) return a_dev.status();
    auto b_dev = msm::gpu::expand_on_device(b, d.size());
    if (!b_dev.ok()) {
      gpu::adopt_device_memory(*a_dev);  // dropped: freed
      return b_dev.status();
    }
    auto h = ntt::gpu::quotient_on_device(d, *a_dev, *b_dev, odd_coset);  // takes both over
    if (!h.ok()) return h.status();
    t.quotient = w.lap();
    return msm_h<C, F>(*h, h_bases, device_bases, t, w);
  }
  /// The H MSM over the quotient left on the device (consumed there). A span over the device
  /// result gives the MSM its count only; it reads the scalars where they are.
  template <class C, class F>
  static Result<curve::Jacobian<C>> msm_h(const gpu::DeviceCopy& h, std::span<const curve::Affine<C>> h_bases,
                                          const void* device_bases, ProveTimings& t, detail::Stopwatch& w) {
    const std::span<const F> count(static_cast<const F*>(h.get()), h_bases.size());
    auto r = msm::gpu::msm_points<C>(h_bases, count,
                                 {.device_bases = device_bases, .device_scalars = const_cast<void*>(h.get())});
    t.msm_h = w.lap();
    return r;
  }
  /// A .zkey's bases (curve::PackedAffine) unpacked on the device, for the resident cache.
  template <class C>
  Result<gpu::DeviceCopy> unpack_bases(std::span<const curve::PackedAffine<C>> bases) const {
    auto p = msm::gpu::unpack_on_device<C>(bases);
    if (!p.ok()) return p.status();
    return gpu::adopt_device_memory(*p);
  }
  /// The scalars of a compact witness column (the rows `density` selects, or all), formed on the
  /// device.
  template <class C>
  Result<curve::Jacobian<C>> msm_compact(std::span<const curve::Affine<C>> bases,
                                         const msm::CompactColumn<typename C::Scalar>& column,
                                         const msm::DensityBitmap* density, const void* device_bases) const {
    return msm::gpu::msm_points_compact<C>(bases, column, density, {.device_bases = device_bases});
  }
};

/// A device backend over `Ops` (tests substitute CPU-emulated ops and devices). prove_start's
/// device turn is a lease from the pool: one of the host's GPUs, made current on the calling thread
/// for the turn (gpu/pool.hpp). With the key's owner, MSM bases stay resident on that device across
/// proofs (uploaded on the first use, inside the turn; without room they upload as usual). `label`
/// names the partition on the device for status pages.
template <class Ops>
class DeviceBackend {
 public:
  static constexpr const char* kName = "gpu";
  static constexpr bool kHostTwiddles = Ops::kHostTwiddles;
  /// B_G2's aux part runs on the device in prove_start's turn (prover.hpp; docs/gpu.md "The CPU's
  /// share of a 32 GiB proof"), its bases resident like the G1 queries'.
  static constexpr bool kG2 = true;
  explicit DeviceBackend(gpu::DevicePool& pool, Ops ops = {}, std::weak_ptr<const void> key_owner = {},
                         gpu::WorkLabel label = {})
      : pool_(&pool), owner_(std::move(key_owner)), label_(std::move(label)), ops_(std::move(ops)) {}

  /// A device's turn for prove_start's device section (every call below runs inside it).
  gpu::DevicePool::Lease exclusive() const { return pool_->acquire(label_); }

  /// prove_start's a and b as this backend takes them: the partition's compact columns themselves
  /// (the device expands them inside the turn; prove_start frees them after it), so the host holds
  /// no dense a and b (8 GiB at 2^27) while it waits for the device.
  template <class F>
  struct Abc {
    const msm::CompactColumn<F>* a = nullptr;
    const msm::CompactColumn<F>* b = nullptr;
  };
  template <class F>
  Abc<F> take_abc(r1cs::Partition<F>& p, std::size_t) const {
    return {&p.a, &p.b};
  }
  template <class C, class F>
  Result<curve::Jacobian<C>> quotient_and_h(const ntt::Domain<F>& d, Abc<F>& abc, bool odd_coset,
                                            std::span<const curve::Affine<C>> h_bases, ProveTimings& t) const {
    if (abc.a == nullptr || abc.b == nullptr) return Status::internal("quotient: a and b were already taken");
    if (h_bases.size() > d.size()) return Status::invalid_argument("quotient: more H bases than values");
    if (abc.a->size() > d.size() || abc.b->size() > d.size()) {
      return Status::invalid_argument("quotient: a or b longer than the domain");
    }
    if (Status s = pool_->device_here(); !s.ok()) return s;
    const gpu::DeviceCopy resident = resident_bases(h_bases);
    return ops_.template quotient_and_h_compact<C>(d, *abc.a, *abc.b, odd_coset, h_bases, resident.get(), t);
  }
  /// prover.hpp's CpuBackend::quotient_and_h: the quotient and the H MSM.
  template <class C, class F>
  Result<curve::Jacobian<C>> quotient_and_h(const ntt::Domain<F>& d, base::UninitVector<F>& a, base::UninitVector<F>& b,
                                            bool odd_coset, std::span<const curve::Affine<C>> h_bases,
                                            ProveTimings& t) const {
    if (h_bases.size() > a.size()) return Status::invalid_argument("quotient: more H bases than values");
    if (a.size() != b.size()) return Status::invalid_argument("quotient: a and b have different lengths");
    if (Status s = pool_->device_here(); !s.ok()) return s;
    const gpu::DeviceCopy resident = resident_bases(h_bases);
    return ops_.template quotient_and_h<C>(d, a, b, odd_coset, h_bases, resident.get(), t);
  }
  template <class C>
  Result<curve::Jacobian<C>> msm(std::span<const curve::Affine<C>> bases,
                                 std::span<const typename C::Scalar> scalars) const {
    if (Status s = pool_->device_here(); !s.ok()) return s;
    const gpu::DeviceCopy resident = resident_bases(bases);
    return ops_.template msm<C>(bases, scalars, resident.get());
  }
  /// A zkey's bases (curve::PackedAffine): the kernels read Affine<C>. With the key's owner and room
  /// on the device they are uploaded packed once and unpacked there (`Ops::unpack_bases`), then kept
  /// resident like a bellman key's; otherwise they are converted on the host for every call and
  /// upload with it.
  template <class C, class F>
  Result<curve::Jacobian<C>> quotient_and_h(const ntt::Domain<F>& d, base::UninitVector<F>& a, base::UninitVector<F>& b,
                                            bool odd_coset, std::span<const curve::PackedAffine<C>> h_bases,
                                            ProveTimings& t) const {
    if (h_bases.size() > a.size()) return Status::invalid_argument("quotient: more H bases than values");
    if (a.size() != b.size()) return Status::invalid_argument("quotient: a and b have different lengths");
    if (Status s = pool_->device_here(); !s.ok()) return s;
    if (const gpu::DeviceCopy resident = resident_bases(h_bases)) {
      return ops_.template quotient_and_h<C>(d, a, b, odd_coset, counted<C>(resident, h_bases.size()), resident.get(), t);
    }
    const auto affine = unpack(h_bases);
    return ops_.template quotient_and_h<C>(d, a, b, odd_coset, std::span<const curve::Affine<C>>(affine), nullptr, t);
  }
  template <class C>
  Result<curve::Jacobian<C>> msm(std::span<const curve::PackedAffine<C>> bases,
                                 std::span<const typename C::Scalar> scalars) const {
    if (Status s = pool_->device_here(); !s.ok()) return s;
    if (const gpu::DeviceCopy resident = resident_bases(bases)) {
      return ops_.template msm<C>(counted<C>(resident, bases.size()), scalars, resident.get());
    }
    const auto affine = unpack(bases);
    return ops_.template msm<C>(std::span<const curve::Affine<C>>(affine), scalars, nullptr);
  }
  /// An MSM's input over the witness: the inputs' few scalars made dense on the CPU before the turn,
  /// or the compact witness column itself (and the density bitmap choosing its rows), which the
  /// device expands — the host neither gathers nor uploads dense aux scalars (4 GiB for each of L
  /// and A at 2^27). Identity bases allowed.
  template <class C>
  struct Gathered {
    std::span<const curve::Affine<C>> bases;
    base::UninitVector<typename C::Scalar> dense;
    const msm::CompactColumn<typename C::Scalar>* compact = nullptr;
    const msm::DensityBitmap* density = nullptr;  // with `compact`: the rows it selects (null: all)
  };
  template <class C>
  Result<Gathered<C>> gather(std::span<const curve::Affine<C>> bases, std::span<const typename C::Scalar> scalars,
                             const msm::DensityBitmap& density) const {
    return gather_filtered<C>(bases, scalars.size(), density, [&](std::size_t i) { return scalars[i]; });
  }
  /// The whole compact witness (density null: the L query), or its density-filtered part: kept
  /// compact for the device (the column must live until the MSM is done).
  template <class C>
  Result<Gathered<C>> gather(std::span<const curve::Affine<C>> bases,
                             const msm::CompactColumn<typename C::Scalar>& scalars,
                             const msm::DensityBitmap* density = nullptr) const {
    const std::size_t selected = density != nullptr ? density->popcount() : scalars.size();
    if ((density != nullptr && density->size() != scalars.size()) || selected != bases.size()) {
      return Status::invalid_argument(density != nullptr ? "gpu msm: density does not match the bases and scalars"
                                                         : "gpu msm: bases and scalars differ in number");
    }
    Gathered<C> g{bases, {}};
    g.compact = &scalars;
    g.density = density;
    return g;
  }
  template <class C>
  Result<curve::Jacobian<C>> msm_gathered(const Gathered<C>& g) const {
    if (g.compact == nullptr) return msm<C>(g.bases, std::span<const typename C::Scalar>(g.dense));
    if (Status s = pool_->device_here(); !s.ok()) return s;
    const gpu::DeviceCopy resident = resident_bases(g.bases);
    return ops_.template msm_compact<C>(g.bases, *g.compact, g.density, resident.get());
  }
  gpu::DevicePool& pool() const { return *pool_; }
  /// Values per block of the parallel gather (a multiple of 64: whole bitmap words).
  static constexpr std::size_t kGatherBlock = std::size_t{1} << 12;

 private:
  template <class C, class Get>
  Result<Gathered<C>> gather_filtered(std::span<const curve::Affine<C>> bases, std::size_t n,
                                      const msm::DensityBitmap& density, Get&& get) const {
    if (density.size() != n || density.popcount() != bases.size()) {
      return Status::invalid_argument("gpu msm: density does not match the bases and scalars");
    }
    // In parallel blocks (a PoRep-32G partition filters 2^27 values three times): each block's
    // first position is the count of set bits before it.
    const std::size_t blocks = (n + kGatherBlock - 1) / kGatherBlock;
    std::vector<std::size_t> at(blocks + 1, 0);
    tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t k) {
      at[k + 1] = density.count(k * kGatherBlock, std::min(n, (k + 1) * kGatherBlock));
    });
    std::partial_sum(at.begin(), at.end(), at.begin());
    Gathered<C> g{bases, base::UninitVector<typename C::Scalar>(bases.size())};  // at[blocks] == bases.size()
    tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t k) {
      std::size_t pos = at[k];
      for (std::size_t i = k * kGatherBlock, end = std::min(n, (k + 1) * kGatherBlock); i < end; ++i) {
        if (density.test(i)) g.dense[pos++] = get(i);
      }
    });
    return g;
  }
  template <class C>
  static base::UninitVector<curve::Affine<C>> unpack(std::span<const curve::PackedAffine<C>> packed) {
    base::UninitVector<curve::Affine<C>> out(packed.size());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, packed.size(), 4096), [&](const auto& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) out[i] = packed[i].to_affine();
    });
    return out;
  }
  /// The bases' copy on the device of this thread's turn when the key's owner is known and the
  /// device has room (empty otherwise: they upload as usual). The caller holds it until its MSM is
  /// done, even if the cache evicts it meanwhile.
  template <class C>
  gpu::DeviceCopy resident_bases(std::span<const curve::Affine<C>> bases) const {
    gpu::ResidentCache* cache = pool_->resident_here();
    if (cache == nullptr || bases.empty() || owner_.expired()) return {};
    auto r = cache->get(bases.data(), bases.size_bytes(), owner_);
    return r.ok() ? std::move(*r) : gpu::DeviceCopy{};
  }
  /// A zkey's bases in the kernels' layout on the device of this thread's turn, unpacked there on
  /// the first use (empty without the key's owner or room: they are then converted on the host).
  template <class C>
  gpu::DeviceCopy resident_bases(std::span<const curve::PackedAffine<C>> bases) const {
    gpu::ResidentCache* cache = pool_->resident_here();
    if (cache == nullptr || bases.empty() || owner_.expired()) return {};
    const gpu::ResidentCache::Conversion unpacked{
        bases.size() * sizeof(curve::Affine<C>), [this](const void* host, std::size_t bytes) {
          return ops_.template unpack_bases<C>(
              std::span(static_cast<const curve::PackedAffine<C>*>(host), bytes / sizeof(curve::PackedAffine<C>)));
        }};
    auto r = cache->get(bases.data(), bases.size_bytes(), owner_, &unpacked);
    return r.ok() ? std::move(*r) : gpu::DeviceCopy{};
  }
  /// The unpacked resident copy as the Ops take bases: a span that gives them its count only (with
  /// the copy passed as the device bases, they read it on the device, never through the span).
  template <class C>
  static std::span<const curve::Affine<C>> counted(const gpu::DeviceCopy& resident, std::size_t n) {
    return {static_cast<const curve::Affine<C>*>(resident.get()), n};
  }
  gpu::DevicePool* pool_;
  std::weak_ptr<const void> owner_;
  gpu::WorkLabel label_;
  Ops ops_;
};

using GpuBackend = DeviceBackend<CudaOps>;

}  // namespace zk::groth16
