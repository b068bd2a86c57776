"""A client that behaves like Curio's cuzk client (lib/cuzk, lib/ffi/cuzk_funcs.go), in Python's
grpcio with stubs generated from proto/cuzk/v1/proving.proto, against `zkpipe serve`.

  curio_client.py STUB_DIR ADDRESS post WINDOW_JSON WINNING_JSON OUT_DIR
      WindowPoSt (SubmitProof + AwaitProof, request id retried) and WinningPoSt (Prove) from
      gen-vanilla's inputs, sent as Curio sends them (raw bincode vanilla proofs, 32 raw bytes of
      randomness, Go registered-proof numbers); the proofs go to OUT_DIR/{window,winning}.bin for
      `zkpipe verify`. Then GetStatus (queues, totals, loaded keys by cuzk circuit id),
      PreloadSRS / EvictSRS, a TIMEOUT answer, cancel, and malformed requests.
  curio_client.py STUB_DIR ADDRESS retry WINDOW_JSON OTHER_WINDOW_JSON WINNING_JSON OUT_DIR
      Curio's retries under one request id, through Prove, against a daemon started with
      ZKPIPE_TEST_FAIL_SYNTHESES=1: FAILED (the injected fault), retried -> COMPLETED (a new job),
      again -> the same job; a cancelled WinningPoSt retried -> COMPLETED; another payload under the
      used id -> a new job, COMPLETED. Proofs to OUT_DIR/retry-{window,winning,other}.bin.
  curio_client.py STUB_DIR ADDRESS porep C1_WRAPPED SECTOR_SIZE OUT [REGISTERED_PROOF (default 5)]
      PoRep C2 with cuzk's wrapper payload, through Prove.
  curio_client.py STUB_DIR ADDRESS snap UPDATE_JSON OUT
      SnapDeals (SNAP_DEALS_UPDATE) from gen-vanilla --kind snap-update's input: raw bincode
      partition proofs, the three commitments as 32 raw bytes; the proofs go to OUT. GetStatus
      shows the snap-update queue and the snap-2k key; a 31-byte comm_r_new is refused by name.
  curio_client.py STUB_DIR ADDRESS load WINDOW_JSON SHAPE CLIENTS CUZK_CLIENTS OUT_DIR
      Load on both protocols at once: CLIENTS concurrent clients, each on its own connection,
      CUZK_CLIENTS of them on cuzk.v1 (a WindowPoSt partition each through Prove, its own request
      id) and the rest on zkpipe.v1 (a synthetic job of SHAPE, seed = its index; STUB_DIR must hold
      zkpipe.v1's stubs too), all released together; while they run, zkpipe.v1 GetStatus is read
      again and again and the budget's use must never pass its total. Every call answered once,
      COMPLETED, distinct job ids; the engine's totals moved by exactly CLIENTS; the buffer ledger
      back to zero (cached keys aside); cuzk.v1 GetStatus lists wpost-2k. Proofs to OUT_DIR
      (load-cuzk-I.bin; load-zkpipe.bin + load-zkpipe.json: every synthetic proof as one partition
      of a file `zkpipe verify` checks at once).

Options before the positional arguments: --tls-ca CA.pem (TLS, trusting that CA), --tls-cert
CERT.pem --tls-key KEY.pem (a client certificate, for mutual TLS).
"""
import base64
import json
import sys
import threading

args = sys.argv[1:]
tls = {}
while args and args[0] in ("--tls-ca", "--tls-cert", "--tls-key"):
    tls[args[0]] = open(args[1], "rb").read()
    args = args[2:]
sys.argv = [sys.argv[0]] + args

sys.path.insert(0, sys.argv[1])
import grpc  # noqa: E402
from cuzk.v1 import proving_pb2 as pb, proving_pb2_grpc  # noqa: E402

address, mode = sys.argv[2], sys.argv[3]


