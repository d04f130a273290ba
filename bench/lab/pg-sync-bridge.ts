// What a synchronous PostgreSQL call costs. Rhizome's services are synchronous over
// better-sqlite3 (a transaction is a plain function; nothing else runs while it is open).
// One way onto PostgreSQL keeps that: the `pg` client lives in a worker thread and the main
// thread blocks on Atomics.wait until the worker has the answer (what synckit does). This
// times, same run, same rows: a point read by key, a 20-row read by key list, and a write
// transaction (BEGIN; INSERT; UPDATE; COMMIT), through
//   - better-sqlite3 (WAL, synchronous=NORMAL, as `rhizome serve` opens it),
//   - node-postgres awaited directly (the asynchronous driver),
//   - node-postgres behind the blocking bridge.
//   eval "$(bash scripts/pg-test-cluster.sh start)"
//   npx esbuild bench/lab/pg-sync-bridge.ts --bundle --platform=node --format=esm --packages=external \
//     --outfile=dist/lab/pg-sync-bridge.mjs && node dist/lab/pg-sync-bridge.mjs [rounds=2000]
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { connectPg } from '../../src/db/pg/connect.js';

const admin = process.env.RHIZOME_TEST_DATABASE_URL;
if (!admin) throw new Error('set RHIZOME_TEST_DATABASE_URL (scripts/pg-test-cluster.sh start)');
const rounds = Number(process.argv[2] ?? 2000);
const ROWS = 20_000;

const a = await connectPg(admin);
await a.query('DROP DATABASE IF EXISTS rz_bridge_lab WITH (FORCE)');
await a.query('CREATE DATABASE rz_bridge_lab');
const u = new URL(admin);
u.pathname = '/rz_bridge_lab';
const url = u.toString();

const DDL = `CREATE TABLE lab_nodes (seq INTEGER PRIMARY KEY, tenant_id TEXT NOT NULL, id TEXT NOT NULL UNIQUE, title TEXT NOT NULL, body TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE lab_jobs (id INTEGER PRIMARY KEY, tenant_id TEXT NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL)`;
const body = 'Mycorrhizal networks move carbon between trees. '.repeat(20);

// --- PostgreSQL, asynchronous
const pgc = await connectPg(url);
for (const stmt of DDL.split(';')) await pgc.query(stmt.replace(/INTEGER PRIMARY KEY/g, 'bigint PRIMARY KEY').replace(/TEXT/g, 'text'));
await pgc.query(`INSERT INTO lab_nodes SELECT g, 't' || (g % 4), 'nod_' || g, 'Note ' || g, $1, now()::text FROM generate_series(1, ${ROWS}) g`, [body]);
await pgc.query('VACUUM ANALYZE lab_nodes');

// --- SQLite
const dir = mkdtempSync(join(tmpdir(), 'rz-bridge-lab-'));
const lite = new Database(join(dir, 'lab.db'));
lite.pragma('journal_mode = WAL');
lite.pragma('synchronous = NORMAL');
lite.exec(DDL);
lite.transaction(() => {
  const ins = lite.prepare('INSERT INTO lab_nodes VALUES (?, ?, ?, ?, ?, ?)');
  for (let g = 1; g <= ROWS; g++) ins.run(g, `t${g % 4}`, `nod_${g}`, `Note ${g}`, body, new Date().toISOString());
})();

// --- The blocking bridge: a worker owns a pg client; the caller waits on a shared flag.
const { port1, port2 } = new MessageChannel();
const flag = new Int32Array(new SharedArrayBuffer(4));
const pgPath = (await import('node:module')).createRequire(import.meta.url).resolve('pg');
const bridgeWorker = new Worker(
  `const { workerData } = require('node:worker_threads');
   const pg = require(workerData.pgPath);
   const { port, flag, url } = workerData;
   const client = new pg.Client({ connectionString: url });
   client.connect().then(() => { Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); });
   const names = new Map();
   port.on('message', async ({ sql, params }) => {
     let reply;
     let name = names.get(sql);
     if (!name && params.length) names.set(sql, (name = 's' + names.size));
     try { const r = await client.query(name ? { name, text: sql, values: params } : sql); reply = { rows: r.rows, rowCount: r.rowCount }; }
     catch (e) { reply = { error: e.message }; }
     port.postMessage(reply);
     Atomics.store(flag, 0, 1);
     Atomics.notify(flag, 0);
   });`,
  { eval: true, workerData: { port: port2, flag, url, pgPath }, transferList: [port2] },
);
Atomics.wait(flag, 0, 0, 10_000);
function querySync(sql: string, params: unknown[] = []): { rows: Record<string, unknown>[] } {
  Atomics.store(flag, 0, 0);
  port1.postMessage({ sql, params });
  Atomics.wait(flag, 0, 0, 30_000);
  const m = receiveMessageOnPort(port1)?.message as { rows: Record<string, unknown>[]; error?: string } | undefined;
  if (!m) throw new Error('bridge: no answer');
  if (m.error) throw new Error(m.error);
  return m;
}

