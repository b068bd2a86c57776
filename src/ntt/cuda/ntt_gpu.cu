// The GPU NTT (ntt/gpu_ntt.hpp; the steps are ntt_body.hpp's): one copy in, the bit-reversal
// permutation (with the forward coset's scaling), the butterfly stages in shared-memory passes of
// up to 10 stages (each tile with its twiddles), the inverse's fix-up (with 1/n and the inverse
// coset's scaling), one copy out. The quotient chains transforms by decimation in frequency
// (natural order in, bit-reversed out) and in time (the reverse), so it permutes once at most.

#include <algorithm>

#include "field/params/bls12_381.hpp"
#include "field/params/bn254.hpp"
#include "gpu/gpu.hpp"
#include "gpu/runtime.cuh"
#include "ntt/cuda/ntt_body.hpp"
#include "ntt/cuda/ntt_raw.hpp"

namespace zk::ntt::gpu::raw {
namespace {

using zk::gpu::DevField;
using zk::gpu::DeviceBuffer;
namespace body = zk::gpu::ntt_body;
template <class FP>
using Table = body::PowerTable<FP>;

constexpr unsigned kThreads = 256;
constexpr unsigned kPassThreads = 512;  // a 2^10 tile has 512 butterflies per stage
unsigned blocks(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

template <class FP>
__global__ void permute_kernel(DevField<FP>* a, std::size_t n, unsigned log_n, Table<FP> scale, bool scaled) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) body::permute(a, static_cast<std::uint32_t>(i), log_n, scaled ? &scale : nullptr);
}

/// Shared memory: the tile (2^k elements), then its twiddles (entries 1 .. 2^k - 1). kDif: the
/// stages by decimation in frequency, from the top down. `scaled` (the first pass of a decimation in
/// time, s0 = 0): each element is multiplied by scale(rev(index)) as it is loaded.
template <class FP, bool kDif>
__global__ void __launch_bounds__(512)
    pass_kernel(DevField<FP>* a, unsigned s0, unsigned k, unsigned log_n, Table<FP> tw, Table<FP> scale, bool scaled) {
  extern __shared__ __align__(16) unsigned char smem[];
  auto* x = reinterpret_cast<DevField<FP>*>(smem);
  const std::size_t tile = blockIdx.x;
  const std::uint32_t size = 1u << k, half = size / 2;
  DevField<FP>* w = x + size;
  const std::size_t low = tile & ((std::size_t{1} << s0) - 1);
  for (std::uint32_t e = threadIdx.x; e < size; e += blockDim.x) {
    const std::size_t i = body::tile_element(tile, e, s0, k);
    x[e] = scaled ? a[i] * body::table_power(scale, body::bit_reverse(static_cast<std::uint32_t>(i), log_n)) : a[i];
    if (e != 0) w[e] = body::tile_twiddle(e, low, s0, log_n, tw);
  }
  __syncthreads();
  for (unsigned step = 0; step < k; ++step) {
    const unsigned j = kDif ? k - 1 - step : step;
    for (std::uint32_t t = threadIdx.x; t < half; t += blockDim.x) {
      if constexpr (kDif) {
        body::tile_butterfly_dif(x, w, t, j);
      } else {
        body::tile_butterfly(x, w, t, j);
      }
    }
    __syncthreads();
  }
  for (std::uint32_t e = threadIdx.x; e < size; e += blockDim.x) a[body::tile_element(tile, e, s0, k)] = x[e];
}

template <class FP>
__global__ void permute_scaled_after_kernel(DevField<FP>* a, std::size_t n, unsigned log_n, Table<FP> scale) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) body::permute_scaled_after(a, static_cast<std::uint32_t>(i), log_n, scale);
}

