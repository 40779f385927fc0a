#!/usr/bin/env node
// Self-test of the independent verifier (verify.mjs):
//  1. a synthetic Groth16 instance made here from a known trapdoor: valid proofs verify,
//     tampered ones do not, single and multi-proof files, through the core and the CLI;
//  2. malformed input through the CLI: exit code 2 and a message naming the field/offset;
//  3. the bellman known-answer vectors (Groth16 proofs made by Rust bellman), when available:
//     bellman's compressed vk form is converted to the .vk layout; every vector must parse (the
//     FAIL ones too: they test the pairing check, not the parser), then give its expected
//     OK/FAIL through the core, through the CLI and, when $CUZK_BIN names the cuzk binary
//     (kat.sh passes it), through `cuzk verify`.
// Vectors: $CUZK_SHARED_VECTORS (the file, or a folder holding bellman-kat.json), else
// $CUZK_SOURCE_DIR/tests/vectors/bellman-kat.json. Without them the other tests still run,
// then it prints "SKIPPED: bellman vectors not available" and exits 77.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bls12_381 as bls } from '@noble/curves/bls12-381';
import * as V from './verify.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const VERIFY = join(HERE, 'verify.mjs');
const G1 = bls.G1.Point;
const G2 = bls.G2.Point;
const { R } = V;

let passed = 0;
let failed = 0;
function check(name, cond, detail = '') {
  if (cond) {
    passed++;
  } else {
    failed++;
    console.log(`FAIL ${name}${detail ? ': ' + detail : ''}`);
  }
}
function section(name) {
  console.log(`-- ${name}`);
}

// ---------------------------------------------------------------- helpers

