// Search quality through the service layer: a collection is loaded with s.nodes.create
// (embedded by the real job queue), every judged query runs in each mode through
// s.search.search, and the same run scores plain FTS5 BM25 (every term OR-ed, equal
// column weights) and plain RRF(60) of that BM25 with the semantic list as references.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config.js';
import { buildContainer } from '../container.js';
import { wire } from '../wiring.js';
import { openDatabase } from '../db/open.js';
import type { Embedder } from '../embed/embedder.js';
import { memoryLogger } from '../logger.js';
import { buildPlainFtsQuery } from '../search/fts-query.js';
import { fuseReciprocalRank } from '../search/fusion.js';
import type { Collection } from './collection.js';
import { mean, ndcgAt, recallAt } from './metrics.js';

export const EVAL_MODES = ['bm25', 'keyword', 'semantic', 'hybrid', 'rrf60'] as const;
export type EvalMode = (typeof EVAL_MODES)[number];

export interface ModeScore {
  ndcg10: number;
  recall100: number;
  /** nDCG@10 relative to plain BM25, in percent. */
  vs_bm25_pct: number;
}

export interface CollectionResult {
  collection: string;
  docs: number;
  queries: number;
  ingest_seconds: number;
  modes: Record<EvalMode, ModeScore>;
  /** The same numbers on odd and even query positions: a split-half check of stability. */
  halves: Record<'odd' | 'even', Record<EvalMode, number>>;
}

export async function evaluateSearch(c: Collection, embedder: Embedder & { ready?: Promise<void> }): Promise<CollectionResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rhizome-search-eval-'));
  const db = openDatabase(join(dataDir, 'rhizome.db'));
  const s = wire(buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG: 'silent' }), db, embedder, log: memoryLogger() }));
  await s.embedding.init();
  s.queue.start();
  try {
    const { tenant_id: tenantId } = s.tenants.create('eval');
    const t0 = Date.now();
    const docOf = new Map<string, string>();
    for (const d of c.docs) docOf.set(s.nodes.create(tenantId, { title: (d.title || d.text).slice(0, 500) || d.id, content: d.text }).id, d.id);
    await s.queue.idle(60 * 60_000);
    const ingestSeconds = (Date.now() - t0) / 1000;

    const perQuery: Record<EvalMode, { ndcg: number; recall: number }[]> = { bm25: [], keyword: [], semantic: [], hybrid: [], rrf60: [] };
    const docs = (ids: string[]) => ids.map((id) => docOf.get(id) ?? id);
    for (const q of c.queries) {
      const rel = c.relevant.get(q.id)!;
      const run = async (mode: 'keyword' | 'semantic' | 'hybrid') =>
        (await s.search.search(tenantId, { query: q.text, mode, page: 1, per_page: 100 })).data.map((n) => n.id);
      const plain = buildPlainFtsQuery(q.text);
      const bm25 = plain ? s.repos.search.plainBm25(tenantId, plain, 100) : [];
      const semantic = await run('semantic');
      const seqOf = new Map([...bm25, ...semantic].map((id, i) => [id, i]));
      const idOf = new Map([...seqOf].map(([id, i]) => [i, id]));
      const asHits = (ids: string[]) => ids.map((id, r) => ({ seq: seqOf.get(id)!, score: -r }));
      const rrf = fuseReciprocalRank(asHits(bm25), asHits(semantic)).map((h) => idOf.get(h.seq)!);
      const rankings: Record<EvalMode, string[]> = { bm25, keyword: await run('keyword'), semantic, hybrid: await run('hybrid'), rrf60: rrf };
      for (const m of EVAL_MODES) {
        const ranked = docs(rankings[m]);
        perQuery[m].push({ ndcg: ndcgAt(ranked, rel, 10), recall: recallAt(ranked, rel, 100) });
      }
    }
    const base = mean(perQuery.bm25.map((x) => x.ndcg));
    const modes = Object.fromEntries(
      EVAL_MODES.map((m) => {
        const ndcg10 = mean(perQuery[m].map((x) => x.ndcg));
        return [m, { ndcg10: r4(ndcg10), recall100: r4(mean(perQuery[m].map((x) => x.recall))), vs_bm25_pct: r1((ndcg10 / base - 1) * 100) }];
      }),
    ) as Record<EvalMode, ModeScore>;
    const half = (odd: boolean) =>
      Object.fromEntries(EVAL_MODES.map((m) => [m, r4(mean(perQuery[m].filter((_, i) => i % 2 === (odd ? 1 : 0)).map((x) => x.ndcg)))])) as Record<EvalMode, number>;
    return { collection: c.name, docs: c.docs.length, queries: c.queries.length, ingest_seconds: r1(ingestSeconds), modes, halves: { odd: half(true), even: half(false) } };
  } finally {
    await s.queue.stop();
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const r1 = (x: number) => Math.round(x * 10) / 10;

export function formatTable(r: CollectionResult): string {
  const rows = EVAL_MODES.map(
    (m) =>
      `| ${m.padEnd(8)} | ${r.modes[m].ndcg10.toFixed(4)} | ${(r.modes[m].vs_bm25_pct >= 0 ? '+' : '') + r.modes[m].vs_bm25_pct.toFixed(1)}% | ${r.modes[m].recall100.toFixed(4)} | ${r.halves.odd[m].toFixed(4)} / ${r.halves.even[m].toFixed(4)} |`,
  );
  return [
    `${r.collection}: ${r.docs} docs, ${r.queries} judged queries, ingested through the job queue in ${r.ingest_seconds}s`,
    '| mode     | nDCG@10 | vs BM25 | recall@100 | nDCG@10 odd / even queries |',
    '|----------|---------|---------|------------|----------------------------|',
    ...rows,
  ].join('\n');
}
