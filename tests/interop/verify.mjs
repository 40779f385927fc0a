#!/usr/bin/env node
// Independent Groth16 verifier over BLS12-381 for the interop tests, on @noble/curves.
// It shares no code with the C implementation: point decoding (ZCash encoding), the
// bellperson .vk and proof layouts and the verification equation are written here from
// the format description, and the curve arithmetic and pairing come from @noble/curves.
//
//   node verify.mjs --vk FILE.vk --proof FILE.proof --inputs FILE.json [--json]
//
// Exit codes: 0 every proof verifies, 1 some proof does not verify, 2 malformed input or
// usage, 3 internal error (the verifier itself failed, for example @noble/curves missing).
//
// The core (decoders, parsers, verifyProof) is exported for the self-test (kat.mjs).

import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const EXIT_OK = 0;
export const EXIT_FAIL = 1;
export const EXIT_MALFORMED = 2;
export const EXIT_INTERNAL = 3;

let bls;
try {
  ({ bls12_381: bls } = await import('@noble/curves/bls12-381'));
} catch (e) {
  process.stderr.write(
    'error: @noble/curves is not installed (run npm ci in tests/interop, or scripts/install-interop.sh): ' +
      (e && e.message ? e.message.split('\n')[0] : String(e)) + '\n');
  process.exit(EXIT_INTERNAL);
}

const { Fp, Fp2, Fp12 } = bls.fields;
const G1 = bls.G1.Point;
const G2 = bls.G2.Point;

/** Base field modulus p. */
export const P = Fp.ORDER;
/** Scalar field modulus r (the order of G1 and G2). */
export const R = bls.params.r;
const HALF_P = (P - 1n) / 2n;
const B1 = 4n; // G1: y^2 = x^3 + 4
const B2 = Fp2.create({ c0: 4n, c1: 4n }); // G2: y^2 = x^3 + 4(u + 1)

export const G1_COMPRESSED = 48;
export const G1_UNCOMPRESSED = 96;
export const G2_COMPRESSED = 96;
export const G2_UNCOMPRESSED = 192;
export const PROOF_BYTES = 192;
export const VK_FIXED_BYTES = 3 * G1_UNCOMPRESSED + 3 * G2_UNCOMPRESSED; // 864

/** Malformed input: the CLI turns it into exit code 2 and prints its message. */
export class InputError extends Error {
  constructor(message) {
    super(message);
    this.name = 'InputError';
  }
}

// ---------------------------------------------------------------- point decoding

function be(bytes, off, len) {
  let v = 0n;
  for (let i = 0; i < len; i++) v = (v << 8n) | BigInt(bytes[off + i]);
  return v;
}

function allZero(bytes, off, len) {
  for (let i = 0; i < len; i++) if (bytes[off + i] !== 0) return false;
  return true;
}

function fpLargest(y) {
  return y > HALF_P;
}

// Fp2 y = c0 + c1*u is "lexicographically largest" when c1 is, or c1 = 0 and c0 is.
function fp2Largest(y) {
  return y.c1 !== 0n ? fpLargest(y.c1) : fpLargest(y.c0);
}

function trySqrt(F, v) {
  let s;
  try {
    s = F.sqrt(v);
  } catch {
    return undefined;
  }
  if (s === undefined || !F.eql(F.sqr(s), v)) return undefined;
  return s;
}

function fieldElem(bytes, off, len, where, what) {
  const v = be(bytes, off, len);
  if (v >= P) throw new InputError(`${where}: ${what} is not a canonical field element (>= p)`);
  return v;
}

/**
 * Decodes one ZCash-encoded point.
 * group: 1 or 2; compressed: which form is expected; where: "FIELD at byte N" for messages.
 * Returns a noble point (G1.ZERO / G2.ZERO for the point at infinity) that is on the curve
 * and in the prime-order subgroup; throws InputError otherwise.
 */
