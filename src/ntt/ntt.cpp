// Explicit instantiations of the transforms for the two scalar fields (keeps every user from
// recompiling the kernels).
#include "ntt/ntt.hpp"

#include "field/fields.hpp"
#include "ntt/quotient.hpp"

namespace zk::ntt {

template class Domain<field::Bls12_381Fr>;
template class Domain<field::Bn254Fr>;

}  // namespace zk::ntt
