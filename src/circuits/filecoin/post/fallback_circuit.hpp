#pragma once

// Filecoin's FallbackPoSt circuit (storage-proofs-post fallback::FallbackPoStCircuit), constraint
// for constraint: per sector of the partition, comm_r_last, comm_c and comm_r allocated, comm_r
// made an input and checked to be Poseidon-2(comm_c, comm_r_last); then per challenge the
// challenged replica leaf allocated and its path in tree R-last to comm_r_last (PoR with a private
// root: the leaf's index is the input). Public inputs as fallback_post_public_inputs. WindowPoSt and
// WinningPoSt are the same circuit with other counts; a blank witness has the exact shape.

#include <vector>

#include "base/status.hpp"
#include "circuits/filecoin/post/fallback_post.hpp"
#include "gadgets/num.hpp"
#include "gadgets/por.hpp"
#include "gadgets/poseidon.hpp"

namespace zk::circuits::filecoin {

struct FallbackShape {
  gadgets::TreeShape tree;  // tree R-last of the sector size
  unsigned sectors = 0;     // per partition
  unsigned challenges = 0;  // per sector
  std::size_t num_inputs() const { return 1 + std::size_t{sectors} * (1 + challenges); }  // ONE included
};
FallbackShape fallback_shape(const RegisteredPoStProof& proof);

struct FallbackSectorWitness {
  Fr comm_r, comm_c, comm_r_last;
  std::vector<Fr> leaves;                             // one per challenge
  std::vector<std::vector<gadgets::PathLevel>> paths;  // one per challenge
};
struct FallbackWitness {
  std::vector<FallbackSectorWitness> sectors;
  /// Zeros of the right shape: counting and key generation.
  static FallbackWitness blank(const FallbackShape& s);
};

template <class CS>
Status synthesize_fallback(CS& cs, const FallbackShape& s, const FallbackWitness& w) {
  using gadgets::Num;
  if (w.sectors.size() != s.sectors) {
    return Status::invalid_argument("the witness has " + std::to_string(w.sectors.size()) + " sectors, the circuit " +
                                    std::to_string(s.sectors));
  }
  auto alloc = [&cs](const char* what, const Fr& v) { return Num<Fr>::alloc(cs, [what] { return std::string(what); }, v); };
  for (std::size_t i = 0; i < w.sectors.size(); ++i) {
    const auto& sec = w.sectors[i];
    r1cs::Namespace ns(cs, [i] { return "sector_" + std::to_string(i); });
    if (sec.leaves.size() != s.challenges || sec.paths.size() != s.challenges) {
      return Status::invalid_argument("sector " + std::to_string(i) + " needs " + std::to_string(s.challenges) +
                                      " challenged leaves and paths");
    }
    const Num<Fr> comm_r_last = alloc("comm_r_last", sec.comm_r_last);
    const Num<Fr> comm_c = alloc("comm_c", sec.comm_c);
    const Num<Fr> comm_r = alloc("comm_r", sec.comm_r);
    (void)gadgets::inputize<Fr>(cs, comm_r);
    const Num<Fr> pre[] = {comm_c, comm_r_last};
    auto h = gadgets::poseidon_gadget(cs, std::span<const Num<Fr>>(pre));
    if (!h.ok()) return h.status();
    gadgets::enforce_equal(cs, comm_r, *h);
    for (std::size_t c = 0; c < s.challenges; ++c) {
      const Num<Fr> leaf = alloc("value", sec.leaves[c]);
      if (Status st = gadgets::enforce_inclusion(cs, s.tree, sec.paths[c], comm_r_last, leaf); !st.ok()) return st;
    }
  }
  return {};
}

}  // namespace zk::circuits::filecoin
