// Search and ingestion speed (`npm run bench`). Notes are written straight through the
// repositories with synthetic unit vectors (embedding 100k notes for real would take hours),
// then every mode is timed through s.search.search, next to a naive baseline in the same
// run: float32 brute-force vec0 k-NN + unbounded FTS5 + JS fusion.
import { SqliteStore } from '../src/db/store/sqlite-store.js';
import { ftsTable } from '../src/repos/keyword-index.repo.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { iso } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { buildContainer, type Container } from '../src/container.js';
import { wire } from '../src/wiring.js';
import { closeDatabase, openDatabase, } from '../src/db/open.js';
import type { Embedder } from '../src/embed/embedder.js';
import { WorkerEmbedder } from '../src/embed/worker-embedder.js';
import { createApp } from '../src/http/app.js';
import { newId } from '../src/ids.js';
import { memoryLogger } from '../src/logger.js';
import { buildPlainFtsQuery, contentTerms } from '../src/search/fts-query.js';
import { quoteTerm } from '../src/search/text.js';
import { CANDIDATE_POOL } from '../src/services/nodes/search.service.js';
import type { NodeFilter } from '../src/repos/nodes.repo.js';
import { engineTop } from '../test/helpers/engine-bm25.js';
import { embeddedPassages } from '../src/search/passages.js';
import { fuseReciprocalRank } from './eval/reference-fusion.js';
import { procStatusKb } from './proc-status.js';
import { SyntheticCorpus } from './synthetic.js';
import { keywordQuality } from './keyword-quality.js';

type Line = Record<string, unknown>;

export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100;
}
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
/** Where the process' memory is: anonymous vs file-mapped RSS (Linux), the main thread's V8 heap, typed arrays. */
function memoryBreakdown(): Record<string, number> {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const mb = (x: number) => Math.round(x / 1e6);
  const kb = (key: string) => procStatusKb('self', key);
  return { rss_mb: mb(m.rss), rss_anon_mb: Math.round(kb('RssAnon') / 1000), rss_file_mb: Math.round(kb('RssFile') / 1000), main_heap_used_mb: mb(m.heapUsed), array_buffers_mb: mb(m.arrayBuffers) };
}

/** Hands back the synthetic vector of a known text; optionally runs the real model first (latency "including embedding"). */
class BenchEmbedder implements Embedder {
  readonly modelId = 'bench-synthetic-512';
  readonly dimension = 512;
  readonly known = new Map<string, Float32Array>();
  includeModel = false;
  constructor(
    private readonly real: Embedder,
    private readonly corpus: SyntheticCorpus,
  ) {}
  async embed(texts: string[]): Promise<Float32Array[]> {
    if (this.includeModel) await this.real.embed(texts);
    return texts.map((t) => this.known.get(t) ?? this.corpus.vector(Math.floor(this.corpus.rand() * 2000)));
  }
  async close(): Promise<void> {}
}

/**
 * One note in this many is a long article with passages (the rest are ~80-word notes).
 * RHIZOME_BENCH_LONG_EVERY=0: none, the corpus of the builds before passages (to compare with them).
 */
const PASSAGE_EVERY = Number(process.env.RHIZOME_BENCH_LONG_EVERY ?? 5);
if (!Number.isInteger(PASSAGE_EVERY) || PASSAGE_EVERY < 0) throw new Error(`RHIZOME_BENCH_LONG_EVERY must be a whole number ≥ 0 (0: no long notes), not '${process.env.RHIZOME_BENCH_LONG_EVERY}'`);

interface Ctx {
  s: Container;
  tenantId: string;
  apiKey: string;
  corpus: SyntheticCorpus;
  embedder: BenchEmbedder;
  dir: string;
}

