// Extractive answer latency (`npm run bench -- --ask [sizes]`): notes written straight through
// the repositories with synthetic unit vectors (as bench/search.ts does), their bodies cut
// into sentences and paragraphs (one note in twenty a long one, ~6,000 characters), then
// every question is answered through s.ask.ask, next to hybrid search's ranking of the same
// question in the same run (s.search.rank: what the answer builds on). The query's embedding
// is excluded (a synthetic vector is handed back at once); the target: p95 ≤ 100 ms
// at 100k notes.
import { SqliteStore } from '../src/db/store/sqlite-store.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { iso } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { buildContainer } from '../src/container.js';
import { openDatabase, } from '../src/db/open.js';
import type { Embedder } from '../src/embed/embedder.js';
import { newId } from '../src/ids.js';
import { memoryLogger } from '../src/logger.js';
import { wire } from '../src/wiring.js';
import { pct } from './search.js';
import { SyntheticCorpus } from './synthetic.js';

type Line = Record<string, unknown>;
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

class SyntheticEmbedder implements Embedder {
  readonly modelId = 'bench-synthetic-512';
  readonly dimension = 512;
  readonly known = new Map<string, Float32Array>();
  constructor(private readonly corpus: SyntheticCorpus) {}
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.known.get(t) ?? this.corpus.vector(Math.floor(this.corpus.rand() * 2000)));
  }
  async close(): Promise<void> {}
}

/** Words into sentences of 8-16 words and paragraphs of 3-5 sentences, as notes are written. */
function asProse(words: string, rand: () => number): string {
  const w = words.split(' ');
  const paras: string[] = [];
  let sentences: string[] = [];
  for (let i = 0; i < w.length; ) {
    const n = 8 + Math.floor(rand() * 9);
    const s = w.slice(i, i + n).join(' ');
    sentences.push(`${s[0].toUpperCase()}${s.slice(1)}.`);
    i += n;
    if (sentences.length >= 3 + Math.floor(rand() * 3)) paras.push(sentences.join(' ')), (sentences = []);
  }
  if (sentences.length) paras.push(sentences.join(' '));
  return paras.join('\n\n');
}

export async function benchAsk(sizes: number[], out: (l: Line) => void = (l) => console.log(JSON.stringify(l))): Promise<void> {
  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'rhizome-bench-ask-'));
    const db = openDatabase(join(dir, 'rhizome.db'));
    const corpus = new SyntheticCorpus();
    const embedder = new SyntheticEmbedder(corpus);
    const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dir, RHIZOME_LOG: 'silent' }), db: new SqliteStore(db), embedder, log: memoryLogger() }));
    await s.embedding.init();
    const { tenant_id: tenantId } = await s.tenants.create('bench');
    const t0 = process.hrtime.bigint();
    const now = iso(Date.now());
    let chars = 0;
    for (let i = 0; i < n; i += 5000) {
      await s.db.withTx(async () => {
        for (let j = i; j < Math.min(n, i + 5000); j++) {
          const note = corpus.note(corpus.rand() < 0.05 ? 900 : 80);
          const body = asProse(note.body, corpus.rand);
          chars += body.length;
          const id = newId('nod');
          const seq = await s.repos.nodes.insert({ id, tenant_id: tenantId, title: note.title, summary: '', body_markdown: body, tags: JSON.stringify(note.tags), status: 'raw', created_at: now, updated_at: now });
          await s.repos.vectors.upsert(tenantId, seq, corpus.vector(note.subtopic));
          await s.repos.nodes.markEmbedded(tenantId, id, 'synthetic');
        }
      });
    }
    await s.vectors.warm(tenantId);
    await s.keywordWarmer!.keep(tenantId);
    out({ kind: 'ask_build', nodes: n, mean_body_chars: Math.round(chars / n), build_s: Math.round(ms(t0) / 100) / 10, load_average_1m: Math.round(loadavg()[0] * 100) / 100 });

    const queries = Array.from({ length: 205 }, () => corpus.query());
    for (const q of queries) embedder.known.set(q.text, corpus.vector(q.subtopic));
    const rank: number[] = [];
    const ask: number[] = [];
    let answered = 0;
    let sentences = 0;
    // Alternating, so a busy neighbour on the machine slows both alike; the first five warm caches (and measure the tenant's gate).
    for (const [i, q] of queries.entries()) {
      let t = process.hrtime.bigint();
      await s.search.rank(tenantId, q.text, 'hybrid');
      const r = ms(t);
      t = process.hrtime.bigint();
      const a = await s.ask.ask(tenantId, { question: q.text, mode: 'extractive' });
      const x = ms(t);
      if (i < 5) continue;
      rank.push(r);
      ask.push(x);
      if (!a.abstained) answered++;
      sentences += a.sentences.length;
    }
    out({
      kind: 'ask_latency', nodes: n, query_embedding: 'excluded', questions: ask.length, answered, mean_sentences: Math.round((sentences / Math.max(1, answered)) * 10) / 10,
      ask_p50_ms: pct(ask, 50), ask_p95_ms: pct(ask, 95), hybrid_rank_p50_ms: pct(rank, 50), hybrid_rank_p95_ms: pct(rank, 95), load_average_1m: Math.round(loadavg()[0] * 100) / 100,
    });
    await s.queue.stop();
    await s.db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
