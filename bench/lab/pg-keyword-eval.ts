// Keyword ranking on PostgreSQL (BM25 in SQL over the GIN-indexed tsvector, src/repos/pg/)
// against SQLite's FTS5 ranking (SearchRepo.keyword, the served keyword side), the same
// documents loaded into both in the same run. Prints one JSON line per collection (nDCG@10
// of each backend, the difference, top-10 overlap) and one for query latency at 10k nodes.
//   eval "$(bash scripts/pg-test-cluster.sh start)"
//   npx esbuild bench/lab/pg-keyword-eval.ts --bundle --platform=node --format=esm --packages=external \
//     --outfile=dist/lab/pg-keyword-eval.mjs && nice -n 5 node dist/lab/pg-keyword-eval.mjs [collection dirs...]
// Defaults: the shared CISI collection and bench/lab/collections/*. The PostgreSQL server is
// RHIZOME_TEST_DATABASE_URL's; each collection gets a database of its own, dropped after.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../src/db/open.js';
import { connectPg, type PgClient } from '../../src/db/pg/connect.js';
import { migratePg } from '../../src/db/pg/migrate.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { fts5NodeKeywords } from '../../src/repos/keyword-index.repo.js';
import { loadCollection, type Collection } from '../eval/collection.js';
import { mean, ndcgAt } from '../eval/metrics.js';
import { PgKeywordIndex } from '../../src/repos/pg/keyword-index.pg.js';
import { NodesRepo } from '../../src/repos/nodes.repo.js';
import { sql } from '../../src/db/store/sql.js';
import { engineTop, pgBm25 } from '../../test/helpers/engine-bm25.js';
import { queryLexemes } from '../../src/search/lexemes.js';
import { contentTerms } from '../../src/search/fts-query.js';
import { quoteTerm } from '../../src/search/text.js';
import { buildFtsQuery } from '../../src/search/fts-query.js';

const admin = process.env.RHIZOME_TEST_DATABASE_URL;
if (!admin) throw new Error('set RHIZOME_TEST_DATABASE_URL (scripts/pg-test-cluster.sh start)');

const dirs = process.argv.slice(2);
if (!dirs.length) {
  const cisi = ['../shared/eval/cisi', '../../shared/eval/cisi'].find((d) => existsSync(d));
  if (cisi) dirs.push(cisi);
  dirs.push('bench/lab/collections/debian', 'bench/lab/collections/pydoc');
}

const TENANT = 'ten_eval';
const OTHER = 'ten_other';
const NOW = '2026-01-01T00:00:00.000Z';

