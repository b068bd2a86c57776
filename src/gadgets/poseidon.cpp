#include "gadgets/poseidon.hpp"

#include <array>
#include <map>
#include <memory>
#include <mutex>

namespace zk::gadgets {
namespace {

// The Grain LFSR of the Poseidon reference (hadeshash create_rcs_grain.sage), as neptune uses it.
class Grain {
 public:
  Grain(unsigned field, unsigned sbox, unsigned n, unsigned t, unsigned rf, unsigned rp) {
    auto push = [&](std::uint64_t v, unsigned bits) {
      for (unsigned i = bits; i-- > 0;) state_.push_back(static_cast<std::uint8_t>((v >> i) & 1));  // MSB first
    };
    push(field, 2);
    push(sbox, 4);
    push(n, 12);
    push(t, 12);
    push(rf, 10);
    push(rp, 10);
    push((std::uint64_t{1} << 30) - 1, 30);
    for (int i = 0; i < 160; ++i) raw();  // discard
  }

  /// Self-shrinking output: from each pair (a, b) emit b when a = 1.
  std::uint8_t bit() {
    for (;;) {
      const std::uint8_t a = raw(), b = raw();
      if (a == 1) return b;
    }
  }

 private:
  std::uint8_t raw() {
    const std::size_t i = pos_;
    const std::uint8_t nb =
        state_[i + 62] ^ state_[i + 51] ^ state_[i + 38] ^ state_[i + 23] ^ state_[i + 13] ^ state_[i];
    state_.push_back(nb);
    ++pos_;
    return nb;
  }
  std::vector<std::uint8_t> state_;
  std::size_t pos_ = 0;
};

unsigned partial_rounds_for(unsigned arity) {
  // neptune Strength::Standard (Poseidon paper's bounds at 128-bit security plus its margins).
  switch (arity) {
    case 2:
      return 55;
    case 4:
      return 56;
    case 8:
      return 57;
    case 11:
      return 57;
    default:
      return 0;
  }
}

using Matrix = PoseidonParams::Matrix;
using Vec = std::vector<PoseidonFr>;

/// Row vector times matrix: (x X)[j] = sum_i x[i] X[i][j].
Vec row_times(const Vec& x, const Matrix& m) {
  Vec out(m[0].size(), PoseidonFr::zero());
  for (std::size_t i = 0; i < x.size(); ++i) {
    for (std::size_t j = 0; j < out.size(); ++j) out[j] = out[j] + x[i] * m[i][j];
  }
  return out;
}

Matrix mat_mul(const Matrix& a, const Matrix& b) {
  Matrix out(a.size(), Vec(b[0].size(), PoseidonFr::zero()));
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = row_times(a[i], b);
  return out;
}

/// Gauss-Jordan inverse (the matrices here are Cauchy matrices and their minors: invertible).
Matrix inverse(Matrix m) {
  const std::size_t n = m.size();
  Matrix inv(n, Vec(n, PoseidonFr::zero()));
  for (std::size_t i = 0; i < n; ++i) inv[i][i] = PoseidonFr::one();
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t piv = c;
    while (m[piv][c].is_zero()) ++piv;  // exists: m is invertible
    std::swap(m[piv], m[c]);
    std::swap(inv[piv], inv[c]);
    const PoseidonFr k = m[c][c].inverse();
    for (std::size_t j = 0; j < n; ++j) m[c][j] = m[c][j] * k, inv[c][j] = inv[c][j] * k;
    for (std::size_t r = 0; r < n; ++r) {
      if (r == c || m[r][c].is_zero()) continue;
      const PoseidonFr f = m[r][c];
      for (std::size_t j = 0; j < n; ++j) m[r][j] = m[r][j] - f * m[c][j], inv[r][j] = inv[r][j] - f * inv[c][j];
    }
  }
  return inv;
}

/// The optimized form of the permutation that neptune's circuit runs (neptune's preprocessing.rs
/// and mds.rs; derivation in docs/filecoin-gadgets.md). With the state a row vector s and a round
/// "add constants c, S-box, mix by M":
/// - Compressed constants: a constant added after a mix by M equals its product by M^-1 added
///   before it, so every round's constants move in front of the previous S-box; across the
///   partial rounds (S-box on lane 0 only) everything but lane 0's share moves further back.
/// - Sparse matrices: with M = [[a, b^T], [b, C]], the partial rounds' mixes factor as the
///   pre-sparse P = M diag(1, C^R_P) = [[a, b^T C^R_P], [b, C^(R_P+1)]] applied after the 4th full
///   round, then for partial round p the sparse [[a, v^T], [w_hat, I]] with k = R_P - 1 - p,
///   v^T = b^T C^k and w_hat = C^-(k+1) b.
void build_optimized(PoseidonParams& p) {
  const unsigned t = p.width, rp = p.partial_rounds, half = p.full_rounds / 2;
  const Matrix& m = p.mds;
  const Matrix m_inv = inverse(m);
  auto rc = [&](unsigned round) { return Vec(p.round_constants.begin() + round * t, p.round_constants.begin() + (round + 1) * t); };
  auto& cc = p.compressed_constants;
  cc = rc(0);
  for (unsigned r = 1; r < half; ++r) {
    const Vec k = row_times(rc(r), m_inv);
    cc.insert(cc.end(), k.begin(), k.end());
  }
  // Backward over the partial rounds: lane 0's share stays in its round, the rest moves back.
  Vec acc = rc(half + rp);
  Vec partial_keys;
  for (unsigned i = 0; i < rp; ++i) {
    Vec v = row_times(acc, m_inv);
    partial_keys.push_back(v[0]);
    v[0] = PoseidonFr::zero();
    const Vec before = rc(half + rp - 1 - i);
    for (unsigned j = 0; j < t; ++j) v[j] = v[j] + before[j];
    acc = std::move(v);
  }
  const Vec last_full_before = row_times(acc, m_inv);
  cc.insert(cc.end(), last_full_before.begin(), last_full_before.end());
  cc.insert(cc.end(), partial_keys.rbegin(), partial_keys.rend());
  for (unsigned r = 1; r < half; ++r) {
    const Vec k = row_times(rc(half + rp + r), m_inv);
    cc.insert(cc.end(), k.begin(), k.end());
  }
  // Sparse factorization.
  const PoseidonFr a = m[0][0];
  Vec b(t - 1);
  Matrix c(t - 1, Vec(t - 1));
  for (unsigned i = 1; i < t; ++i) {
    b[i - 1] = m[i][0];
    for (unsigned j = 1; j < t; ++j) c[i - 1][j - 1] = m[i][j];
  }
  const Matrix c_inv = inverse(c);
  std::vector<PoseidonParams::Sparse> by_k(rp);
  Vec bt_ck = b;          // b^T C^k, k = 0
  Vec c_inv_b = b;        // C^-(k+1) b, built by multiplying by C^-1 (C symmetric: row or column alike)
  Matrix c_pow = c;       // C^(k+1)
  for (unsigned k = 0; k < rp; ++k) {
    c_inv_b = row_times(c_inv_b, c_inv);  // C^-1 symmetric: x C^-1 = C^-1 x
    auto& sp = by_k[k];
    sp.w_hat.push_back(a);
    sp.w_hat.insert(sp.w_hat.end(), c_inv_b.begin(), c_inv_b.end());
    sp.v_rest = bt_ck;
    bt_ck = row_times(bt_ck, c);
    if (k + 1 < rp) c_pow = mat_mul(c_pow, c);
  }
  // Now bt_ck = b^T C^R_P and c_pow = C^R_P; P = [[a, b^T C^R_P], [b, C^(R_P+1)]].
  const Matrix c_pow_next = mat_mul(c_pow, c);
  p.pre_sparse.assign(t, Vec(t));
  p.pre_sparse[0][0] = a;
  for (unsigned j = 1; j < t; ++j) p.pre_sparse[0][j] = bt_ck[j - 1];
  for (unsigned i = 1; i < t; ++i) {
    p.pre_sparse[i][0] = b[i - 1];
    for (unsigned j = 1; j < t; ++j) p.pre_sparse[i][j] = c_pow_next[i - 1][j - 1];
  }
  p.sparse.assign(by_k.rbegin(), by_k.rend());  // the one from M itself (k = 0) serves the last round
}

std::unique_ptr<PoseidonParams> build(unsigned arity) {
  using F = PoseidonFr;
  auto p = std::make_unique<PoseidonParams>();
  p->arity = arity;
  p->width = arity + 1;
  p->partial_rounds = partial_rounds_for(arity);
  const unsigned t = p->width, n_bits = F::kBits;  // 255
  Grain g(/*field=*/1, /*sbox=*/1, n_bits, t, p->full_rounds, p->partial_rounds);
  const std::size_t count = static_cast<std::size_t>(p->full_rounds + p->partial_rounds) * t;
  while (p->round_constants.size() < count) {
    typename F::Repr v{};
    for (unsigned i = 0; i < n_bits; ++i) {  // big-endian: the first bit is the most significant
      const unsigned bitpos = n_bits - 1 - i;
      if (g.bit()) v[bitpos / 64] |= std::uint64_t{1} << (bitpos % 64);
    }
    if (auto x = F::from_canonical(v); x.ok()) p->round_constants.push_back(*x);  // >= r: drawn again
  }
  p->mds.assign(t, std::vector<F>(t));
  for (unsigned i = 0; i < t; ++i) {
    for (unsigned j = 0; j < t; ++j) p->mds[i][j] = F::from_u64(i + j + t).inverse();
  }
  p->domain_tag = F::from_u64((std::uint64_t{1} << arity) - 1);
  build_optimized(*p);
  return p;
}

}  // namespace

