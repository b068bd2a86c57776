#!/usr/bin/env node
/**
 * zkpipe independent test-vector generator (BLS12-381 and BN254).
 *
 * Provenance
 * ----------
 * Every result in the output (field products, inverses, square roots, powers,
 * scalar multiples, pairings) is computed by @noble/curves (pure-JS, audited,
 * MIT; https://github.com/paulmillr/noble-curves), NOT by zkpipe and NOT by
 * hand-written arithmetic in this file. This script only draws inputs from its
 * own seeded PRNG (SplitMix64 in BigInt), calls noble, asserts a number of
 * conventions/sanity properties, and serialises the results. The exact noble
 * version is pinned in tools/noble/package.json / package-lock.json and is
 * recorded in the output ("noble_curves_version").
 *
 * Regenerate
 * ----------
 *   cd tools/noble && npm ci && cd ../..     # installs the pinned @noble/curves
 *   node tools/noble/gen_vectors.mjs          # writes tests/data/noble/vectors.json
 *
 * Options: --seed 0x<hex> (default below), --out <path> (default: the repo file).
 * Output is deterministic: the same seed + noble version gives a byte-identical file.
 *
 * Format: see tests/data/noble/README.md. All numbers are lowercase "0x" hex of
 * canonical integers (never Montgomery form).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { bn254 } from '@noble/curves/bn254.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, '..', '..');
const DEFAULT_OUT = join(REPO_ROOT, 'tests', 'data', 'noble', 'vectors.json');
const DEFAULT_SEED = 0x7a6b70697065n; // "zkpipe"

// ---------------------------------------------------------------- arguments
let SEED = DEFAULT_SEED;
let OUT = DEFAULT_OUT;
{
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--seed') SEED = BigInt(argv[++i]);
    else if (argv[i] === '--out') OUT = resolve(argv[++i]);
    else throw new Error('unknown argument: ' + argv[i]);
  }
  SEED &= (1n << 64n) - 1n;
}

// ---------------------------------------------------------------- helpers
function assert(cond, msg) {
  if (!cond) throw new Error('ASSERTION FAILED: ' + msg);
}
const hex = (x) => {
  assert(typeof x === 'bigint' && x >= 0n, 'hex() wants a non-negative bigint, got ' + x);
  return '0x' + x.toString(16);
};
const bitLen = (x) => x.toString(2).length;

/** SplitMix64 (Steele, Lea, Flood 2014), BigInt implementation. */
class SplitMix64 {
  constructor(seed) {
    this.s = seed & 0xffffffffffffffffn;
  }
  next64() {
    const M = 0xffffffffffffffffn;
    this.s = (this.s + 0x9e3779b97f4a7c15n) & M;
    let z = this.s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    return z ^ (z >> 31n);
  }
  /** uniform integer in [0, 2^bits) */
  bits(bits) {
    let acc = 0n;
    for (let got = 0; got < bits; got += 64) acc = (acc << 64n) | this.next64();
    const extra = (Math.ceil(bits / 64) * 64) - bits;
    return acc >> BigInt(extra);
  }
  /** uniform integer in [0, m) by rejection */
  below(m) {
    const b = bitLen(m - 1n);
    for (;;) {
      const x = this.bits(b);
      if (x < m) return x;
    }
  }
  /** uniform integer in [1, m) */
  nonzeroBelow(m) {
    for (;;) {
      const x = this.below(m);
      if (x !== 0n) return x;
    }
  }
}
const rng = new SplitMix64(SEED);

// ---------------------------------------------------------------- versions
const nobleVersion = JSON.parse(
  readFileSync(join(HERE, 'node_modules', '@noble', 'curves', 'package.json'), 'utf8')
).version;
const pinned = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8')).dependencies['@noble/curves'];
assert(pinned === nobleVersion, `installed @noble/curves ${nobleVersion} != pinned ${pinned}; run npm ci in tools/noble`);

