// The one instantiation of the prover's templates for both curves (prover.hpp).

#include "groth16/prover.hpp"

namespace zk::groth16 {

ZK_GROTH16_PROVER_INSTANCES(, Bls12_381)
ZK_GROTH16_PROVER_INSTANCES(, Bn254)

}  // namespace zk::groth16