def channel():
    """A new connection (a local subchannel pool: never shared with another channel)."""
    options = [("grpc.use_local_subchannel_pool", 1)]
    if not tls:
        return grpc.insecure_channel(address, options=options)
    creds = grpc.ssl_channel_credentials(root_certificates=tls.get("--tls-ca"), private_key=tls.get("--tls-key"),
                                         certificate_chain=tls.get("--tls-cert"))
    return grpc.secure_channel(address, creds, options=options)


stub = proving_pb2_grpc.ProvingEngineStub(channel())


def expect_error(call, code, needle):
    try:
        call()
    except grpc.RpcError as e:
        assert e.code() == code, (e.code(), e.details())
        assert needle in e.details(), e.details()
        return
    raise AssertionError("expected %s (%s)" % (code, needle))


def post_request(path, kind, priority, request_id):
    d = json.load(open(path))
    return pb.SubmitProofRequest(
        request_id=request_id,
        proof_kind=kind,
        sector_size=2048,
        registered_proof=d["registered_proof"],
        priority=priority,
        vanilla_proofs=[base64.b64decode(v) for v in d["vanilla_proofs"]],
        miner_id=1000,
        randomness=bytes.fromhex(d["randomness"]),
        partition_index=d["partition"],
    )


if mode == "post":
    window_json, winning_json, out_dir = sys.argv[4:7]
    # WindowPoSt: submit, retry with the same request id (same job), await.
    req = post_request(window_json, pb.WINDOW_POST_PARTITION, pb.HIGH, "wdpost-1000-0-test")
    first = stub.SubmitProof(req, timeout=60)
    assert first.job_id.isdigit(), first
    again = stub.SubmitProof(req, timeout=60)
    assert again.job_id == first.job_id, (first.job_id, again.job_id)
    res = stub.AwaitProof(pb.AwaitProofRequest(job_id=first.job_id, timeout_ms=600000), timeout=600)
    assert res.status == pb.AwaitProofResponse.COMPLETED, res
    assert len(res.proof) == 192, len(res.proof)
    assert res.total_ms > 0 and res.gpu_compute_ms > 0, res
    open(out_dir + "/window.bin", "wb").write(res.proof)

    # WinningPoSt through Prove (priority left unspecified: CRITICAL by default).
    win = post_request(winning_json, pb.WINNING_POST, pb.PRIORITY_UNSPECIFIED, "winpost-1000-test")
    out = stub.Prove(pb.ProveRequest(submit=win), timeout=600).result
    assert out.status == pb.AwaitProofResponse.COMPLETED, out
    open(out_dir + "/winning.bin", "wb").write(out.proof)

    # A proof still being made: AwaitProof answers TIMEOUT (a result, not an error); then cancel.
    slow = post_request(winning_json, pb.WINNING_POST, pb.CRITICAL, "winpost-1000-slow")
    job = stub.SubmitProof(slow, timeout=60).job_id
    t = stub.AwaitProof(pb.AwaitProofRequest(job_id=job, timeout_ms=1), timeout=60)
    assert t.status == pb.AwaitProofResponse.TIMEOUT, t
    c = stub.CancelProof(pb.CancelProofRequest(job_id=job), timeout=60)
    done = stub.AwaitProof(pb.AwaitProofRequest(job_id=job, timeout_ms=600000), timeout=600)
    assert done.status in (pb.AwaitProofResponse.CANCELLED, pb.AwaitProofResponse.COMPLETED), done
    assert c.was_running or done.status == pb.AwaitProofResponse.COMPLETED

    # GetStatus: what Curio's backpressure reads, from the engine's state.
    st = stub.GetStatus(pb.GetStatusRequest(), timeout=30)
    kinds = {q.proof_kind: (q.pending, q.in_progress) for q in st.queues}
    assert set(kinds) >= {"porep-c2", "window-post", "winning-post"}, kinds
    assert all(p + r == 0 for p, r in kinds.values()), kinds
    assert st.total_proofs_completed >= 2, st
    ids = {s.circuit_id for s in st.loaded_srs}
    assert {"wpost-2k", "winning-2k"} <= ids, ids

    # Keys by cuzk circuit id.
    assert stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"), timeout=60).already_loaded
    ev = stub.EvictSRS(pb.EvictSrsRequest(circuit_id="wpost-2k"), timeout=60)
    assert ev.was_loaded and ev.freed_bytes > 0, ev
    assert not stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"), timeout=60).already_loaded
    expect_error(lambda: stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="snap-32g"), timeout=30),
                 grpc.StatusCode.NOT_FOUND, "setup --kind snap-update")
    expect_error(lambda: stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="bogus"), timeout=30),
                 grpc.StatusCode.INVALID_ARGUMENT, "porep-32g")

    # Malformed requests answer INVALID_ARGUMENT naming the field; the daemon goes on serving.
    bad = post_request(window_json, pb.WINDOW_POST_PARTITION, pb.HIGH, "bad-1")
    bad.randomness = bad.randomness[:31]
    expect_error(lambda: stub.SubmitProof(bad, timeout=30), grpc.StatusCode.INVALID_ARGUMENT, "randomness")
    bad = post_request(window_json, pb.WINDOW_POST_PARTITION, pb.HIGH, "bad-2")
    bad.registered_proof = 0  # a WinningPoSt number for a WindowPoSt request
    expect_error(lambda: stub.SubmitProof(bad, timeout=30), grpc.StatusCode.INVALID_ARGUMENT, "registered_proof")
    bad = post_request(window_json, pb.WINDOW_POST_PARTITION, pb.HIGH, "bad-3")
    bad.vanilla_proofs[0] = bad.vanilla_proofs[0][:100]
    expect_error(lambda: stub.SubmitProof(bad, timeout=30), grpc.StatusCode.INVALID_ARGUMENT, "vanilla_proofs[0]")
    bad = post_request(window_json, pb.WINDOW_POST_PARTITION, pb.HIGH, "bad-4")
    bad.sector_size = 0  # Curio always sends it (issue 47)
    expect_error(lambda: stub.SubmitProof(bad, timeout=30), grpc.StatusCode.INVALID_ARGUMENT, "sector_size 0")
    expect_error(lambda: stub.SubmitProof(pb.SubmitProofRequest(proof_kind=pb.SNAP_DEALS_UPDATE), timeout=30),
                 grpc.StatusCode.INVALID_ARGUMENT, "comm_r_old")
    expect_error(lambda: stub.SubmitProof(pb.SubmitProofRequest(), timeout=30),
                 grpc.StatusCode.INVALID_ARGUMENT, "proof_kind")
    expect_error(lambda: stub.AwaitProof(pb.AwaitProofRequest(job_id="12345"), timeout=30),
                 grpc.StatusCode.NOT_FOUND, "12345")
    expect_error(lambda: stub.AwaitProof(pb.AwaitProofRequest(job_id="x"), timeout=30),
                 grpc.StatusCode.INVALID_ARGUMENT, "job_id")
    assert stub.GetStatus(pb.GetStatusRequest(), timeout=30).uptime_seconds >= 0
    print("curio client (post): ok")