// ---------------------------------------------------------------- independent constants
// Hard-coded from the curve specifications (IETF pairing-friendly-curves draft,
// EIP-196/197), used only to check that noble is configured as we expect.
const CONST = {
  bls12_381: {
    p: 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn,
    r: 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n,
    x: -0xd201000000010000n, // BLS parameter (negative)
    xi: [1n, 1n], // v^3 = 1 + u
    g1: {
      x: 0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bbn,
      y: 0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1n,
    },
    g2: {
      x: [
        0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8n,
        0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7en,
      ],
      y: [
        0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801n,
        0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79ben,
      ],
    },
  },
  bn254: {
    p: 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n,
    r: 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n,
    x: 4965661367192848881n, // BN parameter (positive)
    xi: [9n, 1n], // v^3 = 9 + u
    g1: { x: 1n, y: 2n },
    g2: {
      x: [
        10857046999023057135944570762232829481370756359578518086990519993285655852781n,
        11559732032986387107991004021392285783925812861821192530917403151452391805634n,
      ],
      y: [
        8495653923123431417604973247489272438418190587263600148770280649306958101930n,
        4082367875863433681332203403145435568316851327593401208105741076214120093531n,
      ],
    },
  },
};

const CURVES = { bls12_381, bn254 };

// ---------------------------------------------------------------- tower conventions
/** Serialise an Fq12 in the documented order [c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1]. */
function fq12ToList(e) {
  const out = [];
  for (const c6 of [e.c0, e.c1]) for (const c2 of [c6.c0, c6.c1, c6.c2]) out.push(c2.c0, c2.c1);
  return out;
}

function checkTower(name) {
  const { Fp, Fp2, Fp6, Fp12 } = CURVES[name].fields;
  const k = CONST[name];
  const p = Fp.ORDER;
  // Fp2 = Fp[u]/(u^2 + 1): c0 + c1*u
  const u = Fp2.fromBigTuple([0n, 1n]);
  const u2 = Fp2.sqr(u);
  assert(u2.c0 === p - 1n && u2.c1 === 0n, `${name}: u^2 != -1`);
  // Fp6 = Fp2[v]/(v^3 - xi): c0 + c1*v + c2*v^2
  const v = Fp6.fromBigSix([0n, 0n, 1n, 0n, 0n, 0n]);
  assert(v.c1.c0 === 1n && v.c0.c0 === 0n, `${name}: fromBigSix layout`);
  const v3 = Fp6.mul(Fp6.sqr(v), v);
  assert(Fp6.eql(v3, Fp6.fromBigSix([k.xi[0], k.xi[1], 0n, 0n, 0n, 0n])), `${name}: v^3 != xi`);
  const vv = Fp6.sqr(v);
  assert(Fp6.eql(vv, Fp6.fromBigSix([0n, 0n, 0n, 0n, 1n, 0n])), `${name}: v^2 is not the c2 slot`);
  // Fp12 = Fp6[w]/(w^2 - v): c0 + c1*w
  const zero6 = [0n, 0n, 0n, 0n, 0n, 0n];
  const w = Fp12.fromBigTwelve([...zero6, 1n, 0n, 0n, 0n, 0n, 0n]);
  assert(w.c1.c0.c0 === 1n, `${name}: fromBigTwelve layout`);
  const w2 = Fp12.sqr(w);
  assert(Fp12.eql(w2, Fp12.fromBigTwelve([0n, 0n, 1n, 0n, 0n, 0n, ...zero6])), `${name}: w^2 != v`);
  const w6 = Fp12.pow(w, 6n);
  assert(Fp12.eql(w6, Fp12.fromBigTwelve([k.xi[0], k.xi[1], 0n, 0n, 0n, 0n, ...zero6])), `${name}: w^6 != xi`);
  // our serialiser is the inverse of noble's fromBigTwelve
  const t = Array.from({ length: 12 }, () => rng.below(p));
  const round = fq12ToList(Fp12.fromBigTwelve(t));
  assert(round.every((x, i) => x === t[i]), `${name}: fq12ToList is not inverse of fromBigTwelve`);
  return {
    fq2: 'Fq2 = Fq[u]/(u^2+1), element c0 + c1*u',
    fq6: `Fq6 = Fq2[v]/(v^3 - (${k.xi[0]}+u)), element c0 + c1*v + c2*v^2`,
    fq12: 'Fq12 = Fq6[w]/(w^2 - v), element c0 + c1*w',
  };
}

