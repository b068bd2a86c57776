#include "field/fields.hpp"

namespace zk::field {

template class MontField<params::Bls12_381Fq>;
template class MontField<params::Bls12_381Fr>;
template class MontField<params::Bn254Fq>;
template class MontField<params::Bn254Fr>;

}  // namespace zk::field
