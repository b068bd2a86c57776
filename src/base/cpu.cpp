#include "base/cpu.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "base/env.hpp"

namespace zk::cpu {

namespace {

/// CPUID.(EAX=7,ECX=0):EBX, the extended feature flags (0 where the leaf or CPUID is missing).
unsigned leaf7_ebx() {
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_max(0, nullptr) < 7) return 0;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  return ebx;
#else
  return 0;
#endif
}

/// What the CPU has, whatever the environment says.
bool cpu_has_mulx_adx() {
  constexpr unsigned kBmi2 = 1u << 8;  // leaf 7 EBX bit 8
  constexpr unsigned kAdx = 1u << 19;  // leaf 7 EBX bit 19
  const unsigned ebx = leaf7_ebx();
  return (ebx & kBmi2) != 0 && (ebx & kAdx) != 0;
}

bool cpu_has_avx512_ifma() {
#if defined(__x86_64__)
  constexpr unsigned kAvx512f = 1u << 16;     // leaf 7 EBX bit 16
  constexpr unsigned kAvx512Ifma = 1u << 21;  // leaf 7 EBX bit 21
  const unsigned leaf7 = leaf7_ebx();
  if ((leaf7 & kAvx512f) == 0 || (leaf7 & kAvx512Ifma) == 0) return false;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  __cpuid(1, eax, ebx, ecx, edx);
  constexpr unsigned kOsxsave = 1u << 27;  // CPUID.1:ECX bit 27: XGETBV usable
  if ((ecx & kOsxsave) == 0) return false;
  unsigned xcr0_lo = 0, xcr0_hi = 0;
  __asm__("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
  constexpr unsigned kZmmState = 0xe6;  // XCR0: SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM saved by the OS
  return (xcr0_lo & kZmmState) == kZmmState;
#else
  return false;
#endif
}

bool detect_mulx_adx() { return !base::env_flag("ZKPIPE_NO_ASM") && cpu_has_mulx_adx(); }

bool detect_avx512_ifma() {
  return !base::env_flag("ZKPIPE_NO_ASM") && !base::env_flag("ZKPIPE_NO_IFMA") && cpu_has_avx512_ifma();
}

}  // namespace

bool has_avx512_ifma() {
  static const bool has = detect_avx512_ifma();
  return has;
}

const bool kHasAvx512Ifma = has_avx512_ifma();

bool has_mulx_adx() {
  static const bool has = detect_mulx_adx();
  return has;
}

const bool kHasMulxAdx = has_mulx_adx();

std::string kernel_paths() {
  std::string paths;
  if (has_avx512_ifma()) paths += "avx512-ifma ";
  paths += has_mulx_adx() ? "mulx-adx" : "portable";
  std::string off;
  if (cpu_has_avx512_ifma() && !has_avx512_ifma()) off += "avx512-ifma ";
  if (cpu_has_mulx_adx() && !has_mulx_adx()) off += "mulx-adx ";
  if (!off.empty()) {
    off.pop_back();
    paths += " (" + off + " off: " + (base::env_flag("ZKPIPE_NO_ASM") ? "ZKPIPE_NO_ASM=1" : "ZKPIPE_NO_IFMA=1") + ")";
  }
  return paths;
}

}  // namespace zk::cpu