export function decodePoint(bytes, off, group, compressed, where) {
  const size = group === 1 ? (compressed ? G1_COMPRESSED : G1_UNCOMPRESSED)
                           : (compressed ? G2_COMPRESSED : G2_UNCOMPRESSED);
  if (off + size > bytes.length) {
    throw new InputError(`${where}: truncated (needs ${size} bytes, ${Math.max(0, bytes.length - off)} left)`);
  }
  const flags = bytes[off] & 0xe0;
  const cbit = (flags & 0x80) !== 0;
  const ibit = (flags & 0x40) !== 0;
  const sbit = (flags & 0x20) !== 0;
  const Point = group === 1 ? G1 : G2;
  const form = compressed ? 'compressed' : 'uncompressed';
  if (cbit !== compressed) {
    throw new InputError(`${where}: expected a ${form} point but the compression flag (0x80) is ${cbit ? 'set' : 'clear'}`);
  }
  if (!compressed && sbit) throw new InputError(`${where}: sign flag (0x20) set in an uncompressed point`);
  // Work on a copy with the flag bits cleared.
  const buf = Uint8Array.from(bytes.subarray(off, off + size));
  buf[0] &= 0x1f;
  if (ibit) {
    if (sbit || !allZero(buf, 0, size)) {
      throw new InputError(`${where}: point at infinity with non-zero bits`);
    }
    return Point.ZERO;
  }
  const L = 48;
  let pt;
  if (group === 1) {
    const x = fieldElem(buf, 0, L, where, 'x');
    const rhs = Fp.add(Fp.mul(Fp.sqr(x), x), B1);
    let y;
    if (compressed) {
      y = trySqrt(Fp, rhs);
      if (y === undefined) throw new InputError(`${where}: not on the curve (x has no y)`);
      if (fpLargest(y) !== sbit) y = Fp.neg(y);
    } else {
      y = fieldElem(buf, L, L, where, 'y');
      if (!Fp.eql(Fp.sqr(y), rhs)) throw new InputError(`${where}: not on the curve`);
    }
    pt = G1.fromAffine({ x, y });
  } else {
    const x = Fp2.create({ c1: fieldElem(buf, 0, L, where, 'x.c1'), c0: fieldElem(buf, L, L, where, 'x.c0') });
    const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), B2);
    let y;
    if (compressed) {
      y = trySqrt(Fp2, rhs);
      if (y === undefined) throw new InputError(`${where}: not on the curve (x has no y)`);
      if (fp2Largest(y) !== sbit) y = Fp2.neg(y);
    } else {
      y = Fp2.create({ c1: fieldElem(buf, 2 * L, L, where, 'y.c1'), c0: fieldElem(buf, 3 * L, L, where, 'y.c0') });
      if (!Fp2.eql(Fp2.sqr(y), rhs)) throw new InputError(`${where}: not on the curve`);
    }
    pt = G2.fromAffine({ x, y });
  }
  if (!pt.isTorsionFree()) throw new InputError(`${where}: not in the prime-order subgroup`);
  return pt;
}

/** Uncompressed ZCash encoding of a point (used by the self-test to write .vk files). */
export function encodeUncompressed(pt, group) {
  const L = 48;
  const out = new Uint8Array(group === 1 ? G1_UNCOMPRESSED : G2_UNCOMPRESSED);
  if (pt.is0()) {
    out[0] = 0x40;
    return out;
  }
  const put = (v, at) => {
    for (let i = L - 1; i >= 0; i--, v >>= 8n) out[at + i] = Number(v & 0xffn);
  };
  const { x, y } = pt.toAffine();
  if (group === 1) {
    put(x, 0);
    put(y, L);
  } else {
    put(x.c1, 0);
    put(x.c0, L);
    put(y.c1, 2 * L);
    put(y.c0, 3 * L);
  }
  return out;
}

/** Compressed ZCash encoding of a point (used by the self-test to write proofs). */
export function encodeCompressed(pt, group) {
  const L = 48;
  const out = new Uint8Array(group === 1 ? G1_COMPRESSED : G2_COMPRESSED);
  if (pt.is0()) {
    out[0] = 0xc0;
    return out;
  }
  const put = (v, at) => {
    for (let i = L - 1; i >= 0; i--, v >>= 8n) out[at + i] = Number(v & 0xffn);
  };
  const { x, y } = pt.toAffine();
  let largest;
  if (group === 1) {
    put(x, 0);
    largest = fpLargest(y);
  } else {
    put(x.c1, 0);
    put(x.c0, L);
    largest = fp2Largest(y);
  }
  out[0] |= 0x80 | (largest ? 0x20 : 0);
  return out;
}

// ---------------------------------------------------------------- file layouts

/**
 * Parses bellperson's VerifyingKey::write layout (all points uncompressed, u32-BE ic_len).
 * Returns { alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2, ic: [] }.
 */