Result<const PoseidonParams*> poseidon_params(unsigned arity) {
  if (partial_rounds_for(arity) == 0) {
    return Status::invalid_argument("Poseidon arity " + std::to_string(arity) + " is not one of neptune's 2, 4, 8, 11");
  }
  static std::mutex m;
  static std::map<unsigned, std::unique_ptr<PoseidonParams>> cache;  // immutable once built
  std::lock_guard lock(m);
  auto& slot = cache[arity];
  if (!slot) slot = build(arity);
  return slot.get();
}

void poseidon_permute(const PoseidonParams& p, std::span<PoseidonFr> s) {
  const unsigned t = p.width, rounds = p.full_rounds + p.partial_rounds, half = p.full_rounds / 2;
  std::vector<PoseidonFr> next(t);
  for (unsigned r = 0; r < rounds; ++r) {
    for (unsigned i = 0; i < t; ++i) s[i] = s[i] + p.round_constants[r * t + i];
    const bool full = r < half || r >= half + p.partial_rounds;
    for (unsigned i = 0; i < (full ? t : 1); ++i) {
      const PoseidonFr x2 = s[i].square();
      s[i] = x2.square() * s[i];
    }
    for (unsigned i = 0; i < t; ++i) {
      PoseidonFr acc = PoseidonFr::zero();
      for (unsigned j = 0; j < t; ++j) acc = acc + p.mds[i][j] * s[j];
      next[i] = acc;
    }
    std::copy(next.begin(), next.end(), s.begin());
  }
}

