// The one instantiation of the verifier's templates for both curves (verifier.hpp).

#include "groth16/verifier.hpp"

namespace zk::groth16 {

ZK_GROTH16_VERIFIER_INSTANCES(, Bls12_381)
ZK_GROTH16_VERIFIER_INSTANCES(, Bn254)

}  // namespace zk::groth16
