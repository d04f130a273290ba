// The vector repository on both engines, same run: exact k-NN (the brute force the
// VectorStore answers from while a tenant's in-memory index loads) and a full index load
// in pages, at `count` vectors of `dimension`. PostgreSQL scores in JavaScript over pages
// read from node_vectors (PgVectorsRepo); SQLite scores in vec0. One JSON line per engine.
//   node build.mjs && nice -n 5 npx tsx bench/lab/pg-vectors-knn.ts [count=10000] [dimension=512]
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../src/db/open.js';
import type { Database as Db } from '../../src/db/store/contract.js';
import { sql } from '../../src/db/store/sql.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { connectPg } from '../../src/db/pg/connect.js';
import { migratePg } from '../../src/db/pg/migrate.js';
import { PgVectorsRepo } from '../../src/repos/pg/vectors.pg.js';
import { VectorsRepo, type VectorsApi } from '../../src/repos/vectors.repo.js';
import { normalize } from '../../src/vectors/math.js';

const admin = process.env.RHIZOME_TEST_DATABASE_URL;
if (!admin) throw new Error('set RHIZOME_TEST_DATABASE_URL (scripts/pg-test-cluster.sh start)');
const count = Number(process.argv[2] ?? 10_000);
const dim = Number(process.argv[3] ?? 512);
const QUERIES = 20;

const vectors = Array.from({ length: count }, () => normalize(Float32Array.from({ length: dim }, () => Math.random() * 2 - 1)));
const queries = Array.from({ length: QUERIES }, () => normalize(Float32Array.from({ length: dim }, () => Math.random() * 2 - 1)));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const round = (x: number) => Math.round(x * 10) / 10;

async function fill(db: Db, repo: VectorsApi): Promise<void> {
  await db.run(sql`INSERT INTO tenants (id, name, created_at) VALUES ('ten_lab', 'lab', '2026-11-23T09:00:00.000Z')`);
  const ins = { run: (seq: number, id: string) => db.run(sql`INSERT INTO nodes (seq, id, tenant_id, title, summary, body_markdown, tags, status, created_at, updated_at, embedded_hash)
     VALUES (${seq}, ${id}, 'ten_lab', 'n', '', '', '[]', 'raw', '2026-11-23T09:00:00.000Z', '2026-11-23T09:00:00.000Z', 'h')`) };
  await db.withTx(async () => {
    await repo.recreate('lab-model', dim, '2026-11-23T09:00:00.000Z');
    for (const [i, v] of vectors.entries()) {
      await ins.run(i + 1, `nod_${i + 1}`);
      await repo.upsert('ten_lab', i + 1, v);
    }
  });
}

async function measure(engine: string, db: Db, make: () => VectorsApi): Promise<Record<string, unknown>> {
  let t = performance.now();
  await fill(db, make());
  const writeMs = performance.now() - t;
  const repo = make();
  const knn: number[] = [];
  const top: number[] = [];
  for (const q of queries) {
    t = performance.now();
    const hits = await repo.knnExact('ten_lab', q, 10);
    knn.push(performance.now() - t);
    top.push(hits[0].seq);
  }
  const loads: number[] = [];
  for (let r = 0; r < 3; r++) {
    t = performance.now();
    let n = 0;
    for (let after = 0; ; ) {
      const { vectors: page, last } = await repo.page('ten_lab', after, 1024);
      n += page.length;
      if (last === null) break;
      after = last;
    }
    if (n !== count) throw new Error(`${engine}: loaded ${n} of ${count}`);
    loads.push(performance.now() - t);
  }
  return { engine, count, dim, write_ms: round(writeMs), knn_exact_k10_p50_ms: round(pct(knn, 50)), knn_exact_k10_p95_ms: round(pct(knn, 95)), page_load_all_p50_ms: round(pct(loads, 50)), top };
}

const a = await connectPg(admin);
await a.query('DROP DATABASE IF EXISTS rz_vec_knn_lab WITH (FORCE)');
await a.query('CREATE DATABASE rz_vec_knn_lab');
const u = new URL(admin);
u.pathname = '/rz_vec_knn_lab';
const c = await connectPg(u.toString());
await migratePg(c);
await c.end();

const lite = new SqliteStore(openDatabase(':memory:'));
const sqlite = await measure('sqlite-vec0', lite, () => new VectorsRepo(lite));
await lite.close();
const pgdb = new PgStore(u.toString());
const pg = await measure('postgres-bytea', pgdb, () => new PgVectorsRepo(pgdb));
await pgdb.close();
const same = JSON.stringify(sqlite.top) === JSON.stringify(pg.top);
for (const r of [sqlite, pg]) console.log(JSON.stringify({ ...r, top: undefined, same_top_hits: same }));
await a.query('DROP DATABASE IF EXISTS rz_vec_knn_lab WITH (FORCE)');
await a.end();
