#pragma once

// The Groth16 subcommands of `zkpipe` (setup, prove, verify, inspect). Each returns the process
// exit code: 0 success, 1 a negative answer (an invalid proof), 2 bad input or an error.

#include <cstdint>
#include <string>
#include <vector>

namespace zk::app {

struct SetupArgs {
  std::string circuit = "synthetic";
  std::size_t constraints = 0;
  std::string curve = "bls12-381";
  std::uint64_t seed = 1;
  std::string out_dir;
  // circom mode: --r1cs writes a snarkjs zkey (--zkey-out) and verification_key.json (--vk-out).
  std::string r1cs, zkey_out, vk_out;
  bool curve_given = false, seed_given = false;  // without --seed, the r1cs mode draws the trapdoor from the OS
  bool json = false;
};
int run_setup(const SetupArgs& a);

struct ProveArgs {
  std::string params;
  std::string circuit = "synthetic";
  std::size_t constraints = 0;
  std::string curve = "bls12-381";
  std::uint64_t seed = 1;
  std::size_t partitions = 1;
  std::string out;
  std::string public_out;
  // snarkjs mode: --zkey and --witness (or rapidsnark's positional form), writing proof.json and
  // public.json.
  std::string zkey, witness, proof_json, public_json;
  std::vector<std::string> positional;
  std::string device = "auto";  // prove_start: auto (the GPU when present), cpu or gpu
  bool json = false;
};
int run_prove(const ProveArgs& a);

/// `zkpipe devices`: whether this build has CUDA and which GPUs the machine has.
int run_devices(bool json);

struct VerifyArgs {
  std::string vk, proof, public_inputs;
  std::string curve = "bls12-381";
  bool json = false;
};
int run_verify(const VerifyArgs& a);

int run_inspect(const std::string& path, bool json);

}  // namespace zk::app