/// The pass kernel's shared memory for 2^k-element tiles (above 48 KiB a kernel must opt in).
template <class FP>
std::size_t pass_shared_bytes(unsigned k) {
  return 2 * (sizeof(DevField<FP>) << k);
}
template <class FP>
Status allow_pass_shared_memory() {
  const int bytes = static_cast<int>(pass_shared_bytes<FP>(body::kMaxTileLog));
  ZK_CUDA_TRY(cudaFuncSetAttribute(pass_kernel<FP, false>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  ZK_CUDA_TRY(cudaFuncSetAttribute(pass_kernel<FP, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  return {};
}

template <class FP>
__global__ void fixup_kernel(DevField<FP>* a, std::size_t n, DevField<FP> n_inv, Table<FP> scale, bool scaled) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i <= n / 2) body::inverse_fixup(a, i, n, n_inv, scaled ? &scale : nullptr);
}

template <class FP>
__global__ void quotient_kernel(DevField<FP>* a, const DevField<FP>* b, const DevField<FP>* c, std::size_t n,
                                DevField<FP> z_inv) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) a[i] = (a[i] * b[i] - c[i]) * z_inv;
}

template <class FP>
__global__ void hadamard_kernel(DevField<FP>* c, const DevField<FP>* a, const DevField<FP>* b, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] * b[i];
}

/// A power table's two halves on the device.
template <class FP>
struct DeviceTable {
  DeviceBuffer<DevField<FP>> hi, lo;
  Table<FP> view{nullptr, nullptr, 0};
  Status upload(const Powers& p, cudaStream_t st) {
    const std::size_t nlo = std::size_t{1} << p.lo_bits, nhi = std::size_t{1} << (p.log_count - p.lo_bits);
    if (Status s = hi.allocate(nhi); !s.ok()) return s;
    if (Status s = lo.allocate(nlo); !s.ok()) return s;
    ZK_CUDA_TRY(cudaMemcpyAsync(hi.get(), p.hi, nhi * sizeof(DevField<FP>), cudaMemcpyHostToDevice, st));
    ZK_CUDA_TRY(cudaMemcpyAsync(lo.get(), p.lo, nlo * sizeof(DevField<FP>), cudaMemcpyHostToDevice, st));
    view = Table<FP>{hi.get(), lo.get(), p.lo_bits};
    return {};
  }
};

/// The butterfly passes in place: by decimation in time (bit-reversed order in, natural out; with
/// `load_scale`, element i first times load_scale(rev(i))) or in frequency (`dif`: natural in,
/// bit-reversed out), with the twiddles of `tw` (omega^x or omega^-x for x < n/2).
template <class FP>
void run_passes(cudaStream_t st, DevField<FP>* a, unsigned log_n, const Table<FP>& tw, bool dif,
                const Table<FP>* load_scale) {
  const std::size_t n = std::size_t{1} << log_n;
  const unsigned passes = body::pass_count(log_n, body::kMaxTileLog);
  for (unsigned q = 0; q < passes; ++q) {
    const unsigned p = dif ? passes - 1 - q : q;
    unsigned s0 = 0, k = 0;
    body::pass_range(log_n, body::kMaxTileLog, p, &s0, &k);
    const unsigned threads = std::min(kPassThreads, 1u << (k - 1));
    const bool scaled = load_scale != nullptr && !dif && p == 0;
    const auto grid = static_cast<unsigned>(n >> k);
    if (dif) {
      pass_kernel<FP, true><<<grid, threads, pass_shared_bytes<FP>(k), st>>>(a, s0, k, log_n, tw, tw, false);
    } else {
      pass_kernel<FP, false>
          <<<grid, threads, pass_shared_bytes<FP>(k), st>>>(a, s0, k, log_n, tw, scaled ? *load_scale : tw, scaled);
    }
  }
}

/// The in-place transform on device data already resident (see transform()), natural order in and
/// out: the permutation, the passes by decimation in time, the inverse's fix-up.
template <class FP>
void run_transform(cudaStream_t st, DevField<FP>* a, unsigned log_n, const Table<FP>& tw, const DevField<FP>* n_inv,
                   const Table<FP>* shift) {
  const std::size_t n = std::size_t{1} << log_n;
  const bool forward_shift = shift != nullptr && n_inv == nullptr;
  permute_kernel<FP><<<blocks(n), kThreads, 0, st>>>(a, n, log_n, forward_shift ? *shift : tw, forward_shift);
  run_passes<FP>(st, a, log_n, tw, false, nullptr);
  if (n_inv != nullptr) {
    fixup_kernel<FP>
        <<<blocks(n / 2 + 1), kThreads, 0, st>>>(a, n, *n_inv, shift != nullptr ? *shift : tw, shift != nullptr);
  }
}

}  // namespace

