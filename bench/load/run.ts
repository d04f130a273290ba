// `npm run bench:load`: 50 connections of mixed traffic (get, list, keyword, semantic,
// hybrid, write) for RHIZOME_LOAD_SECONDS against a real server holding RHIZOME_LOAD_NODES
// notes embedded by the bundled model. Every configuration in RHIZOME_LOAD_CONFIGS runs on
// a copy of the same seeded data folder, one after the other in the same run, so their
// figures compare side by side, on each target of RHIZOME_LOAD_TARGETS in turn (sqlite by
// default; postgres and postgres-nginx: bench/load/targets.ts, with RHIZOME_LOAD_DATABASE_URL).
// Prints one JSON line per configuration and target, and a summary.
import { loadavg, availableParallelism } from 'node:os';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Tuning } from '../../src/config.js';
import { loadNotes, loadQueries } from './corpus.js';
import { PgSeeds } from './postgres.js';
import { drained, seed, startServer } from './server.js';
import { startTarget, targetsFrom, type TargetName } from './targets.js';
import { mixFrom, runTraffic, type Kind, type KindResult } from './traffic.js';
import { runOpenLoop } from './open-loop.js';
import { BENCH_FEEDS, prepareFeeds, type FeedLoad } from './feeds.js';
import { cpuMeter, type CpuUse } from './cpu.js';

const ROOT = resolve(import.meta.dirname, '..');
const env = process.env;
const nodes = Number(env.RHIZOME_LOAD_NODES ?? 2000);
const seconds = Number(env.RHIZOME_LOAD_SECONDS ?? 60);
const connections = Number(env.RHIZOME_LOAD_CONNECTIONS ?? 50);
/** RHIZOME_LOAD_RATE: requests a second offered in all (open loop, open-loop.ts); unset, closed loop. */
const rate = env.RHIZOME_LOAD_RATE ? Number(env.RHIZOME_LOAD_RATE) : undefined;
if (rate !== undefined && !(rate > 0)) throw new Error(`RHIZOME_LOAD_RATE: a positive number of requests a second, not ${env.RHIZOME_LOAD_RATE}`);
/**
 * RHIZOME_LOAD_WARMUP: seconds of the same traffic sent first and not counted (default 0). A
 * process's first second under traffic is slow (code not yet compiled, the model's first
 * batches, the pool's first connections): at 100 req/s every request over 150 ms came then.
 */
const warmup = Number(env.RHIZOME_LOAD_WARMUP ?? 0);
if (!(warmup >= 0)) throw new Error(`RHIZOME_LOAD_WARMUP: seconds, not ${env.RHIZOME_LOAD_WARMUP}`);
/** RHIZOME_LOAD_MIXES: named mixes (typical, search-heavy) or custom ones, separated by `;`. */
const mixes = (env.RHIZOME_LOAD_MIXES ?? 'typical;search-heavy').split(';').map((m) => m.trim()).filter(Boolean);
for (const m of mixes) mixFrom(m); // fail fast on a bad one

/**
 * `before`: the embedding levers off (one worker, first come first served, no query-vector
 * cache); `after`: the defaults (queries first and batched, background work in small chunks,
 * the query-vector cache; on 4 cores or more a second, lower-priority worker for background
 * work); `two-workers`: that second worker forced; `gate-8`, `gate-16`: the defaults plus
 * the turn gate at 8 or 16 new requests a turn instead of the default 24
 * (requestsPerTurn); `no-gate`: the defaults without the gate (0);
 * `tfjs`: the defaults with USE-lite on TF.js's WebAssembly backend, the runtime before
 * onnxruntime; `keyword-fts5`: the defaults with FTS5 scoring every keyword query, no
 * postings kept in memory; `feeds-200`: the defaults while 200 feeds are polled throughout
 * the run (bench/load/feeds.ts). The knobs are Config.tuning, injected by dist/serve-tuned.js.
 */
const CONFIGS: Record<string, Tuning> = {
  before: { embedWorkers: 1, embedScheduling: 'fifo', queryCache: 0 },
  after: {},
  'two-workers': { embedWorkers: 2 },
  'gate-8': { requestsPerTurn: 8 },
  'gate-16': { requestsPerTurn: 16 },
  'no-gate': { requestsPerTurn: 0 },
  tfjs: { useLiteRuntime: 'tfjs' },
  'keyword-fts5': { keywordMemory: false },
  'feeds-200': {},
};
const chosen = (env.RHIZOME_LOAD_CONFIGS ?? 'before,after').split(',').map((c) => c.trim()).filter(Boolean);
for (const c of chosen) if (!CONFIGS[c]) throw new Error(`unknown configuration ${c} (known: ${Object.keys(CONFIGS).join(', ')})`);

const targets = targetsFrom(env.RHIZOME_LOAD_TARGETS ?? 'sqlite');
const onPostgres = targets.some((t) => t !== 'sqlite');
if (onPostgres && !env.RHIZOME_LOAD_DATABASE_URL) throw new Error('RHIZOME_LOAD_TARGETS names a PostgreSQL target: set RHIZOME_LOAD_DATABASE_URL to a server on which the bench may create databases');

const started = Date.now();
const notes = loadNotes(ROOT, nodes);
const queries = loadQueries(ROOT, 40_000);