export function parseVk(bytes) {
  const fields = [
    ['alpha_g1', 1], ['beta_g1', 1], ['beta_g2', 2],
    ['gamma_g2', 2], ['delta_g1', 1], ['delta_g2', 2],
  ];
  const vk = {};
  let off = 0;
  for (const [name, group] of fields) {
    vk[name] = decodePoint(bytes, off, group, false, `vk: ${name} at byte ${off}`);
    off += group === 1 ? G1_UNCOMPRESSED : G2_UNCOMPRESSED;
  }
  if (off + 4 > bytes.length) {
    throw new InputError(`vk: ic_len at byte ${off}: truncated (file is ${bytes.length} bytes)`);
  }
  const icLen = Number(be(bytes, off, 4));
  off += 4;
  if (icLen === 0) throw new InputError(`vk: ic_len at byte ${off - 4}: is 0 (IC must hold at least the ONE term)`);
  const expected = off + icLen * G1_UNCOMPRESSED;
  if (bytes.length < expected) {
    throw new InputError(`vk: ic[${Math.floor((bytes.length - off) / G1_UNCOMPRESSED)}] at byte ` +
      `${off + Math.floor((bytes.length - off) / G1_UNCOMPRESSED) * G1_UNCOMPRESSED}: truncated ` +
      `(ic_len ${icLen} needs ${expected} bytes, file is ${bytes.length})`);
  }
  if (bytes.length > expected) {
    throw new InputError(`vk: trailing data at byte ${expected}: ${bytes.length - expected} bytes after ic[${icLen - 1}]`);
  }
  vk.ic = [];
  for (let i = 0; i < icLen; i++, off += G1_UNCOMPRESSED) {
    const where = `vk: ic[${i}] at byte ${off}`;
    const pt = decodePoint(bytes, off, 1, false, where);
    if (pt.is0()) throw new InputError(`${where}: point at infinity`);
    vk.ic.push(pt);
  }
  return vk;
}

/** Parses one or more 192-byte proofs A (G1c) || B (G2c) || C (G1c). Returns [{a, b, c}]. */
export function parseProofs(bytes) {
  if (bytes.length === 0) throw new InputError('proof: file is empty (expected a multiple of 192 bytes)');
  if (bytes.length % PROOF_BYTES !== 0) {
    throw new InputError(`proof: length ${bytes.length} is not a multiple of ${PROOF_BYTES} ` +
      `(proof ${Math.floor(bytes.length / PROOF_BYTES)} at byte ${bytes.length - (bytes.length % PROOF_BYTES)} is truncated)`);
  }
  const proofs = [];
  for (let k = 0, base = 0; base < bytes.length; k++, base += PROOF_BYTES) {
    const parts = [['A', 1, 0], ['B', 2, G1_COMPRESSED], ['C', 1, G1_COMPRESSED + G2_COMPRESSED]];
    const pr = {};
    for (const [name, group, rel] of parts) {
      const where = `proof ${k}: ${name} at byte ${base + rel}`;
      const pt = decodePoint(bytes, base + rel, group, true, where);
      if (pt.is0()) throw new InputError(`${where}: point at infinity`);
      pr[name.toLowerCase()] = pt;
    }
    proofs.push(pr);
  }
  return proofs;
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** Parses one canonical decimal scalar < r. */
export function parseScalar(v, where) {
  if (typeof v !== 'string') {
    throw new InputError(`${where}: expected a decimal string, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`);
  }
  if (!DECIMAL.test(v)) {
    const shown = v.length > 40 ? v.slice(0, 40) + '...' : v;
    throw new InputError(`${where}: ${JSON.stringify(shown)} is not a canonical decimal integer`);
  }
  if (v.length > 78) throw new InputError(`${where}: value is not below r (${v.length} digits)`);
  const x = BigInt(v);
  if (x >= R) throw new InputError(`${where}: value ${v} is not below r`);
  return x;
}

/**
 * Parses the public inputs JSON (without the implicit ONE): for one proof an array of decimal
 * strings (an array holding one such array is accepted too), for n proofs an array of n arrays.
 * nInputs = ic_len - 1. Returns bigint[nProofs][nInputs].
 */
export function parseInputs(text, nProofs, nInputs) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new InputError(`inputs: not valid JSON (${e.message})`);
  }
  if (!Array.isArray(doc)) throw new InputError('inputs: top level must be a JSON array');
  let lists;
  if (doc.length > 0 && doc.every(Array.isArray)) {
    lists = doc;
  } else if (doc.some(Array.isArray)) {
    throw new InputError('inputs: mixes arrays and values at the top level');
  } else {
    if (nProofs !== 1) {
      throw new InputError(`inputs: ${nProofs} proofs need an array of ${nProofs} arrays, one per proof`);
    }
    lists = [doc];
  }
  if (lists.length !== nProofs) {
    throw new InputError(`inputs: ${lists.length} input lists for ${nProofs} proofs`);
  }
  return lists.map((list, k) => {
    const tag = nProofs === 1 ? 'inputs' : `inputs for proof ${k}`;
    if (list.length !== nInputs) {
      throw new InputError(`${tag}: ${list.length} values, the vk expects ${nInputs} (ic_len - 1)`);
    }
    return list.map((v, i) => parseScalar(v, `${tag}: value ${i}`));
  });
}

// ---------------------------------------------------------------- verification