async function build(n: number, real: Embedder, out: (l: Line) => void): Promise<Ctx> {
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-bench-search-'));
  const db = openDatabase(join(dir, 'rhizome.db'));
  const corpus = new SyntheticCorpus();
  const embedder = new BenchEmbedder(real, corpus);
  const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dir, RHIZOME_LOG: 'silent' }), db: new SqliteStore(db), embedder, log: memoryLogger() }));
  await s.embedding.init();
  const { tenant_id: tenantId, api_key: apiKey } = await s.tenants.create('bench');
  const t0 = process.hrtime.bigint();
  const now = iso(Date.now());
  const batch = 5000;
  for (let i = 0; i < n; i += batch) {
    await s.db.withTx(async () => {
      for (let j = i; j < Math.min(n, i + batch); j++) {
        // One note in PASSAGE_EVERY is a long article (~4,000 characters): embedded per passage too.
        const long = PASSAGE_EVERY > 0 && j % PASSAGE_EVERY === 0;
        const note = corpus.note(long ? 600 : 80);
        const id = newId('nod');
        const seq = await s.repos.nodes.insert({ id, tenant_id: tenantId, title: note.title, summary: '', body_markdown: note.body, tags: JSON.stringify(note.tags), status: 'raw', created_at: now, updated_at: now });
        await s.repos.vectors.upsert(tenantId, seq, corpus.vector(note.subtopic));
        if (long) await s.repos.passages.replace(tenantId, seq, id, embeddedPassages(note.body).map((p) => ({ ...p, vector: corpus.vector(note.subtopic) })));
        await s.repos.nodes.markEmbedded(tenantId, id, 'synthetic');
      }
    });
  }
  const insertS = ms(t0) / 1000;
  const t1 = process.hrtime.bigint();
  const indexBlock = longestBlock();
  const indexed = await s.vectors.warm(tenantId);
  const indexLoadMaxBlockMs = indexBlock();
  const passages = s.vectors.indexStats(tenantId).passages;
  const indexLoadMs = Math.round(ms(t1));
  const index = s.vectors.indexStats(tenantId);
  const t3 = process.hrtime.bigint();
  const keptBlock = longestBlock();
  const keptTerms = await s.keywordWarmer!.keep(tenantId);
  const keptMaxBlockMs = keptBlock();
  const keptMs = Math.round(ms(t3));
  out({
    kind: 'search_build', nodes: n, passages, long_notes_share: PASSAGE_EVERY > 0 ? 1 / PASSAGE_EVERY : 0, load_average_1m: Math.round(loadavg()[0] * 100) / 100, insert_s: Math.round(insertS * 10) / 10, index_load_ms: indexLoadMs, indexed,
    // index_load_ms includes building the partition (index_partition_ms of it); the bytes are the index's typed arrays
    index_partition_ms: index.partition_build_ms, index_partitioned: index.partitioned, index_bytes_per_vector: index.bytes_per_vector,
    // terms read into the keyword module's memory (search/keyword/) by the warmer
    keyword_kept_ms: keptMs, keyword_kept_terms: keptTerms,
    // the longest the event loop was held at once while each loaded (a request waits that long)
    index_load_max_block_ms: indexLoadMaxBlockMs, keyword_kept_max_block_ms: keptMaxBlockMs, keyword_kept_mb: Math.round(s.keywordRoute!.ranker.cache.bytesOf(tenantId) / 1e5) / 10,
  });
  return { s, tenantId, apiKey, corpus, embedder, dir };
}