elif mode == "retry":
    # Curio retries a failed task under the same request id, through Prove only (issue 41). The
    # daemon runs with ZKPIPE_TEST_FAIL_SYNTHESES=1: its first partition synthesis fails.
    window_json, other_json, winning_json, out_dir = sys.argv[4:8]
    rid = "wdpost-1000-0-" + json.load(open(window_json))["randomness"][:16]
    req = post_request(window_json, pb.WINDOW_POST_PARTITION, pb.HIGH, rid)
    first = stub.Prove(pb.ProveRequest(submit=req), timeout=600).result
    assert first.status == pb.AwaitProofResponse.FAILED, first
    assert "fault injected for tests" in first.error_message, first.error_message
    second = stub.Prove(pb.ProveRequest(submit=req), timeout=600).result
    assert second.status == pb.AwaitProofResponse.COMPLETED, second
    assert second.job_id != first.job_id, "a retry after a failure must be a new attempt"
    assert len(second.proof) == 192
    open(out_dir + "/retry-window.bin", "wb").write(second.proof)
    third = stub.Prove(pb.ProveRequest(submit=req), timeout=600).result
    assert third.status == pb.AwaitProofResponse.COMPLETED and third.job_id == second.job_id, \
        "a proved request is answered with its job, not proved again: %s / %s" % (third.job_id, second.job_id)
    assert third.proof == second.proof
    # Cancelled, then retried with the same request id and payload: proved.
    win = post_request(winning_json, pb.WINNING_POST, pb.CRITICAL, "winpost-1000-retry")
    job = stub.SubmitProof(win, timeout=60).job_id
    assert stub.CancelProof(pb.CancelProofRequest(job_id=job), timeout=60).was_running
    done = stub.AwaitProof(pb.AwaitProofRequest(job_id=job, timeout_ms=600000), timeout=600)
    assert done.status == pb.AwaitProofResponse.CANCELLED, done
    again = stub.Prove(pb.ProveRequest(submit=win), timeout=600).result
    assert again.status == pb.AwaitProofResponse.COMPLETED, again
    assert again.job_id != job
    open(out_dir + "/retry-winning.bin", "wb").write(again.proof)
    # Another payload under a used request id (new randomness for the same partition): a new job.
    other = post_request(other_json, pb.WINDOW_POST_PARTITION, pb.HIGH, rid)
    o = stub.Prove(pb.ProveRequest(submit=other), timeout=600).result
    assert o.status == pb.AwaitProofResponse.COMPLETED, o
    assert o.job_id not in (first.job_id, second.job_id)
    open(out_dir + "/retry-other.bin", "wb").write(o.proof)
    # The failed and cancelled attempts keep their outcomes.
    assert stub.AwaitProof(pb.AwaitProofRequest(job_id=first.job_id, timeout_ms=1000), timeout=30).status == \
        pb.AwaitProofResponse.FAILED
    assert stub.AwaitProof(pb.AwaitProofRequest(job_id=job, timeout_ms=1000), timeout=30).status == \
        pb.AwaitProofResponse.CANCELLED
    print("curio client (retry): ok")
