// The same requests on SQLite and on PostgreSQL, side by side in one run (`npm run bench`
// with RHIZOME_BENCH_DATABASE_URL set; opt-in: it needs a PostgreSQL server). A synthetic
// notebook (words with a skewed distribution, unit vectors, random links) is written to a
// SQLite file through the repositories, copied into an empty PostgreSQL database with
// `rhizome migrate`'s code, and both are served by their own container; each request kind
// then alternates between the engines, through the HTTP app in-process (auth, validation
// and JSON included): write acknowledge (POST /nodes), hybrid search (the query's
// embedding is a hash, not the model), related nodes, graph health.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { iso } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { buildContainer, type Container } from '../src/container.js';
import { closeStore, openStore } from '../src/db/store.js';
import { connectPg } from '../src/db/pg/connect.js';
import { HashEmbedder } from '../src/embed/hash-embedder.js';
import { createApp } from '../src/http/app.js';
import { newId } from '../src/ids.js';
import { memoryLogger } from '../src/logger.js';
import { LinksRepo } from '../src/repos/links.repo.js';
import { INVERSE_LINK_TYPE, LINK_TYPES } from '../src/schemas/graph.js';
import { sqliteToPostgres } from '../src/transfer/to-postgres.js';
import { wire } from '../src/wiring.js';
import { contentTerms } from '../src/search/fts-query.js';
import { quoteTerm } from '../src/search/text.js';
import { CANDIDATE_POOL } from '../src/services/nodes/search.service.js';
import { engineTop } from '../test/helpers/engine-bm25.js';

type Line = Record<string, unknown>;
const DIM = 384;

function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100;
};

interface Side {
  engine: 'sqlite' | 'postgres';
  s: Container;
  app: ReturnType<typeof createApp>;
}

async function side(engine: Side['engine'], dir: string, config: { dbPath: string; databaseUrl?: string }): Promise<Side> {
  const db = await openStore({ dbPath: config.dbPath, databaseUrl: config.databaseUrl, synchronous: 'NORMAL' });
  const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dir, RHIZOME_LOG: 'silent' }, { databaseUrl: config.databaseUrl }), db, embedder: new HashEmbedder(DIM), log: memoryLogger() }));
  await s.embedding.init();
  return { engine, s, app: createApp(s) };
}

