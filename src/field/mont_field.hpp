#pragma once

// A prime field in Montgomery form, parametrised by a generated params struct (field/params/).

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "base/cpu.hpp"
#include "base/rng.hpp"
#include "base/status.hpp"
#include "field/bigint.hpp"
#include "field/inverse.hpp"
#include "field/mont_mul.hpp"

namespace zk::field {

enum class Endian { kLittle, kBig };

/// What a generated field params struct provides (see tools/gen_constants.py).
template <class P>
concept PrimeFieldParams = requires {
  { P::kLimbs } -> std::convertible_to<std::size_t>;
  { P::kModulusBits } -> std::convertible_to<unsigned>;
  { P::kBytes } -> std::convertible_to<std::size_t>;
  { P::kInv } -> std::convertible_to<std::uint64_t>;
  { P::kTwoAdicity } -> std::convertible_to<unsigned>;
  P::kModulus;
  P::kR;
  P::kR2;
  P::kTrace;
  P::kName;
};

template <PrimeFieldParams P>
class MontField {
 public:
  using Params = P;
  static constexpr std::size_t kLimbs = P::kLimbs;
  static constexpr std::size_t kBytes = P::kBytes;
  static constexpr unsigned kBits = P::kModulusBits;
  using Repr = Limbs<kLimbs>;

  static_assert(P::kModulus[kLimbs - 1] < 0x7fffffffffffffffull,
                "the no-carry Montgomery multiplication needs the top limb of p below 2^63 - 1");

  /// Zero.
  constexpr MontField() = default;

  static constexpr MontField zero() { return MontField(); }
  static constexpr MontField one() { return from_mont(P::kR); }
  static constexpr MontField from_u64(std::uint64_t x) {
    Repr r{};
    r[0] = x;
    return from_canonical_unchecked(reduce_once(r));
  }
  /// From a canonical integer known to be below p (e.g. a generated constant). constexpr.
  static constexpr MontField from_canonical_unchecked(const Repr& x) { return from_mont(mul_raw(x, P::kR2)); }
  /// From a canonical integer; rejects x >= p.
  static Result<MontField> from_canonical(const Repr& x) {
    if (cmp_limbs(x, P::kModulus) >= 0) {
      return Status::out_of_range(std::string(P::kName) + " element is not canonical (>= modulus)");
    }
    return from_canonical_unchecked(x);
  }
  /// From the Montgomery representation x*R mod p (as stored in snarkjs files). Trusts x < p.
  static constexpr MontField from_mont(const Repr& x) {
    MontField f;
    f.v_ = x;
    return f;
  }
  /// Parses a hex string; rejects bad digits and non-canonical values.
  static Result<MontField> from_hex(std::string_view hex) {
    Repr r{};
    if (!parse_hex(hex, r))
      return Status::invalid_argument(std::string(P::kName) + ": bad hex '" + std::string(hex) + "'");
    return from_canonical(r);
  }

  /// Decodes exactly kBytes bytes; rejects a wrong length and non-canonical values.
  static Result<MontField> from_bytes(std::span<const std::uint8_t> bytes, Endian endian) {
    if (bytes.size() != kBytes) {
      return Status::invalid_argument(std::string(P::kName) + " element needs " + std::to_string(kBytes) +
                                      " bytes, got " + std::to_string(bytes.size()));
    }
    Repr r{};
    for (std::size_t i = 0; i < kBytes; ++i) {
      const std::uint8_t byte = endian == Endian::kLittle ? bytes[i] : bytes[kBytes - 1 - i];
      r[i / 8] |= static_cast<std::uint64_t>(byte) << (8 * (i % 8));
    }
    return from_canonical(r);
  }
  /// Writes the canonical value into exactly kBytes bytes.
  void to_bytes(std::span<std::uint8_t> out, Endian endian) const {
    const Repr r = to_canonical();
    for (std::size_t i = 0; i < kBytes && i < out.size(); ++i) {
      const auto byte = static_cast<std::uint8_t>(r[i / 8] >> (8 * (i % 8)));
      out[endian == Endian::kLittle ? i : kBytes - 1 - i] = byte;
    }
  }
  std::array<std::uint8_t, kBytes> to_bytes(Endian endian) const {
    std::array<std::uint8_t, kBytes> out{};
    to_bytes(out, endian);
    return out;
  }