void poseidon_permute_optimized(const PoseidonParams& p, std::span<PoseidonFr> s) {
  using F = PoseidonFr;
  const unsigned t = p.width, half = p.full_rounds / 2;
  const auto& cc = p.compressed_constants;
  std::array<F, 16> tmp;  // widths are at most 12
  auto mix = [&](const PoseidonParams::Matrix& m) {
    for (unsigned j = 0; j < t; ++j) {
      F acc = F::zero();
      for (unsigned i = 0; i < t; ++i) acc = acc + s[i] * m[i][j];
      tmp[j] = acc;
    }
    std::copy(tmp.begin(), tmp.begin() + t, s.begin());
  };
  auto pow5 = [](const F& x) { return x.square().square() * x; };
  for (unsigned k = 0; k < t; ++k) s[k] = pow5(s[k] + cc[k]) + cc[t + k];
  std::size_t next = 2 * t;
  mix(p.mds);
  for (unsigned r = 1; r < half; ++r) {
    for (unsigned k = 0; k < t; ++k) s[k] = pow5(s[k]) + cc[next + k];
    next += t;
    mix(r == half - 1 ? p.pre_sparse : p.mds);
  }
  for (unsigned r = 0; r < p.partial_rounds; ++r) {
    s[0] = pow5(s[0]) + cc[next++];
    const auto& sp = p.sparse[r];
    F lane0 = F::zero();
    for (unsigned i = 0; i < t; ++i) lane0 = lane0 + s[i] * sp.w_hat[i];
    for (unsigned j = 1; j < t; ++j) s[j] = s[j] + s[0] * sp.v_rest[j - 1];
    s[0] = lane0;
  }
  for (unsigned r = 0; r < half; ++r) {
    const bool terminal = r + 1 == half;
    for (unsigned k = 0; k < t; ++k) s[k] = terminal ? pow5(s[k]) : pow5(s[k]) + cc[next + k];
    if (!terminal) next += t;
    mix(p.mds);
  }
}

Result<PoseidonFr> poseidon_hash(std::span<const PoseidonFr> inputs) {
  auto p = poseidon_params(static_cast<unsigned>(inputs.size()));
  if (!p.ok()) return p.status();
  std::array<PoseidonFr, 16> s;
  s[0] = (*p)->domain_tag;
  std::copy(inputs.begin(), inputs.end(), s.begin() + 1);
  poseidon_permute_optimized(**p, std::span<PoseidonFr>(s.data(), (*p)->width));
  return s[1];
}

}  // namespace zk::gadgets
