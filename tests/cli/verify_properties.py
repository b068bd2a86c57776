#!/usr/bin/env python3
"""Property check of `zkpipe verify --kind ...` from public values (issue 47).

    verify_properties.py ZKPIPE verify --kind K ... --proof P [--sector N:C ...]

The given command must answer valid (exit 0). Then every public value changed alone, the
sectors appended / repeated / dropped / reordered (PoSt), and the proof file with a partition
added or removed must each be answered not valid: exit 1 (invalid) or 2 (refused, with a message),
never 0 and never a crash. Prints one line per case and exits non-zero on the first that holds.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HEX_VALUES = {"--randomness", "--prover-id", "--ticket", "--seed", "--comm-d", "--comm-r", "--comm-r-old",
              "--comm-d-new", "--comm-r-new"}


def flip_hex(h):
    # The first digit: the low byte of a little-endian commitment, which stays a field element.
    body = h[2:] if h.startswith("0x") else h
    return ("0x" if h.startswith("0x") else "") + "%x" % (int(body[0], 16) ^ 1) + body[1:]


def run(z, args):
    p = subprocess.run([z] + args, capture_output=True, text=True, timeout=300)
    return p.returncode, (p.stdout + p.stderr).strip().splitlines()[-1:] or [""]


def main():
    z, args = sys.argv[1], sys.argv[2:]
    proof = args[args.index("--proof") + 1]
    data = open(proof, "rb").read()
    assert len(data) % 192 == 0 and data, "proof file of 192-byte proofs expected"
    tmp = tempfile.mkdtemp()
    failures = 0

    def expect(name, argv, ok):
        nonlocal failures
        code, last = run(z, argv)
        good = code == 0 if ok else code in (1, 2)
        print("%-48s exit %d %s %s" % (name, code, "ok" if good else "WRONG", last[0][:100]))
        if not good:
            failures += 1

    expect("unchanged", args, True)
    for i, a in enumerate(args[:-1]):
        v = args[i + 1]
        changed = []
        if a in HEX_VALUES:
            changed.append(flip_hex(v))
        elif a == "--sector-number":
            changed.append(str(int(v) + 1))
        elif a == "--sector":
            num, comm = v.split(":", 1)  # +1000: a number no other --sector names
            changed += ["%d:%s" % (int(num) + 1000, comm), "%s:%s" % (num, flip_hex(comm))]
        for c in changed:
            expect("%s %s -> %s" % (a, v[:20], c[:20]), args[:i + 1] + [c] + args[i + 2:], False)

    sectors = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--sector"]
    if sectors:
        rest = []
        i = 0
        while i < len(args):
            if args[i] == "--sector":
                i += 2
                continue
            rest.append(args[i])
            i += 1

        def with_sectors(ss):
            out = list(rest)
            for s in ss:
                out += ["--sector", s]
            return out

        num, comm = sectors[-1].split(":", 1)
        fresh = "%d:%s" % (max(int(s.split(":")[0]) for s in sectors) + 1000, comm)
        expect("a sector appended", with_sectors(sectors + [fresh]), False)
        expect("a sector repeated", with_sectors(sectors + [sectors[0]]), False)
        if len(sectors) > 1:
            expect("the first sector dropped", with_sectors(sectors[1:]), False)
            expect("the last sector dropped", with_sectors(sectors[:-1]), False)
            expect("the sectors reversed", with_sectors(sectors[::-1]), False)
        more = [("%d:%s" % (int(num) + 2000 + k, comm)) for k in range(8)]
        expect("eight sectors appended", with_sectors(sectors + more), False)

    def with_proof(b, name):
        path = os.path.join(tmp, name)
        open(path, "wb").write(b)
        k = args.index("--proof")
        return args[:k + 1] + [path] + args[k + 2:]

    expect("a partition added (the last repeated)", with_proof(data + data[-192:], "added.bin"), False)
    if len(data) > 192:
        expect("the last partition removed", with_proof(data[:-192], "removed.bin"), False)
        expect("the partitions swapped", with_proof(data[192:384] + data[:192] + data[384:], "swapped.bin"), False)
    shutil.rmtree(tmp, ignore_errors=True)
    print("verify properties: %s" % ("ok" if failures == 0 else "%d case(s) WRONG" % failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
