"""An independent client from another stack: Python's grpcio with stubs generated from
proto/zkpipe/v1/proving.proto calls Prove and GetStatus on a running `zkpipe serve`, checks the
answers and writes the proof and public inputs for `zkpipe verify`.

Usage: python_client.py STUB_DIR ADDRESS SHAPE OUT_PROOF OUT_PUBLIC
"""
import json
import struct
import sys

sys.path.insert(0, sys.argv[1])
import grpc  # noqa: E402
from zkpipe.v1 import proving_pb2, proving_pb2_grpc  # noqa: E402

_, _, address, shape, out_proof, out_public = sys.argv

channel = grpc.insecure_channel(address)
stub = proving_pb2_grpc.ProvingEngineStub(channel)

submit = proving_pb2.SubmitProofRequest(circuit="synthetic", shape=shape, input=struct.pack("<Q", 42), partitions=2)
result = stub.Prove(proving_pb2.ProveRequest(submit=submit), timeout=300)
assert result.status == proving_pb2.JOB_STATUS_COMPLETED, result
assert result.partitions == 2, result.partitions
assert result.curve == "bls12-381", result.curve
assert len(result.proof) == 2 * 192, len(result.proof)
assert len(result.public_inputs) == 2
assert result.timings.total_ms > 0
with open(out_proof, "wb") as f:
    f.write(result.proof)
with open(out_public, "w") as f:
    json.dump([list(p.values) for p in result.public_inputs], f)

status = stub.GetStatus(proving_pb2.GetStatusRequest(), timeout=30)
assert status.totals.completed >= 1, status.totals
assert status.totals.active == 0, status.totals
assert any(p.id.endswith("synthetic-%s.params" % shape) for p in status.params), status.params
assert len(status.workers) >= 3
assert status.budget.total_bytes > 0 and status.budget.high_water_bytes > 0

# Errors come back as gRPC status codes.
try:
    stub.Prove(proving_pb2.ProveRequest(submit=proving_pb2.SubmitProofRequest(circuit="nope", shape="x")), timeout=30)
    raise SystemExit("an unknown circuit must fail")
except grpc.RpcError as e:
    assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, e.code()
try:
    stub.AwaitProof(proving_pb2.AwaitProofRequest(job_id=987654), timeout=30)
    raise SystemExit("an unknown job must fail")
except grpc.RpcError as e:
    assert e.code() == grpc.StatusCode.NOT_FOUND, e.code()
print("python client ok: job %d, %d bytes of proof, status %d jobs completed" %
      (result.job_id, len(result.proof), status.totals.completed))
