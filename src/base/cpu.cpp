#include "base/cpu.hpp"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace zk::cpu {

namespace {

bool detect_mulx_adx() {
  if (const char* no_asm = std::getenv("ZKPIPE_NO_ASM");
      no_asm != nullptr && std::strcmp(no_asm, "0") != 0 && no_asm[0] != '\0') {
    return false;
  }
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_max(0, nullptr) < 7) return false;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  constexpr unsigned kBmi2 = 1u << 8;  // CPUID.(EAX=7,ECX=0):EBX bit 8
  constexpr unsigned kAdx = 1u << 19;  // CPUID.(EAX=7,ECX=0):EBX bit 19
  return (ebx & kBmi2) != 0 && (ebx & kAdx) != 0;
#else
  return false;
#endif
}

}  // namespace

bool has_mulx_adx() {
  static const bool has = detect_mulx_adx();
  return has;
}

const bool kHasMulxAdx = has_mulx_adx();

}  // namespace zk::cpu