async function latency(c: Ctx, n: number, out: (l: Line) => void): Promise<{ hybridP50: number; flatHybridP50: number }> {
  const queries = Array.from({ length: 200 }, () => c.corpus.query());
  for (const q of queries) c.embedder.known.set(q.text, c.corpus.vector(q.subtopic));
  let hybridP50 = 0;
  let flatHybridP50 = 0;
  const time = async (mode: 'keyword' | 'semantic' | 'hybrid', qs: typeof queries) => {
    const times: number[] = [];
    for (const [i, q] of qs.entries()) {
      const t0 = process.hrtime.bigint();
      await c.s.search.search(c.tenantId, { query: q.text, mode, page: 1, per_page: 20 });
      if (i >= 5) times.push(ms(t0)); // the first few warm caches
    }
    return times;
  };
  for (const included of [false, true]) {
    c.embedder.includeModel = included;
    const qs = included ? queries.slice(0, 60) : queries;
    for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
      if (included && mode === 'keyword') continue; // keyword search embeds nothing
      const times = await time(mode, qs);
      const p50 = pct(times, 50);
      if (mode === 'hybrid' && !included) hybridP50 = p50;
      out({ kind: 'search_latency', nodes: n, mode, query_embedding: included ? 'included' : 'excluded', p50_ms: p50, p95_ms: pct(times, 95), queries: times.length });
    }
  }
  c.embedder.includeModel = false;
  // The keyword side of the same queries (the pool search asks for), ranked by the keyword
  // module and scored by the engine itself (FTS5's bm25() over every match, the reference in
  // test/helpers/engine-bm25.ts: the server no longer ranks that way), query by query in
  // turns, so a busy neighbour slows both alike.
  const inTurns = async (f: (q: { text: string }) => NodeFilter) => {
    const on: number[] = [];
    const off: number[] = [];
    for (const [i, q] of queries.entries()) {
      const phrases = contentTerms(q.text).map(quoteTerm);
      for (const module of i % 2 ? [true, false] : [false, true]) {
        const t0 = process.hrtime.bigint();
        if (module) await c.s.keywordRoute.keywordTop(c.tenantId, phrases, f(q), CANDIDATE_POOL);
        else await engineTop(c.s.db, c.tenantId, phrases, f(q), CANDIDATE_POOL);
        if (i >= 5) (module ? on : off).push(ms(t0));
      }
    }
    return { on, off };
  };
  {
    const { on, off } = await inTurns(() => ({}));
    out({ kind: 'keyword_side_module_vs_fts5', nodes: n, kept_terms: c.s.keywordRoute.ranker.cache.get(c.tenantId)?.size ?? 0, module_p50_ms: pct(on, 50), module_p95_ms: pct(on, 95), fts5_p50_ms: pct(off, 50), fts5_p95_ms: pct(off, 95), queries: on.length });
  }
  // Filtered: every note (status=raw: the filter keeps every match) and one tag (the query's
  // first word: a few hundred notes).
  const filters = { every_note: () => ({ status: 'raw' as const }), one_tag: (q: { text: string }) => ({ tags: [q.text.split(' ')[0]] }) };
  for (const [filter, make] of Object.entries(filters)) {
    const { on, off } = await inTurns(make);
    out({ kind: 'keyword_side_module_vs_fts5_filtered', nodes: n, filter, module_p50_ms: pct(on, 50), module_p95_ms: pct(on, 95), fts5_p50_ms: pct(off, 50), fts5_p95_ms: pct(off, 95), queries: on.length });
  }
  // Long queries (15+ content words: several queries run together) with the served
  // pseudo-relevance feedback and without it, query by query in turns: what the second pass
  // costs (docs/search-quality.md#pseudo-relevance-feedback).
  const served = c.s.keywordRoute!.feedback;
  if (served) {
    const long: string[] = [];
    for (let i = 0; long.length < 60 && i < queries.length; i++) {
      let text = queries[i].text;
      for (let j = i + 1; contentTerms(text).length < served.minTerms && j < queries.length; j++) text += ` ${queries[j].text}`;
      c.embedder.known.set(text, c.corpus.vector(queries[i].subtopic));
      long.push(text);
    }
    for (const mode of ['keyword', 'hybrid'] as const) {
      const on: number[] = [];
      const off: number[] = [];
      for (const [i, text] of long.entries()) {
        for (const withFeedback of i % 2 ? [true, false] : [false, true]) {
          c.s.keywordRoute!.feedback = withFeedback ? served : null;
          const t0 = process.hrtime.bigint();
          await c.s.search.search(c.tenantId, { query: text, mode, page: 1, per_page: 20 });
          if (i >= 5) (withFeedback ? on : off).push(ms(t0));
        }
      }
      c.s.keywordRoute!.feedback = served;
      out({ kind: 'search_latency_feedback', nodes: n, mode, query_embedding: 'excluded', min_terms: served.minTerms, feedback_p50_ms: pct(on, 50), feedback_p95_ms: pct(on, 95), without_p50_ms: pct(off, 50), without_p95_ms: pct(off, 95), queries: on.length });
    }
  }
  // Nodes scored with their passages (the served route) and by their own vectors only,
  // query by query in turns, so a busy neighbour slows both sides alike.
  for (const mode of ['semantic', 'hybrid'] as const) {
    const on: number[] = [];
    const off: number[] = [];
    for (const [i, q] of queries.entries()) {
      for (const withPassages of i % 2 ? [true, false] : [false, true]) {
        c.s.vectors.usePassages = withPassages;
        const t0 = process.hrtime.bigint();
        await c.s.search.search(c.tenantId, { query: q.text, mode, page: 1, per_page: 20 });
        if (i >= 5) (withPassages ? on : off).push(ms(t0));
      }
    }
    c.s.vectors.usePassages = true;
    out({ kind: 'search_latency_passages', nodes: n, mode, query_embedding: 'excluded', passages: c.s.vectors.indexStats(c.tenantId).passages, passages_p50_ms: pct(on, 50), passages_p95_ms: pct(on, 95), own_vectors_only_p50_ms: pct(off, 50), own_vectors_only_p95_ms: pct(off, 95), queries: on.length });
  }
  // The k-NN with and without the coarse partition of the codes, query by query in turns
  // (which one goes first alternates), so a busy neighbour slows both sides alike.
  for (const mode of ['semantic', 'hybrid'] as const) {
    const on: number[] = [];
    const off: number[] = [];
    for (const [i, q] of queries.entries()) {
      for (const partitioned of i % 2 ? [true, false] : [false, true]) {
        c.s.vectors.usePartition = partitioned;
        const t0 = process.hrtime.bigint();
        await c.s.search.search(c.tenantId, { query: q.text, mode, page: 1, per_page: 20 });
        if (i >= 5) (partitioned ? on : off).push(ms(t0));
      }
    }
    c.s.vectors.usePartition = true;
    if (mode === 'hybrid') flatHybridP50 = pct(off, 50);
    out({ kind: 'search_latency_code_partition', nodes: n, mode, query_embedding: 'excluded', partitioned: c.s.vectors.indexStats(c.tenantId).partitioned, partition_p50_ms: pct(on, 50), partition_p95_ms: pct(on, 95), every_code_p50_ms: pct(off, 50), every_code_p95_ms: pct(off, 95), queries: on.length });
  }
  // The first keyword query after a write: the module takes the written note in.
  const after: number[] = [];
  for (const q of queries.slice(0, 60)) {
    const note = c.corpus.note();
    await c.s.nodes.create(c.tenantId, { title: note.title, content: note.body });
    const t0 = process.hrtime.bigint();
    await c.s.search.search(c.tenantId, { query: q.text, mode: 'keyword', page: 1, per_page: 20 });
    after.push(ms(t0));
  }
  out({ kind: 'keyword_after_write', nodes: n, p50_ms: pct(after, 50), p95_ms: pct(after, 95), queries: after.length });
  const t0 = process.hrtime.bigint();
  await c.s.keywordWarmer!.refresh();
  out({ kind: 'keyword_refresh', nodes: n, ms: Math.round(ms(t0)) });
  return { hybridP50, flatHybridP50 };
}

