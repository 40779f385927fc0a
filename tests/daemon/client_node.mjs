#!/usr/bin/env node
// A cuzk.v1.ProvingEngine client on @grpc/grpc-js, for the daemon's interop tests.
//
// It shares nothing with the daemon: @grpc/proto-loader reads proto/cuzk/v1/proving.proto at
// run time (enums as numbers, 64-bit integers as strings), and the enum values and method
// paths come from that file. The packages are the ones pinned in tests/interop
// (scripts/install-interop.sh installs them).
//
//   client_node.mjs --addr ADDR checks --fast CIRCUIT --slow CIRCUIT --slow-parts N [--tag T]
//   client_node.mjs --addr ADDR limits     (a daemon with a 1 MiB message limit, no test kinds)
//   client_node.mjs --addr ADDR prove --id ID --circuit C [--parts N] [--seed S] [--priority P]
//                                      [--timeout S] [--out FILE]
//   client_node.mjs --addr ADDR prove-porep --id ID --c1 FILE [--out FILE] [--timeout S]
//   client_node.mjs --addr ADDR status
//
// Exit status: 0 when every check passed (or the call returned COMPLETED), 1 otherwise, 2 for
// usage errors, 3 when the client cannot run (the packages or the proto missing).
import { createRequire } from 'node:module';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const DEFAULT_PROTO = join(HERE, '..', '..', 'proto', 'cuzk', 'v1', 'proving.proto');
const TEST_KIND = 100; // the daemon's test proof kind (not in the proto; only with --test-kinds)

let grpc, protoLoader;
try {
  const require = createRequire(join(HERE, '..', 'interop', 'package.json'));
  grpc = require('@grpc/grpc-js');
  protoLoader = require('@grpc/proto-loader');
} catch (e) {
  console.error(`client_node: cannot run: ${e.message.split('\n')[0]} (scripts/install-interop.sh installs the packages)`);
  process.exit(3);
}

// ------------------------------------------------------------------------- arguments
function parseArgs(argv) {
  const opts = { tag: 'node', timeout: 600 };
  const pos = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const key = a.slice(2).replace(/-([a-z])/g, (_, c) => c.toUpperCase());
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      opts[key] = argv[++i];
    } else pos.push(a);
  }
  if (!opts.addr || pos.length !== 1) usage('--addr ADDR and one command expected');
  opts.cmd = pos[0];
  for (const k of ['timeout', 'parts', 'seed', 'priority', 'slowParts', 'sector'])
    if (opts[k] !== undefined) opts[k] = Number(opts[k]);
  return opts;
}

function usage(why) {
  console.error(`client_node: ${why}\nusage: client_node.mjs --addr ADDR <checks|limits|prove|prove-porep|status> [options]`);
  process.exit(2);
}

// ------------------------------------------------------------------------- the client
class Engine {
  constructor(addr, protoPath) {
    this.def = protoLoader.loadSync(protoPath, {
      keepCase: true, longs: String, enums: Number, bytes: Buffer, defaults: true, oneofs: true,
    });
    const services = Object.keys(this.def).filter((k) => this.def[k].format === undefined && !this.def[k].type);
    if (services.length !== 1) throw new Error(`${protoPath}: one service expected, found ${services.join(', ')}`);
    this.service = services[0]; // e.g. cuzk.v1.ProvingEngine
    this.pkg = this.service.slice(0, this.service.lastIndexOf('.'));
    const Ctor = grpc.makeClientConstructor(this.def[this.service], this.service);
    this.addr = addr;
    this.client = new Ctor(addr, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': 64 << 20,
      'grpc.max_send_message_length': 64 << 20,
      'grpc.enable_retries': 0,
    });
  }

  // the values of an enum of the proto: top level (ProofKind) or nested (AwaitProofResponse.Status)
  enumValues(type) {
    const [top, ...nested] = type.split('.');
    let t = this.def[`${this.pkg}.${top}`]?.type;
    for (const name of nested) {
      const inner = (t?.nestedType ?? []).find((m) => m.name === name);
      t = inner ?? (t?.enumType ?? []).find((e) => e.name === name);
    }
    if (!t || !Array.isArray(t.value)) throw new Error(`no enum ${type} in the proto`);
    return t.value;
  }

  // the number of a value of an enum of the proto
  enum(type, name) {
    const v = this.enumValues(type).find((x) => x.name === name);
    if (!v) throw new Error(`no enum value ${type}.${name} in the proto`);
    return v.number;
  }

  enumName(type, number) {
    const v = this.enumValues(type).find((x) => x.number === number);
    return v ? v.name : String(number);
  }

  call(method, req = {}, timeoutS = 600) {
    return new Promise((resolve, reject) => {
      if (!this.client[method]) return reject(new Error(`no method ${method} in the proto`));
      this.client[method](req, { deadline: Date.now() + timeoutS * 1000 }, (err, res) => (err ? reject(err) : resolve(res)));
    });
  }

  // a call with raw request bytes (identity serializers)
  raw(path, bytes, timeoutS = 10) {
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(path, (b) => b, (b) => b, bytes, new grpc.Metadata(),
        { deadline: Date.now() + timeoutS * 1000 }, (err, res) => (err ? reject(err) : resolve(res)));
    });
  }

  close() { this.client.close(); }
}

