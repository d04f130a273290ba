// Latency of the graph endpoints (related, link suggestions, context, graph health) on a
// synthetic graph, measured through the HTTP app in-process (auth, validation and JSON
// included). The graph is written straight through the repositories: nodes with
// Zipf-distributed words, random unit vectors, random links of every type.
import { SqliteStore } from '../src/db/store/sqlite-store.js';
import { mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { iso } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { buildContainer } from '../src/container.js';
import { wire } from '../src/wiring.js';
import { closeDatabase, openDatabase } from '../src/db/open.js';
import { normalize } from '../src/vectors/math.js';
import { HashEmbedder } from '../src/embed/hash-embedder.js';
import { createApp } from '../src/http/app.js';
import { newId } from '../src/ids.js';
import { LinksRepo } from '../src/repos/links.repo.js';
import { INVERSE_LINK_TYPE, LINK_TYPES, type LinkType } from '../src/schemas/graph.js';

export interface GraphBenchOptions {
  nodes: number;
  links: number;
  /** Requests per endpoint (default 200; suggestions and context use a quarter of it, at least 20). */
  iterations?: number;
  dimension?: number;
  seed?: number;
  /** Leave the built database at this path instead of deleting it (for poking at plans). */
  keepDbAt?: string;
}

const DAY = 86_400_000;

export async function benchGraph(opts: GraphBenchOptions): Promise<object> {
  const iterations = opts.iterations ?? 200;
  const dimension = opts.dimension ?? 384;
  const rand = mulberry32(opts.seed ?? 42);
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-bench-graph-'));
  const dbPath = join(dir, 'rhizome.db');
  const db = openDatabase(dbPath, { synchronous: 'NORMAL' });
  const config = loadConfig({ RHIZOME_DATA_DIR: dir, RHIZOME_LOG: 'silent' });
  const embedder = new HashEmbedder(dimension);
  const s = wire(await buildContainer({ config, db: new SqliteStore(db), embedder }));
  try {
    await s.embedding.init();
    const { tenant_id: tenantId, api_key: key } = await s.tenants.create('bench');
    const app = createApp(s);

    const t0 = performance.now();
    const vocab = Array.from({ length: 8000 }, (_, i) => pseudoWord(i));
    const word = () => vocab[Math.floor(vocab.length * rand() ** 2.5)]; // skewed: a few very common words
    const words = (n: number) => Array.from({ length: n }, word).join(' ');
    const now = Date.now();
    const ids: string[] = [];
    const projects: string[] = [];
    for (let i = 0; i < 20; i++) projects.push((await s.para.create(tenantId, { category: 'projects', label: `Project ${i}` })).id);

    const BATCH = 5000;
    for (let start = 0; start < opts.nodes; start += BATCH) {
      await s.db.withTx(async () => {
        for (let i = start; i < Math.min(opts.nodes, start + BATCH); i++) {
          const id = newId('nod');
          const at = iso(now - Math.floor(rand() * 365 * DAY));
          const r = rand();
          const seq = await s.repos.nodes.insert({
            id, tenant_id: tenantId, title: words(4), summary: words(12), body_markdown: words(60), tags: JSON.stringify([word()]),
            status: r < 0.3 ? 'validated' : r < 0.35 ? 'dismissed' : 'raw', created_at: at, updated_at: at,
          });
          await s.repos.vectors.upsert(tenantId, seq, randomUnit(dimension, rand));
          if (rand() < 0.05) await s.repos.nodes.setUserParaItems(tenantId, id, [projects[Math.floor(rand() * projects.length)]], at);
          ids.push(id);
        }
      });
    }
    const nodesMs = performance.now() - t0;

    const links = new LinksRepo(s.db);
    const t1 = performance.now();
    // Distinct random pairs; rows written in key order, which keeps B-tree inserts sequential.
    const pairs = new Set<string>();
    const rows: Array<[string, string, LinkType]> = [];
    const maxPairs = (ids.length * (ids.length - 1)) / 2;
    while (pairs.size < Math.min(opts.links, maxPairs)) {
      const a = ids[Math.floor(rand() * ids.length)];
      const b = ids[Math.floor(rand() * ids.length)];
      const key = a < b ? `${a}|${b}` : `${b}|${a}`;
      if (a === b || pairs.has(key)) continue;
      pairs.add(key);
      const type = LINK_TYPES[Math.floor(rand() * LINK_TYPES.length)];
      rows.push([a, b, type], [b, a, INVERSE_LINK_TYPE[type]]);
    }
    rows.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : 1));
    const at = iso(now);
    for (let start = 0; start < rows.length; start += BATCH * 4) {
      await s.db.withTx(async () => {
        for (const [a, b, type] of rows.slice(start, start + BATCH * 4)) await links.upsert(tenantId, a, b, type, at);
      });
    }
    const linksMs = performance.now() - t1;
    db.pragma('optimize');

    const auth = { Authorization: `ApiKey ${key}` };
    const get = async (path: string) => app.request(path, { headers: auth });
    const post = async (path: string, body: unknown) =>
      app.request(path, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const pick = () => ids[Math.floor(rand() * ids.length)];
    const few = Math.max(20, Math.floor(iterations / 4));
    // As a server does at start (SQLite): the keyword module reads ahead the terms 64+ nodes
    // hold. RHIZOME_BENCH_GRAPH_COLD: not (a server just started, or PostgreSQL's first reads).
    const t2 = performance.now();
    const keptTerms = process.env.RHIZOME_BENCH_GRAPH_COLD ? 0 : await s.keywordWarmer?.keep(tenantId);
    const keywordKeptMs = performance.now() - t2;

    const results = {
      related: await measure(iterations, () => get(`/api/v1/nodes/${pick()}/related?limit=50`)),
      suggestions: await measure(few, () => get(`/api/v1/links/suggestions?text=${encodeURIComponent(words(40))}`)),
      context: await measure(few, () => post('/api/v1/context', { focus_node_ids: [pick(), pick()], query: words(4), limit: 20 })),
      context_focus_only: await measure(few, () => post('/api/v1/context', { focus_node_ids: [pick()] })),
      context_no_anchor: await measure(few, () => post('/api/v1/context', {})),
      graph_health: await measure(iterations, () => get('/api/v1/graph-health')),
    };
    const healthRes = await (await get('/api/v1/graph-health')).json();
    return {
      bench: 'graph',
      nodes: opts.nodes,
      links: (healthRes as { total_links: number }).total_links,
      dimension,
      build_ms: { nodes: Math.round(nodesMs), links: Math.round(linksMs) },
      keyword_kept: { terms: keptTerms, ms: Math.round(keywordKeptMs) },
      db_mb: Math.round(statSync(dbPath).size / 1e6),
      graph_health: healthRes,
      latency_ms: results,
    };
  } finally {
    await s.queue.stop();
    closeDatabase(db);
    if (opts.keepDbAt) renameSync(dbPath, opts.keepDbAt);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(n: number, call: () => Promise<Response>): Promise<{ n: number; p50: number; p95: number; max: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await call();
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`bench request failed with ${res.status}`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))] * 100) / 100;
  return { n, p50: q(0.5), p95: q(0.95), max: q(1) };
}

function randomUnit(dim: number, rand: () => number): Float32Array {
  const v = new Float32Array(dim);
  for (let i = 0; i < dim; i++) v[i] = rand() * 2 - 1;
  return normalize(v);
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'po', 'an', 'el', 'is', 'or', 'um', 'ba', 'de', 'fi', 'go', 'hu'];
function pseudoWord(i: number): string {
  let w = '';
  let n = i + 20;
  while (n > 0) {
    w += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return w;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
