"""Drives the fleet soak (scripts/fleet-soak.sh): submits JOBS one-partition synthetic jobs spread over
the daemons, awaits them all, retrying on whichever daemon answers (daemons are being killed and
restarted meanwhile), checks each answer once and prints a JSON summary.

Usage: fleet_soak.py STUBS SHAPE JOBS ADDR [ADDR...]
"""
import json
import random
import struct
import sys
import time

sys.path.insert(0, sys.argv[1])
import grpc  # noqa: E402
from zkpipe.v1 import proving_pb2, proving_pb2_grpc  # noqa: E402

shape, jobs, addrs = sys.argv[2], int(sys.argv[3]), sys.argv[4:]
stubs = [proving_pb2_grpc.ProvingEngineStub(grpc.insecure_channel(a)) for a in addrs]
retries = 0


def call(fn):
    """fn(stub) on a random daemon, again on another while they are down."""
    global retries
    for attempt in range(2000):
        try:
            return fn(random.choice(stubs))
        except grpc.RpcError as e:
            if e.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                raise
            retries += 1
            time.sleep(0.05)
    raise RuntimeError("no daemon answered")


start = time.time()
ids = {}
for seed in range(jobs):
    req = proving_pb2.SubmitProofRequest(circuit="synthetic", shape=shape, input=struct.pack("<Q", seed),
                                         partitions=1, request_id="soak-%d" % seed)
    # A retried submit (the daemon died before answering) reuses the request id: the same job.
    ids[seed] = call(lambda s: s.SubmitProof(req, timeout=30)).job_id
submitted = time.time()
assert len(set(ids.values())) == jobs, "request ids must name distinct jobs"
completed = failed = 0
errors = {}
for seed, job in ids.items():
    r = call(lambda s: s.AwaitProof(proving_pb2.AwaitProofRequest(job_id=job, timeout_ms=60000), timeout=90))
    if r.status == proving_pb2.JOB_STATUS_COMPLETED and len(r.proof) > 0:
        completed += 1
    else:
        failed += 1
        errors[r.error] = errors.get(r.error, 0) + 1
end = time.time()
print(json.dumps({"jobs": jobs, "completed": completed, "failed": failed, "lost": jobs - completed - failed,
                  "failure_reasons": errors, "rpc_retries": retries, "submit_s": round(submitted - start, 1),
                  "total_s": round(end - start, 1), "jobs_per_s": round(jobs / (end - start), 2)}))