// ---------------------------------------------------------------- fields
function fieldVectors(F, expectedModulus, label) {
  const p = F.ORDER;
  assert(p === expectedModulus, `${label}: noble modulus ${hex(p)} != expected ${hex(expectedModulus)}`);
  const canon = (x) => {
    assert(typeof x === 'bigint' && x >= 0n && x < p, `${label}: non-canonical noble output ${x}`);
    return x;
  };
  const rand = () => rng.below(p);
  const randNZ = () => rng.nonzeroBelow(p);

  // mul: edge values 1, p-1, 2, p-2 ("just below p") and 0, then random
  const mulPairs = [
    [1n, 1n], [1n, p - 1n], [p - 1n, p - 1n], [2n, p - 1n], [p - 2n, p - 1n], [p - 2n, p - 2n],
    [2n, 2n], [0n, p - 1n], [rand(), 1n], [rand(), p - 1n], [rand(), 2n], [rand(), p - 2n],
  ];
  while (mulPairs.length < 32) mulPairs.push([rand(), rand()]);
  const mul = mulPairs.map(([a, b]) => [a, b, canon(F.mul(a, b))]);

  const addPairs = [[p - 1n, 1n], [p - 1n, p - 1n], [0n, 0n], [p - 2n, 3n]];
  while (addPairs.length < 8) addPairs.push([rand(), rand()]);
  const add = addPairs.map(([a, b]) => [a, b, canon(F.add(a, b))]);

  const subPairs = [[0n, 1n], [1n, p - 1n], [p - 1n, p - 1n], [2n, p - 2n]];
  while (subPairs.length < 8) subPairs.push([rand(), rand()]);
  const sub = subPairs.map(([a, b]) => [a, b, canon(F.sub(a, b))]);

  const invIn = [1n, p - 1n, 2n, p - 2n];
  while (invIn.length < 16) invIn.push(randNZ());
  const inv = invIn.map((a) => {
    const ai = canon(F.inv(a));
    assert(F.eql(F.mul(a, ai), F.ONE), `${label}: inv check`);
    return [a, ai];
  });

  // sqrt: 8 residues (1, 4 and squares of random elements), 8 non-residues
  const trySqrt = (a) => {
    try {
      return canon(F.sqrt(a));
    } catch {
      return null;
    }
  };
  const euler = (a) => F.pow(a, (p - 1n) / 2n); // 1 for QR, p-1 for QNR (a != 0)
  const sqrt = [];
  for (const a of [1n, 4n]) sqrt.push([a, trySqrt(a)]);
  while (sqrt.length < 8) {
    const a = canon(F.sqr(randNZ()));
    sqrt.push([a, trySqrt(a)]);
  }
  let nonRes = 0;
  while (nonRes < 8) {
    const a = randNZ();
    if (euler(a) === F.ONE) continue;
    const s = trySqrt(a);
    assert(s === null, `${label}: noble returned a root for a non-residue`);
    sqrt.push([a, null]);
    nonRes++;
  }
  for (const [a, s] of sqrt) {
    if (s === null) assert(euler(a) === p - 1n, `${label}: sqrt null for residue`);
    else assert(F.eql(F.sqr(s), a), `${label}: sqrt(a)^2 != a`);
  }
  const sqrtOut = sqrt.map(([a, s]) => [a, s]);

  // pow: exponents up to 256 bits (0 and 1 as edge cases)
  const exps = [0n, 1n, rng.bits(256), rng.bits(256), rng.bits(255), rng.bits(192), rng.bits(128), rng.bits(64)];
  const pow = exps.map((e) => {
    const a = randNZ();
    return [a, e, canon(F.pow(a, e))];
  });

  return { modulus: p, mul, add, sub, inv, sqrt: sqrtOut, pow };
}

