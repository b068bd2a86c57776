// Kernels that each run one hot device function, compiled to sm_90 machine code by
// scripts/sass-counts.sh, which counts their SASS instructions (issue 42: the measure of the device
// arithmetic when no GPU is at hand). Not linked into anything. Every kernel loads its operands,
// runs the function once and stores the result; `probe_copy` does only the loads and the store, so
// a function's own cost is its kernel's count minus that one's (the script prints both).

#include "curve/cuda/dev_point.hpp"
#include "field/cuda/dev_field.hpp"
#include "field/params/bls12_381.hpp"
#include "field/params/bn254.hpp"

namespace {

using Fq = zk::gpu::DevField<zk::field::params::Bls12_381Fq>;
using Fr = zk::gpu::DevField<zk::field::params::Bls12_381Fr>;
using BnFq = zk::gpu::DevField<zk::field::params::Bn254Fq>;
using Xyzz = zk::gpu::DevXyzz<zk::field::params::Bls12_381Fq>;
using Affine = zk::gpu::DevAffine<zk::field::params::Bls12_381Fq>;

// Per-thread operands: with one shared address ptxas would run the arithmetic on the warp-uniform
// datapath, which no real kernel does.
__device__ unsigned lane() { return threadIdx.x + blockIdx.x * blockDim.x; }

}  // namespace

extern "C" __global__ void probe_copy_fq(Fq* r, const Fq* a, const Fq* b) { const unsigned i = lane(); r[i] = a[i].is_zero() ? b[i] : a[i]; }
extern "C" __global__ void probe_fq_mul(Fq* r, const Fq* a, const Fq* b) { const unsigned i = lane(); r[i] = a[i] * b[i]; }
extern "C" __global__ void probe_fq_sqr(Fq* r, const Fq* a, const Fq*) { const unsigned i = lane(); r[i] = a[i].square(); }
extern "C" __global__ void probe_fq_add(Fq* r, const Fq* a, const Fq* b) { const unsigned i = lane(); r[i] = a[i] + b[i]; }
extern "C" __global__ void probe_fq_sub(Fq* r, const Fq* a, const Fq* b) { const unsigned i = lane(); r[i] = a[i] - b[i]; }
extern "C" __global__ void probe_fr_mul(Fr* r, const Fr* a, const Fr* b) { const unsigned i = lane(); r[i] = a[i] * b[i]; }
extern "C" __global__ void probe_bn254_fq_mul(BnFq* r, const BnFq* a, const BnFq* b) { const unsigned i = lane(); r[i] = a[i] * b[i]; }

// The NTT's butterfly: (x, y) -> (x + w y, x - w y).
extern "C" __global__ void probe_fr_butterfly(Fr* x, Fr* y, const Fr* w) {
  const unsigned i = lane();
  const Fr t = y[i] * w[i];
  const Fr u = x[i];
  x[i] = u + t;
  y[i] = u - t;
}

// The MSM's bucket accumulation step: an XYZZ accumulator plus an affine point.
extern "C" __global__ void probe_xyzz_madd(Xyzz* acc, const Affine* q) { const unsigned i = lane(); acc[i] = acc[i].add_mixed(q[i]); }
extern "C" __global__ void probe_xyzz_add(Xyzz* acc, const Xyzz* q) { const unsigned i = lane(); acc[i] = acc[i] + q[i]; }
extern "C" __global__ void probe_xyzz_dbl(Xyzz* acc) { const unsigned i = lane(); acc[i] = acc[i].dbl(); }

// G2 (issue 42: B_G2's batch on the device): the Fq2 product and the XYZZ mixed addition over Fq2.
using Fq2 = zk::gpu::DevFq2<zk::field::params::Bls12_381Fq>;
using Xyzz2 = zk::gpu::DevXyzz<zk::gpu::Fq2Of<zk::field::params::Bls12_381Fq>>;
using Affine2 = zk::gpu::DevAffine<zk::gpu::Fq2Of<zk::field::params::Bls12_381Fq>>;
extern "C" __global__ void probe_copy_fq2(Fq2* r, const Fq2* a, const Fq2* b) { const unsigned i = lane(); r[i] = a[i].is_zero() ? b[i] : a[i]; }
extern "C" __global__ void probe_fq2_mul(Fq2* r, const Fq2* a, const Fq2* b) { const unsigned i = lane(); r[i] = a[i] * b[i]; }
extern "C" __global__ void probe_fq2_sqr(Fq2* r, const Fq2* a, const Fq2*) { const unsigned i = lane(); r[i] = a[i].square(); }
extern "C" __global__ void probe_g2_xyzz_madd(Xyzz2* acc, const Affine2* q) { const unsigned i = lane(); acc[i] = acc[i].add_mixed(q[i]); }