  /// The canonical integer in [0, p).
  constexpr Repr to_canonical() const {
    Repr one_raw{};
    one_raw[0] = 1;
    return mul_raw(v_, one_raw);
  }
  /// Lowercase hex of the canonical value with a 0x prefix and no leading zeros.
  std::string to_hex() const {
    const Repr r = to_canonical();
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 16 * kLimbs; i-- > 0;) {
      const unsigned d = static_cast<unsigned>(r[i / 16] >> (4 * (i % 16))) & 0xf;
      if (d != 0 || !s.empty()) s.push_back(kDigits[d]);
    }
    return "0x" + (s.empty() ? std::string("0") : s);
  }
  /// The Montgomery representation x*R mod p.
  constexpr const Repr& mont() const { return v_; }

  /// A uniformly random element (rejection sampling on the modulus' bit length).
  static MontField random(Rng& rng) {
    for (;;) {
      Repr r{};
      for (auto& l : r) l = rng.next();
      constexpr unsigned kTopBits = kBits - 64 * (kLimbs - 1);
      if constexpr (kTopBits < 64) r[kLimbs - 1] &= (std::uint64_t{1} << kTopBits) - 1;
      if (cmp_limbs(r, P::kModulus) < 0) return from_mont(r);
    }
  }

  constexpr bool is_zero() const { return is_zero_limbs(v_); }
  constexpr bool is_one() const { return eq_limbs(v_, P::kR); }
  friend constexpr bool operator==(const MontField& a, const MontField& b) { return eq_limbs(a.v_, b.v_); }

  friend constexpr MontField operator+(const MontField& a, const MontField& b) {
    Repr s{};
    add_limbs(s, a.v_, b.v_);  // cannot overflow: p < 2^(64N-1)
    return from_mont(reduce_once(s));
  }
  friend constexpr MontField operator-(const MontField& a, const MontField& b) {
    Repr d{};
    const std::uint64_t borrow = sub_limbs(d, a.v_, b.v_);
    Repr p_or_zero{};
#pragma GCC unroll 16
    for (std::size_t i = 0; i < kLimbs; ++i) p_or_zero[i] = P::kModulus[i] & (0 - borrow);
    add_limbs(d, d, p_or_zero);
    return from_mont(d);
  }
  constexpr MontField operator-() const {
    if (is_zero()) return *this;
    Repr d{};
    sub_limbs(d, P::kModulus, v_);
    return from_mont(d);
  }
  friend constexpr MontField operator*(const MontField& a, const MontField& b) {
    return from_mont(mul_raw(a.v_, b.v_));
  }
  MontField& operator+=(const MontField& b) { return *this = *this + b; }
  MontField& operator-=(const MontField& b) { return *this = *this - b; }
  MontField& operator*=(const MontField& b) { return *this = *this * b; }

  constexpr MontField dbl() const { return *this + *this; }
  constexpr MontField square() const { return *this * *this; }
  /// x / 2.
  constexpr MontField halve() const {
    Repr r = v_;
    std::uint64_t carry = 0;
    if (r[0] & 1) carry = add_limbs(r, r, P::kModulus);
    shr1(r);
    r[kLimbs - 1] |= carry << 63;
    return from_mont(r);
  }

  /// x^e for a little-endian exponent of any width (square-and-multiply, 4-bit fixed window).
  template <std::size_t M>
  constexpr MontField pow(const Limbs<M>& e) const {
    std::array<MontField, 16> table{};
    table[0] = one();
    for (std::size_t i = 1; i < 16; ++i) table[i] = table[i - 1] * *this;
    MontField r = one();
    const std::size_t nbits = bit_length(e);
    const std::size_t top = (nbits + 3) / 4;
    for (std::size_t w = top; w-- > 0;) {
      if (w + 1 != top) r = r.square().square().square().square();
      const unsigned d = static_cast<unsigned>(e[(4 * w) / 64] >> ((4 * w) % 64)) & 0xf;
      if (d != 0) r = r * table[d];
    }
    return r;
  }
  constexpr MontField pow(std::uint64_t e) const { return pow(Limbs<1>{e}); }

  /// 1/x; zero maps to zero (callers that must reject zero check is_zero() first). Variable time
  /// (Bernstein-Yang divsteps, field/inverse.hpp): only for public values, which is all zkpipe inverts.
  constexpr MontField inverse() const {
    if (is_zero()) return *this;
    return from_mont(safegcd::inverse_var<P>(v_));
  }
  /// 1/x as x^(p-2) (Fermat): the reference the tests hold inverse() to; 5-10x slower.
  constexpr MontField inverse_fermat() const { return pow(P::kModulusMinusTwo); }

