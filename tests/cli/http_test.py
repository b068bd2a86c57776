#!/usr/bin/env python3
"""The operators' HTTP listener (daemon.http_listen) against real components.

- Settings: a public address without TLS and a malformed address are refused (exit 2, naming the
  key); a port in use makes the start fail.
- /healthz, /readyz, /metrics (content type; `promtool check metrics` passes on it), HEAD, 404.
- Bad requests get 4xx and change nothing: POST, a GET with a body, oversized headers, a malformed
  request line; the daemon's counters are the same afterwards and it still answers.
- During a proof (synthesis slowed by the test hook) the status page, loaded in headless Chromium
  (the rendered DOM, not the HTML), shows that job on a worker.
- A real Prometheus server scrapes the daemon; its API returns zkpipe's series after the proof.
- Every metric the Grafana dashboard (contrib/grafana/zkpipe.json) queries is in the live /metrics.
- HTTPS with daemon.http_tls_*: a client trusting the test CA reads /healthz.
- SIGTERM with a job running: /readyz answers 503 "draining" while the job finishes.

Usage: http_test.py path/to/zkpipe repo-root
Prometheus (promtool) and Chromium are Debian packages scripts/install-deps.sh installs; without
them those parts say that they skipped.
"""
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

Z = os.path.realpath(sys.argv[1])
ROOT = sys.argv[2]
D = tempfile.mkdtemp(prefix="zkpipe-http-")
procs = []


def fail(msg, log=None):
    print("FAIL:", msg)
    if log and os.path.exists(log):
        print(open(log).read()[-3000:])
    sys.exit(1)


def cleanup():
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()
    shutil.rmtree(D, ignore_errors=True)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def get(url, method="GET", context=None):
    req = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10, context=context) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read().decode()


