#!/usr/bin/env bash
# SASS instruction counts of the hot device functions (issue 42; docs/gpu.md "Instruction counts"):
# compiles bench/gpu/sass_probe.cu to sm_90 machine code (or $ARCH) and prints, per probe kernel,
# its static instruction count and the same minus `probe_copy_fq`'s (loading operands, storing a
# result), with the integer multiply-adds (IMAD, IMAD.WIDE, IMAD.HI) and IADD3s among them.
# Needs nvcc and python3, no GPU and no cuobjdump: Hopper instructions are 16 bytes each, so the
# count is read from the cubin's .text sections, with the opcode in the low 9 bits of each
# instruction (checked against kernels of one known instruction each); NOPs and the branch-to-self
# after the last EXIT (padding) are not counted. Static counts: every branch counted once.
# Usage: scripts/sass-counts.sh [--keep DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${ARCH:-sm_90}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[[ -x $nvcc ]] || { echo "sass-counts: nvcc not found (set NVCC)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ ${1:-} == --keep ]]; then work=$2; mkdir -p "$work"; trap - EXIT; fi
"$nvcc" -std=c++20 --expt-relaxed-constexpr -O3 -arch="$arch" -cubin -I "$root/src" \
  -o "$work/probe.cubin" "$root/bench/gpu/sass_probe.cu"
python3 - "$work/probe.cubin" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
assert data[:4] == b'\x7fELF' and data[4] == 2, 'not a 64-bit ELF cubin'
shoff, = struct.unpack_from('<Q', data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3A)
secs = [struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize) for i in range(shnum)]
strtab = secs[shstrndx][4]
def name(off): return data[strtab + off:data.index(b'\0', strtab + off)].decode()
NOP, BRA, EXIT, IADD3, IMADS = 0x118, 0x147, 0x14d, 0x010, {0x024, 0x025, 0x027}
rows = {}
for sec in secs:
    n, off, size = name(sec[0]), sec[4], sec[5]
    if not n.startswith('.text.'): continue
    ops = [struct.unpack_from('<Q', data, off + 16 * k)[0] & 0x1ff for k in range(size // 16)]
    last_exit = max(i for i, op in enumerate(ops) if op == EXIT)
    body = [op for i, op in enumerate(ops) if op != NOP and not (op == BRA and i > last_exit)]
    rows[n[6:]] = (len(body), sum(op in IMADS for op in body), sum(op == IADD3 for op in body))
base = rows['probe_copy_fq'][0]
print(f"{'probe':24} {'total':>7} {'-copy':>7} {'IMAD*':>7} {'IADD3':>7}")
for n in sorted(rows):
    t, m, a = rows[n]
    print(f"{n:24} {t:7} {t - base:7} {m:7} {a:7}")
PY
echo "($arch, $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/nvcc \1/p'))"