elif mode == "porep":
    c1_wrapped, sector_size, out = sys.argv[4], int(sys.argv[5]), sys.argv[6]
    registered = int(sys.argv[7]) if len(sys.argv) > 7 and not sys.argv[7].startswith("--") else 5
    req = pb.SubmitProofRequest(request_id="porep-1234-7", proof_kind=pb.POREP_SEAL_COMMIT, sector_size=sector_size,
                                registered_proof=registered, priority=pb.NORMAL, vanilla_proof=open(c1_wrapped, "rb").read(),
                                sector_number=7, miner_id=1234)
    res = stub.Prove(pb.ProveRequest(submit=req), timeout=1200).result
    assert res.status == pb.AwaitProofResponse.COMPLETED, res
    assert len(res.proof) == 192, len(res.proof)
    open(out, "wb").write(res.proof)
    bad = pb.SubmitProofRequest(request_id="porep-bad", proof_kind=pb.POREP_SEAL_COMMIT, sector_size=sector_size,
                                registered_proof=5, vanilla_proof=b'{"SectorNum":7,"Phase1Out":"!!!","SectorSize":2048}')
    expect_error(lambda: stub.SubmitProof(bad, timeout=60), grpc.StatusCode.INVALID_ARGUMENT, "Phase1Out")
    # A registered proof the C1 contradicts (0: StackedDrg2KiBV1, same size and partitions), and no
    # sector size: refused, both values named (issue 47).
    other = pb.SubmitProofRequest()
    other.CopyFrom(req)
    other.request_id = "porep-other"
    other.registered_proof = 0
    expect_error(lambda: stub.SubmitProof(other, timeout=60), grpc.StatusCode.INVALID_ARGUMENT,
                 "registered_proof 0 contradicts the input, whose registered proof is %d" % registered)
    other.registered_proof = registered
    other.sector_size = 0
    expect_error(lambda: stub.SubmitProof(other, timeout=60), grpc.StatusCode.INVALID_ARGUMENT, "sector_size 0")
    print("curio client (porep): ok")