/** The naive hybrid: exact float k-NN in vec0, every FTS5 match ranked, RRF in JS, first page hydrated. */
async function naive(c: Ctx, n: number, hybrid: { hybridP50: number; flatHybridP50: number }, out: (l: Line) => void): Promise<void> {
  const db = c.s.db as SqliteStore;
  const t = ftsTable(c.tenantId);
  const fts = db.prepare(
    `SELECT n.seq, bm25(${t}) AS r FROM ${t} JOIN nodes n ON n.seq = ${t}.rowid WHERE ${t} MATCH ? AND n.tenant_id = ?`,
  );
  const times: number[] = [];
  for (let i = 0; i < 40; i++) {
    const q = c.corpus.query();
    const vec = c.corpus.vector(q.subtopic);
    const t0 = process.hrtime.bigint();
    const match = buildPlainFtsQuery(q.text);
    const kw = match ? (await fts.all(match, c.tenantId) as { seq: number; r: number }[]).sort((a, b) => a.r - b.r).map((x) => ({ seq: x.seq, score: -x.r })) : [];
    const sem = (await c.s.vectors.knnExact(c.tenantId, vec, 100)).map((h) => ({ seq: h.seq, score: 1 - h.distance }));
    const fused = fuseReciprocalRank(kw, sem).slice(0, 20);
    await c.s.repos.nodes.getBySeqs(c.tenantId, fused.map((f) => f.seq));
    if (i >= 3) times.push(ms(t0));
  }
  const p50 = pct(times, 50);
  out({ kind: 'naive_hybrid_latency', nodes: n, p50_ms: p50, p95_ms: pct(times, 95), speedup_vs_rhizome_hybrid: Math.round((p50 / hybrid.hybridP50) * 10) / 10, speedup_vs_hybrid_scanning_every_code: Math.round((p50 / hybrid.flatHybridP50) * 10) / 10 });
}