async function freshDatabase(name: string): Promise<{ pg: PgClient; url: string; drop: () => Promise<void> }> {
  const a = await connectPg(admin!);
  await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await a.query(`CREATE DATABASE ${name}`);
  const u = new URL(admin!);
  u.pathname = `/${name}`;
  const pg = await connectPg(u.toString());
  await migratePg(pg);
  return {
    pg,
    url: u.toString(),
    drop: async () => {
      await pg.end();
      if (process.env.KEEP_DB) return void (await a.end());
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

type Doc = { id: string; title: string; text: string; tenant?: string };

/** The same nodes (same seq) in an in-memory SQLite and in PostgreSQL. */
async function load(docs: Doc[], pg: PgClient, url: string, tenants: string[]) {
  const db = openDatabase(':memory:');
  for (const t of tenants) {
    db.prepare('INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)').run(t, t, NOW);
    await pg.query('INSERT INTO tenants (id, name, created_at) VALUES ($1, $2, $3)', [t, t, NOW]);
  }
  const store = new SqliteStore(db);
  const nodes = new NodesRepo(store, fts5NodeKeywords(store));
  const sync = new PgStore(url);
  const kw = new PgKeywordIndex(sync);
  const t0 = performance.now();
  const ins = async (d: Doc & { tenant: string }) =>
    await nodes.insert({ id: `nod_${d.tenant}_${d.id}`, tenant_id: d.tenant, title: d.title, summary: '', body_markdown: d.text, tags: '[]', status: 'raw', created_at: NOW, updated_at: NOW });
  const pgInsertMs: number[] = [];
  await sync.withTx(async () => {
  for (const d of docs) {
    const tenant = d.tenant ?? tenants[0];
    const seq = await ins({ ...d, tenant });
    const s = performance.now();
    await sync.query(
      `INSERT INTO nodes (seq, id, tenant_id, title, summary, body_markdown, tags, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, '', $5, '[]', 'raw', $6, $6)`,
      [seq, `nod_${tenant}_${d.id}`, tenant, d.title, d.text, NOW],
    );
    await kw.upsert(tenant, seq, { title: d.title, summary: '', body: d.text, tags: '' });
    pgInsertMs.push(performance.now() - s);
  }
  });
  await sync.query('ANALYZE');
  return { db, search: store, sync, loadSeconds: (performance.now() - t0) / 1000, pgInsertMs };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : 0;
};
const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function rankBoth(c: Collection, s: SqliteStore, pgs: PgStore, tenant: string) {
  const idOf = async (seq: number) => String((await s.one(sql<{ id: string }>`SELECT id FROM nodes WHERE seq = ${seq}`))?.id ?? '').replace(`nod_${tenant}_`, '');
  const sqlite: number[] = [], pg: number[] = [], overlap: number[] = [], sqliteMs: number[] = [], pgMs: number[] = [];
  for (const q of c.queries) {
    const rel = c.relevant.get(q.id)!;
    const match = buildFtsQuery(q.text);
    let t = performance.now();
    const a = match ? (await engineTop(s, tenant, contentTerms(q.text).map(quoteTerm), {}, 10)).hits : [];
    sqliteMs.push(performance.now() - t);
    t = performance.now();
    const b = await pgBm25(pgs, tenant, queryLexemes(q.text), 10);
    pgMs.push(performance.now() - t);
    const ia: string[] = [];
    for (const h of a) ia.push(await idOf(h.seq));
    const ib: string[] = [];
    for (const h of b) ib.push(await idOf(h.seq));
    sqlite.push(ndcgAt(ia, rel));
    pg.push(ndcgAt(ib, rel));
    overlap.push(ia.length ? ia.filter((x) => ib.includes(x)).length / ia.length : 1);
  }
  return { sqlite, pg, overlap, sqliteMs, pgMs };
}

for (const dir of process.env.ONLY_LATENCY ? [] : dirs) {
  const c = loadCollection(dir);
  const { pg, url, drop } = await freshDatabase(`rz_eval_${c.name.replace(/\W/g, '_')}`);
  try {
    // A second tenant holds the same documents again: the statistics must stay per tenant.
    const { db, search, sync, loadSeconds } = await load([...c.docs, ...c.docs.map((d) => ({ ...d, tenant: OTHER }))], pg, url, [TENANT, OTHER]);
    const r = await rankBoth(c, search, sync, TENANT);
    const a = mean(r.sqlite), b = mean(r.pg);
    console.log(JSON.stringify({
      kind: 'pg_keyword_ndcg', collection: c.name, docs: c.docs.length, queries: c.queries.length,
      sqlite_fts5_ndcg10: r3(a), pg_bm25_ndcg10: r3(b), diff_pct: r3(((b - a) / a) * 100),
      top10_overlap: r3(mean(r.overlap)), load_seconds: r3(loadSeconds),
    }));
    db.close();
  } finally {
    await drop();
  }
}

// Latency at 10k nodes: every collection's documents, repeated with new ids up to 10,000.
{
  const all = dirs.map(loadCollection);
  const pool = all.flatMap((c) => c.docs);
  const docs: Doc[] = Array.from({ length: 10_000 }, (_, i) => ({ ...pool[i % pool.length], id: `${i}` }));
  const queries = all.flatMap((c) => c.queries).slice(0, 400);
  const { pg, url, drop } = await freshDatabase('rz_eval_latency');
  try {
    const { db, search, sync, pgInsertMs } = await load(docs, pg, url, [TENANT]);
    const c: Collection = { name: 'latency', docs, queries, relevant: new Map(queries.map((q) => [q.id, new Set<string>()])) };
    await rankBoth(c, search, sync, TENANT); // warm both caches
    const r = await rankBoth(c, search, sync, TENANT);
    const size = await pg.query("SELECT pg_total_relation_size('node_keywords') AS kw, pg_total_relation_size('keyword_terms') AS terms");
    console.log(JSON.stringify({
      kind: 'pg_keyword_latency', nodes: docs.length, queries: queries.length,
      sqlite_p50_ms: r3(pct(r.sqliteMs, 50)), sqlite_p95_ms: r3(pct(r.sqliteMs, 95)),
      pg_p50_ms: r3(pct(r.pgMs, 50)), pg_p95_ms: r3(pct(r.pgMs, 95)),
      pg_index_write_p50_ms: r3(pct(pgInsertMs, 50)),
      pg_node_keywords_mb: r3(Number(size.rows[0].kw) / 2 ** 20), pg_keyword_terms_mb: r3(Number(size.rows[0].terms) / 2 ** 20),
    }));
    db.close();
  } finally {
    await drop();
  }
}
