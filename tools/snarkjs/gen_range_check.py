#!/usr/bin/env python3
"""Write a BN254 ("bn128") range-check circuit as circom would: NAME.r1cs and NAME.wtns.

K copies of circomlib's Num2Bits(64) on K inputs: for each input v and its bits b_0..b_63,

    b_i * (b_i - 1) = 0          (64 constraints: A = b_i, B = b_i - ONE, C = 0)
    0 * 0 = sum_i 2^i b_i - v     (1 linear constraint, as circom emits it: A = B = 0)

The inputs are random 64-bit values, so the witness is the shape of issue 22's "range-check circuit
with a mostly-bits witness": 64 of every 65 wires are 0 or 1, the rest below 2^64. Wires in circom's
order: 0 = ONE, 1 = in[0] (the one public input), 2 .. K = in[1..K-1] (private inputs), then the
bits, 64 per input. snarkjs adds nPublic + 1 = 2 A-only QAP rows, so K = 4032 (262,080
constraints) fills a 2^18 domain.

No circom needed: the layout is docs/formats.md section 4 (see gen_mul_chain.py).
`zkpipe setup --r1cs NAME.r1cs` makes the zkey.

Usage: gen_range_check.py OUTDIR NAME K [--seed S]
"""
import argparse
import os
import random
import struct

from circom_files import R, write_r1cs, write_wtns


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("name")
    ap.add_argument("k", type=int)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    k = a.k
    rng = random.Random(a.seed)
    values_in = [rng.getrandbits(64) for _ in range(k)]
    n_wires = 1 + k + 64 * k

    def bit_wire(j, i):
        return 1 + k + 64 * j + i

    def lc(terms):
        return struct.pack("<I", len(terms)) + b"".join(struct.pack("<I", w) + (c % R).to_bytes(32, "little")
                                                       for w, c in terms)

    cons = bytearray()
    for j in range(k):
        for i in range(64):
            b = bit_wire(j, i)
            cons += lc([(b, 1)]) + lc([(0, -1), (b, 1)]) + lc([])
        cons += lc([]) + lc([]) + lc([(1 + j, -1)] + [(bit_wire(j, i), 1 << i) for i in range(64)])
    os.makedirs(a.outdir, exist_ok=True)
    write_r1cs(os.path.join(a.outdir, a.name + ".r1cs"), n_wires, 0, 1, k - 1, cons, 65 * k)
    values = [1] + values_in + [0] * (64 * k)
    for j, v in enumerate(values_in):
        for i in range(64):
            values[bit_wire(j, i)] = (v >> i) & 1
    write_wtns(os.path.join(a.outdir, a.name + ".wtns"), values)

if __name__ == "__main__":
    main()