const pick = (i: number) => 1 + ((i * 7919) % ROWS);
const ids = (i: number) => Array.from({ length: 20 }, (_, j) => `nod_${pick(i + j * 131)}`);
const pct = (xs: number[], p: number) => Math.round([...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] * 1000) / 1000;
const results: Record<string, unknown>[] = [];
async function time(backend: string, op: string, fn: (i: number) => unknown) {
  const xs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn(i);
    if (i >= 50) xs.push(performance.now() - t);
  }
  results.push({ backend, op, p50_ms: pct(xs, 50), p95_ms: pct(xs, 95) });
}

const liteGet = lite.prepare('SELECT * FROM lab_nodes WHERE tenant_id = ? AND id = ?');
const liteMany = lite.prepare('SELECT n.* FROM json_each(?) j JOIN lab_nodes n ON n.id = j.value WHERE n.tenant_id = ?');
const liteIns = lite.prepare('INSERT INTO lab_jobs (tenant_id, kind, payload) VALUES (?, ?, ?)');
const liteUpd = lite.prepare('UPDATE lab_nodes SET updated_at = ? WHERE tenant_id = ? AND id = ?');
await time('sqlite', 'point read', (i) => liteGet.get(`t${pick(i) % 4}`, `nod_${pick(i)}`));
await time('sqlite', '20-row read', (i) => liteMany.all(JSON.stringify(ids(i)), 't1'));
await time('sqlite', 'write transaction', (i) =>
  lite.transaction(() => {
    liteIns.run('t1', 'embed', '{}');
    liteUpd.run(String(i), `t${pick(i) % 4}`, `nod_${pick(i)}`);
  })(),
);

const GET = 'SELECT * FROM lab_nodes WHERE tenant_id = $1 AND id = $2';
const MANY = 'SELECT n.* FROM lab_nodes n WHERE n.id = ANY($1::text[]) AND n.tenant_id = $2';
const INS = 'INSERT INTO lab_jobs (id, tenant_id, kind, payload) VALUES ($1, $2, $3, $4)';
const UPD = 'UPDATE lab_nodes SET updated_at = $1 WHERE tenant_id = $2 AND id = $3';
let jobId = 0;
await time('postgres async', 'point read', (i) => pgc.query({ name: 'g', text: GET, values: [`t${pick(i) % 4}`, `nod_${pick(i)}`] }));
await time('postgres async', '20-row read', (i) => pgc.query({ name: 'm', text: MANY, values: [ids(i), 't1'] }));
await time('postgres async', 'write transaction', async (i) => {
  await pgc.query('BEGIN');
  await pgc.query({ name: 'i', text: INS, values: [++jobId, 't1', 'embed', '{}'] });
  await pgc.query({ name: 'u', text: UPD, values: [String(i), `t${pick(i) % 4}`, `nod_${pick(i)}`] });
  await pgc.query('COMMIT');
});
await time('postgres bridge', 'point read', (i) => querySync(GET, [`t${pick(i) % 4}`, `nod_${pick(i)}`]));
await time('postgres bridge', '20-row read', (i) => querySync(MANY, [ids(i), 't1']));
await time('postgres bridge', 'write transaction', (i) => {
  querySync('BEGIN');
  querySync(INS, [++jobId, 't1', 'embed', '{}']);
  querySync(UPD, [String(i), `t${pick(i) % 4}`, `nod_${pick(i)}`]);
  querySync('COMMIT');
});

for (const r of results) console.log(JSON.stringify({ kind: 'pg_sync_bridge', rounds, load_average_1m: Math.round(loadavg()[0] * 100) / 100, ...r }));
await bridgeWorker.terminate();
await pgc.end();
await a.query('DROP DATABASE rz_bridge_lab WITH (FORCE)');
await a.end();
lite.close();
rmSync(dir, { recursive: true, force: true });
