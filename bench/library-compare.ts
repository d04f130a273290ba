// MiniSearch (an in-memory BM25 engine) against FTS5 on the same synthetic notes and
// queries, in one process (`RHIZOME_BENCH_LIBRARY=1 npm run bench`): index build time, the
// memory it holds, query p50/p95 for the best 200, and how many of FTS5's top 10 it returns
// (its tokenizer has no porter stemmer and its BM25 differs in detail, so not 10 of 10).
import { SqliteStore } from '../src/db/store/sqlite-store.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { iso } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { buildContainer } from '../src/container.js';
import { closeDatabase, openDatabase } from '../src/db/open.js';
import type { Embedder } from '../src/embed/embedder.js';
import { newId } from '../src/ids.js';
import { memoryLogger } from '../src/logger.js';
import { contentTerms } from '../src/search/fts-query.js';
import { quoteTerm } from '../src/search/text.js';
import { wire } from '../src/wiring.js';
import { SyntheticCorpus } from './synthetic.js';

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100;
}
const heapMb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 1e6;
};

export async function compareLibrary(n: number, embedder: Embedder, out: (l: Record<string, unknown>) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-bench-library-'));
  const db = openDatabase(join(dir, 'rhizome.db'));
  const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dir, RHIZOME_LOG: 'silent' }), db: new SqliteStore(db), embedder, log: memoryLogger() }));
  const { tenant_id: tenantId } = await s.tenants.create('library');
  const corpus = new SyntheticCorpus();
  const notes = Array.from({ length: n }, () => corpus.note());
  const now = iso(Date.now());
  const seqs: number[] = [];
  await s.db.withTx(async () => {
    for (const note of notes) seqs.push(await s.repos.nodes.insert({ id: newId('nod'), tenant_id: tenantId, title: note.title, summary: '', body_markdown: note.body, tags: JSON.stringify(note.tags), status: 'raw', created_at: now, updated_at: now }));
  });
  const before = heapMb();
  const t0 = process.hrtime.bigint();
  const mini = new MiniSearch<{ id: number; title: string; body: string; tags: string }>({ fields: ['title', 'body', 'tags'], searchOptions: { boost: { title: 4, tags: 3 }, combineWith: 'OR' } });
  mini.addAll(notes.map((x, i) => ({ id: seqs[i], title: x.title, body: x.body, tags: x.tags.join(' ') })));
  const buildMs = ms(t0);
  const held = heapMb() - before;
  await s.keywordWarmer!.keep(tenantId);
  const queries = Array.from({ length: 200 }, () => corpus.query().text);
  const fts: number[] = [];
  const lib: number[] = [];
  let overlap = 0;
  for (const q of queries) {
    const phrases = contentTerms(q).map(quoteTerm);
    let t = process.hrtime.bigint();
    const a = (await s.keywordRoute!.keywordTop(tenantId, phrases, {}, 200)).hits;
    fts.push(ms(t));
    t = process.hrtime.bigint();
    const b = mini.search(contentTerms(q).join(' ')).slice(0, 200);
    lib.push(ms(t));
    const top = new Set(a.slice(0, 10).map((h) => h.seq));
    overlap += b.slice(0, 10).filter((h) => top.has(h.id as number)).length;
  }
  out({
    kind: 'keyword_library_compare', nodes: n, library: 'minisearch@7.2.0', build_ms: Math.round(buildMs), held_mb: Math.round(held),
    library_p50_ms: pct(lib, 50), library_p95_ms: pct(lib, 95), keyword_module_p50_ms: pct(fts, 50), keyword_module_p95_ms: pct(fts, 95),
    top10_overlap_with_fts5: Math.round((overlap / (queries.length * 10)) * 1000) / 1000, load_average_1m: Math.round(loadavg()[0] * 100) / 100,
  });
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
}
