#pragma once

// The PTX carry-chain steps the device field arithmetic is written in (32-bit limbs), each with a
// host emulation of the carry flag, so the same field code runs in the kernels and, compiled as
// plain C++, in the CPU tests (tests/gpu/device_code_test.cpp) against MontField.
//
// On the device every step is one PTX instruction (`add.cc`, `madc.hi.cc`, ...) and the carry
// lives in the hardware's condition code, which ptxas turns into carry predicates. A chain must be
// an unbroken sequence of these steps: nothing between a step that sets the flag and the step
// that reads it may set it (no other .cc instruction is emitted by nvcc itself, and `asm volatile`
// keeps the steps in program order). On the host `cf` holds the flag.
//
// Naming follows PTX: `add_cc` sets the flag, `addc_cc` reads and sets it, `addc` only reads it;
// for subtraction the flag is the borrow. `mad_lo` / `mad_hi` add the low / high 32 bits of a
// 32 x 32-bit product.

#include <cstdint>

#include "gpu/hd.hpp"

namespace zk::gpu {

struct CarryChain {
  using u32 = std::uint32_t;
  using u64 = std::uint64_t;
  u32 cf = 0;  // the host's carry (or borrow) flag; unused on the device

#if defined(__CUDA_ARCH__)
#define ZK_CC_STEP2(name, op)                                                   \
  ZK_HD u32 name(u32 a, u32 b) {                                                \
    u32 r;                                                                      \
    asm volatile(op " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));                \
    return r;                                                                   \
  }
#define ZK_CC_STEP3(name, op)                                                   \
  ZK_HD u32 name(u32 a, u32 b, u32 c) {                                         \
    u32 r;                                                                      \
    asm volatile(op " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));    \
    return r;                                                                   \
  }
  ZK_CC_STEP2(add_cc, "add.cc.u32")
  ZK_CC_STEP2(addc_cc, "addc.cc.u32")
  ZK_CC_STEP2(addc, "addc.u32")
  ZK_CC_STEP2(sub_cc, "sub.cc.u32")
  ZK_CC_STEP2(subc_cc, "subc.cc.u32")
  ZK_CC_STEP2(subc, "subc.u32")
  ZK_CC_STEP3(mad_lo_cc, "mad.lo.cc.u32")
  ZK_CC_STEP3(madc_lo_cc, "madc.lo.cc.u32")
  ZK_CC_STEP3(mad_hi_cc, "mad.hi.cc.u32")
  ZK_CC_STEP3(madc_hi_cc, "madc.hi.cc.u32")
  ZK_CC_STEP3(madc_hi, "madc.hi.u32")
#undef ZK_CC_STEP2
#undef ZK_CC_STEP3
#else
  ZK_HD u32 add_cc(u32 a, u32 b) { return set(u64{a} + b); }
  ZK_HD u32 addc_cc(u32 a, u32 b) { return set(u64{a} + b + cf); }
  ZK_HD u32 addc(u32 a, u32 b) { return static_cast<u32>(u64{a} + b + cf); }
  ZK_HD u32 sub_cc(u32 a, u32 b) { return set_borrow(u64{a} - b); }
  ZK_HD u32 subc_cc(u32 a, u32 b) { return set_borrow(u64{a} - b - cf); }
  ZK_HD u32 subc(u32 a, u32 b) { return static_cast<u32>(u64{a} - b - cf); }
  ZK_HD u32 mad_lo_cc(u32 a, u32 b, u32 c) { return set(u64{lo(a, b)} + c); }
  ZK_HD u32 madc_lo_cc(u32 a, u32 b, u32 c) { return set(u64{lo(a, b)} + c + cf); }
  ZK_HD u32 mad_hi_cc(u32 a, u32 b, u32 c) { return set(u64{hi(a, b)} + c); }
  ZK_HD u32 madc_hi_cc(u32 a, u32 b, u32 c) { return set(u64{hi(a, b)} + c + cf); }
  ZK_HD u32 madc_hi(u32 a, u32 b, u32 c) { return static_cast<u32>(u64{hi(a, b)} + c + cf); }

 private:
  ZK_HD static u32 lo(u32 a, u32 b) { return static_cast<u32>(u64{a} * b); }
  ZK_HD static u32 hi(u32 a, u32 b) { return static_cast<u32>((u64{a} * b) >> 32); }
  ZK_HD u32 set(u64 t) {
    cf = static_cast<u32>(t >> 32);
    return static_cast<u32>(t);
  }
  ZK_HD u32 set_borrow(u64 t) {
    cf = static_cast<u32>(t >> 63);  // a - b - borrow < 0 wraps to the top of the 64-bit range
    return static_cast<u32>(t);
  }
#endif
};

/// The plain 32-bit products (no flag): `mul.lo.u32`, `mul.hi.u32`.
ZK_HD std::uint32_t mul_lo(std::uint32_t a, std::uint32_t b) { return a * b; }
ZK_HD std::uint32_t mul_hi(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return static_cast<std::uint32_t>((std::uint64_t{a} * b) >> 32);
#endif
}

}  // namespace zk::gpu