const tmp = mkdtempSync(join(tmpdir(), 'cuzk-interop-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
let fileNo = 0;
function tmpFile(content, ext) {
  const f = join(tmp, `f${fileNo++}.${ext}`);
  writeFileSync(f, typeof content === 'string' ? content : Buffer.from(content));
  return f;
}

function cli(vk, proof, inputs, extra = []) {
  const args = [VERIFY];
  if (vk !== null) args.push('--vk', tmpFile(vk, 'vk'));
  if (proof !== null) args.push('--proof', tmpFile(proof, 'proof'));
  if (inputs !== null) args.push('--inputs', tmpFile(typeof inputs === 'string' ? inputs : JSON.stringify(inputs), 'json'));
  const r = spawnSync(process.execPath, [...args, ...extra], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr, all: r.stdout + r.stderr };
}

function cliArgs(args) {
  const r = spawnSync(process.execPath, [VERIFY, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr, all: r.stdout + r.stderr };
}

// `cuzk verify` (the C verifier's CLI), when kat.sh gives the binary: the same files as cli().
const CUZK = process.env.CUZK_BIN || '';
function cuzkVerify(vk, proof, inputs) {
  const args = ['verify', '--vk', tmpFile(vk, 'vk'), '--proof', tmpFile(proof, 'proof'),
    '--inputs', tmpFile(JSON.stringify(inputs), 'json'), '--json'];
  const r = spawnSync(CUZK, args, { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr, all: r.stdout + r.stderr };
}
// Whether a --json answer (both CLIs print {"ok":..,"failed":[..]}) is the verdict expected
// of one proof: OK, or FAIL with proof 0 failed (not an error before verifying).
function verdict(out, expect) {
  let j = null;
  try { j = JSON.parse(out); } catch { return false; }
  return expect === 'OK' ? j.ok === true : j.ok === false && JSON.stringify(j.failed) === '[0]';
}

const hasStack = (s) => /\n\s+at /.test(s) || /node:internal/.test(s);

function expectMalformed(name, res, ...needles) {
  const ok = res.code === 2 && needles.every((n) => res.all.includes(n)) && !hasStack(res.all);
  check(`malformed: ${name}`, ok, `exit ${res.code}, output ${JSON.stringify(res.all.trim())}, wanted ${JSON.stringify(needles)}`);
}

function concat(...parts) {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
function u32be(n) {
  return Uint8Array.of((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
}
function mod(a) {
  return ((a % R) + R) % R;
}
function inv(a) {
  // a^(r-2) mod r
  let res = 1n, b = mod(a), e = R - 2n;
  while (e > 0n) {
    if (e & 1n) res = (res * b) % R;
    b = (b * b) % R;
    e >>= 1n;
  }
  return res;
}
let seed = 0;
function scalar() {
  const h = createHash('sha256').update('cuzk-interop-kat:' + seed++).digest('hex');
  return mod(BigInt('0x' + h)) || 1n;
}

/** .vk bytes in bellperson's layout from points. */
function vkBytes(vk) {
  return concat(
    V.encodeUncompressed(vk.alpha_g1, 1), V.encodeUncompressed(vk.beta_g1, 1),
    V.encodeUncompressed(vk.beta_g2, 2), V.encodeUncompressed(vk.gamma_g2, 2),
    V.encodeUncompressed(vk.delta_g1, 1), V.encodeUncompressed(vk.delta_g2, 2),
    u32be(vk.ic.length), ...vk.ic.map((p) => V.encodeUncompressed(p, 1)));
}
function proofBytes(pr) {
  return concat(V.encodeCompressed(pr.a, 1), V.encodeCompressed(pr.b, 2), V.encodeCompressed(pr.c, 1));
}

// ---------------------------------------------------------------- 1. synthetic instance

// With the trapdoor (alpha, beta, gamma, delta, u_i) any A = [a]1, B = [b]2 can be completed by
// C = [(a*b - alpha*beta - gamma*(u_0 + sum x_i u_i)) / delta]1 into a proof the equation accepts.
function makeInstance(nInputs) {
  const t = { alpha: scalar(), beta: scalar(), gamma: scalar(), delta: scalar(), u: [] };
  for (let i = 0; i <= nInputs; i++) t.u.push(scalar());
  const g1 = (s) => G1.BASE.multiply(s);
  const g2 = (s) => G2.BASE.multiply(s);
  t.vk = {
    alpha_g1: g1(t.alpha), beta_g1: g1(t.beta), beta_g2: g2(t.beta), gamma_g2: g2(t.gamma),
    delta_g1: g1(t.delta), delta_g2: g2(t.delta), ic: t.u.map(g1),
  };
  t.prove = (xs) => {
    const a = scalar(), b = scalar();
    let acc = t.u[0];
    xs.forEach((x, i) => (acc = mod(acc + x * t.u[i + 1])));
    const c = mod((a * b - t.alpha * t.beta - t.gamma * acc) * inv(t.delta));
    return { a: g1(a), b: g2(b), c: g1(c) };
  };
  return t;
}

section('synthetic instance');
const inst = makeInstance(3);
const VK = vkBytes(inst.vk);
const xsA = [35n, 0n, R - 1n];
const xsB = [1n, 2n, 3n];
const prA = inst.prove(xsA);
const prB = inst.prove(xsB);
const PA = proofBytes(prA);
const PB = proofBytes(prB);
const dec = (xs) => xs.map(String);

{
  const vk = V.parseVk(VK);
  check('vk round trip: 4 IC points', vk.ic.length === 4);
  check('vk round trip: points equal', vk.alpha_g1.equals(inst.vk.alpha_g1) && vk.delta_g2.equals(inst.vk.delta_g2) &&
    vk.ic.every((p, i) => p.equals(inst.vk.ic[i])));
  const [pa] = V.parseProofs(PA);
  check('proof round trip', pa.a.equals(prA.a) && pa.b.equals(prA.b) && pa.c.equals(prA.c));
  check('core: valid proof verifies', V.verifyProof(vk, pa, xsA));
  check('core: changed input fails', !V.verifyProof(vk, pa, [36n, 0n, R - 1n]));
  check('core: proof for other inputs fails', !V.verifyProof(vk, pa, xsB));
  check('core: swapped A/C fails', !V.verifyProof(vk, { a: pa.c, b: pa.b, c: pa.a }, xsA));
  // Compressed encoding vs @noble/curves' own ZCash codec (an extra cross-check of the sign bit).
  for (const [i, p] of [prA.a, prA.c, prB.a, prB.c, G1.BASE, G1.BASE.negate()].entries()) {
    check(`G1 compressed encoding agrees with noble (${i})`,
      Buffer.from(V.encodeCompressed(p, 1)).equals(Buffer.from(p.toRawBytes(true))));
  }
  for (const [i, p] of [prA.b, prB.b, G2.BASE, G2.BASE.negate()].entries()) {
    check(`G2 compressed encoding agrees with noble (${i})`,
      Buffer.from(V.encodeCompressed(p, 2)).equals(Buffer.from(bls.Signature.toBytes(p))));
  }
}

{
  let r = cli(VK, PA, dec(xsA));
  check('cli: one proof -> exit 0 "OK"', r.code === 0 && r.out.trim() === 'OK', JSON.stringify(r));
  r = cli(VK, PA, dec(xsA), ['--json']);
  let j = null;
  try { j = JSON.parse(r.out); } catch { /* checked below */ }
  check('cli --json: {"ok":true,"proofs":1}', r.code === 0 && j && j.ok === true && j.proofs === 1, JSON.stringify(r));
  r = cli(VK, PA, [dec(xsA)]);
  check('cli: one proof, inputs as [[...]] -> exit 0', r.code === 0, JSON.stringify(r));
  r = cli(VK, PA, dec(xsB));
  check('cli: wrong inputs -> exit 1 naming proof 0', r.code === 1 && /proofs? 0 /.test(r.out), JSON.stringify(r));
  r = cli(VK, concat(PA, PB), [dec(xsA), dec(xsB)]);
  check('cli: two proofs -> exit 0', r.code === 0 && r.out.trim() === 'OK', JSON.stringify(r));
  r = cli(VK, concat(PA, PB, PA), [dec(xsA), dec(xsB), dec(xsA)], ['--json']);
  j = null;
  try { j = JSON.parse(r.out); } catch { /* checked below */ }
  check('cli --json: three proofs -> proofs 3', r.code === 0 && j && j.ok && j.proofs === 3, JSON.stringify(r));
  r = cli(VK, concat(PA, PB, PA), [dec(xsA), dec(xsA), dec(xsA)]);
  check('cli: second of three fails -> exit 1 naming proof 1', r.code === 1 && /proofs? 1 of 3/.test(r.out), JSON.stringify(r));
  r = cli(VK, concat(PA, PB, PB), [dec(xsA), dec(xsA), dec(xsA)], ['--json']);
  j = null;
  try { j = JSON.parse(r.out); } catch { /* checked below */ }
  check('cli --json: failed lists proofs 1 and 2', r.code === 1 && j && j.ok === false && JSON.stringify(j.failed) === '[1,2]',
    JSON.stringify(r));
  r = cliArgs([`--vk=${tmpFile(VK, 'vk')}`, `--proof=${tmpFile(PA, 'proof')}`, `--inputs=${tmpFile(JSON.stringify(dec(xsA)), 'json')}`]);
  check('cli: --opt=FILE form', r.code === 0, JSON.stringify(r));
}

{
  // Zero public inputs (ic_len 1).
  const i0 = makeInstance(0);
  const vk0 = vkBytes(i0.vk);
  const p0 = proofBytes(i0.prove([]));
  check('cli: zero inputs, [] -> exit 0', cli(vk0, p0, []).code === 0);
  check('cli: zero inputs, two proofs [[],[]] -> exit 0', cli(vk0, concat(p0, p0), [[], []]).code === 0);
}

// ---------------------------------------------------------------- 2. malformed input

section('malformed input');
{
  const good = dec(xsA);
  const ICOFF = V.VK_FIXED_BYTES + 4; // 868
  expectMalformed('vk truncated by one byte', cli(VK.subarray(0, VK.length - 1), PA, good), 'vk', 'ic[3]', `byte ${ICOFF + 3 * 96}`, 'truncated');
  expectMalformed('vk truncated in delta_g2', cli(VK.subarray(0, 700), PA, good), 'delta_g2', 'byte 672', 'truncated');
  expectMalformed('vk truncated before ic_len', cli(VK.subarray(0, 866), PA, good), 'ic_len', 'byte 864');
  expectMalformed('vk empty', cli(new Uint8Array(0), PA, good), 'alpha_g1', 'byte 0', 'truncated');
  expectMalformed('vk trailing byte', cli(concat(VK, Uint8Array.of(0)), PA, good), 'trailing', `byte ${VK.length}`);
  {
    const v = Uint8Array.from(VK);
    v.set(u32be(5), 864);
    expectMalformed('vk ic_len larger than the file', cli(v, PA, good), 'ic_len 5', 'truncated');
    v.set(u32be(0), 864);
    expectMalformed('vk ic_len 0', cli(v, PA, good), 'ic_len', 'is 0');
  }
  {
    const v = Uint8Array.from(VK);
    v[95] ^= 1; // alpha_g1.y
    expectMalformed('vk alpha_g1 off the curve', cli(v, PA, good), 'alpha_g1 at byte 0', 'not on the curve');
  }
  {
    const v = Uint8Array.from(VK);
    v[192 + 191] ^= 1; // beta_g2.y.c0
    expectMalformed('vk beta_g2 off the curve', cli(v, PA, good), 'beta_g2 at byte 192', 'not on the curve');
  }
  {
    const v = Uint8Array.from(VK);
    v.set(new Uint8Array(96), ICOFF + 96);
    v[ICOFF + 96] = 0x40;
    expectMalformed('vk identity IC point', cli(v, PA, good), `ic[1] at byte ${ICOFF + 96}`, 'point at infinity');
  }
  {
    const v = Uint8Array.from(VK);
    v[0] |= 0x80;
    expectMalformed('vk compressed flag in uncompressed point', cli(v, PA, good), 'alpha_g1 at byte 0', 'compression flag');
    v[0] = VK[0] | 0x20;
    expectMalformed('vk sign flag in uncompressed point', cli(v, PA, good), 'alpha_g1 at byte 0', 'sign flag');
  }
  {
    // x = p: not canonical.
    const v = Uint8Array.from(VK);
    let p = V.P;
    for (let i = 47; i >= 0; i--, p >>= 8n) v[96 + i] = Number(p & 0xffn);
    expectMalformed('vk beta_g1 x >= p', cli(v, PA, good), 'beta_g1 at byte 96', 'canonical');
  }
  // A point on the curve outside the prime-order subgroup (almost every curve point is).
  let badG1 = null;
  for (let x = 1n; !badG1; x++) {
    const rhs = bls.fields.Fp.add(bls.fields.Fp.mul(bls.fields.Fp.sqr(x), x), 4n);
    let y;
    try { y = bls.fields.Fp.sqrt(rhs); } catch { continue; }
    const pt = G1.fromAffine({ x, y });
    if (!pt.isTorsionFree()) badG1 = pt;
  }
  let badG2 = null;
  const { Fp2 } = bls.fields;
  for (let k = 1n; !badG2; k++) {
    const x = Fp2.create({ c0: k, c1: 1n });
    const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), Fp2.create({ c0: 4n, c1: 4n }));
    let y;
    try { y = Fp2.sqrt(rhs); } catch { continue; }
    if (!Fp2.eql(Fp2.sqr(y), rhs)) continue;
    const pt = G2.fromAffine({ x, y });
    if (!pt.isTorsionFree()) badG2 = pt;
  }
  {
    const v = Uint8Array.from(VK);
    v.set(V.encodeUncompressed(badG1, 1), ICOFF + 2 * 96);
    expectMalformed('vk IC point not in the subgroup', cli(v, PA, good), `ic[2] at byte ${ICOFF + 192}`, 'subgroup');
    const w = Uint8Array.from(VK);
    w.set(V.encodeUncompressed(badG2, 2), 384);
    expectMalformed('vk gamma_g2 not in the subgroup', cli(w, PA, good), 'gamma_g2 at byte 384', 'subgroup');
  }
  expectMalformed('proof of 191 bytes', cli(VK, PA.subarray(0, 191), good), 'proof', 'length 191', 'multiple of 192');
  expectMalformed('proof of 193 bytes', cli(VK, concat(PA, Uint8Array.of(0)), good), 'length 193', 'proof 1 at byte 192');
  expectMalformed('proof empty', cli(VK, new Uint8Array(0), good), 'proof', 'empty');
  {
    const p = concat(PA, PB);
    p.set(V.encodeCompressed(G1.ZERO, 1), 192);
    expectMalformed('proof identity A', cli(VK, p, [good, good]), 'proof 1: A at byte 192', 'point at infinity');
    const q = Uint8Array.from(PA);
    q.set(V.encodeCompressed(G2.ZERO, 2), 48);
    expectMalformed('proof identity B', cli(VK, q, good), 'proof 0: B at byte 48', 'point at infinity');
    const s = Uint8Array.from(PA);
    s.set(V.encodeCompressed(G1.ZERO, 1), 144);
    expectMalformed('proof identity C', cli(VK, s, good), 'proof 0: C at byte 144', 'point at infinity');
  }
  {
    const p = Uint8Array.from(PA);
    p.set(V.encodeCompressed(badG1, 1), 144);
    expectMalformed('proof C not in the subgroup', cli(VK, p, good), 'proof 0: C at byte 144', 'subgroup');
    const q = Uint8Array.from(PA);
    q.set(V.encodeCompressed(badG2, 2), 48);
    expectMalformed('proof B not in the subgroup', cli(VK, q, good), 'proof 0: B at byte 48', 'subgroup');
    const s = Uint8Array.from(PA);
    s[0] &= 0x7f;
    expectMalformed('proof A without the compression flag', cli(VK, s, good), 'proof 0: A at byte 0', 'compression flag');
    // An x with no y on G1: find one.
    let x = 1n;
    for (;; x++) {
      const rhs = bls.fields.Fp.add(bls.fields.Fp.mul(bls.fields.Fp.sqr(x), x), 4n);
      let ok = true;
      try { bls.fields.Fp.sqrt(rhs); } catch { ok = false; }
      if (!ok) break;
    }
    const t = Uint8Array.from(PA);
    t.fill(0, 0, 48);
    let xv = x;
    for (let i = 47; i >= 0; i--, xv >>= 8n) t[i] = Number(xv & 0xffn);
    t[0] |= 0x80;
    expectMalformed('proof A off the curve', cli(VK, t, good), 'proof 0: A at byte 0', 'not on the curve');
    const u = Uint8Array.from(PA);
    u[0] = 0xc0 | 0x20; // infinity with the sign bit
    expectMalformed('proof A infinity with sign bit', cli(VK, u, good), 'proof 0: A at byte 0', 'infinity');
  }
  expectMalformed('input equal to r', cli(VK, PA, ['35', '0', R.toString()]), 'value 2', 'not below r');
  expectMalformed('input far above r', cli(VK, PA, ['35', '0', '9'.repeat(100)]), 'value 2', 'not below r');
  expectMalformed('wrong input count (2 of 3)', cli(VK, PA, ['35', '0']), '2 values', 'expects 3');
  expectMalformed('wrong input count (4 of 3)', cli(VK, PA, ['35', '0', '1', '2']), '4 values', 'expects 3');
  expectMalformed('input with leading zero', cli(VK, PA, ['035', '0', '1']), 'value 0', 'canonical decimal');
  expectMalformed('input with sign', cli(VK, PA, ['+35', '0', '1']), 'value 0', 'canonical decimal');
  expectMalformed('input negative', cli(VK, PA, ['-1', '0', '1']), 'value 0', 'canonical decimal');
  expectMalformed('input hex', cli(VK, PA, ['0x23', '0', '1']), 'value 0', 'canonical decimal');
  expectMalformed('input as JSON number', cli(VK, PA, '[35, "0", "1"]'), 'value 0', 'decimal string');
  expectMalformed('inputs not JSON', cli(VK, PA, '["35", '), 'inputs', 'not valid JSON');
  expectMalformed('inputs not an array', cli(VK, PA, '{"a": 1}'), 'inputs', 'array');
  expectMalformed('inputs: flat list for two proofs', cli(VK, concat(PA, PB), good), '2 proofs', 'one per proof');
  expectMalformed('inputs: one list for two proofs', cli(VK, concat(PA, PB), [good]), '1 input lists for 2 proofs');
  expectMalformed('inputs: wrong count for proof 1', cli(VK, concat(PA, PB), [good, ['1']]), 'proof 1', '1 values');
  expectMalformed('inputs: mixed', cli(VK, PA, '[["35"], "0"]'), 'mixes');
  expectMalformed('missing file', cliArgs(['--vk', join(tmp, 'nope.vk'), '--proof', tmpFile(PA, 'proof'), '--inputs', tmpFile('[]', 'json')]),
    'cannot read --vk', 'no such file');
  expectMalformed('missing --inputs', cliArgs(['--vk', tmpFile(VK, 'vk'), '--proof', tmpFile(PA, 'proof')]), 'missing --inputs');
  expectMalformed('unknown option', cliArgs(['--frobnicate']), 'unknown argument');
  {
    const r = cli(VK, PA.subarray(0, 191), good, ['--json']);
    let j = null;
    try { j = JSON.parse(r.out); } catch { /* checked below */ }
    check('malformed --json: {"ok":false,"error":...} exit 2', r.code === 2 && j && j.ok === false && /multiple of 192/.test(j.error),
      JSON.stringify(r));
  }
}

// ---------------------------------------------------------------- 3. bellman vectors

function vectorsPath() {
  const env = process.env.CUZK_SHARED_VECTORS;
  if (env) {
    try {
      if (statSync(env).isDirectory()) return join(env, 'bellman-kat.json');
    } catch { /* not there: reported as absent */ }
    return env;
  }
  const src = process.env.CUZK_SOURCE_DIR || join(HERE, '..', '..');
  return join(src, 'tests', 'vectors', 'bellman-kat.json');
}

/**
 * Converts one bellman vector (vk = alpha_g1 || beta_g2 || gamma_g2 || delta_g2 || IC..., all
 * compressed; inputs as 32-byte big-endian values) into the verifier's forms.
 */
function convertVector(v) {
  const vkc = new Uint8Array(Buffer.from(v.vk, 'base64'));
  const proof = new Uint8Array(Buffer.from(v.proof, 'base64'));
  const raw = new Uint8Array(Buffer.from(v.inputs, 'base64'));
  const fixed = 48 + 3 * 96;
  if (vkc.length < fixed + 48 || (vkc.length - fixed) % 48 !== 0) throw new V.InputError(`bellman vk of ${vkc.length} bytes`);
  if (raw.length % 32 !== 0) throw new V.InputError(`bellman inputs of ${raw.length} bytes`);
  const vk = { alpha_g1: V.decodePoint(vkc, 0, 1, true, 'bellman vk: alpha_g1 at byte 0') };
  let off = 48;
  for (const n of ['beta_g2', 'gamma_g2', 'delta_g2']) {
    vk[n] = V.decodePoint(vkc, off, 2, true, `bellman vk: ${n} at byte ${off}`);
    off += 96;
  }
  vk.ic = [];
  for (let i = 0; off < vkc.length; i++, off += 48) {
    const p = V.decodePoint(vkc, off, 1, true, `bellman vk: ic[${i}] at byte ${off}`);
    if (p.is0()) throw new V.InputError(`bellman vk: ic[${i}] at byte ${off}: point at infinity`);
    vk.ic.push(p);
  }
  // beta_g1 and delta_g1 are not in bellman's form; verification does not use them, so the
  // .vk written for the CLI carries the G1 generator in their place.
  vk.beta_g1 = G1.BASE;
  vk.delta_g1 = G1.BASE;
  const inputs = [];
  for (let i = 0; i < raw.length; i += 32) {
    inputs.push(BigInt('0x' + Buffer.from(raw.subarray(i, i + 32)).toString('hex')));
  }
  return { vkc, vk, proof, inputs };
}

const vpath = vectorsPath();
let skipped = false;
if (!existsSync(vpath)) {
  skipped = true;
} else {
  section('bellman vectors');
  const doc = JSON.parse(readFileSync(vpath, 'utf8'));
  const vectors = doc.vectors || doc;
  let nOk = 0, nFail = 0;
  for (const v of vectors) {
    const name = `vector "${v.name}" (expect ${v.expect})`;
    if (v.expect === 'OK') nOk++;
    else nFail++;
    // Every vector must parse (valid points, right lengths), the FAIL ones too: those test the
    // pairing check, and one refused while parsing would pass without reaching it.
    let conv;
    try {
      conv = convertVector(v);
      if (conv.inputs.some((x) => x >= R)) throw new V.InputError('an input is not below r');
      if (conv.proof.length !== 192) throw new V.InputError(`a proof of ${conv.proof.length} bytes, not 192`);
      if (conv.inputs.length !== conv.vk.ic.length - 1) {
        throw new V.InputError(`${conv.inputs.length} inputs for a vk of ${conv.vk.ic.length} IC points`);
      }
      [conv.pr] = V.parseProofs(conv.proof);
    } catch (e) {
      if (!(e instanceof V.InputError)) throw e;
      check(`parse: ${name}`, false, `does not parse: ${e.message}`);
      console.log(`   ${v.name}: does not parse (${e.message})`);
      continue;
    }
    const got = V.verifyProof(conv.vk, conv.pr, conv.inputs) ? 'OK' : 'FAIL';
    check(`core: ${name}`, got === v.expect, `got ${got}`);
    console.log(`   ${v.name}: expected ${v.expect}, parsed, core ${got}`);
    // Point decoding cross-check: re-encoding gives bellman's bytes back, and noble's own
    // ZCash decoder agrees.
    {
      const re = concat(V.encodeCompressed(conv.vk.alpha_g1, 1), V.encodeCompressed(conv.vk.beta_g2, 2),
        V.encodeCompressed(conv.vk.gamma_g2, 2), V.encodeCompressed(conv.vk.delta_g2, 2),
        ...conv.vk.ic.map((p) => V.encodeCompressed(p, 1)));
      check(`re-encode vk: ${v.name}`, Buffer.from(re).equals(Buffer.from(conv.vkc)));
      let agree = G1.fromHex(Buffer.from(conv.vkc.subarray(0, 48)).toString('hex')).equals(conv.vk.alpha_g1) &&
        bls.Signature.fromBytes(conv.vkc.subarray(48, 144)).equals(conv.vk.beta_g2);
      for (let i = 0; i < conv.vk.ic.length; i++) {
        const o = 336 + 48 * i;
        agree = agree && G1.fromHex(Buffer.from(conv.vkc.subarray(o, o + 48)).toString('hex')).equals(conv.vk.ic[i]);
      }
      check(`noble decoder agrees: ${v.name}`, agree);
    }
    // Through the CLIs, with the vk in bellperson's .vk layout: a FAIL vector is a proof that
    // does not verify (exit 1, proof 0 failed), never malformed input (exit 2 / an error).
    const want = v.expect === 'OK' ? 0 : 1;
    const r = cli(vkBytes(conv.vk), conv.proof, conv.inputs.map(String), ['--json']);
    check(`cli: ${name}`, r.code === want && verdict(r.out, v.expect) && !hasStack(r.all),
      `exit ${r.code}, wanted ${want}: ${r.all.trim()}`);
    if (CUZK) {
      const c = cuzkVerify(vkBytes(conv.vk), conv.proof, conv.inputs.map(String));
      check(`cuzk verify: ${name}`, c.code === want && verdict(c.out, v.expect), `exit ${c.code}, wanted ${want}: ${c.all.trim()}`);
    }
  }
  check('vectors: some must verify and some must fail', nOk > 0 && nFail > 0, `${nOk} OK, ${nFail} FAIL`);
  // Multi-proof file from a vector: the same valid proof twice.
  const okv = vectors.find((v) => v.expect === 'OK' && Buffer.from(v.inputs, 'base64').length > 0);
  if (okv) {
    const c = convertVector(okv);
    const xs = c.inputs.map(String);
    let r = cli(vkBytes(c.vk), concat(c.proof, c.proof), [xs, xs]);
    check('cli: vector proof twice -> exit 0', r.code === 0, r.all.trim());
    const wrong = [...xs];
    wrong[0] = String((c.inputs[0] + 1n) % R);
    r = cli(vkBytes(c.vk), concat(c.proof, c.proof), [xs, wrong]);
    check('cli: vector proof twice, second input wrong -> exit 1 naming proof 1', r.code === 1 && /proofs? 1 of 2/.test(r.out), r.all.trim());
  }
}

console.log(`${passed} passed, ${failed} failed`);
if (failed > 0) process.exit(1);
if (skipped) {
  console.log('SKIPPED: bellman vectors not available');
  process.exit(77);
}
process.exit(0);
