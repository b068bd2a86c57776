#pragma once

namespace zk::cpu {

/// True when this CPU has BMI2 (MULX) and ADX (ADCX/ADOX), the instructions of the fast x86-64
/// Montgomery multiplication. Detected once from CPUID; setting the environment variable
/// ZKPIPE_NO_ASM=1 before start-up forces the portable path (for differential runs).
bool has_mulx_adx();

/// Same as has_mulx_adx(), cached in a constant initialised at start-up; cheap to call in hot loops.
/// Code that runs during static initialisation may see `false` and take the portable path, which
/// computes the same results.
extern const bool kHasMulxAdx;

}  // namespace zk::cpu
