#include "gadgets/merkle.hpp"

#include <cstring>

namespace zk::gadgets {

Fr32 sha256_node(const Fr32& left, const Fr32& right) {
  std::uint8_t buf[64];
  std::memcpy(buf, left.data(), 32);
  std::memcpy(buf + 32, right.data(), 32);
  Fr32 d = sha256_native(buf);
  d[31] &= 0x3f;
  return d;
}

Fr fr32_to_field(const Fr32& x) {
  Fr32 y = x;
  y[31] &= 0x3f;
  return *Fr::from_bytes(y, field::Endian::kLittle);  // < 2^254 < r: always canonical
}

Fr32 field_to_fr32(const Fr& x) {
  Fr32 out{};
  x.to_bytes(out, field::Endian::kLittle);
  return out;
}

Result<Sha256Tree> Sha256Tree::build(std::vector<Fr32> leaves) {
  if (leaves.empty() || (leaves.size() & (leaves.size() - 1)) != 0) {
    return Status::invalid_argument("a binary tree needs a power-of-two number of leaves, got " +
                                    std::to_string(leaves.size()));
  }
  Sha256Tree t;
  t.levels_.push_back(std::move(leaves));
  while (t.levels_.back().size() > 1) {
    const auto& below = t.levels_.back();
    std::vector<Fr32> up(below.size() / 2);
    for (std::size_t i = 0; i < up.size(); ++i) up[i] = sha256_node(below[2 * i], below[2 * i + 1]);
    t.levels_.push_back(std::move(up));
  }
  return t;
}

std::vector<Fr32> Sha256Tree::path(std::size_t index) const {
  std::vector<Fr32> out;
  for (std::size_t l = 0; l + 1 < levels_.size(); ++l, index /= 2) out.push_back(levels_[l][index ^ 1]);
  return out;
}

Result<PoseidonTree> PoseidonTree::build(std::vector<Fr> leaves) {
  std::size_t n = leaves.size();
  while (n > 1 && n % kArity == 0) n /= kArity;
  if (leaves.empty() || n != 1) {
    return Status::invalid_argument("an arity-8 tree needs a power-of-8 number of leaves, got " +
                                    std::to_string(leaves.size()));
  }
  PoseidonTree t;
  t.levels_.push_back(std::move(leaves));
  while (t.levels_.back().size() > 1) {
    const auto& below = t.levels_.back();
    std::vector<Fr> up(below.size() / kArity);
    for (std::size_t i = 0; i < up.size(); ++i) up[i] = *poseidon_hash(std::span(below).subspan(kArity * i, kArity));
    t.levels_.push_back(std::move(up));
  }
  return t;
}

std::vector<std::array<Fr, PoseidonTree::kArity - 1>> PoseidonTree::path(std::size_t index) const {
  std::vector<std::array<Fr, kArity - 1>> out;
  for (std::size_t l = 0; l + 1 < levels_.size(); ++l, index /= kArity) {
    std::array<Fr, kArity - 1> sib;
    const std::size_t base = index - index % kArity;
    std::size_t k = 0;
    for (std::size_t j = 0; j < kArity; ++j) {
      if (base + j != index) sib[k++] = levels_[l][base + j];
    }
    out.push_back(sib);
  }
  return out;
}

Result<Fr32> sha256_root_streaming(std::size_t n, const std::function<Fr32(std::size_t)>& next) {
  if (n == 0 || (n & (n - 1)) != 0) return Status::invalid_argument("streaming root: n must be a power of two");
  // stack[h] holds a pending left node of height h.
  std::vector<std::pair<unsigned, Fr32>> stack;
  for (std::size_t i = 0; i < n; ++i) {
    std::pair<unsigned, Fr32> cur{0, next(i)};
    while (!stack.empty() && stack.back().first == cur.first) {
      cur = {cur.first + 1, sha256_node(stack.back().second, cur.second)};
      stack.pop_back();
    }
    stack.push_back(cur);
  }
  return stack.back().second;
}

}  // namespace zk::gadgets
