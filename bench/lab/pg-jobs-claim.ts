// Row claiming with FOR UPDATE SKIP LOCKED on the jobs table of schema.pg.sql: W workers
// on separate connections (as W processes would be) claim batches of B with PgJobsRepo's
// claim statement (oldest ready kind, its batch, a lease per job) until the queue is
// empty, each claim committing 'running' and each completion deleting the row. Checks
// every job ran exactly once; prints throughput. A second line: one PgJobsRepo over the
// pooled store (PgStore), as one Rhizome process claims, same jobs count.
//   node build.mjs && nice -n 5 npx tsx bench/lab/pg-jobs-claim.ts [jobs=20000] [workers=4] [batch=16]
import { performance } from 'node:perf_hooks';
import { connectPg, type PgClient } from '../../src/db/pg/connect.js';
import { migratePg } from '../../src/db/pg/migrate.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { PG_CLAIM_SQL, PgJobsRepo } from '../../src/repos/pg/jobs.pg.js';

const admin = process.env.RHIZOME_TEST_DATABASE_URL;
if (!admin) throw new Error('set RHIZOME_TEST_DATABASE_URL (scripts/pg-test-cluster.sh start)');
const [jobs, workers, batch] = [Number(process.argv[2] ?? 20_000), Number(process.argv[3] ?? 4), Number(process.argv[4] ?? 16)];

const a = await connectPg(admin);
await a.query('DROP DATABASE IF EXISTS rz_jobs_lab WITH (FORCE)');
await a.query('CREATE DATABASE rz_jobs_lab');
const u = new URL(admin);
u.pathname = '/rz_jobs_lab';
const url = u.toString();
const setup = await connectPg(url);
await migratePg(setup);
const now = Date.now();
async function enqueue(): Promise<void> {
for (let i = 0; i < jobs; i += 1000) {
  const n = Math.min(1000, jobs - i);
  await setup.query(
    `INSERT INTO jobs (tenant_id, kind, payload, dedupe_key, run_after, created_at, updated_at)
     SELECT 't' || (g % 10), 'embed', '{}', 'k' || g, $1, $1, $1 FROM generate_series($2::int, $3::int) g`,
    [now, i, i + n - 1],
  );
}
}
let t = performance.now();
await enqueue();
const enqueueMs = performance.now() - t;

const seen = new Map<number, number>();
const claimMs: number[] = [];
async function worker(c: PgClient, w: number) {
  for (;;) {
    const s = performance.now();
    const r = await c.query(PG_CLAIM_SQL, [Date.now(), ['capture', 'embed'], [1, batch], `w${w}`, Date.now() + 30_000]);
    claimMs.push(performance.now() - s);
    if (!r.rows.length) return;
    const ids = r.rows.map((x) => Number(x.id));
    for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
    await c.query('DELETE FROM jobs WHERE id = ANY($1::bigint[])', [ids]);
  }
}
const clients = await Promise.all(Array.from({ length: workers }, () => connectPg(url)));
t = performance.now();
await Promise.all(clients.map((c, w) => worker(c, w)));
const runMs = performance.now() - t;
const twice = [...seen.values()].filter((n) => n > 1).length;
const left = Number((await setup.query('SELECT count(*) FROM jobs')).rows[0].count);
claimMs.sort((x, y) => x - y);
console.log(JSON.stringify({
  kind: 'pg_jobs_claim', jobs, workers, batch, ran: seen.size, ran_twice: twice, left,
  enqueue_per_s: Math.round(jobs / (enqueueMs / 1000)), claim_and_complete_per_s: Math.round(jobs / (runMs / 1000)),
  claim_p50_ms: Math.round(claimMs[Math.floor(claimMs.length / 2)] * 100) / 100, claim_p95_ms: Math.round(claimMs[Math.floor(claimMs.length * 0.95)] * 100) / 100,
}));

// One process through its pooled store: claim a batch, complete each job.
await enqueue();
const db = new PgStore(url);
const repo = new PgJobsRepo(db);
const syncMs: number[] = [];
let ran = 0;
t = performance.now();
for (;;) {
  const s = performance.now();
  const rows = await repo.claim(['capture', 'embed'], Date.now(), (k) => (k === 'embed' ? batch : 1));
  syncMs.push(performance.now() - s);
  if (!rows.length) break;
  for (const r of rows) await repo.complete(r.id);
  ran += rows.length;
}
const syncRunMs = performance.now() - t;
await db.close();
syncMs.sort((x, y) => x - y);
console.log(JSON.stringify({
  kind: 'pg_jobs_claim_one_process_store', jobs, batch, ran, claim_and_complete_per_s: Math.round(ran / (syncRunMs / 1000)),
  claim_p50_ms: Math.round(syncMs[Math.floor(syncMs.length / 2)] * 100) / 100, claim_p95_ms: Math.round(syncMs[Math.floor(syncMs.length * 0.95)] * 100) / 100,
}));
for (const c of [...clients, setup]) await c.end();
await a.query('DROP DATABASE IF EXISTS rz_jobs_lab WITH (FORCE)');
await a.end();