const codeName = (code) => Object.keys(grpc.status).find((k) => grpc.status[k] === code) ?? String(code);

function testRequest(rid, circuit, parts = 1, seed = 1, priority = 0) {
  return {
    request_id: rid, proof_kind: TEST_KIND, vanilla_proof: Buffer.from(circuit),
    sector_number: String(seed), partition_index: parts - 1, priority,
  };
}

function short(m) {
  return JSON.stringify(m, (k, v) => {
    if (v && v.type === 'Buffer' && Array.isArray(v.data)) return `<${v.data.length} bytes>`;
    return v;
  }).slice(0, 400);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------------- checks
class Checks {
  constructor(name) { this.name = name; this.n = 0; this.fails = 0; }

  ok(cond, desc, why = '') {
    this.n++;
    if (cond) console.log(`ok: ${desc}`);
    else {
      this.fails++;
      console.log(`FAIL: ${desc}${why ? `: ${why}` : ''}`);
    }
    return cond;
  }

  // the promise must reject with this gRPC code (and details matching pattern)
  async rpcError(desc, fn, code, pattern) {
    try {
      const r = await fn();
      return this.ok(false, desc, `the call succeeded (${short(r)}), expected ${code}`);
    } catch (e) {
      if (e.code === undefined) return this.ok(false, desc, `${e.message}`);
      const good = codeName(e.code) === code && (!pattern || new RegExp(pattern).test(e.details ?? ''));
      return this.ok(good, desc, `got ${codeName(e.code)} ${JSON.stringify(e.details)}, expected ${code}${pattern ? ` /${pattern}/` : ''}`);
    }
  }

  done() {
    console.log(`${this.name}: ${this.n} checks, ${this.fails} failed`);
    return this.fails ? 1 : 0;
  }
}

const testQueue = (st) => st.queues.find((q) => q.proof_kind === 'test-circuit');

async function counters(eng) {
  const st = await eng.call('GetStatus', {}, 10);
  const text = (await eng.call('GetMetrics', {}, 10)).prometheus_text;
  const m = /^cuzk_jobs_submitted_total\{kind="circuit"\} (\d+)$/m.exec(text);
  return [Number(st.total_proofs_completed), m ? Number(m[1]) : -1];
}

async function waitRunning(eng, timeoutS) {
  const end = Date.now() + timeoutS * 1000;
  while (Date.now() < end) {
    const q = testQueue(await eng.call('GetStatus', {}, 10));
    if (q && q.in_progress > 0) return true;
    await sleep(20);
  }
  return false;
}

async function cmdChecks(eng, o) {
  const c = new Checks(`client_node checks (${eng.addr})`);
  const tag = o.tag, fast = o.fast ?? 'random:1024', slow = o.slow ?? 'random:65536', sp = o.slowParts ?? 4;
  const S = (n) => eng.enum('AwaitProofResponse.Status', n);
  const [COMPLETED, FAILED, CANCELLED, TIMEOUT] = ['COMPLETED', 'FAILED', 'CANCELLED', 'TIMEOUT'].map(S);

  let st = await eng.call('GetStatus', {}, 10);
  c.ok(testQueue(st) !== undefined, 'GetStatus lists the test kind\'s queue', short(st));
  c.ok(typeof st.uptime_seconds === 'string', 'uint64 fields arrive as strings (longs: String)', typeof st.uptime_seconds);
  const text = (await eng.call('GetMetrics', {}, 10)).prometheus_text;
  c.ok(text.includes('# TYPE cuzk_jobs_submitted_total counter') && text.includes('cuzk_daemon_calls'),
    'GetMetrics is Prometheus text', text.slice(0, 200));

  let rid = `${tag}-prove`;
  let r = (await eng.call('Prove', { submit: testRequest(rid, fast, 3, 12) }, 120)).result;
  c.ok(r.status === COMPLETED && r.proof.length === 3 * 192 && r.job_id === rid,
    `Prove of ${fast} x3: COMPLETED, 576 bytes, job id = request id`, short(r));

  rid = `${tag}-submit`;
  const s = await eng.call('SubmitProof', testRequest(rid, fast, 2, 6), 10);
  c.ok(s.job_id === rid, 'SubmitProof returns the request id as job id', short(s));
  let w = await eng.call('AwaitProof', { job_id: rid }, 120);
  c.ok(w.status === COMPLETED && w.proof.length === 2 * 192, 'AwaitProof: COMPLETED, 384 bytes', short(w));

  // the same request id twice (concurrently): one job
  const [done0, sub0] = await counters(eng);
  rid = `${tag}-twice`;
  const req = testRequest(rid, fast, 1, 8);
  const [s1, s2] = await Promise.all([eng.call('SubmitProof', req, 10), eng.call('SubmitProof', req, 10)]);
  c.ok(s1.job_id === rid && s2.job_id === rid, 'SubmitProof twice at once: the same job', `${short(s1)} / ${short(s2)}`);
  w = await eng.call('AwaitProof', { job_id: rid }, 120);
  const p = (await eng.call('Prove', { submit: req }, 120)).result;
  const [done1, sub1] = await counters(eng);
  c.ok(w.status === COMPLETED && p.status === COMPLETED && Buffer.compare(w.proof, p.proof) === 0,
    'the same request id through Prove joins the ended job (same proof bytes)', short(p));
  c.ok(done1 - done0 === 1, 'one job ran for the three calls (total_proofs_completed +1)', `before ${done0}, after ${done1}`);
  c.ok(sub1 - sub0 === 1, 'metrics: cuzk_jobs_submitted_total{kind=circuit} +1', `before ${sub0}, after ${sub1}`);

  const e1 = await eng.call('EvictSRS', { circuit_id: fast }, 60);
  c.ok(e1.was_loaded, 'EvictSRS of a used circuit: was_loaded', short(e1));
  const p1 = await eng.call('PreloadSRS', { circuit_id: fast }, 120);
  c.ok(!p1.already_loaded, 'PreloadSRS after the evict: loaded anew', short(p1));
  const p2 = await eng.call('PreloadSRS', { circuit_id: fast }, 120);
  c.ok(p2.already_loaded, 'PreloadSRS again: already_loaded', short(p2));
  await c.rpcError('PreloadSRS of an unknown circuit', () => eng.call('PreloadSRS', { circuit_id: 'nope:1' }, 60), 'INVALID_ARGUMENT');
  await c.rpcError('EvictSRS without a circuit id', () => eng.call('EvictSRS', {}, 60), 'INVALID_ARGUMENT', 'circuit_id');

  // AwaitProof shorter than the job: TIMEOUT; the job goes on
  rid = `${tag}-await-timeout`;
  await eng.call('SubmitProof', testRequest(rid, slow, sp, 22), 10);
  let t0 = Date.now();
  w = await eng.call('AwaitProof', { job_id: rid, timeout_ms: '300' }, 30);
  let dt = (Date.now() - t0) / 1000;
  c.ok(w.status === TIMEOUT && w.proof.length === 0, 'AwaitProof timeout_ms=300 on a long job: TIMEOUT', short(w));
  c.ok(dt >= 0.25 && dt < 5, 'the TIMEOUT came after about 300 ms', `${dt} s`);
  w = await eng.call('AwaitProof', { job_id: rid }, 300);
  c.ok(w.status === COMPLETED && w.proof.length === sp * 192, 'the job completes after the TIMEOUT', short(w));
  console.log(`   (the long job, ${slow} x${sp}: ${w.total_ms} ms in all, ${w.queue_wait_ms} ms queued)`);

  // a client deadline shorter than the job
  rid = `${tag}-deadline`;
  t0 = Date.now();
  await c.rpcError('Prove with a 1 s deadline on a long job',
    () => eng.call('Prove', { submit: testRequest(rid, slow, sp, 32) }, 1), 'DEADLINE_EXCEEDED');
  dt = (Date.now() - t0) / 1000;
  c.ok(dt < 5, 'the deadline ended the call in time', `${dt} s`);
  w = await eng.call('AwaitProof', { job_id: rid }, 300);
  c.ok(w.status === COMPLETED && w.proof.length === sp * 192, 'the job of the timed-out Prove completes', short(w));

  // CancelProof of a running job
  rid = `${tag}-cancel`;
  await eng.call('SubmitProof', testRequest(rid, slow, sp, 42), 10);
  c.ok(await waitRunning(eng, 60), 'the job to cancel is running');
  const x = await eng.call('CancelProof', { job_id: rid }, 10);
  c.ok(x.was_running === true, 'CancelProof of a running job: was_running', short(x));
  w = await eng.call('AwaitProof', { job_id: rid }, 120);
  c.ok(w.status === CANCELLED && w.error_message !== '', 'the cancelled job ends CANCELLED with a reason', short(w));
  await c.rpcError('CancelProof of an unknown job', () => eng.call('CancelProof', { job_id: `${tag}-nope` }, 10), 'NOT_FOUND');
  await c.rpcError('AwaitProof without a job id', () => eng.call('AwaitProof', {}, 10), 'INVALID_ARGUMENT', 'job_id');

  // methods the service does not have; request bytes that are no message
  await c.rpcError(`unknown method /${eng.service}/Nope`, () => eng.raw(`/${eng.service}/Nope`, Buffer.alloc(0)), 'UNIMPLEMENTED');
  await c.rpcError('unknown service /other.Service/X', () => eng.raw('/other.Service/X', Buffer.from([8, 1])), 'UNIMPLEMENTED');
  const garbage = Buffer.alloc(11, 0xff);
  for (const m of ['SubmitProof', 'Prove', 'CancelProof', 'GetMetrics'])
    await c.rpcError(`garbage bytes as the ${m} request`, () => eng.raw(`/${eng.service}/${m}`, garbage), 'INVALID_ARGUMENT', 'not a valid');

  // a PoRep with a garbage C1: FAILED in the answer
  const porep = eng.enum('ProofKind', 'POREP_SEAL_COMMIT');
  r = (await eng.call('Prove', {
    submit: { request_id: `${tag}-bad-c1`, proof_kind: porep, vanilla_proof: Buffer.from('{"this is": not a C1 output') },
  }, 60)).result;
  c.ok(r.status === FAILED && r.error_message !== '', 'PoRep with garbage C1 bytes: FAILED with an error message', short(r));
  console.log(`   (${eng.enumName('AwaitProofResponse.Status', r.status)}: ${r.error_message.slice(0, 160)})`);

  for (const kind of [0, 7])
    await c.rpcError(`proof_kind ${kind}`, () => eng.call('SubmitProof',
      { request_id: `${tag}-kind${kind}`, proof_kind: kind, vanilla_proof: Buffer.from('x') }, 10), 'INVALID_ARGUMENT', 'proof_kind');
  await c.rpcError('priority 9', () => eng.call('SubmitProof', { ...testRequest(`${tag}-prio9`, fast), priority: 9 }, 10),
    'INVALID_ARGUMENT', 'priority');
  await c.rpcError('a request id with a control character', () => eng.call('SubmitProof', testRequest(`${tag}-\n`, fast), 10),
    'INVALID_ARGUMENT', 'request_id');

  st = await eng.call('GetStatus', {}, 10);
  c.ok(testQueue(st) !== undefined, 'GetStatus still answers', short(st));
  return c.done();
}

async function cmdLimits(eng, o) {
  const c = new Checks(`client_node limits (${eng.addr})`);
  const porep = eng.enum('ProofKind', 'POREP_SEAL_COMMIT');
  const big = Buffer.alloc(2 << 20, 0x20);
  big[0] = 0x7b;
  await c.rpcError('a 2 MiB request to a daemon taking 1 MiB', () => eng.call('Prove',
    { submit: { request_id: `${o.tag}-big`, proof_kind: porep, vanilla_proof: big } }, 30), 'RESOURCE_EXHAUSTED');
  await c.rpcError('test kind 100 without --test-kinds', () => eng.call('SubmitProof',
    testRequest(`${o.tag}-k100`, 'random:1024'), 10), 'INVALID_ARGUMENT', 'proof_kind.*test kind is off');
  const st = await eng.call('GetStatus', {}, 10);
  c.ok(testQueue(st) === undefined, 'GetStatus lists no test queue without --test-kinds', short(st));
  return c.done();
}

// ------------------------------------------------------------------------- single calls
async function singleProve(eng, o, submit) {
  const t0 = Date.now();
  let r;
  try {
    r = (await eng.call('Prove', { submit }, o.timeout)).result;
  } catch (e) {
    if (e.code === undefined) throw e;
    console.log(JSON.stringify({ code: codeName(e.code), details: e.details, seconds: (Date.now() - t0) / 1000 }));
    return 1;
  }
  const done = r.status === eng.enum('AwaitProofResponse.Status', 'COMPLETED');
  if (o.out && done) {
    writeFileSync(`${o.out}.tmp`, r.proof);
    renameSync(`${o.out}.tmp`, o.out);
  }
  console.log(JSON.stringify({
    job_id: r.job_id, status: eng.enumName('AwaitProofResponse.Status', r.status), proof_len: r.proof.length,
    error_message: r.error_message, seconds: (Date.now() - t0) / 1000,
  }));
  return done ? 0 : 1;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  let eng;
  try {
    eng = new Engine(o.addr, o.proto ?? DEFAULT_PROTO);
  } catch (e) {
    console.error(`client_node: cannot read the proto: ${e.message}`);
    return 3;
  }
  try {
    switch (o.cmd) {
      case 'checks': return await cmdChecks(eng, o);
      case 'limits': return await cmdLimits(eng, o);
      case 'prove':
        if (!o.id || !o.circuit) usage('prove: --id and --circuit expected');
        return await singleProve(eng, o, testRequest(o.id, o.circuit, o.parts ?? 1, o.seed ?? 1, o.priority ?? 0));
      case 'prove-porep':
        if (!o.id || !o.c1) usage('prove-porep: --id and --c1 expected');
        return await singleProve(eng, o, {
          request_id: o.id, proof_kind: eng.enum('ProofKind', 'POREP_SEAL_COMMIT'),
          vanilla_proof: readFileSync(o.c1), sector_number: String(o.sector ?? 0),
        });
      case 'status':
        console.log(short(await eng.call('GetStatus', {}, 10)));
        return 0;
      default: usage(`unknown command ${o.cmd}`);
    }
  } catch (e) {
    console.log(`FAIL: client_node ${o.cmd}: ${e.code !== undefined ? `unexpected RPC error ${codeName(e.code)}: ${e.details}` : e.stack}`);
    return 1;
  } finally {
    eng.close();
  }
  return 1;
}

process.exitCode = await main();
