// The one instantiation of the setup's templates for both curves (setup.hpp).

#include "groth16/setup.hpp"

namespace zk::groth16 {

ZK_GROTH16_SETUP_INSTANCES(, Bls12_381)
ZK_GROTH16_SETUP_INSTANCES(, Bn254)

}  // namespace zk::groth16