// ---------------------------------------------------------------- groups
function groupVectors(name, which) {
  const c = CURVES[name];
  const k = CONST[name];
  const r = c.fields.Fr.ORDER;
  const G = which === 'g1' ? c.G1.Point.BASE : c.G2.Point.BASE;
  const base = G.toAffine();
  const ser = which === 'g1' ? (v) => v : (v) => [v.c0, v.c1];
  const exp = k[which];
  const same = (a, b) => (Array.isArray(a) ? a[0] === b[0] && a[1] === b[1] : a === b);
  assert(same(ser(base.x), exp.x) && same(ser(base.y), exp.y), `${name}.${which}: generator != spec`);
  assert(G.multiply(r - 1n).equals(G.negate()), `${name}.${which}: (r-1)G != -G`);

  const ks = [1n, 2n, 3n, r - 1n, r - 2n];
  while (ks.length < 12) ks.push(rng.nonzeroBelow(r));
  return ks.map((kk) => {
    const P = G.multiply(kk);
    P.assertValidity();
    const a = P.toAffine();
    return { k: kk, x: ser(a.x), y: ser(a.y) };
  });
}

// ---------------------------------------------------------------- pairings
/**
 * Determine, for this noble version, which exponent its pairing's final exponentiation
 * applies. Standard reduced pairing: f^((p^12-1)/r). noble applies
 * f^((p^6-1)(p^2+1) * m * (p^4-p^2+1)/r) with the curve-specific multiplier m below
 * (the hard part computes m*(p^4-p^2+1)/r). Asserted here on a random, non-GT Fq12
 * element, so the identity is exact for every input, not just modulo r.
 */
function finalExpInfo(name) {
  const c = CURVES[name];
  const { Fp, Fp12, Fr } = c.fields;
  const p = Fp.ORDER, r = Fr.ORDER, x = CONST[name].x;
  const phi = p ** 4n - p ** 2n + 1n;
  assert(phi % r === 0n, `${name}: r does not divide Phi12(p)`);
  const easy = (p ** 6n - 1n) * (p ** 2n + 1n);
  const m = name === 'bls12_381' ? 3n : 2n * x * (6n * x * x + 3n * x + 1n);
  const formula = name === 'bls12_381' ? '3' : '2x(6x^2+3x+1), x = 4965661367192848881';
  const a = Fp12.fromBigTwelve(Array.from({ length: 12 }, () => rng.below(p)));
  const got = Fp12.finalExponentiate(a);
  assert(Fp12.eql(got, Fp12.pow(a, easy * m * (phi / r))), `${name}: final exponent multiplier is not ${formula}`);
  assert(!Fp12.eql(got, Fp12.pow(a, easy * (phi / r))), `${name}: final exp unexpectedly standard`);
  const mInvModR = Fr.inv(m % r);
  return { m, formula, mInvModR, r };
}

function pairingVectors(name, fe) {
  const c = CURVES[name];
  const { Fp12, Fp, Fr } = c.fields;
  const r = Fr.ORDER, p = Fp.ORDER;
  const G1 = c.G1.Point.BASE, G2 = c.G2.Point.BASE;
  const base = c.pairing(G1, G2);
  // default pairing applies the final exponentiation
  const miller = c.pairing(G1, G2, false);
  const appliesFE = Fp12.eql(base, Fp12.finalExponentiate(miller)) && !Fp12.eql(base, miller);
  assert(appliesFE, `${name}: pairing() does not apply final exponentiation by default`);
  assert(!Fp12.eql(base, Fp12.ONE) && Fp12.eql(Fp12.pow(base, r), Fp12.ONE), `${name}: e(G1,G2) not of order r`);
  // e_standard = miller^((p^12-1)/r) == noble_e^(m^-1 mod r)
  const baseStd = Fp12.pow(miller, (p ** 12n - 1n) / r);
  assert(Fp12.eql(Fp12.pow(baseStd, fe.m), base), `${name}: noble e != e_std^m`);
  assert(Fp12.eql(Fp12.pow(base, fe.mInvModR), baseStd), `${name}: e^(1/m) != e_std`);

  const ab = [[1n, 1n], [r - 1n, 1n], [rng.nonzeroBelow(r), rng.nonzeroBelow(r)], [rng.nonzeroBelow(r), rng.nonzeroBelow(r)]];
  const entries = [];
  const standard = [];
  for (const [a, b] of ab) {
    const e = c.pairing(G1.multiply(a), G2.multiply(b));
    assert(Fp12.eql(e, Fp12.pow(base, (a * b) % r)), `${name}: bilinearity e(aP,bQ) == e(P,Q)^(ab)`);
    const list = fq12ToList(e);
    list.forEach((v) => assert(v >= 0n && v < p, `${name}: non-canonical Fq12 coefficient`));
    entries.push({ a, b, e: list });
    standard.push(fq12ToList(Fp12.pow(e, fe.mInvModR)));
  }
  const lhs = c.pairing(G1.multiply(2n), G2);
  const rhs = c.pairing(G1, G2.multiply(2n));
  const check = Fp12.eql(lhs, rhs);
  assert(check, `${name}: e(2G1,G2) != e(G1,2G2)`);
  return {
    entries,
    checks: {
      e_2g1_g2_eq_e_g1_2g2: check,
      final_exponentiation_applied: appliesFE,
      final_exponent: `(p^6-1)(p^2+1) * m * (p^4-p^2+1)/r with m = ${fe.formula}`,
      final_exponent_multiplier_m: fe.m,
      m_inverse_mod_r: fe.mInvModR,
      e_standard: standard,
    },
  };
}

