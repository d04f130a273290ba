// `npm run bench:tenants`: many tenants on PostgreSQL, two `rhizome serve` processes behind
// nginx (deploy/nginx/rhizome.conf as shipped, bench/load/targets.ts routing()), the
// indexes-by-use memory budget at its default unless RHIZOME_TENANTS_INDEX_MB says otherwise.
// RHIZOME_TENANTS_COUNT tenants × RHIZOME_TENANTS_NOTES notes are seeded (bench/tenants/seed.ts);
// for RHIZOME_TENANTS_SECONDS, RHIZOME_TENANTS_CONNECTIONS connections send searches and reads
// to the hot tenants (RHIZOME_TENANTS_ACTIVE_SHARE of them, warmed first) while a stream of
// cold tenants each send their first hybrid search. Afterwards every cold first search is
// compared with an exact search of the same query (bench/tenants/exact.ts). Prints one JSON
// line: each process's RSS (peak, sampled from /proc, and at the end), cold first-search and
// hot latencies, errors, index loads and evictions from each process's /metrics, and the
// targets of issue 35 met or not. RHIZOME_LOAD_DATABASE_URL names a PostgreSQL server on which
// the bench may create and drop a database.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { connectPg } from '../../src/db/pg/connect.js';
import { startNginx } from '../../test/helpers/nginx.js';
import { startServer, type BenchServer } from '../load/server.js';
import { routing, targetsFrom } from '../load/targets.js';
import { exactSearch } from './exact.js';
import { seedTenants } from './seed.js';
import { percentile, runTenantTraffic, searchPath, type HotKind } from './traffic.js';

const ROOT = resolve(import.meta.dirname, '..');
const env = process.env;
const count = Number(env.RHIZOME_TENANTS_COUNT ?? 1000);
const notes = Number(env.RHIZOME_TENANTS_NOTES ?? 1000);
const activeShare = Number(env.RHIZOME_TENANTS_ACTIVE_SHARE ?? 0.1);
const seconds = Number(env.RHIZOME_TENANTS_SECONDS ?? 120);
const connections = Number(env.RHIZOME_TENANTS_CONNECTIONS ?? 20);
/** Pause between one cold tenant's first search and the next one's (0: back to back). */
const coldGapMs = Number(env.RHIZOME_TENANTS_COLD_GAP_MS ?? 0);
const indexMb = env.RHIZOME_TENANTS_INDEX_MB;
/**
 * The servers' per-tenant budget of searches a minute (RHIZOME_TENANT_BUDGET). Off by default:
 * the hot tenants' share of the traffic is far beyond the default 600 a minute, and 429s
 * would measure the budget, not the indexes (bench:load serves one tenant, which no budget limits).
 */
/**
 * RHIZOME_TENANTS_COLD_PROBE=keyword|semantic: each cold tenant first sends a search of that
 * mode (probe_p50_ms), so the hybrid search after it pays only the other side's first-use
 * costs: a diagnosis of where a first search's time goes, not the target's measurement.
 */
const probe = env.RHIZOME_TENANTS_COLD_PROBE as 'keyword' | 'semantic' | undefined;
if (probe && probe !== 'keyword' && probe !== 'semantic') throw new Error('RHIZOME_TENANTS_COLD_PROBE: keyword or semantic');
const tenantBudget = env.RHIZOME_TENANTS_TENANT_BUDGET ?? '0';
const adminUrl = env.RHIZOME_LOAD_DATABASE_URL;
if (!adminUrl) throw new Error('set RHIZOME_LOAD_DATABASE_URL to a PostgreSQL server on which the bench may create databases');
targetsFrom('postgres-nginx'); // fails fast without nginx
const log = (line: Record<string, unknown>) => console.log(JSON.stringify(line));

