"""The circom files the generators here write (docs/formats.md section 4): an iden3 container, an
r1cs over BN254's scalar field with wires labelled by their index, and a wtns."""
import struct

R = 21888242871839275222246405745257275088548364400416034343698204186575808495617  # BN254 scalar field r
PRIME = R.to_bytes(32, "little")


def container(magic, sections):
    out = bytearray(magic + struct.pack("<II", 1 if magic == b"r1cs" else 2, len(sections)))
    for typ, payload in sections:
        out += struct.pack("<IQ", typ, len(payload)) + payload
    return bytes(out)


def write_r1cs(path, n_wires, n_pub_out, n_pub_in, n_prv_in, constraints, n_constraints):
    """constraints: the encoded A, B, C linear combinations of every constraint, in order."""
    # n8, prime, nWires, nPubOut, nPubIn, nPrvIn, nLabels, nConstraints
    header = struct.pack("<I", 32) + PRIME + struct.pack("<IIIIQI", n_wires, n_pub_out, n_pub_in, n_prv_in, n_wires,
                                                         n_constraints)
    labels = b"".join(struct.pack("<Q", i) for i in range(n_wires))
    with open(path, "wb") as f:
        f.write(container(b"r1cs", [(1, header), (2, bytes(constraints)), (3, labels)]))


def write_wtns(path, values):
    wtns = b"".join(v.to_bytes(32, "little") for v in values)
    with open(path, "wb") as f:
        f.write(container(b"wtns", [(1, struct.pack("<I", 32) + PRIME + struct.pack("<I", len(values))), (2, wtns)]))
