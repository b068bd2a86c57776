"""A client for the durability test (durable_test.sh), from another stack (Python grpcio, stubs
generated from proto/zkpipe/v1/proving.proto).

  durable_client.py STUBS submit ADDR SHAPE FIRST COUNT IDS   submits COUNT one-partition synthetic
      jobs (seeds FIRST.., request ids "durable-<seed>") without waiting; appends "seed id" lines to IDS
  durable_client.py STUBS retry ADDR OTHER_ADDR SHAPE SEED IDS  a job cancelled while queued, then its
      request sent to both daemons at once: one new attempt (the same job id); appends "seed id" to IDS
  durable_client.py STUBS completed ADDR                      prints the daemon's completed-job total
  durable_client.py STUBS claims|machines|counts ADDR         from the job store in the status: this
      daemon's claims; the machines heartbeating; "done D failed F queued Q running R"
  durable_client.py STUBS await ADDR IDS OUT [READY]          awaits every job of IDS, which must all
      complete; writes OUT/<seed>.bin and OUT/<seed>.json for `zkpipe verify` (READY: a file created
      once connected, before the first await)
"""
import json
import struct
import sys

sys.path.insert(0, sys.argv[1])
import grpc  # noqa: E402
from zkpipe.v1 import proving_pb2, proving_pb2_grpc  # noqa: E402

mode, address = sys.argv[2], sys.argv[3]
channel = grpc.insecure_channel(address)
stub = proving_pb2_grpc.ProvingEngineStub(channel)


def request(shape, seed):
    return proving_pb2.SubmitProofRequest(circuit="synthetic", shape=shape, input=struct.pack("<Q", seed),
                                          partitions=1, request_id="durable-%d" % seed)


if mode == "submit":
    shape, first, count, ids_path = sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
    with open(ids_path, "a") as f:
        for seed in range(first, first + count):
            r = stub.SubmitProof(request(shape, seed), timeout=60)
            f.write("%d %d\n" % (seed, r.job_id))
elif mode == "resubmit":
    # The same request ids again: each must name the job it named before.
    shape, ids_path = sys.argv[4], sys.argv[5]
    for line in open(ids_path):
        seed, job = map(int, line.split())
        r = stub.SubmitProof(request(shape, seed), timeout=60)
        assert r.job_id == job, "request id durable-%d named job %d, now %d" % (seed, job, r.job_id)
elif mode == "retry":
    # Curio's retry in a fleet (issue 41): a job cancelled while queued, then its request (same id,
    # same payload) sent to two daemons at once: one new attempt, the same job id from both, proved.
    other, shape, seed, ids_path = sys.argv[4], sys.argv[5], int(sys.argv[6]), sys.argv[7]
    import threading
    first = stub.SubmitProof(request(shape, seed), timeout=60).job_id
    assert stub.CancelProof(proving_pb2.CancelProofRequest(job_id=first), timeout=60).was_active, \
        "the job must still be queued when cancelled (the queue ahead of it was full)"
    r = stub.AwaitProof(proving_pb2.AwaitProofRequest(job_id=first, timeout_ms=60000), timeout=90)
    assert r.status == proving_pb2.JOB_STATUS_CANCELLED, r
    stub_b = proving_pb2_grpc.ProvingEngineStub(grpc.insecure_channel(other))
    got, go = {}, threading.Barrier(2)

    def send(name, s):
        go.wait()
        got[name] = s.SubmitProof(request(shape, seed), timeout=60).job_id

    threads = [threading.Thread(target=send, args=(n, s)) for n, s in (("a", stub), ("b", stub_b))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got["a"] == got["b"], "two daemons started two attempts: %s" % got
    assert got["a"] != first, "the retry of a cancelled job must be a new attempt"
    # The cancelled attempt keeps its outcome.
    r = stub.AwaitProof(proving_pb2.AwaitProofRequest(job_id=first, timeout_ms=1000), timeout=30)
    assert r.status == proving_pb2.JOB_STATUS_CANCELLED, r
    with open(ids_path, "a") as f:
        f.write("%d %d\n" % (seed, got["a"]))
elif mode == "completed":
    print(stub.GetStatus(proving_pb2.GetStatusRequest(), timeout=30).totals.completed)
elif mode == "claims":
    # The claims this daemon holds in the (shared) job store.
    st = stub.GetStatus(proving_pb2.GetStatusRequest(), timeout=30).store
    print(sum(m.jobs_running for m in st.machines if m.owner == st.owner))
elif mode == "machines":
    print(len(stub.GetStatus(proving_pb2.GetStatusRequest(), timeout=30).store.machines))
elif mode == "counts":
    st = stub.GetStatus(proving_pb2.GetStatusRequest(), timeout=30).store
    assert not st.error, st.error
    print("done %d failed %d queued %d running %d" % (st.done, st.failed, st.queued, st.running))
elif mode == "await":
    ids_path, out = sys.argv[4], sys.argv[5]
    jobs = [tuple(map(int, line.split())) for line in open(ids_path)]
    if len(sys.argv) > 6:  # a file to create once connected, just before the first await
        grpc.channel_ready_future(channel).result(timeout=30)
        open(sys.argv[6], "w").close()
    assert len({j for _, j in jobs}) == len(jobs), "job ids must be distinct"
    for seed, job in jobs:
        r = stub.AwaitProof(proving_pb2.AwaitProofRequest(job_id=job, timeout_ms=240000), timeout=300)
        assert r.status == proving_pb2.JOB_STATUS_COMPLETED, "job %d (seed %d): %s" % (job, seed, r)
        assert r.job_id == job
        with open("%s/%d.bin" % (out, seed), "wb") as f:
            f.write(r.proof)
        with open("%s/%d.json" % (out, seed), "w") as f:
            json.dump([list(p.values) for p in r.public_inputs], f)
    print(len(jobs))
else:
    sys.exit("unknown mode " + mode)