template <class FP>
Status compute_h(std::uint64_t* a_host, const std::uint64_t* b_host, const std::uint64_t* c_host, unsigned log_n,
                 const Powers& twiddles, const Powers& twiddles_inv, const Powers& g_n, const Powers* g_inv_n,
                 const std::uint64_t* z_inv, void** result_on_device, void* a_on_device, void* b_on_device) {
  using F = DevField<FP>;
  const std::size_t n = std::size_t{1} << log_n;
  DeviceBuffer<F> a, b, c;
  // Device inputs are ours from here on, whatever happens.
  if (a_on_device != nullptr) a.adopt(static_cast<F*>(a_on_device), n);
  if (b_on_device != nullptr) b.adopt(static_cast<F*>(b_on_device), n);
  if (Status s = zk::gpu::require_device(); !s.ok()) return s;
  if (log_n == 0) return Status::invalid_argument("gpu compute_h: the domain needs at least 2 points");
  if (Status s = allow_pass_shared_memory<FP>(); !s.ok()) return s;
  if ((a_on_device != nullptr || b_on_device != nullptr) && (result_on_device == nullptr || c_host != nullptr)) {
    return Status::invalid_argument("gpu compute_h: device inputs need a device result and c formed there");
  }
  // One stream per vector (gpu::copy_to_device returns once the host range is copied out; with c
  // formed on the device, a's and b's transforms wait for both uploads); the pointwise step waits
  // for b's and c's events.
  zk::gpu::Stream streams[3];
  zk::gpu::Event done[3];
  for (int i = 0; i < 3; ++i) {
    if (Status s = streams[i].create(); !s.ok()) return s;
    if (Status s = done[i].create(); !s.ok()) return s;
  }
  auto st = streams[0].get();
  DeviceTable<FP> tw, twi, gt, git;
  for (Status s : {a_on_device != nullptr ? Status{} : a.allocate(n), b_on_device != nullptr ? Status{} : b.allocate(n),
                   c.allocate(n), tw.upload(twiddles, st), twi.upload(twiddles_inv, st), gt.upload(g_n, st),
                   g_inv_n != nullptr ? git.upload(*g_inv_n, st) : Status{}}) {
    if (!s.ok()) return s;
  }
  ZK_CUDA_TRY(cudaEventRecord(done[0].get(), st));  // the tables are on the device
  for (int i = 1; i < 3; ++i) ZK_CUDA_TRY(cudaStreamWaitEvent(streams[i].get(), done[0].get(), 0));
  F* device[3] = {a.get(), b.get(), c.get()};
  const std::uint64_t* host[3] = {a_on_device != nullptr ? nullptr : a_host, b_on_device != nullptr ? nullptr : b_host,
                                  c_host};
  for (int i = 0; i < 3; ++i) {
    if (host[i] != nullptr) {
      if (Status s = zk::gpu::copy_to_device(device[i], host[i], n * sizeof(F), streams[i].get()); !s.ok()) return s;
    }
  }
  if (c_host == nullptr) {
    // c = a o b from the values as uploaded, before a's and b's streams transform them in place.
    auto sc = streams[2].get();
    for (int i = 0; i < 2; ++i) {
      ZK_CUDA_TRY(cudaEventRecord(done[i].get(), streams[i].get()));
      ZK_CUDA_TRY(cudaStreamWaitEvent(sc, done[i].get(), 0));
    }
    hadamard_kernel<FP><<<blocks(n), kThreads, 0, sc>>>(c.get(), a.get(), b.get(), n);
    ZK_CUDA_TRY(cudaEventRecord(done[2].get(), sc));
    for (int i = 0; i < 2; ++i) ZK_CUDA_TRY(cudaStreamWaitEvent(streams[i].get(), done[2].get(), 0));
  }
  for (int i = 0; i < 3; ++i) {
    auto si = streams[i].get();
    // Interpolate (n times the coefficients, bit-reversed), then scale by g^i / n and evaluate on
    // the coset (natural order): no permutation, no fix-up.
    run_passes<FP>(si, device[i], log_n, twi.view, true, nullptr);
    run_passes<FP>(si, device[i], log_n, tw.view, false, &gt.view);
    ZK_CUDA_TRY(cudaEventRecord(done[i].get(), si));
  }
  ZK_CUDA_TRY(cudaStreamWaitEvent(st, done[1].get(), 0));
  ZK_CUDA_TRY(cudaStreamWaitEvent(st, done[2].get(), 0));
  quotient_kernel<FP><<<blocks(n), kThreads, 0, st>>>(a.get(), b.get(), c.get(), n, F::from_raw(z_inv));
  if (g_inv_n != nullptr) {  // back from the coset: n g^i h_i bit-reversed, then h_i in natural order
    run_passes<FP>(st, a.get(), log_n, twi.view, true, nullptr);
    permute_scaled_after_kernel<FP><<<blocks(n), kThreads, 0, st>>>(a.get(), n, log_n, git.view);
  }
  ZK_CUDA_TRY(cudaGetLastError());
  if (result_on_device != nullptr) {
    if (Status s = streams[0].sync(); !s.ok()) return s;
    *result_on_device = a.release();
    return {};
  }
  ZK_CUDA_TRY(cudaMemcpyAsync(a_host, a.get(), n * sizeof(F), cudaMemcpyDeviceToHost, st));
  return streams[0].sync();
}

