"""A client that behaves like Curio's cuzk client (lib/cuzk, lib/ffi/cuzk_funcs.go), in Python's
grpcio with stubs generated from proto/cuzk/v1/proving.proto, against `zkpipe serve`.

  curio_client.py STUB_DIR ADDRESS post WINDOW_JSON WINNING_JSON OUT_DIR
      WindowPoSt (SubmitProof + AwaitProof, request id retried) and WinningPoSt (Prove) from
      gen-vanilla's inputs, sent as Curio sends them (raw bincode vanilla proofs, 32 raw bytes of
      randomness, Go registered-proof numbers); the proofs go to OUT_DIR/{window,winning}.bin for
      `zkpipe verify`. Then GetStatus (queues, totals, loaded keys by cuzk circuit id),
      PreloadSRS / EvictSRS, a TIMEOUT answer, cancel, and malformed requests.
  curio_client.py STUB_DIR ADDRESS porep C1_WRAPPED SECTOR_SIZE OUT
      PoRep C2 with cuzk's wrapper payload, through Prove.
  curio_client.py STUB_DIR ADDRESS snap UPDATE_JSON OUT
      SnapDeals (SNAP_DEALS_UPDATE) from gen-vanilla --kind snap-update's input: raw bincode
      partition proofs, the three commitments as 32 raw bytes; the proofs go to OUT. GetStatus
      shows the snap-update queue and the snap-2k key; a 31-byte comm_r_new is refused by name.
"""
import base64
import json
import sys

sys.path.insert(0, sys.argv[1])
import grpc  # noqa: E402
from cuzk.v1 import proving_pb2 as pb, proving_pb2_grpc  # noqa: E402

address, mode = sys.argv[2], sys.argv[3]
stub = proving_pb2_grpc.ProvingEngineStub(grpc.insecure_channel(address))


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
elif mode == "porep":
    c1_wrapped, sector_size, out = sys.argv[4], int(sys.argv[5]), sys.argv[6]
    req = pb.SubmitProofRequest(request_id="porep-1234-7", proof_kind=pb.POREP_SEAL_COMMIT, sector_size=sector_size,
                                registered_proof=5, priority=pb.NORMAL, vanilla_proof=open(c1_wrapped, "rb").read(),
                                sector_number=7, miner_id=1234)
    res = stub.Prove(pb.ProveRequest(submit=req), timeout=1200).result
    assert res.status == pb.AwaitProofResponse.COMPLETED, res
    assert len(res.proof) == 192, len(res.proof)
    open(out, "wb").write(res.proof)
    bad = pb.SubmitProofRequest(request_id="porep-bad", proof_kind=pb.POREP_SEAL_COMMIT, sector_size=sector_size,
                                registered_proof=5, vanilla_proof=b'{"SectorNum":7,"Phase1Out":"!!!","SectorSize":2048}')
    expect_error(lambda: stub.SubmitProof(bad, timeout=60), grpc.StatusCode.INVALID_ARGUMENT, "Phase1Out")
    print("curio client (porep): ok")
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
else:
    raise SystemExit("unknown mode " + mode)
