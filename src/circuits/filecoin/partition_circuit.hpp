#pragma once

// A PartitionCircuit from one generic synthesis function (`synth(cs)` for any constraint system):
// how each kind's file hands its circuit, with a witness or blank, to every system.

#include <memory>
#include <utility>

#include "circuits/filecoin/proof_kind.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/prover_cs.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/test_cs.hpp"

namespace zk::circuits::filecoin {

template <class Synth>
class CircuitOf final : public PartitionCircuit {
 public:
  explicit CircuitOf(Synth s) : s_(std::move(s)) {}
  Status synthesize(r1cs::DensitySystem<Fr>& cs) const override { return s_(cs); }
  Status synthesize(r1cs::ShapeRecorder<Fr>& cs) const override { return s_(cs); }
  Status synthesize(r1cs::ProvingSystem<Fr>& cs) const override { return s_(cs); }
  Status synthesize(r1cs::TestSystem<Fr>& cs) const override { return s_(cs); }

 private:
  Synth s_;
};

template <class Synth>
std::unique_ptr<PartitionCircuit> partition_circuit(Synth s) {
  return std::make_unique<CircuitOf<Synth>>(std::move(s));
}

}  // namespace zk::circuits::filecoin
