#pragma once

#include <string>

namespace zk::cpu {

/// True when this CPU has BMI2 (MULX) and ADX (ADCX/ADOX), the instructions of the fast x86-64
/// Montgomery multiplication. Detected once from CPUID; setting the environment variable
/// ZKPIPE_NO_ASM=1 before start-up forces the portable path (for differential runs).
bool has_mulx_adx();

/// Same as has_mulx_adx(), cached in a constant initialised at start-up; cheap to call in hot loops.
/// Code that runs during static initialisation may see `false` and take the portable path, which
/// computes the same results.
extern const bool kHasMulxAdx;

/// True when this CPU (and the OS, which must save the ZMM registers) supports AVX-512F and
/// AVX-512 IFMA, which the vectorised field products use (field/ifma.hpp). ZKPIPE_NO_ASM=1 turns
/// it off too, and so does ZKPIPE_NO_IFMA=1 alone (MULX kernels, no IFMA: for differential runs).
bool has_avx512_ifma();
/// has_avx512_ifma(), cached at start-up as kHasMulxAdx.
extern const bool kHasAvx512Ifma;

/// The arithmetic paths this process runs, for reports that must say which ran (benchmarks,
/// `zkpipe version`, `bench` and `prove --json`): "avx512-ifma mulx-adx", "mulx-adx" or
/// "portable", followed by what the CPU has but an environment override turned off, e.g.
/// "mulx-adx (avx512-ifma off: ZKPIPE_NO_IFMA=1)".
std::string kernel_paths();

}  // namespace zk::cpu