// Seed once with the defaults; each configuration then starts from a copy. With
// RHIZOME_LOAD_SEED_DIR the seeded folder is kept there and reused by later runs.
const seedDir = env.RHIZOME_LOAD_SEED_DIR ? resolve(env.RHIZOME_LOAD_SEED_DIR) : undefined;
const reuse = seedDir && existsSync(join(seedDir, 'seeded.json')) ? (JSON.parse(readFileSync(join(seedDir, 'seeded.json'), 'utf8')) as { ids: string[] }) : undefined;
let ids: string[];
let seededDir: string;
if (reuse && reuse.ids.length === nodes) {
  ids = reuse.ids;
  seededDir = seedDir!;
  console.log(JSON.stringify({ kind: 'load_seed', nodes, reused: seedDir }));
} else {
  const seeding = Date.now();
  if (seedDir) mkdirSync(seedDir, { recursive: true });
  const seeder = await startServer(ROOT, {}, seedDir);
  ids = await seed(seeder, notes);
  await seeder.stop();
  seededDir = seeder.dataDir;
  if (seedDir) writeFileSync(join(seedDir, 'seeded.json'), JSON.stringify({ ids }));
  console.log(JSON.stringify({ kind: 'load_seed', nodes: ids.length, seconds: Math.round((Date.now() - seeding) / 100) / 10 }));
}

const pg = onPostgres ? new PgSeeds(env.RHIZOME_LOAD_DATABASE_URL!, ROOT, seededDir) : null;
const results: Record<string, { total_rps: number; errors: number; kinds: Record<Kind, KindResult>; cpu: CpuUse | null }> = {};
try {
  for (const mixName of mixes) for (const name of chosen) for (const target of targets) await runOne(mixName, name, target);
} finally {
  await pg?.close();
}

/** One configuration on one target: its server(s) started from the seeded data, the traffic, one JSON line. */
async function runOne(mixName: string, name: string, target: TargetName): Promise<void> {
  const server = await startTarget(target, ROOT, CONFIGS[name], seededDir, pg);
  const feeds = name === 'feeds-200' ? await prepareFeeds(server) : null;
  const traffic = { connections, mix: mixFrom(mixName), seconds, ids, queries };
  const send = (t: typeof traffic, trace?: string) => (rate ? runOpenLoop(server, { ...t, rate, trace }) : runTraffic(server, t));
  if (warmup > 0) await send({ ...traffic, seconds: warmup });
  const load_before = loadavg()[0];
  const polling: FeedLoad | null = feeds?.start(seconds) ?? null;
  const meter = cpuMeter(server.pids);
  const kinds = await send(traffic, env.RHIZOME_LOAD_TRACE); // the measured run alone
  const cpu = meter?.stop() ?? null;
  await polling?.stop();
  const load_after = loadavg()[0];
  // RHIZOME_LOAD_DRAIN=0 skips waiting for the run's writes to be embedded (quicker sweeps).
  const drain_ms = env.RHIZOME_LOAD_DRAIN === '0' ? null : await drained(server, 600_000, feeds ? BENCH_FEEDS : 0);
  await server.stop();
  const total = Object.values(kinds).reduce((s, k) => s + k.requests, 0);
  const errors = Object.values(kinds).reduce((s, k) => s + k.errors + k.non_2xx + k.timeouts, 0);
  const key = `${mixName} · ${name} · ${target}`;
  results[key] = { total_rps: Math.round(total / seconds), errors, kinds, cpu };
  console.log(JSON.stringify({ kind: 'load', mix: mixName, config: name, target, processes: server.processes, ...(server.routed ? { keys_by_process: server.routed } : {}), warmup_ms: server.warmup_ms, tuning: CONFIGS[name], nodes, connections, ...(rate ? { offered_rps: rate } : {}), warmup_seconds: warmup, seconds, total_rps: results[key].total_rps, errors, load_before: round(load_before), load_after: round(load_after), writes_embedded_after_ms: drain_ms, cpu, ...(polling ? { feed_polls: polling.polls, feed_304s: polling.notModified, feed_new_items: polling.newItems } : {}), per_kind: kinds }));
}

if (!seedDir) rmSync(seededDir, { recursive: true, force: true });

const p99 = (name: string, k: Kind) => results[name]?.kinds[k]?.p99_ms;
console.log(
  JSON.stringify({
    kind: 'load_summary',
    cores: availableParallelism(),
    loadavg_1m: round(loadavg()[0]),
    seconds_total: Math.round((Date.now() - started) / 1000),
    configs: Object.fromEntries(
      Object.entries(results).map(([name, r]) => [
        name,
        { total_rps: r.total_rps, errors: r.errors, p99_ms: Object.fromEntries((Object.keys(r.kinds) as Kind[]).map((k) => [k, p99(name, k)])) },
      ]),
    ),
    // Issue 33's targets: PostgreSQL (one process) over SQLite, and two processes behind nginx over one.
    ...(onPostgres ? { throughput_ratios: ratios() } : {}),
  }),
);

/** Per mix and configuration: postgres ÷ sqlite and postgres-nginx ÷ postgres total throughput, where both ran. */
function ratios(): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const mixName of mixes) {
    for (const name of chosen) {
      const rps = (t: string) => results[`${mixName} · ${name} · ${t}`]?.total_rps;
      const r: Record<string, number> = {};
      const [lite, one, two] = [rps('sqlite'), rps('postgres'), rps('postgres-nginx')];
      if (lite && one) r.postgres_over_sqlite = round(one / lite);
      if (one && two) r.two_processes_over_one = round(two / one);
      // What idle CPU the one-process run left allows two processes at most (cpu.ts).
      const bound = results[`${mixName} · ${name} · postgres`]?.cpu?.cpu_bound_on_scaling;
      if (bound) r.two_processes_cpu_bound = bound;
      if (Object.keys(r).length) out[`${mixName} · ${name}`] = r;
    }
  }
  return out;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
