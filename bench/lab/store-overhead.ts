// What the asynchronous contract costs on SQLite, per statement, same run: a primary-key
// read through better-sqlite3 directly; through SqliteStore's prepared statement (a promise,
// the turn check); through the `sql` template (Kysely's compile, about 2 µs, plus the same);
// and a write inside withTx (savepoint-free outermost transaction) against a raw BEGIN/COMMIT.
//   npx esbuild bench/lab/store-overhead.ts --bundle --platform=node --format=esm --packages=external --outfile=dist/store-overhead.mjs && node dist/store-overhead.mjs [reads=50000]
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../src/db/open.js';
import { sql } from '../../src/db/store/sql.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';

const N = Number(process.argv[2] ?? 50_000);
const db = openDatabase(':memory:');
const store = new SqliteStore(db);
db.exec("INSERT INTO tenants (id, name, created_at) VALUES ('ten_a', 'a', 'x')");
const ins = db.prepare("INSERT INTO nodes (id, tenant_id, title, summary, body_markdown, tags, status, created_at, updated_at) VALUES (?, 'ten_a', ?, '', 'body', '[]', 'raw', 'x', 'x')");
db.transaction(() => {
  for (let i = 0; i < 10_000; i++) ins.run(`nod_${i}`, `Note ${i}`);
})();
const ids = Array.from({ length: N }, (_, i) => `nod_${(i * 7919) % 10_000}`);

async function time(label: string, f: (id: string) => unknown): Promise<{ label: string; us_per_op: number }> {
  for (let i = 0; i < 2000; i++) await f(ids[i]); // warm-up
  const t0 = performance.now();
  for (const id of ids) await f(id);
  return { label, us_per_op: Math.round(((performance.now() - t0) * 1000 * 100) / N) / 100 };
}

const direct = db.prepare("SELECT * FROM nodes WHERE tenant_id = 'ten_a' AND id = ?");
const viaStatement = store.prepare("SELECT * FROM nodes WHERE tenant_id = 'ten_a' AND id = ?");
const rows: Array<{ label: string; us_per_op: number }> = [];
// In turns, twice, so a drift of the machine shows.
for (let round = 0; round < 2; round++) {
  rows.push(await time('better-sqlite3, synchronous', (id) => direct.get(id)));
  rows.push(await time('SqliteStore statement, awaited', (id) => viaStatement.get(id)));
  rows.push(await time('SqliteStore sql template, awaited', (id) => store.one(sql`SELECT * FROM nodes WHERE tenant_id = ${'ten_a'} AND id = ${id}`)));
}
const upd = db.prepare('UPDATE nodes SET title = ? WHERE tenant_id = ? AND id = ?');
const W = Math.min(N, 20_000);
let t0 = performance.now();
for (let i = 0; i < W; i++) {
  db.exec('BEGIN IMMEDIATE');
  upd.run(`t${i}`, 'ten_a', ids[i]);
  db.exec('COMMIT');
}
const rawTx = ((performance.now() - t0) * 1000) / W;
t0 = performance.now();
for (let i = 0; i < W; i++) await store.withTx(async () => void (await store.run(sql`UPDATE nodes SET title = ${`u${i}`} WHERE tenant_id = ${'ten_a'} AND id = ${ids[i]}`)));
const storeTx = ((performance.now() - t0) * 1000) / W;
console.log(JSON.stringify({ kind: 'sqlite_store_overhead', reads: N, rows, write_tx_us: { raw: Math.round(rawTx * 100) / 100, store_with_tx: Math.round(storeTx * 100) / 100 }, load_average_1m: Math.round(loadavg()[0] * 100) / 100 }));