elif mode == "porep-ni":
    # A non-interactive PoRep C2 (registered proofs 15-19): the answer is the SnarkPack aggregate of
    # its partitions, as filecoin-proofs' seal_commit_phase2 returns it.
    c1_wrapped, sector_size, out, registered, expect_bytes = sys.argv[4], int(sys.argv[5]), sys.argv[6], \
        int(sys.argv[7]), int(sys.argv[8])
    req = pb.SubmitProofRequest(request_id="porep-ni-1234-7", proof_kind=pb.POREP_SEAL_COMMIT, sector_size=sector_size,
                                registered_proof=registered, priority=pb.NORMAL, vanilla_proof=open(c1_wrapped, "rb").read(),
                                sector_number=7, miner_id=1234)
    res = stub.Prove(pb.ProveRequest(submit=req), timeout=1800).result
    assert res.status == pb.AwaitProofResponse.COMPLETED, res
    assert len(res.proof) == expect_bytes, len(res.proof)
    open(out, "wb").write(res.proof)
    print("curio client (porep-ni): ok")
elif mode == "snap":
    update_json, out = sys.argv[4], sys.argv[5]
    d = json.load(open(update_json))
    req = pb.SubmitProofRequest(request_id="snap-1000-3", proof_kind=pb.SNAP_DEALS_UPDATE, sector_size=2048,
                                registered_proof=d["registered_proof"], priority=pb.NORMAL,
                                vanilla_proofs=[base64.b64decode(v) for v in d["vanilla_proofs"]],
                                comm_r_old=bytes.fromhex(d["comm_r_old"]), comm_r_new=bytes.fromhex(d["comm_r_new"]),
                                comm_d_new=bytes.fromhex(d["comm_d_new"]), sector_number=3, miner_id=1000)
    res = stub.Prove(pb.ProveRequest(submit=req), timeout=1200).result
    assert res.status == pb.AwaitProofResponse.COMPLETED, res
    assert len(res.proof) == 192 * len(d["vanilla_proofs"]), len(res.proof)
    open(out, "wb").write(res.proof)
    st = stub.GetStatus(pb.GetStatusRequest(), timeout=30)
    assert "snap-2k" in {s.circuit_id for s in st.loaded_srs}, st
    bad = pb.SubmitProofRequest()
    bad.CopyFrom(req)
    bad.request_id = "snap-bad"
    bad.comm_r_new = bad.comm_r_new[:31]
    expect_error(lambda: stub.SubmitProof(bad, timeout=30), grpc.StatusCode.INVALID_ARGUMENT, "comm_r_new")
    print("curio client (snap): ok")
