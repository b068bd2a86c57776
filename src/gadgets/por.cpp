#include "gadgets/por.hpp"

#include <cstring>

namespace zk::gadgets {

Fr tree_node_hash(TreeHasher hasher, std::span<const Fr> children) {
  if (hasher == TreeHasher::kPoseidon) return *poseidon_hash(children);
  std::vector<std::uint8_t> buf(32 * children.size());
  for (std::size_t i = 0; i < children.size(); ++i) {
    const Fr32 b = field_to_fr32(children[i]);
    std::memcpy(buf.data() + 32 * i, b.data(), 32);
  }
  return fr32_to_field(sha256_native(buf));
}

Result<FilecoinTree> FilecoinTree::build(TreeShape shape, std::vector<Fr> leaves) {
  if (leaves.size() != shape.leaves()) {
    return Status::invalid_argument("the tree shape holds " + std::to_string(shape.leaves()) + " leaves, not " +
                                    std::to_string(leaves.size()));
  }
  for (unsigned a : shape.arities) {
    if (shape.hasher == TreeHasher::kPoseidon && !poseidon_params(a).ok()) {
      return Status::invalid_argument("no Poseidon of arity " + std::to_string(a));
    }
  }
  FilecoinTree t;
  t.shape_ = std::move(shape);
  t.levels_.push_back(std::move(leaves));
  for (unsigned a : t.shape_.arities) {
    const auto& below = t.levels_.back();
    std::vector<Fr> up(below.size() / a);
    for (std::size_t i = 0; i < up.size(); ++i) {
      up[i] = tree_node_hash(t.shape_.hasher, std::span<const Fr>(below).subspan(i * a, a));
    }
    t.levels_.push_back(std::move(up));
  }
  return t;
}

std::vector<PathLevel> FilecoinTree::path(std::size_t leaf) const {
  std::vector<PathLevel> out;
  for (std::size_t l = 0; l < shape_.arities.size(); ++l) {
    const unsigned a = shape_.arities[l];
    PathLevel p;
    p.index = static_cast<unsigned>(leaf % a);
    const std::size_t first = leaf - p.index;
    for (unsigned k = 0; k < a; ++k) {
      if (k != p.index) p.siblings.push_back(levels_[l][first + k]);
    }
    out.push_back(std::move(p));
    leaf /= a;
  }
  return out;
}

std::vector<PathLevel> blank_path(const TreeShape& shape) {
  std::vector<PathLevel> out;
  for (unsigned a : shape.arities) out.push_back({std::vector<Fr>(a - 1, Fr::zero()), 0});
  return out;
}

}  // namespace zk::gadgets
