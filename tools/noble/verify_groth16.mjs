#!/usr/bin/env node
/**
 * An independent Groth16 verifier for zkpipe's BLS12-381 files, written against @noble/curves
 * (pinned in package.json; `npm ci` in this folder first). zkpipe's tests run it on proofs zkpipe
 * made, so a proof is only "valid" when an implementation that shares no code with zkpipe agrees.
 *
 *   node tools/noble/verify_groth16.mjs KEY.vk PROOFS.bin PUBLIC.json
 *
 * KEY.vk: bellman layout (alpha_g1 | beta_g1 | beta_g2 | gamma_g2 | delta_g1 | delta_g2 | u32 BE n |
 * n x ic), ZCash uncompressed points. PROOFS.bin: 192-byte proofs (A | B | C compressed), one per
 * partition. PUBLIC.json: an array of decimal strings per partition (a flat array = one partition).
 * Prints one line per partition and exits 0 when all verify, 1 when one does not, 2 on bad input.
 * Check: e(A, B) = e(alpha, beta) e(acc, gamma) e(C, delta), acc = ic0 + sum x_i ic_(i+1).
 */
import { readFileSync } from 'node:fs';
import { bls12_381 } from '@noble/curves/bls12-381.js';

const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;
const { Fp12, Fr } = bls12_381.fields;

function die(msg) {
  console.error(`verify_groth16: ${msg}`);
  process.exit(2);
}

const [vkPath, proofPath, publicPath] = process.argv.slice(2);
if (!publicPath) die('usage: verify_groth16.mjs KEY.vk PROOFS.bin PUBLIC.json');

let vk;
try {
  const b = readFileSync(vkPath);
  let off = 0;
  const g1 = () => G1.fromBytes(b.subarray(off, (off += 96)));
  const g2 = () => G2.fromBytes(b.subarray(off, (off += 192)));
  vk = { alpha: g1(), beta1: g1(), beta: g2(), gamma: g2(), delta1: g1(), delta: g2() };
  const n = b.readUInt32BE(off);
  off += 4;
  if (b.length !== off + 96 * n) die(`${vkPath}: ${n} ic points do not match the file size`);
  vk.ic = Array.from({ length: n }, g1);
} catch (e) {
  die(`${vkPath}: ${e.message}`);
}

const proofBytes = readFileSync(proofPath);
if (proofBytes.length === 0 || proofBytes.length % 192 !== 0) die(`${proofPath}: not a multiple of 192 bytes`);
let publics = JSON.parse(readFileSync(publicPath, 'utf8'));
if (!Array.isArray(publics)) die(`${publicPath}: not an array`);
if (publics.length === 0 || !Array.isArray(publics[0])) publics = [publics];
if (publics.length !== proofBytes.length / 192) die('proof and public-input counts differ');

const alphaBeta = bls12_381.pairing(vk.alpha, vk.beta);
let allValid = true;
publics.forEach((inputs, k) => {
  const p = proofBytes.subarray(192 * k, 192 * (k + 1));
  let A, B, C;
  try {
    A = G1.fromBytes(p.subarray(0, 48));
    B = G2.fromBytes(p.subarray(48, 144));
    C = G1.fromBytes(p.subarray(144, 192));
  } catch (e) {
    die(`partition ${k}: ${e.message}`);
  }
  if (inputs.length + 1 !== vk.ic.length) die(`partition ${k}: ${inputs.length} inputs, key expects ${vk.ic.length - 1}`);
  let acc = vk.ic[0];
  inputs.forEach((s, i) => {
    const x = BigInt(s);
    if (x < 0n || x >= Fr.ORDER) die(`partition ${k}: input ${i} is not canonical`);
    if (x !== 0n) acc = acc.add(vk.ic[i + 1].multiply(x));
  });
  const lhs = bls12_381.pairing(A, B);
  const rhs = Fp12.mul(Fp12.mul(alphaBeta, bls12_381.pairing(acc, vk.gamma)), bls12_381.pairing(C, vk.delta));
  const ok = Fp12.eql(lhs, rhs);
  allValid &&= ok;
  console.log(`partition ${k}: ${ok ? 'valid' : 'INVALID'}`);
});
process.exit(allValid ? 0 : 1);
