#pragma once

// Code shared by CUDA kernels and the host: ZK_HD marks functions compiled for both (nvcc), and
// plain functions for g++, so the device arithmetic and the per-thread bodies of the kernels are
// also tested on the CPU (tests/gpu/device_code_test.cpp) where no GPU is present.

#if defined(__CUDACC__)
#define ZK_HD __host__ __device__ __forceinline__
// A call on the device rather than inlined: for large functions used many times in one kernel (the
// Fq2 product), where inlining every use makes the kernels' compilation minutes long.
#define ZK_HD_CALL __host__ __device__ __noinline__
#define ZK_DEVICE_CODE 1
#define ZK_UNROLL _Pragma("unroll")
#else
#define ZK_HD inline
#define ZK_HD_CALL inline
#define ZK_DEVICE_CODE 0
#define ZK_UNROLL _Pragma("GCC unroll 8")
#endif