export async function benchPostgres(o: { nodes: number; url: string; iterations?: number; keepDatabase?: boolean }, out: (l: Line) => void): Promise<void> {
  const iterations = o.iterations ?? 200;
  const rand = mulberry32(7);
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-bench-pg-'));
  const dbPath = join(dir, 'rhizome.db');
  const name = `rz_bench_${process.pid}`;
  const admin = await connectPg(o.url);
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(o.url);
  u.pathname = `/${name}`;
  const url = u.toString();
  try {
    // The notebook, on SQLite.
    const t0 = performance.now();
    const lite = await side('sqlite', dir, { dbPath });
    const { tenant_id: tenantId, api_key: key } = await lite.s.tenants.create('bench');
    const vocab = Array.from({ length: 8000 }, (_, i) => `w${i.toString(36)}x`);
    const word = () => vocab[Math.floor(vocab.length * rand() ** 2.5)];
    const words = (n: number) => Array.from({ length: n }, word).join(' ');
    const embedder = new HashEmbedder(DIM);
    const ids: string[] = [];
    const db = lite.s.db;
    const now = Date.now();
    for (let start = 0; start < o.nodes; start += 5000) {
      const batch = Array.from({ length: Math.min(5000, o.nodes - start) }, () => ({ title: words(4), summary: words(12), body: words(60) }));
      const vectors = await embedder.embed(batch.map((b) => `${b.title}\n${b.summary}\n${b.body}`));
      await db.withTx(async () => {
        for (const [i, b] of batch.entries()) {
          const id = newId('nod');
          const at = iso(now - Math.floor(rand() * 365 * 86_400_000));
          const seq = await lite.s.repos.nodes.insert({ id, tenant_id: tenantId, title: b.title, summary: b.summary, body_markdown: b.body, tags: JSON.stringify([word()]), status: rand() < 0.3 ? 'validated' : 'raw', created_at: at, updated_at: at });
          await lite.s.repos.vectors.upsert(tenantId, seq, vectors[i]);
          await lite.s.repos.nodes.markEmbedded(tenantId, id, 'bench');
          ids.push(id);
        }
      });
    }
    const links = new LinksRepo(db);
    await db.withTx(async () => {
      for (let i = 0; i < o.nodes * 3; i++) {
        const a = ids[Math.floor(rand() * ids.length)];
        const b = ids[Math.floor(rand() * ids.length)];
        if (a === b) continue;
        const type = LINK_TYPES[Math.floor(rand() * LINK_TYPES.length)];
        await links.upsert(tenantId, a, b, type, iso(now));
        await links.upsert(tenantId, b, a, INVERSE_LINK_TYPE[type], iso(now));
      }
    });
    const buildS = (performance.now() - t0) / 1000;
    await closeStore(lite.s.db);
    await lite.s.queue.stop();

    // The same notebook copied into PostgreSQL (what `rhizome migrate --to` does).
    const t1 = performance.now();
    await sqliteToPostgres(dbPath, url);
    const migrateS = (performance.now() - t1) / 1000;
    // The copy leaves all its WAL behind: without a checkpoint first, the timed commits can
    // wait behind the checkpointer writing it out (write acknowledge on a durable server
    // varied 2.7–7.3 ms p50 between two runs). A server in use is long past it.
    await admin.query('CHECKPOINT').catch(() => {}); // superuser only: skipped otherwise

    // Whether PostgreSQL makes a commit durable before it answers (the test cluster does not:
    // fsync and synchronous_commit off). Write acknowledge is read against these.
    const durability = Object.fromEntries(
      (await admin.query("SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes')")).rows.map((r) => [`pg_${r.name}`, r.setting]),
    );
    const sides = [await side('sqlite', dir, { dbPath }), await side('postgres', dir, { dbPath, databaseUrl: url })];
    const t2 = performance.now();
    const indexed = sides.map((x) => x.s.vectors.warm(tenantId));
    out({ kind: 'pg_build', nodes: o.nodes, links: o.nodes * 3, build_s: Math.round(buildS * 10) / 10, migrate_s: Math.round(migrateS * 10) / 10, index_load_ms: Math.round(performance.now() - t2), indexed, ...durability, load_average_1m: Math.round(loadavg()[0] * 100) / 100 });

    const auth = { Authorization: `ApiKey ${key}` };
    const queries = Array.from({ length: 50 }, () => `${word()} ${word()} ${word()}`);
    let q = 0;
    const kinds: Record<string, (x: Side) => Response | Promise<Response>> = {
      write_ack: (x) => x.app.request('/api/v1/nodes', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: words(4), content: words(40) }) }),
      hybrid: (x) => x.app.request(`/api/v1/nodes?query=${encodeURIComponent(queries[q++ % queries.length])}&mode=hybrid`, { headers: auth }),
      related: (x) => x.app.request(`/api/v1/nodes/${ids[Math.floor(rand() * ids.length)]}/related?limit=20`, { headers: auth }),
      graph_health: (x) => x.app.request('/api/v1/graph-health', { headers: auth }),
    };
    for (const [kind, call] of Object.entries(kinds)) {
      const times: Record<string, number[]> = { sqlite: [], postgres: [] };
      for (let i = 0; i < iterations + 10; i++) {
        for (const x of i % 2 ? sides : [...sides].reverse()) {
          const t = performance.now();
          const res = await call(x);
          await res.arrayBuffer();
          if (res.status >= 400) throw new Error(`${kind} on ${x.engine}: ${res.status}`);
          if (i >= 10) times[x.engine].push(performance.now() - t); // the first ten warm statement caches
        }
      }
      const [a, b] = [pct(times.sqlite, 50), pct(times.postgres, 50)];
      out({ kind: 'pg_latency', nodes: o.nodes, request: kind, sqlite_p50_ms: a, sqlite_p95_ms: pct(times.sqlite, 95), postgres_p50_ms: b, postgres_p95_ms: pct(times.postgres, 95), postgres_over_sqlite_p50: Math.round((b / a) * 10) / 10, iterations, load_average_1m: Math.round(loadavg()[0] * 100) / 100 });
    }
    // Filtered keyword queries on each engine, the keyword side alone: the keyword module
    // (handed the matches that meet the filter) against the engine's own scoring joined to
    // the filter (test/helpers/engine-bm25.ts; the server no longer ranks that way), query by
    // query in turns (docs/keyword-index.md).
    const filters = { status_raw: () => ({ status: 'raw' as const }), one_tag: (text: string) => ({ tags: [text.split(' ')[0]] }) };
    for (const x of sides) {
      for (const [filter, make] of Object.entries(filters)) {
        const on: number[] = [];
        const off: number[] = [];
        for (let i = 0; i < iterations + 10; i++) {
          const text = queries[i % queries.length];
          const phrases = contentTerms(text).map(quoteTerm);
          for (const module of i % 2 ? [true, false] : [false, true]) {
            const t = performance.now();
            if (module) await x.s.keywordRoute.keywordTop(tenantId, phrases, make(text), CANDIDATE_POOL);
            else await engineTop(x.s.db, tenantId, phrases, make(text), CANDIDATE_POOL);
            if (i >= 10) (module ? on : off).push(performance.now() - t);
          }
        }
        out({ kind: 'pg_keyword_filtered', nodes: o.nodes, engine: x.engine, filter, module_p50_ms: pct(on, 50), module_p95_ms: pct(on, 95), engine_p50_ms: pct(off, 50), engine_p95_ms: pct(off, 95), iterations, load_average_1m: Math.round(loadavg()[0] * 100) / 100 });
      }
    }
    for (const x of sides) {
      await x.s.queue.stop();
      await x.s.limiters.close();
      await closeStore(x.s.db);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (!o.keepDatabase) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}
