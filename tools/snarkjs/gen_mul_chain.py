#!/usr/bin/env python3
"""Write a BN254 ("bn128") multiplication-chain circuit as circom would: NAME.r1cs and NAME.wtns.

    x[k+2] = x[k] * x[k+1]   for k = 0 .. N-1,   out = x[N+1] (public output)

x[0], x[1] are private inputs drawn from a seeded RNG, so every witness value is a (pseudo-)random
field element: the witness shape of issue 22's "multiplication chain of random field elements"
(no zeros or ones, every MSM scalar a full 254-bit number). Wires in circom's order: 0 = ONE,
1 = out, 2..3 = x[0], x[1], then x[2] .. x[N] as internal signals. snarkjs adds nPublic + 1 = 2
A-only QAP rows, so N <= 2^k - 2 fills a 2^k domain (N = 262,000 -> 2^18, as in the issue).

No circom needed: the layout is docs/formats.md section 4 (iden3 container; r1cs header with
n8 = 32, the prime, wire counts, nLabels, nConstraints; constraints as (nTerms, (wire, coeff)*) for
A, B, C; section 3 maps wire -> label). `zkpipe setup --r1cs NAME.r1cs` makes the zkey.

Usage: gen_mul_chain.py OUTDIR NAME N [--seed S]
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
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    n = a.n
    rng = random.Random(a.seed)
    x = [rng.randrange(2, R), rng.randrange(2, R)]
    for k in range(n):
        x.append(x[k] * x[k + 1] % R)
    # wire of x[i]: x[0] -> 2, x[1] -> 3, x[2..n] -> 4.., x[n+1] -> 1 (out)
    def wire(i):
        return 1 if i == n + 1 else i + 2

    n_wires = n + 3  # ONE, out, x[0..n]
    one = (1).to_bytes(32, "little")
    cons = bytearray()
    term = lambda w: struct.pack("<II", 1, w) + one
    for k in range(n):
        cons += term(wire(k)) + term(wire(k + 1)) + term(wire(k + 2))
    os.makedirs(a.outdir, exist_ok=True)
    write_r1cs(os.path.join(a.outdir, a.name + ".r1cs"), n_wires, 1, 0, 2, cons, n)
    values = [1] + [0] * (n_wires - 1)
    for i, v in enumerate(x):
        values[wire(i)] = v
    write_wtns(os.path.join(a.outdir, a.name + ".wtns"), values)

if __name__ == "__main__":
    main()