// ---------------------------------------------------------------- serialisation
/** JSON with bigints as 0x-hex; innermost arrays/objects of scalars kept on one line. */
function toJson(v, indent = '') {
  const scalar = (x) => x === null || typeof x !== 'object';
  const enc = (x) => (typeof x === 'bigint' ? JSON.stringify(hex(x)) : JSON.stringify(x));
  const scalars = (x) => Array.isArray(x) && x.every(scalar);
  // one line: scalars, arrays of scalars, objects whose values are scalars / arrays of scalars
  const flat = (x) =>
    scalar(x) || scalars(x) || (!Array.isArray(x) && Object.values(x).every((y) => scalar(y) || scalars(y)));
  const inline = (x) => {
    if (scalar(x)) return enc(x);
    if (Array.isArray(x)) return '[' + x.map(inline).join(', ') + ']';
    return '{' + Object.entries(x).map(([k, y]) => JSON.stringify(k) + ': ' + inline(y)).join(', ') + '}';
  };
  if (flat(v)) return inline(v);
  const ind = indent + '  ';
  if (Array.isArray(v)) return '[\n' + v.map((y) => ind + toJson(y, ind)).join(',\n') + '\n' + indent + ']';
  return (
    '{\n' + Object.entries(v).map(([k, y]) => ind + JSON.stringify(k) + ': ' + toJson(y, ind)).join(',\n') + '\n' + indent + '}'
  );
}

// ---------------------------------------------------------------- main
const towers = { bls12_381: checkTower('bls12_381'), bn254: checkTower('bn254') };

const fields = {
  bls12_381_fq: fieldVectors(bls12_381.fields.Fp, CONST.bls12_381.p, 'bls12_381_fq'),
  bls12_381_fr: fieldVectors(bls12_381.fields.Fr, CONST.bls12_381.r, 'bls12_381_fr'),
  bn254_fq: fieldVectors(bn254.fields.Fp, CONST.bn254.p, 'bn254_fq'),
  bn254_fr: fieldVectors(bn254.fields.Fr, CONST.bn254.r, 'bn254_fr'),
};

const groups = {
  bls12_381_g1: groupVectors('bls12_381', 'g1'),
  bls12_381_g2: groupVectors('bls12_381', 'g2'),
  bn254_g1: groupVectors('bn254', 'g1'),
  bn254_g2: groupVectors('bn254', 'g2'),
};

const pairings = {};
const pairing_checks = {};
for (const name of ['bls12_381', 'bn254']) {
  const fe = finalExpInfo(name);
  const { entries, checks } = pairingVectors(name, fe);
  pairings[name] = entries;
  pairing_checks[name] = { tower: towers[name], ...checks };
}

const doc = {
  generator: 'tools/noble/gen_vectors.mjs',
  noble_curves_version: nobleVersion,
  seed: SEED,
  fields,
  groups,
  pairings,
  pairing_checks,
};

const text = toJson(doc) + '\n';
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, text);
console.log(
  `wrote ${relative(process.cwd(), OUT) || OUT} (${text.length} bytes), seed ${hex(SEED)}, @noble/curves ${nobleVersion}`
);