/** recall@10 of the quantised index against exact float k-NN in vec0, with and without the partition of the codes. */
async function recall(c: Ctx, n: number, out: (l: Line) => void): Promise<void> {
  let found = 0;
  let foundFlat = 0;
  const runs = 100;
  for (let i = 0; i < runs; i++) {
    const v = c.corpus.vector(c.corpus.query().subtopic);
    const exact = new Set((await c.s.vectors.knnExact(c.tenantId, v, 10)).map((h) => h.seq));
    found += (await c.s.vectors.nearest(c.tenantId, v, 10)).filter((h) => exact.has(h.seq)).length;
    c.s.vectors.usePartition = false;
    foundFlat += (await c.s.vectors.nearest(c.tenantId, v, 10)).filter((h) => exact.has(h.seq)).length;
    c.s.vectors.usePartition = true;
  }
  const r = (x: number) => Math.round((x / (runs * 10)) * 1000) / 1000;
  out({ kind: 'semantic_recall', nodes: n, partitioned: c.s.vectors.indexStats(c.tenantId).partitioned, recall_at_10_vs_exact_float: r(found), every_code_recall_at_10_vs_exact_float: r(foundFlat) });
}

/** POST /nodes through the HTTP app while the real model embeds in the background. */
async function writeAck(c: Ctx, n: number, out: (l: Line) => void): Promise<void> {
  const app = createApp(c.s);
  c.embedder.includeModel = true;
  await c.s.queue.start();
  const times: number[] = [];
  for (let i = 0; i < 120; i++) {
    const note = c.corpus.note();
    const t0 = process.hrtime.bigint();
    const res = await app.request('/api/v1/nodes', {
      method: 'POST',
      headers: { Authorization: `ApiKey ${c.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: note.title, content: note.body, tags: note.tags }),
    });
    if (res.status !== 201) throw new Error(`POST /nodes answered ${res.status}`);
    if (i >= 5) times.push(ms(t0));
  }
  out({ kind: 'write_ack', nodes: n, p50_ms: pct(times, 50), p95_ms: pct(times, 95), writes: times.length });
  await c.s.queue.stop();
  c.embedder.includeModel = false;
}

/**
 * Nodes/s through the durable job queue against the bare embedder, same model, same kind of
 * texts. Rounds alternate (bare, queue, bare, queue) so a busy neighbour on the machine
 * slows both sides alike.
 */
async function ingestion(real: Embedder, out: (l: Line) => void): Promise<void> {
  const corpus = new SyntheticCorpus(512, 200, 10, 20_000, 99);
  const round = () => Array.from({ length: 128 }, () => corpus.note(60)).map((x) => ({ title: x.title, content: x.body }));
  await real.embed(['warm-up']);
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-bench-ingest-'));
  const db = openDatabase(join(dir, 'rhizome.db'));
  const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dir, RHIZOME_LOG: 'silent' }), db: new SqliteStore(db), embedder: real, log: memoryLogger() }));
  await s.embedding.init();
  const { tenant_id: tenantId } = await s.tenants.create('bench');
  await s.queue.start();
  let bareMs = 0;
  let queueMs = 0;
  let n = 0;
  for (let r = 0; r < 2; r++) {
    const bare = round().map((x) => `${x.title}\n${x.content}`);
    let t0 = process.hrtime.bigint();
    for (let i = 0; i < bare.length; i += 32) await real.embed(bare.slice(i, i + 32));
    bareMs += ms(t0);
    const notes = round();
    t0 = process.hrtime.bigint();
    for (const x of notes) await s.nodes.create(tenantId, x);
    await s.queue.idle(30 * 60_000);
    queueMs += ms(t0);
    n += notes.length;
  }
  await s.queue.stop();
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
  const bare = n / (bareMs / 1000);
  const queued = n / (queueMs / 1000);
  out({ kind: 'embedding_throughput', model: real.modelId, nodes: n, bare_embedder_per_s: Math.round(bare * 10) / 10, job_queue_per_s: Math.round(queued * 10) / 10, ratio: Math.round((queued / bare) * 100) / 100 });
}

export async function benchSearch(opts: { sizes?: number[] } = {}, out: (l: Line) => void = (l) => console.log(JSON.stringify(l))): Promise<void> {
  const before = memoryBreakdown();
  const real = new WorkerEmbedder({ model: 'use-lite', cacheDir: mkdtempSync(join(tmpdir(), 'rhizome-bench-model-')) });
  await real.ready;
  await real.embed(['warm-up']);
  const withModel = memoryBreakdown();
  // The model and TF.js live in the embed worker's thread: its share is what loading it added.
  out({ kind: 'rss_model', model: real.modelId, rss_before_mb: before.rss_mb, rss_with_model_mb: withModel.rss_mb, model_share_mb: withModel.rss_mb - before.rss_mb, model_share_anon_mb: withModel.rss_anon_mb - before.rss_anon_mb });
  try {
    await keywordQuality(real, out);
    await ingestion(real, out);
    for (const n of opts.sizes ?? [10_000, 100_000]) {
      const c = await build(n, real, out);
      const hybrid = await latency(c, n, out);
      await naive(c, n, hybrid, out);
      await recall(c, n, out);
      await writeAck(c, n, out);
      out({ kind: 'rss', nodes: n, ...memoryBreakdown(), vector_index_mb: Math.round(c.s.vectors.indexBytes(c.tenantId) / 1e6), passages: c.s.vectors.indexStats(c.tenantId).passages, keyword_kept_mb: Math.round(c.s.keywordRoute!.ranker.cache.bytes() / 1e6), load_average_1m: Math.round(loadavg()[0] * 100) / 100 });
      await c.s.db.close();
      rmSync(c.dir, { recursive: true, force: true });
    }
  } finally {
    await real.close();
  }
}

/** Starts watching the event loop; the returned function stops and says the longest it was held at once (ms). */
function longestBlock(): () => number {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  return () => {
    h.disable();
    return Math.round(h.max / 1e6);
  };
}