const started = Date.now();
const dbName = `rz_tenants_${process.pid}`;
const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
const admin = async (statement: string) => {
  const c = await connectPg(adminUrl);
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
};
const seedDir = mkdtempSync(join(tmpdir(), 'rhizome-tenants-'));
const cleanups: Array<() => Promise<void> | void> = [() => rmSync(seedDir, { recursive: true, force: true }), () => admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)];
try {
  await admin(`CREATE DATABASE ${dbName}`);
  const seeded = await seedTenants({ dataDir: seedDir, url: dbUrl, tenants: count, notes, log });
  const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'bin/rhizome.js'), 'operator', 'create-key', '--name', 'tenants-bench', '--json'], { env: { ...env, RHIZOME_DATA_DIR: seedDir, RHIZOME_DATABASE_URL: dbUrl } });
  const operatorKey = (JSON.parse(stdout) as { key: string }).key;

  // Two processes, one after the other (two model workers loading at once only slow each other).
  const servers: BenchServer[] = [];
  const serverEnv = { RHIZOME_DATABASE_URL: dbUrl, RHIZOME_TENANT_BUDGET: tenantBudget, ...(indexMb ? { RHIZOME_INDEX_MEMORY_MB: indexMb } : {}) };
  for (let i = 0; i < 2; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'rhizome-tenants-pg-'));
    cpSync(seedDir, dir, { recursive: true, filter: (src) => !/rhizome\.db(-wal|-shm)?$/.test(src) });
    const s = await startServer(ROOT, {}, dir, serverEnv);
    servers.push(s);
    cleanups.unshift(async () => (await s.stop(), rmSync(dir, { recursive: true, force: true })));
  }
  const template = readFileSync(join(ROOT, 'deploy/nginx/rhizome.conf'), 'utf8');
  const proxy = await startNginx((port) => routing(template, port, servers.map((s) => s.url)));
  cleanups.unshift(async () => (await proxy.stop(), rmSync(proxy.dir, { recursive: true, force: true })));

  // Each process first loads tenants' indexes in the background until its budget is full
  // (src/wiring.ts loadIndexes; the rest load on first use): the clock starts once that is over.
  const settling = Date.now();
  await settled(servers, operatorKey);
  const settleMs = Date.now() - settling;

  // Hot tenants: the first share of them, each warmed by one hybrid search before the clock runs.
  const hotCount = Math.max(1, Math.round(count * activeShare));
  const hot = seeded.tenants.slice(0, hotCount);
  const cold = seeded.tenants.slice(hotCount);
  const warming = Date.now();
  const byProcess: Record<string, number> = {};
  for (const t of hot) {
    const res = await fetch(`${proxy.url}${searchPath('warm up', 'hybrid')}`, { headers: { Authorization: `ApiKey ${t.key}` } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`warm-up search: ${res.status}`);
    const at = res.headers.get('x-rhizome-instance') ?? '?';
    byProcess[at] = (byProcess[at] ?? 0) + 1;
  }
  const warmupMs = Date.now() - warming;

  const rss = servers.map(() => ({ peak: 0, last: 0 }));
  const sample = () => servers.forEach((s, i) => {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${s.pid}/status`, 'utf8'))?.[1] ?? 0);
    rss[i].last = kb * 1024;
    rss[i].peak = Math.max(rss[i].peak, kb * 1024);
  });
  sample();
  const sampler = setInterval(sample, 250);
  const loadBefore = loadavg()[0];
  const before = await Promise.all(servers.map((s) => scrape(s.url, operatorKey)));
  const traffic = await runTenantTraffic({ url: proxy.url, hot, cold, queries: seeded.queries, connections, seconds, coldGapMs, probe });
  clearInterval(sampler);
  sample();
  const loadAfter = loadavg()[0];
  const after = await Promise.all(servers.map((s) => scrape(s.url, operatorKey)));
  const metrics = after.map((m, i) => ({ ...m, index_loads_during_run: m.index_loads - before[i].index_loads, index_evictions_during_run: m.index_evictions - before[i].index_evictions, tenants_loaded_before_run: before[i].tenants_loaded }));
  for (const c of cleanups.splice(0, 3)) await c(); // nginx and both servers: the exact searches run alone

  // Every cold tenant's first search against the exact search of the same query.
  const exact = await exactSearch(seedDir, dbUrl);
  let equal = 0;
  let maxScoreDiff = 0;
  const differing: Array<Record<string, unknown>> = [];
  try {
    for (const c of traffic.cold.filter((x) => x.status === 200)) {
      const e = await exact.search(c.tenant, c.query);
      const same = e.ids.length === c.ids.length && e.ids.every((id, i) => id === c.ids[i]);
      if (same) equal++;
      else if (differing.length < 5) differing.push({ tenant: c.tenant.name, query: c.query, first: c.ids, exact: e.ids });
      e.scores.forEach((s, i) => same && (maxScoreDiff = Math.max(maxScoreDiff, Math.abs(s - c.scores[i]))));
    }
  } finally {
    await exact.close();
  }

  const mb = (b: number) => Math.round(b / 1048576);
  const coldTimes = traffic.cold.map((c) => c.ms);
  const coldErrors = traffic.cold.filter((c) => c.status !== 200).length + traffic.cold.filter((c) => c.secondStatus !== 200).length;
  const hotErrors = Object.values(traffic.hot).reduce((n, k) => n + k.errors, 0);
  const coldOk = traffic.cold.filter((c) => c.status === 200).length;
  const hotOut = Object.fromEntries(
    (Object.keys(traffic.hot) as HotKind[]).map((k) => {
      const t = traffic.hot[k];
      return [k, { requests: t.requests, errors: t.errors, rps: Math.round(t.requests / seconds), p50_ms: percentile(t.times, 50), p95_ms: percentile(t.times, 95), p99_ms: percentile(t.times, 99) }];
    }),
  );
  const coldP95 = percentile(coldTimes, 95);
  log({
    kind: 'tenants',
    tenants: count,
    notes_per_tenant: notes,
    hot_tenants: hot.length,
    cold_tenants_available: cold.length,
    processes: servers.length,
    index_memory_mb: indexMb ? Number(indexMb) : 'default',
    tenant_budget_per_minute: Number(tenantBudget),
    connections,
    seconds,
    cores: availableParallelism(),
    load_before: round(loadBefore),
    load_after: round(loadAfter),
    seed_s: { sqlite: seeded.sqlite_s, postgres: seeded.postgres_s },
    preload_ms: settleMs,
    warmup_ms: warmupMs,
    hot_tenants_by_process: byProcess,
    rss_mb: servers.map((_, i) => ({ peak: mb(rss[i].peak), end: mb(rss[i].last) })),
    cold_first_search: { tenants: traffic.cold.length, errors: coldErrors, p50_ms: percentile(coldTimes, 50), p95_ms: coldP95, p99_ms: percentile(coldTimes, 99), max_ms: percentile(coldTimes, 100), ...(probe ? { probe, probe_p50_ms: percentile(traffic.cold.map((c) => c.probeMs ?? 0), 50), probe_p95_ms: percentile(traffic.cold.map((c) => c.probeMs ?? 0), 95) } : {}), second_search_p50_ms: percentile(traffic.cold.map((c) => c.secondMs), 50), second_search_p95_ms: percentile(traffic.cold.map((c) => c.secondMs), 95), equal_to_exact: equal, compared: coldOk, max_score_diff_when_equal: maxScoreDiff, ...(differing.length ? { differing } : {}) },
    hot: hotOut,
    errors: hotErrors + coldErrors,
    error_statuses: traffic.statuses,
    failures: traffic.failures,
    metrics,
    targets: {
      rss_each_le_1gb: rss.every((r) => r.peak <= 1024 * 1048576),
      cold_p95_le_300ms: coldP95 !== null && coldP95 <= 300,
      cold_equal_to_exact: coldOk > 0 && equal === coldOk,
      zero_errors: hotErrors + coldErrors === 0,
    },
    seconds_total: Math.round((Date.now() - started) / 1000),
  });
} finally {
  for (const c of cleanups) await Promise.resolve(c()).catch((e) => console.error(e));
}

/** Index loads, evictions, budget, tenants held and RSS from one process's /metrics. */
async function scrape(url: string, key: string): Promise<Record<string, number>> {
  const res = await fetch(`${url}/metrics`, { headers: { Authorization: `ApiKey ${key}` } });
  if (!res.ok) throw new Error(`/metrics: ${res.status}`);
  const text = await res.text();
  const sum = (name: string) =>
    text
      .split('\n')
      .filter((l) => l.startsWith(name) && /^[a-z_]+(\{[^}]*\})? /.test(l) && l.split(/[{ ]/)[0] === name)
      .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
  return {
    index_loads: sum('rhizome_index_loads_total'),
    index_evictions: sum('rhizome_index_evictions_total'),
    index_budget_mb: Math.round(sum('rhizome_index_budget_bytes') / 1048576),
    index_mb: Math.round(sum('rhizome_vector_index_bytes') / 1048576),
    tenants_loaded: sum('rhizome_tenants_loaded'),
    index_vectors: sum('rhizome_vector_index_vectors'),
    rss_mb: Math.round(sum('process_resident_memory_bytes') / 1048576),
    // Where the rest of RSS is: V8's heap (the indexes' maps and ids among it) and memory outside it (typed arrays, buffers).
    heap_used_mb: Math.round(sum('nodejs_heap_size_used_bytes') / 1048576),
    heap_total_mb: Math.round(sum('nodejs_heap_size_total_bytes') / 1048576),
    external_mb: Math.round(sum('nodejs_external_memory_bytes') / 1048576),
    keyword_mb: Math.round(sum('rhizome_keyword_memory_bytes') / 1048576),
  };
}

/** Waits until no process's index has grown for a second (its start-up loading is over). */
async function settled(servers: BenchServer[], key: string): Promise<void> {
  let last = '';
  for (let i = 0; i < 1200; i++) {
    const now = JSON.stringify((await Promise.all(servers.map((s) => scrape(s.url, key)))).map((m) => m.index_vectors));
    if (now === last) return;
    last = now;
    await new Promise((done) => setTimeout(done, 1000));
  }
  throw new Error('the processes were still loading indexes after 20 minutes');
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
