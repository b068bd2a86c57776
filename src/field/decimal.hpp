#pragma once

// Decimal strings for field elements (snarkjs/zkpipe public.json): canonical values only.

#include <algorithm>
#include <string>
#include <string_view>

#include "base/status.hpp"
#include "field/bigint.hpp"

namespace zk::field {

/// The canonical value of x in decimal.
template <class F>
std::string to_decimal(const F& x) {
  auto v = x.to_canonical();
  std::string out;
  while (!is_zero_limbs(v)) {
    // v /= 10^19, remainder appended as 19 digits (least significant chunk first).
    constexpr std::uint64_t kChunk = 10000000000000000000ull;
    u128 rem = 0;
    for (std::size_t i = v.size(); i-- > 0;) {
      const u128 cur = (rem << 64) | v[i];
      v[i] = static_cast<std::uint64_t>(cur / kChunk);
      rem = cur % kChunk;
    }
    auto r = static_cast<std::uint64_t>(rem);
    for (int d = 0; d < 19; ++d, r /= 10) out.push_back(static_cast<char>('0' + r % 10));
  }
  while (out.size() > 1 && out.back() == '0') out.pop_back();
  if (out.empty()) out = "0";
  std::reverse(out.begin(), out.end());
  return out;
}

/// Parses a canonical decimal (digits only, < the modulus).
template <class F>
Result<F> from_decimal(std::string_view s) {
  if (s.empty() || s.size() > 160)
    return Status::invalid_argument("not a decimal field element: \"" + std::string(s.substr(0, 100)) + "\"");
  Limbs<F::kLimbs + 1> v{};
  for (char ch : s) {
    if (ch < '0' || ch > '9')
      return Status::invalid_argument("not a decimal field element: \"" + std::string(s) + "\"");
    u128 carry = static_cast<u128>(ch - '0');
    for (auto& limb : v) {
      const u128 cur = static_cast<u128>(limb) * 10 + carry;
      limb = static_cast<std::uint64_t>(cur);
      carry = cur >> 64;
    }
    if (carry != 0 || v.back() != 0)
      return Status::out_of_range("value " + std::string(s) + " is not below the modulus");
  }
  typename F::Repr r{};
  for (std::size_t i = 0; i < F::kLimbs; ++i) r[i] = v[i];
  auto x = F::from_canonical(r);
  if (!x.ok()) return Status::out_of_range("value " + std::string(s) + " is not below the field modulus");
  return x;
}

}  // namespace zk::field