  /// Inverts every non-zero element in place with one inversion (Montgomery's trick); zeros stay zero.
  static void batch_inverse(std::span<MontField> xs) {
    std::vector<MontField> prefix(xs.size());
    MontField acc = one();
    for (std::size_t i = 0; i < xs.size(); ++i) {
      prefix[i] = acc;
      if (!xs[i].is_zero()) acc *= xs[i];
    }
    MontField inv = acc.inverse();
    for (std::size_t i = xs.size(); i-- > 0;) {
      if (xs[i].is_zero()) continue;
      const MontField x = xs[i];
      xs[i] = inv * prefix[i];
      inv *= x;
    }
  }

  /// Legendre symbol: 0 for zero, 1 for a non-zero square, -1 otherwise.
  constexpr int legendre() const {
    if (is_zero()) return 0;
    return pow(P::kModulusMinusOneDivTwo).is_one() ? 1 : -1;
  }

  /// A square root, or nullopt when x is not a square. Tonelli-Shanks (Cohen, "A Course in
  /// Computational Algebraic Number Theory", Algorithm 1.5.1); for p = 3 mod 4 (s = 1) this is the
  /// single exponentiation x^((p+1)/4). Which of the two roots is returned is unspecified.
  constexpr std::optional<MontField> sqrt() const {
    if (is_zero()) return *this;
    MontField w = pow(P::kTraceMinusOneDivTwo);  // x^((t-1)/2)
    MontField r = *this * w;                     // x^((t+1)/2)
    MontField b = r * w;                         // x^t
    MontField z = from_canonical_unchecked(P::kNonResidueToTrace);
    unsigned v = P::kTwoAdicity;
    while (!b.is_one()) {
      unsigned k = 0;
      MontField b2k = b;
      while (!b2k.is_one()) {
        b2k = b2k.square();
        if (++k == v) return std::nullopt;  // b has order 2^v: x is not a square
      }
      MontField g = z;
      for (unsigned j = 0; j + k + 1 < v; ++j) g = g.square();
      z = g.square();
      b = b * z;
      r = r * g;
      v = k;
    }
    return r;
  }

  /// True when the canonical value exceeds (p - 1)/2: the ZCash "lexicographically largest" rule.
  bool is_lexicographically_largest() const { return cmp_limbs(to_canonical(), P::kModulusMinusOneDivTwo) > 0; }