/**
 * Checks e(A, B) == e(alpha, beta) * e(IC_0 + sum x_i IC_{i+1}, gamma) * e(C, delta) as one
 * multi-pairing: e(-A, B) e(alpha, beta) e(acc, gamma) e(C, delta) == 1.
 * vk needs alpha_g1, beta_g2, gamma_g2, delta_g2, ic; inputs are bigints < r, without ONE.
 */
export function verifyProof(vk, proof, inputs) {
  if (inputs.length + 1 !== vk.ic.length) {
    throw new InputError(`inputs: ${inputs.length} values, the vk expects ${vk.ic.length - 1}`);
  }
  let acc = vk.ic[0];
  if (inputs.length > 0) acc = acc.add(G1.msm(vk.ic.slice(1), inputs));
  const pairs = [
    { g1: proof.a.negate(), g2: proof.b },
    { g1: vk.alpha_g1, g2: vk.beta_g2 },
    { g1: acc, g2: vk.gamma_g2 },
    { g1: proof.c, g2: vk.delta_g2 },
  ].filter(({ g1, g2 }) => !g1.is0() && !g2.is0()); // a pair with the identity contributes 1
  const gt = pairs.length ? bls.pairingBatch(pairs, true) : Fp12.ONE;
  return Fp12.eql(gt, Fp12.ONE);
}

/** Parses the three inputs (byte arrays / JSON text) and verifies every proof. */
export function verifyAll(vkBytes, proofBytes, inputsText) {
  const vk = parseVk(vkBytes);
  const proofs = parseProofs(proofBytes);
  const inputs = parseInputs(inputsText, proofs.length, vk.ic.length - 1);
  const failed = [];
  proofs.forEach((pr, k) => {
    if (!verifyProof(vk, pr, inputs[k])) failed.push(k);
  });
  return { proofs: proofs.length, failed };
}

// ---------------------------------------------------------------- CLI

const USAGE = 'usage: node verify.mjs --vk FILE.vk --proof FILE.proof --inputs FILE.json [--json]';

function parseArgs(argv) {
  const opts = { json: false };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let val;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) {
      val = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    if (a === '--json' && val === undefined) opts.json = true;
    else if (a === '--help' || a === '-h') opts.help = true;
    else if (a === '--vk' || a === '--proof' || a === '--inputs') {
      if (val === undefined) {
        if (i + 1 >= argv.length) throw new InputError(`${a} needs a file name\n${USAGE}`);
        val = argv[++i];
      }
      opts[a.slice(2)] = val;
    } else throw new InputError(`unknown argument ${JSON.stringify(argv[i])}\n${USAGE}`);
  }
  if (!opts.help) {
    for (const k of ['vk', 'proof', 'inputs']) if (!opts[k]) throw new InputError(`missing --${k}\n${USAGE}`);
  }
  return opts;
}

function readInput(what, file) {
  try {
    return readFileSync(file);
  } catch (e) {
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : (e.code || e.message);
    throw new InputError(`cannot read --${what} ${file}: ${why}`);
  }
}

/** Runs the CLI; returns { code, out, err } without touching the process. */
export function runCli(argv) {
  const jsonMode = argv.includes('--json');
  const done = (code, obj, text, toErr) => {
    if (jsonMode) return { code, out: JSON.stringify(obj) + '\n', err: '' };
    return toErr ? { code, out: '', err: text + '\n' } : { code, out: text + '\n', err: '' };
  };
  try {
    const opts = parseArgs(argv);
    if (opts.help) return { code: EXIT_OK, out: USAGE + '\n', err: '' };
    const vkBytes = new Uint8Array(readInput('vk', opts.vk));
    const proofBytes = new Uint8Array(readInput('proof', opts.proof));
    const inputsText = readInput('inputs', opts.inputs).toString('utf8');
    const { proofs, failed } = verifyAll(vkBytes, proofBytes, inputsText);
    if (failed.length === 0) return done(EXIT_OK, { ok: true, proofs }, 'OK', false);
    const list = failed.join(', ');
    return done(EXIT_FAIL, { ok: false, proofs, failed },
      `FAIL: proof${failed.length > 1 ? 's' : ''} ${list} of ${proofs} (counting from 0) did not verify`, false);
  } catch (e) {
    if (e instanceof InputError) {
      return done(EXIT_MALFORMED, { ok: false, error: e.message.split('\n')[0] }, 'error: ' + e.message, true);
    }
    const msg = e && e.message ? e.message : String(e);
    return done(EXIT_INTERNAL, { ok: false, error: 'internal error: ' + msg }, 'internal error: ' + msg, true);
  }
}

function isMain() {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  const { code, out, err } = runCli(process.argv.slice(2));
  if (out) process.stdout.write(out);
  if (err) process.stderr.write(err);
  process.exitCode = code;
}