template <class FP>
Status transform(std::uint64_t* data, unsigned log_n, const Powers& twiddles, const std::uint64_t* n_inv,
                 const Powers* shift, Timing* timing) {
  if (Status s = zk::gpu::require_device(); !s.ok()) return s;
  using F = DevField<FP>;
  const std::size_t n = std::size_t{1} << log_n;
  if (log_n == 0) return {};
  if (Status s = allow_pass_shared_memory<FP>(); !s.ok()) return s;
  zk::gpu::Stream stream;
  if (Status s = stream.create(); !s.ok()) return s;
  auto st = stream.get();
  zk::gpu::Event marks[4];
  for (auto& e : marks) {
    if (Status s = e.create(); !s.ok()) return s;
  }
  DeviceBuffer<F> a;
  DeviceTable<FP> tw, sh;
  if (Status s = a.allocate(n); !s.ok()) return s;
  ZK_CUDA_TRY(cudaEventRecord(marks[0].get(), st));
  if (Status s = tw.upload(twiddles, st); !s.ok()) return s;
  if (shift != nullptr) {
    if (Status s = sh.upload(*shift, st); !s.ok()) return s;
  }
  if (Status s = zk::gpu::copy_to_device(a.get(), data, n * sizeof(F), st); !s.ok()) return s;
  ZK_CUDA_TRY(cudaEventRecord(marks[1].get(), st));
  const F ninv = n_inv != nullptr ? F::from_raw(n_inv) : F::zero();
  run_transform<FP>(st, a.get(), log_n, tw.view, n_inv != nullptr ? &ninv : nullptr,
                    shift != nullptr ? &sh.view : nullptr);
  ZK_CUDA_TRY(cudaGetLastError());
  ZK_CUDA_TRY(cudaEventRecord(marks[2].get(), st));
  ZK_CUDA_TRY(cudaMemcpyAsync(data, a.get(), n * sizeof(F), cudaMemcpyDeviceToHost, st));
  ZK_CUDA_TRY(cudaEventRecord(marks[3].get(), st));
  if (Status s = stream.sync(); !s.ok()) return s;
  if (timing != nullptr) {
    ZK_CUDA_TRY(cudaEventElapsedTime(&timing->upload_ms, marks[0].get(), marks[1].get()));
    ZK_CUDA_TRY(cudaEventElapsedTime(&timing->kernels_ms, marks[1].get(), marks[2].get()));
    ZK_CUDA_TRY(cudaEventElapsedTime(&timing->download_ms, marks[2].get(), marks[3].get()));
  }
  return {};
}

ZK_NTT_GPU_INSTANTIATE(field::params::Bls12_381Fr)
ZK_NTT_GPU_INSTANTIATE(field::params::Bn254Fr)
#undef ZK_NTT_GPU_INSTANTIATE

}  // namespace zk::ntt::gpu::raw