  /// Raw Montgomery product of two limb arrays; dispatches to MULX/ADX when the CPU has it.
  static constexpr Repr mul_raw(const Repr& a, const Repr& b) {
    if (std::is_constant_evaluated()) return mont_mul_portable<kLimbs>(a, b, P::kModulus, P::kInv);
#ifdef ZK_HAVE_MULX_ASM
    if constexpr (kLimbs == 4 || kLimbs == 6) {
      if (cpu::kHasMulxAdx) [[likely]] {
        if constexpr (kLimbs == 4) {
          return mont_mul_mulx4(a, b, P::kModulus, P::kInv);
        } else {
          return mont_mul_mulx6(a, b, P::kModulus, P::kInv);
        }
      }
      // Out of line: inlining the portable fallback next to the MULX path at every product doubles
      // the code and the register pressure of every caller (measured: Fq2 products 1.6x slower).
      return mul_portable_cold(a, b);
    }
#endif
    return mont_mul_portable<kLimbs>(a, b, P::kModulus, P::kInv);
  }
  /// Lazy (Harvey-style) arithmetic for transforms (ntt.hpp): representations kept below 2p instead
  /// of p, so a butterfly needs one correction instead of three. `x` values are Montgomery
  /// representations below 2p; the results are below 2p again. from_lazy makes one canonical.
  /// kQuarterModulus: 4p < R, so a sum or an uncorrected difference of two lazy values (below 4p)
  /// fits the limbs and can be multiplied as is (BN254's fields; not BLS12-381's Fr).
  static constexpr bool kQuarterModulus = P::kModulus[kLimbs - 1] < (std::uint64_t{1} << 62);
  /// w x / R for a canonical w and x below 2p (below 4p when kQuarterModulus): below 2p.
  [[gnu::always_inline]] static Repr mul_lazy(const MontField& w, const Repr& x) {
#ifdef ZK_HAVE_MULX_ASM
    if constexpr (kLimbs == 4 || kLimbs == 6) {
      if (cpu::kHasMulxAdx) [[likely]] {
        if constexpr (kLimbs == 4) {
          return mont_mul_mulx4<false>(w.v_, x, P::kModulus, P::kInv);
        } else {
          return mont_mul_mulx6<false>(w.v_, x, P::kModulus, P::kInv);
        }
      }
      return mul_lazy_portable_cold(w.v_, x);
    }
#endif
    return mont_mul_portable<kLimbs, false>(w.v_, x, P::kModulus, P::kInv);
  }
  /// x y / R for x and y both below 2p, when 4p < R: below 2p (after step i of the CIOS the running
  /// sum is below x + p < 3p < R, and the result below 4p^2/R + p < 2p). For chains of products
  /// (the MSM's batch-affine additions) that correct only what they store.
  [[gnu::always_inline]] static Repr mul_lazy_both(const Repr& x, const Repr& y)
    requires kQuarterModulus
  {
    return mul_lazy(from_mont(x), y);
  }
  /// x - y + p for canonical x and y: below 2p, no correction.
  [[gnu::always_inline]] static constexpr Repr sub_plus_p(const MontField& x, const MontField& y) {
    Repr d{};
    add_limbs(d, x.v_, P::kModulus);
    sub_limbs(d, d, y.v_);
    return d;
  }
  /// The portable mul_lazy, always available (for differential tests).
  static constexpr Repr mul_lazy_portable(const MontField& w, const Repr& x) {
    return mont_mul_portable<kLimbs, false>(w.v_, x, P::kModulus, P::kInv);
  }
  /// x + y, corrected by 2p once: below 2p.
  [[gnu::always_inline]] static constexpr Repr add_lazy(const Repr& x, const Repr& y) {
    Repr s{}, d{};
    const std::uint64_t carry = add_limbs(s, x, y);  // only when 4p > R
    const std::uint64_t borrow = sub_limbs(d, s, kTwoModulus);
    if constexpr (kQuarterModulus) return select_limbs(0 - borrow, s, d);
    return select_limbs(0 - (borrow & (carry ^ 1)), s, d);  // s < 2p only if no carry and a borrow
  }
  /// x - y, plus 2p on a borrow: below 2p.
  [[gnu::always_inline]] static constexpr Repr sub_lazy(const Repr& x, const Repr& y) {
    Repr d{};
    const std::uint64_t borrow = sub_limbs(d, x, y);
    Repr two_p_or_zero{};
#pragma GCC unroll 16
    for (std::size_t i = 0; i < kLimbs; ++i) two_p_or_zero[i] = kTwoModulus[i] & (0 - borrow);
    add_limbs(d, d, two_p_or_zero);
    return d;
  }
  /// x - y + 2p without a correction: below 4p, a valid operand of mul_lazy only when kQuarterModulus.
  [[gnu::always_inline]] static constexpr Repr sub_lazy_uncorrected(const Repr& x, const Repr& y)
    requires kQuarterModulus
  {
    Repr d{};
    add_limbs(d, x, kTwoModulus);
    sub_limbs(d, d, y);
    return d;
  }
  /// The element a lazy representation (below 2p) stands for.
  [[gnu::always_inline]] static constexpr MontField from_lazy(const Repr& x) { return from_mont(reduce_once(x)); }