def raw(port, data):
    """Sends bytes as they are; returns the status code of the answer (0: none)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        try:
            s.sendall(data)
        except OSError:
            pass
        answer = b""
        try:
            while b"\r\n" not in answer:
                chunk = s.recv(4096)
                if not chunk:
                    break
                answer += chunk
        except OSError:
            pass
    m = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    return int(m.group(1)) if m else 0


def serve(name, extra, env=None, config=None):
    """Starts a daemon; returns (process, grpc address, http address, log path)."""
    state = tempfile.mkdtemp(dir=D)
    out, log = os.path.join(D, name + ".out"), os.path.join(D, name + ".log")
    args = [Z, "serve", "--state-dir", state, "--listen", "unix://" + os.path.join(D, name + ".sock"),
            "--params-dir", os.path.join(D, "keys")] + extra
    if config:
        path = os.path.join(D, name + ".toml")
        open(path, "w").write(config)
        args += ["--config", path]
    p = subprocess.Popen(args, stdout=open(out, "w"), stderr=open(log, "w"), env=dict(os.environ, **(env or {})))
    procs.append(p)
    for _ in range(300):
        text = open(out).read()
        m = re.search(r"zkpipe http on (\S+)", text)
        if "serving on" in text and m:
            return p, re.search(r"serving on (\S+)", text).group(1), m.group(1), log
        if p.poll() is not None:
            fail(name + ": the daemon exited", log)
        time.sleep(0.1)
    fail(name + ": the daemon did not start", log)


def main():
    N = 2000
    subprocess.run([Z, "setup", "--circuit", "synthetic", "--constraints", str(N), "--out", os.path.join(D, "keys")],
                   check=True, stdout=subprocess.DEVNULL)
    shape = "bls12-381-n%d" % N

    # 1. Settings refused before anything is served.
    for listen, key in [("0.0.0.0:0", "not a loopback address"), ("nohost", "daemon.http_listen"),
                        ("127.0.0.1:99999", "daemon.http_listen"), ("[::1:5", "daemon.http_listen")]:
        r = subprocess.run([Z, "serve", "--state-dir", tempfile.mkdtemp(dir=D), "--listen",
                            "unix://" + os.path.join(D, "refused.sock"), "--params-dir", os.path.join(D, "keys"),
                            "--http-listen", listen], capture_output=True, text=True, timeout=60)
        if r.returncode != 2 or key not in r.stderr:
            fail("http_listen %r: want exit 2 naming %r, got %d: %s" % (listen, key, r.returncode, r.stderr))
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    r = subprocess.run([Z, "serve", "--state-dir", tempfile.mkdtemp(dir=D), "--listen",
                        "unix://" + os.path.join(D, "busy.sock"), "--params-dir", os.path.join(D, "keys"),
                        "--http-listen", "127.0.0.1:%d" % busy.getsockname()[1]],
                       capture_output=True, text=True, timeout=60)
    busy.close()
    if r.returncode != 2 or "cannot listen there" not in r.stderr:
        fail("a port in use: want exit 2, got %d: %s" % (r.returncode, r.stderr))
    if os.path.exists(os.path.join(D, "busy.sock")):
        fail("a failed start must remove its socket")

    # 2. A daemon with the listener; synthesis slowed so that a job stays on a worker a while.
    p, addr, http, log = serve("main", ["--http-listen", "127.0.0.1:0"], env={"ZKPIPE_TEST_SLOW_SYNTHESIS_MS": "4000"},
                               config='[engine]\nsynthesis_workers = 1\n')
    base = "http://" + http
    port = int(http.rsplit(":", 1)[1])
    status, ctype, body = get(base + "/healthz")
    if status != 200 or body != "ok\n":
        fail("/healthz: %d %r" % (status, body))
    status, _, body = get(base + "/readyz")
    if status != 200:
        fail("/readyz: %d %r" % (status, body))
    status, ctype, metrics = get(base + "/metrics")
    if status != 200 or not ctype.startswith("text/plain; version=0.0.4"):
        fail("/metrics: %d %r" % (status, ctype))
    if "zkpipe_jobs_total" not in metrics or "zkpipe_stage_seconds_bucket" not in metrics:
        fail("/metrics lacks zkpipe's series")
    if get(base + "/metrics", method="HEAD")[0] != 200:
        fail("HEAD /metrics")
    if get(base + "/nothing")[0] != 404:
        fail("an unknown path must be 404")
    promtool = shutil.which("promtool")
    if promtool:
        r = subprocess.run([promtool, "check", "metrics"], input=metrics, capture_output=True, text=True)
        if r.returncode != 0:
            fail("promtool check metrics: " + r.stdout + r.stderr)
    else:
        print("promtool missing (Debian's prometheus package; scripts/install-deps.sh): its checks skipped")

    # 3. Bad requests: 4xx, nothing changes, the daemon still answers.
    before = re.findall(r"^zkpipe_jobs_total\S* \S+$", metrics, re.M)
    for what, data, want in [
        ("POST", b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nabcd", 405),
        ("a GET with a body", b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", 413),
        ("oversized headers", b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40000 + b"\r\n\r\n", 431),
        ("a malformed request line", b"GET / FOO\r\n\r\n", 400),
        ("a header without a colon", b"GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", 400),
        ("an unknown HTTP version", b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", None),
        ("DELETE", b"DELETE / HTTP/1.1\r\nHost: x\r\n\r\n", 405),
    ]:
        code = raw(port, data)
        if (want is not None and code != want) or (want is None and not 400 <= code < 600):
            fail("%s: got HTTP %d" % (what, code))
    status, _, metrics = get(base + "/metrics")
    if status != 200 or re.findall(r"^zkpipe_jobs_total\S* \S+$", metrics, re.M) != before:
        fail("bad requests must change nothing")

    # 4. A proof; while it runs, the status page in a real browser shows it on a worker.
    proof = subprocess.Popen([Z, "prove", "--addr", addr, "--constraints", str(N), "--seed", "1",
                              "--out", os.path.join(D, "p.bin"), "--public-out", os.path.join(D, "p.json")],
                             stdout=subprocess.DEVNULL, stderr=open(os.path.join(D, "prove.log"), "w"))
    procs.append(proof)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:
        seen = False
        for _ in range(10):
            r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                "--user-data-dir=" + tempfile.mkdtemp(dir=D),
                                "--dump-dom", base + "/"], capture_output=True, text=True, timeout=120)
            dom = r.stdout
            if "<table id=\"workers\">" not in dom.replace("<tbody>", ""):
                fail("chromium did not render the status page: " + r.stderr[-2000:])
            m = re.search(r'<tr class="busy"><td>synthesis[^<]*</td><td>synthetic[^<]* job (\d+) partition 0', dom)
            if m:
                seen = True
                break
            time.sleep(0.3)
        if not seen:
            fail("the status page never showed the job on a worker:\n" + dom[-3000:])
    else:
        print("chromium missing (Debian's chromium package; scripts/install-deps.sh): the browser check skipped")
    if proof.wait(timeout=300) != 0:
        fail("prove through the daemon", os.path.join(D, "prove.log"))
    # The page's timeline draws the job's stages (the engine's recent spans).
    page = get(base + "/")[2]
    if not re.search(r"<title>synthesis job \d+ partition 0: \d", page) or "<title>prove_start job" not in page:
        fail("the status page's timeline lacks the job's stages")
    r = subprocess.run([Z, "verify", "--vk", os.path.join(D, "keys", "synthetic-%s.vk" % shape), "--proof",
                        os.path.join(D, "p.bin"), "--public", os.path.join(D, "p.json")], capture_output=True, text=True)
    if r.returncode != 0:
        fail("the proof does not verify: " + r.stdout + r.stderr)

    # 5. A real Prometheus scrapes the daemon; its API has zkpipe's series after the proof.
    prometheus = shutil.which("prometheus")
    if prometheus:
        pport = free_port()
        cfg = os.path.join(D, "prometheus.yml")
        open(cfg, "w").write("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: zkpipe\n"
                             "    static_configs:\n      - targets: ['%s']\n" % http)
        prom = subprocess.Popen([prometheus, "--config.file=" + cfg, "--storage.tsdb.path=" + os.path.join(D, "tsdb"),
                                 "--web.listen-address=127.0.0.1:%d" % pport],
                                stdout=subprocess.DEVNULL, stderr=open(os.path.join(D, "prometheus.log"), "w"))
        procs.append(prom)
        query = "http://127.0.0.1:%d/api/v1/query?query=" % pport + urllib.parse.quote(
            'zkpipe_kind_jobs_total{kind=~"synthetic.*",state="done"}')
        value = None
        for _ in range(120):
            try:
                status, _, body = get(query)
                res = json.loads(body)["data"]["result"] if status == 200 else []
                if res:
                    value = float(res[0]["value"][1])
                    if value >= 1:
                        break
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.5)
        if value is None or value < 1:
            fail("Prometheus did not get zkpipe_kind_jobs_total after the proof", os.path.join(D, "prometheus.log"))
        prom.terminate()
        prom.wait(timeout=30)
    else:
        print("prometheus missing (Debian's prometheus package; scripts/install-deps.sh): the scrape check skipped")

    # 6. Every metric the Grafana dashboard queries is exported.
    _, _, metrics = get(base + "/metrics")
    exported = set(re.findall(r"^# TYPE (\S+) ", metrics, re.M))
    for name in list(exported):
        exported |= {name + "_bucket", name + "_sum", name + "_count"}
    dash = json.load(open(os.path.join(ROOT, "contrib", "grafana", "zkpipe.json")))
    used = set()
    for panel in dash["panels"]:
        for t in panel["targets"]:
            used |= set(re.findall(r"\bzkpipe_[a-z_]+", t["expr"]))
    for v in dash["templating"]["list"]:
        used |= set(re.findall(r"\bzkpipe_[a-z_]+", v.get("query", "") if isinstance(v.get("query"), str) else ""))
    # The GPU families (zkpipe_gpu_*) exist only on a daemon proving on GPUs: server_test's
    # GpuMetrics test checks the dashboard's against the metrics of emulated devices.
    missing = sorted(n for n in used - exported if not n.startswith("zkpipe_gpu_"))
    if not used or missing:
        fail("the dashboard queries metrics the daemon does not export: %s" % missing)

    # 7. SIGTERM with a job running: /readyz says draining until the daemon stops.
    proof = subprocess.Popen([Z, "prove", "--addr", addr, "--constraints", str(N), "--seed", "2",
                              "--out", os.path.join(D, "p2.bin"), "--public-out", os.path.join(D, "p2.json")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs.append(proof)
    for _ in range(100):
        if "zkpipe_jobs_active 1" in get(base + "/metrics")[2]:
            break
        time.sleep(0.1)
    p.send_signal(signal.SIGTERM)
    for _ in range(50):
        status, _, body = get(base + "/readyz")
        if status != 200:
            break
        time.sleep(0.1)
    if status != 503 or "draining" not in body:
        fail("/readyz while draining: %d %r" % (status, body))
    if proof.wait(timeout=300) != 0:
        fail("the job running at SIGTERM must finish")
    if p.wait(timeout=120) != 0:
        fail("the daemon's exit after SIGTERM", log)

    # 8. HTTPS with daemon.http_tls_*.
    ca = os.path.join(D, "ca")
    subprocess.run(["sh", os.path.join(ROOT, "tests", "cli", "make_test_ca.sh"), ca], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    p, _, http, log = serve("tls", [], config='[daemon]\nhttp_listen = "127.0.0.1:0"\nhttp_tls_cert = "%s"\n'
                            'http_tls_key = "%s"\n' % (os.path.join(ca, "server.pem"), os.path.join(ca, "server.key")))
    ctx = ssl.create_default_context(cafile=os.path.join(ca, "ca.pem"))
    status, _, body = get("https://" + http + "/healthz", context=ctx)
    if status != 200 or body != "ok\n":
        fail("/healthz over HTTPS: %d %r" % (status, body), log)
    try:
        get("https://" + http + "/healthz", context=ssl.create_default_context())
        fail("a client that does not trust the certificate must fail the handshake")
    except urllib.error.URLError:
        pass
    p.send_signal(signal.SIGTERM)
    if p.wait(timeout=60) != 0:
        fail("the TLS daemon's exit", log)
    print("http: ok")


try:
    main()
finally:
    cleanup()
