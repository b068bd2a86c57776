#!/usr/bin/env python3
"""zkpipe and another prover (rapidsnark's command line) run alternately, one run each in turn.

For noisy machines, where hyperfine's back-to-back runs of one command can all land in a slow
period: every round runs each circuit, with 2 threads and on one core (taskset -c 0), zkpipe then the
other prover, and records the wall time of the whole command. Prints min / median per prover, the
ratio of the medians and the range of the per-round ratios.

Usage: bench_alternating.py ZKPIPE PROVER DIR ROUNDS NAME...   (DIR holds NAME.zkey and NAME.wtns,
e.g. from make_bench_circuits.sh and `zkpipe setup --r1cs`; bench_vs_rapidsnark.sh checks the proofs
and peak RSS.)
"""
import statistics
import subprocess
import sys
import tempfile
import time


def main() -> None:
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    zkpipe, prover, d, rounds, names = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
    out = tempfile.mkdtemp()
    times: dict[tuple[str, str, str], list[float]] = {}
    for _ in range(rounds):
        for name in names:
            for mode in ("2 threads", "1 core"):
                pre = ["taskset", "-c", "0"] if mode == "1 core" else []
                for who, cmd in (
                    ("zkpipe", [zkpipe, "prove", f"{d}/{name}.zkey", f"{d}/{name}.wtns", f"{out}/z.json", f"{out}/zp.json"]),
                    ("other", [prover, f"{d}/{name}.zkey", f"{d}/{name}.wtns", f"{out}/o.json", f"{out}/op.json"]),
                ):
                    t0 = time.perf_counter()
                    subprocess.run(pre + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
                    times.setdefault((name, mode, who), []).append(time.perf_counter() - t0)
    for name in names:
        for mode in ("2 threads", "1 core"):
            z, o = times[(name, mode, "zkpipe")], times[(name, mode, "other")]
            ratios = sorted(a / b for a, b in zip(z, o))
            print(f"{name} {mode}: zkpipe min {min(z):.3f} median {statistics.median(z):.3f} s; "
                  f"other min {min(o):.3f} median {statistics.median(o):.3f} s; ratio of medians "
                  f"{statistics.median(z) / statistics.median(o):.2f}; per-round ratios {ratios[0]:.2f}-{ratios[-1]:.2f}")


if __name__ == "__main__":
    main()
