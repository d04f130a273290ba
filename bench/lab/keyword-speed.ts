// Keyword and hybrid latency and memory at a given size, for comparing two versions of the
// keyword code on one database: `build` writes n synthetic notes with synthetic vectors (as
// `npm run bench` does) into a SQLite file; `run` opens that file, warms as the server does,
// and times 200 queries in keyword and hybrid mode through the search service (query
// embedding excluded), printing p50/p95, the load average, RSS and the keyword memory.
// Run each version's build of this script on the same file, alternately, several rounds:
//   node keyword-speed.mjs build /tmp/kw 100000
//   node --expose-gc keyword-speed.mjs run /tmp/kw 100000 after
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { iso } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { buildContainer } from '../../src/container.js';
import { openDatabase } from '../../src/db/open.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import type { Embedder } from '../../src/embed/embedder.js';
import { newId } from '../../src/ids.js';
import { memoryLogger } from '../../src/logger.js';
import { wire } from '../../src/wiring.js';
import { SyntheticCorpus } from '../synthetic.js';

const [cmd, dir, size, label = ''] = process.argv.slice(2);
const n = Number(size);
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100;
};

class KnownEmbedder implements Embedder {
  readonly modelId = 'bench-synthetic-512';
  readonly dimension = 512;
  readonly known = new Map<string, Float32Array>();
  constructor(private readonly corpus: SyntheticCorpus) {}
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.known.get(t) ?? this.corpus.vector(0));
  }
  async close(): Promise<void> {}
}

mkdirSync(dir, { recursive: true });
const corpus = new SyntheticCorpus();
const embedder = new KnownEmbedder(corpus);
const db = openDatabase(join(dir, 'rhizome.db'));
const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dir, RHIZOME_LOG: 'silent' }), db: new SqliteStore(db), embedder, log: memoryLogger() }));
await s.embedding.init();
if (cmd === 'build') {
  const { tenant_id: tenantId } = await s.tenants.create('bench');
  const now = iso(Date.now());
  for (let i = 0; i < n; i += 5000) {
    await s.db.withTx(async () => {
      for (let j = i; j < Math.min(n, i + 5000); j++) {
        const note = corpus.note();
        const id = newId('nod');
        const seq = await s.repos.nodes.insert({ id, tenant_id: tenantId, title: note.title, summary: '', body_markdown: note.body, tags: JSON.stringify(note.tags), status: 'raw', created_at: now, updated_at: now });
        await s.repos.vectors.upsert(tenantId, seq, corpus.vector(note.subtopic));
        await s.repos.nodes.markEmbedded(tenantId, id, 'synthetic');
      }
    });
  }
  console.log(JSON.stringify({ kind: 'keyword_speed_build', nodes: n }));
  process.exit(0);
}
for (let i = 0; i < n; i++) corpus.note(); // the query stream after the notes, as when built
const tenantId = (await s.repos.tenants.list())[0].id;
await s.vectors.warm(tenantId);
const t0 = process.hrtime.bigint();
const warmer = s.keywordWarmer as unknown as { keep(t: string): Promise<unknown> };
await warmer.keep(tenantId);
const warmMs = Math.round(ms(t0));
const queries = Array.from({ length: 200 }, () => corpus.query());
for (const q of queries) embedder.known.set(q.text, corpus.vector(q.subtopic));
const out: Record<string, unknown> = { kind: 'keyword_speed', label, nodes: n, warm_ms: warmMs, load_average_1m_before: Math.round(loadavg()[0] * 100) / 100 };
for (const mode of ['keyword', 'hybrid'] as const) {
  const times: number[] = [];
  const slow: [number, string][] = [];
  for (const [i, q] of queries.entries()) {
    const t = process.hrtime.bigint();
    await s.search.search(tenantId, { query: q.text, mode, page: 1, per_page: 20 });
    if (i >= 5) times.push(ms(t));
    slow.push([ms(t), q.text]);
  }
  // SLOWEST=1: the slowest queries of the mode (what a p95 is made of).
  if (process.env.SLOWEST) out[`${mode}_slowest`] = slow.sort((a, b) => b[0] - a[0]).slice(0, 6).map(([t, q]) => `${Math.round(t)} ms: ${q}`);
  out[`${mode}_p50_ms`] = pct(times, 50);
  out[`${mode}_p95_ms`] = pct(times, 95);
}
(globalThis as { gc?: () => void }).gc?.();
const m = process.memoryUsage();
const status = existsSync('/proc/self/status') ? readFileSync('/proc/self/status', 'utf8') : '';
const any = s as unknown as { keywordRoute?: { ranker: { cache: { bytes(): number } } }; repos: { fts?: { kept?: { heldBytes(): number }; impacts?: { heldBytes(): number } } } };
const keywordBytes = any.keywordRoute ? any.keywordRoute.ranker.cache.bytes() : (any.repos.fts?.kept?.heldBytes() ?? 0) + (any.repos.fts?.impacts?.heldBytes() ?? 0);
Object.assign(out, {
  load_average_1m_after: Math.round(loadavg()[0] * 100) / 100,
  rss_mb: Math.round(m.rss / 1e6),
  rss_anon_mb: Math.round(Number(/^RssAnon:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1000),
  heap_used_mb: Math.round(m.heapUsed / 1e6),
  array_buffers_mb: Math.round(m.arrayBuffers / 1e6),
  keyword_memory_mb: Math.round(keywordBytes / 1e5) / 10,
});
console.log(JSON.stringify(out));
s.keywordWarmer?.stop();
process.exit(0);