elif mode == "load":
    from zkpipe.v1 import proving_pb2 as zpb, proving_pb2_grpc as zgrpc  # noqa: E402
    window_json, shape, clients, cuzk_clients, out_dir = sys.argv[4], sys.argv[5], int(sys.argv[6]), int(sys.argv[7]), \
        sys.argv[8]
    zstub = zgrpc.ProvingEngineStub(channel())
    # Both keys loaded first (each on its protocol): the clients then contend for the budget with
    # their partitions only.
    zstub.PreloadParams(zpb.ParamsRequest(circuit="synthetic", shape=shape), timeout=60)
    stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"), timeout=60)
    before = zstub.GetStatus(zpb.GetStatusRequest(), timeout=30)
    start = threading.Barrier(clients + 1)
    results, errors, over_budget = {}, [], []
    lock = threading.Lock()

    # Each client connects before the start, and its call waits for the connection to be ready:
    # 50 TLS handshakes at once on a loaded 2-core machine sometimes see a connect attempt fail
    # ("failed to connect to all addresses"), which gRPC would otherwise answer UNAVAILABLE at once
    # without the request ever reaching the daemon. What is tested is the daemon under load.
    def connected():
        ch = channel()
        grpc.channel_ready_future(ch).result(timeout=120)
        return ch

    def cuzk_client(i):
        s = proving_pb2_grpc.ProvingEngineStub(connected())
        req = post_request(window_json, pb.WINDOW_POST_PARTITION, pb.HIGH, "load-wdpost-%d" % i)
        start.wait()
        r = s.Prove(pb.ProveRequest(submit=req), timeout=900, wait_for_ready=True).result
        assert r.status == pb.AwaitProofResponse.COMPLETED, r
        return r.job_id, r.proof

    def zkpipe_client(i):
        s = zgrpc.ProvingEngineStub(connected())
        seed = i.to_bytes(8, "little")
        req = zpb.ProveRequest(submit=zpb.SubmitProofRequest(circuit="synthetic", shape=shape, input=seed, partitions=1))
        start.wait()
        r = s.Prove(req, timeout=900, wait_for_ready=True)
        assert r.status == zpb.JOB_STATUS_COMPLETED, r
        return str(r.job_id), (r.proof, list(r.public_inputs[0].values))

    def run(i):
        try:
            out = (cuzk_client if i < cuzk_clients else zkpipe_client)(i)
            with lock:
                assert i not in results, "answered twice"
                results[i] = out
        except Exception as e:  # noqa: BLE001 (reported below)
            start.abort()  # a client that failed before the start must not hold the others
            with lock:
                errors.append("client %d: %r" % (i, e))

    done = threading.Event()

    def watch():
        # The budget, read while the load runs: never more used than there is.
        try:
            while not done.is_set():
                b = zstub.GetStatus(zpb.GetStatusRequest(), timeout=30).budget
                if b.used_bytes > b.total_bytes or b.high_water_bytes > b.total_bytes:
                    over_budget.append((b.used_bytes, b.high_water_bytes, b.total_bytes))
                done.wait(0.02)
        except Exception as e:  # noqa: BLE001 (reported below)
            with lock:
                errors.append("status watcher: %r" % e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        start.wait()
    except threading.BrokenBarrierError:
        pass  # a client failed before the start: reported with the errors
    for t in threads:
        t.join()
    done.set()
    watcher.join()
    assert not errors, errors
    assert not over_budget, over_budget
    assert len(results) == clients, len(results)
    ids = [job for job, _ in results.values()]
    assert len(set(ids)) == clients, "every client its own job: %s" % ids
    after = zstub.GetStatus(zpb.GetStatusRequest(), timeout=30)
    assert after.totals.submitted - before.totals.submitted == clients, (before.totals, after.totals)
    assert after.totals.completed - before.totals.completed == clients, (before.totals, after.totals)
    assert after.totals.active == 0, after.totals
    assert after.budget.high_water_bytes <= after.budget.total_bytes, after.budget
    for entry in after.ledger:
        assert entry.name == "params" or (entry.bytes == 0 and entry.buffers == 0), entry
    proofs, publics = b"", []
    for i, (_, out) in sorted(results.items()):
        if i < cuzk_clients:
            open("%s/load-cuzk-%d.bin" % (out_dir, i), "wb").write(out)
        else:
            proofs += out[0]
            publics.append(out[1])
    open(out_dir + "/load-zkpipe.bin", "wb").write(proofs)
    json.dump(publics, open(out_dir + "/load-zkpipe.json", "w"))
    st = stub.GetStatus(pb.GetStatusRequest(), timeout=30)
    assert "wpost-2k" in {s.circuit_id for s in st.loaded_srs}, st
    assert all(q.pending + q.in_progress == 0 for q in st.queues), st.queues
    print("curio client (load): %d clients (%d on cuzk.v1, %d on zkpipe.v1) answered, budget high water %d of %d bytes"
          % (clients, cuzk_clients, clients - cuzk_clients, after.budget.high_water_bytes, after.budget.total_bytes))
else:
    raise SystemExit("unknown mode " + mode)