  /// Lazy reduction, for extension-field products (Fp2): the 2N-limb product of two Montgomery
  /// representations below 2p each (reduced, or add_unreduced's sums), combined with wide_add /
  /// wide_sub and reduced once by redc. redc needs its input below p*R (R = 2^64N): a product of
  /// two values below 2p (4p^2) fits when p < R/4 (both base fields; Fp2 asserts it), and so does anything
  /// wide_sub returns.
  using Wide = Limbs<2 * kLimbs>;
  static constexpr Wide mul_wide(const Repr& a, const Repr& b) {
#ifdef ZK_HAVE_MULX_ASM
    if constexpr (kLimbs == 4 || kLimbs == 6) {
      if (!std::is_constant_evaluated() && cpu::kHasMulxAdx) [[likely]] return mul_wide_mulx<kLimbs>(a, b);
    }
#endif
    return mul_wide_portable<kLimbs>(a, b);
  }
  static constexpr MontField redc(const Wide& t) {
#ifdef ZK_HAVE_MULX_ASM
    if (!std::is_constant_evaluated() && cpu::kHasMulxAdx) [[likely]] {
      if constexpr (kLimbs == 4) return from_mont(mont_redc_mulx4(t, P::kModulus, P::kInv));
#ifdef ZK_HAVE_FP2_MULX_ASM
      if constexpr (kLimbs == 6) {
        MontField r;
        zk_redc_384(r.v_.data(), t.data(), P::kModulus.data(), P::kInv);
        return r;
      }
#endif
    }
#endif
    return from_mont(mont_redc_portable<kLimbs>(t, P::kModulus, P::kInv));
  }
  /// The portable kernels, always available (for differential tests).
  static constexpr Wide mul_wide_portable_raw(const Repr& a, const Repr& b) { return mul_wide_portable<kLimbs>(a, b); }
  static constexpr MontField redc_portable(const Wide& t) {
    return from_mont(mont_redc_portable<kLimbs>(t, P::kModulus, P::kInv));
  }
  /// a + b below 2p, not reduced: an operand of mul_wide.
  static constexpr Repr add_unreduced(const MontField& a, const MontField& b) {
    Repr s{};
    add_limbs(s, a.v_, b.v_);
    return s;
  }
  /// a - b mod p*R for a, b < p*R (p added to the high half on a borrow): below p*R. p R has a zero
  /// low half, so only the high half is corrected.
  static constexpr Wide wide_sub(const Wide& a, const Wide& b) {
    Wide d{};
    const std::uint64_t borrow = sub_limbs(d, a, b);
    std::uint64_t carry = 0;
#pragma GCC unroll 16
    for (std::size_t i = 0; i < kLimbs; ++i) {
      carry = add_carry(d[kLimbs + i], P::kModulus[i] & (0 - borrow), carry, d[kLimbs + i]);
    }
    return d;
  }
  /// a + b mod p*R for a, b < p*R: below p*R. The low half is the sum's; the high half is corrected
  /// by p once.
  static constexpr Wide wide_add(const Wide& a, const Wide& b) {
    Wide sum{};
    add_limbs(sum, a, b);  // < 2pR < 2^(128N - 1): no carry out
    Repr hi{}, d{};
#pragma GCC unroll 16
    for (std::size_t i = 0; i < kLimbs; ++i) hi[i] = sum[kLimbs + i];
    const std::uint64_t borrow = sub_limbs(d, hi, P::kModulus);
    const Repr r = select_limbs(0 - borrow, hi, d);
#pragma GCC unroll 16
    for (std::size_t i = 0; i < kLimbs; ++i) sum[kLimbs + i] = r[i];
    return sum;
  }
  /// a - b for a >= b (no reduction: callers know the difference is non-negative).
  static constexpr Wide wide_sub_nonnegative(const Wide& a, const Wide& b) {
    Wide d{};
    sub_limbs(d, a, b);
    return d;
  }

  [[gnu::noinline, gnu::cold]] static Repr mul_portable_cold(const Repr& a, const Repr& b) {
    return mont_mul_portable<kLimbs>(a, b, P::kModulus, P::kInv);
  }
  /// The portable product, always available (for differential tests).
  static constexpr Repr mul_raw_portable(const Repr& a, const Repr& b) {
    return mont_mul_portable<kLimbs>(a, b, P::kModulus, P::kInv);
  }

 private:
  static constexpr Repr reduce_once(const Repr& x) { return reduce_once_branchless(x, P::kModulus); }
  static constexpr Repr kTwoModulus = [] {
    Repr r{};
    add_limbs(r, P::kModulus, P::kModulus);  // p < R/2 (the static_assert above): no carry
    return r;
  }();
  [[gnu::noinline, gnu::cold]] static Repr mul_lazy_portable_cold(const Repr& w, const Repr& x) {
    return mont_mul_portable<kLimbs, false>(w, x, P::kModulus, P::kInv);
  }

  Repr v_{};
};

/// Whether F has MontField's product of two lazy operands (mul_lazy_both): a prime field with 4p < R
/// (both G1 base fields). The batch-affine additions (msm/buckets.hpp, curve/point.hpp) use it.
template <class F>
inline constexpr bool kLazyProducts = [] {
  if constexpr (requires { F::kQuarterModulus; }) {
    return F::kQuarterModulus;
  } else {
    return false;
  }
}();

}  // namespace zk::field
