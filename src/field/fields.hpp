#pragma once

// The four prime fields of zkpipe, instantiated once in fields.cpp.

#include "field/mont_field.hpp"
#include "field/params/bls12_381.hpp"
#include "field/params/bn254.hpp"

namespace zk::field {

using Bls12_381Fq = MontField<params::Bls12_381Fq>;
using Bls12_381Fr = MontField<params::Bls12_381Fr>;
using Bn254Fq = MontField<params::Bn254Fq>;
using Bn254Fr = MontField<params::Bn254Fr>;

extern template class MontField<params::Bls12_381Fq>;
extern template class MontField<params::Bls12_381Fr>;
extern template class MontField<params::Bn254Fq>;
extern template class MontField<params::Bn254Fr>;

}  // namespace zk::field
