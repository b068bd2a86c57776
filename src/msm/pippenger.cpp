// The one instantiation of each group's MSM (pippenger.hpp).

#include "msm/pippenger.hpp"

namespace zk::msm::detail {

ZK_MSM_INSTANCES(, curve::Bls12_381G1)
ZK_MSM_INSTANCES(, curve::Bls12_381G2)
ZK_MSM_INSTANCES(, curve::Bn254G1)
ZK_MSM_INSTANCES(, curve::Bn254G2)

}  // namespace zk::msm::detail
