// Search quality through the service layer: a collection is loaded with s.nodes.create
// (embedded by the real job queue) and every judged query is ranked, in the same run, by
//   bm25    plain FTS5 BM25 (every term OR-ed, equal column weights): the baseline
//   keyword / semantic / hybrid   the served method (s.search.search: absolute scores,
//           calibrated semantic side with abstention)
//   before  the previous hybrid: per-query min-max convex fusion of the same two lists
//   rrf60   plain RRF(60) of BM25 and the semantic list
//   context POST /context with the query (its first 100): it must rank at least as well as hybrid
//   semantic_whole / hybrid_whole   the same with each note scored by its own vector only (no passages)
//   keyword_rm3 / hybrid_rm3 / keyword_bo1 / hybrid_bo1   the same with pseudo-relevance feedback
//           on the keyword side (search/keyword/feedback.ts, FEEDBACK_DEFAULTS); and every
//           setting of RHIZOME_EVAL_FEEDBACK (comma-separated, e.g. rm3:5:20:0.7; FEEDBACK_SWEEP
//           unless set; `off` for none), keyword and hybrid, in the `feedback` table; keyword
//           and hybrid above are as served (FEEDBACK_SERVED: RM3 for 15+ content words)
// Then abstention: other collections' queries are asked against this one (they are about
// something else), counting how many get no hit drawn in by meaning alone.
import type { Embedder } from '../../src/embed/embedder.js';
import { contentTerms, buildPlainFtsQuery } from '../../src/search/fts-query.js';
import { keywordWeight } from '../../src/search/fusion.js';
import { fuseConvex, fuseReciprocalRank } from './reference-fusion.js';
import { HYBRID_POOL, rankSides, type SearchSides } from '../../src/services/nodes/search.service.js';
import type { Collection } from './collection.js';
import { openEvalApp } from './eval-app.js';
import { FEEDBACK_DEFAULTS, type FeedbackSettings, formatFeedback, parseFeedback } from '../../src/search/keyword/feedback.js';
import { mean, ndcgAt, recallAt } from './metrics.js';
import { plainBm25 } from '../../test/helpers/engine-bm25.js';

export const EVAL_MODES = ['bm25', 'cosine', 'keyword', 'semantic', 'before', 'hybrid', 'rrf60', 'context', 'semantic_whole', 'hybrid_whole', 'keyword_rm3', 'hybrid_rm3', 'keyword_bo1', 'hybrid_bo1'] as const;
export type EvalMode = (typeof EVAL_MODES)[number];

/** Feedback settings compared in one run: fbDocs 3/5/10 × fbTerms 10/20 × original weight 0.5/0.7, both methods. */
export const FEEDBACK_SWEEP: string[] = ['rm3', 'bo1'].flatMap((m) => [3, 5, 10].flatMap((d) => [10, 20].flatMap((t) => [0.5, 0.7].map((w) => `${m}:${d}:${t}:${w}`))));

/**
 * The feedback settings this run compares against what is served (RHIZOME_EVAL_FEEDBACK:
 * comma-separated settings, `sweep` for `off` and all of FEEDBACK_SWEEP; unset: `off` only,
 * so a plain `npm run eval` stays short — the sweep multiplies every query's work by 25).
 */
export function feedbackSweep(env = process.env.RHIZOME_EVAL_FEEDBACK): (FeedbackSettings | null)[] {
  const list = env === 'sweep' ? ['off', ...FEEDBACK_SWEEP].join(',') : (env ?? 'off');
  return list.split(',').filter((x) => x.trim()).map((x) => parseFeedback(x));
}

/** One feedback setting's keyword and hybrid nDCG@10 (all, odd and even queries). */
export interface FeedbackScore {
  keyword: number;
  hybrid: number;
  keyword_halves: [number, number];
  hybrid_halves: [number, number];
  /** Mean per-query difference from the same mode as served, and its standard error (paired). */
  keyword_diff: [number, number];
  hybrid_diff: [number, number];
}

/** Mean of the per-query differences a − b and its standard error. */
export function pairedDiff(a: number[], b: number[]): [number, number] {
  const d = a.map((x, i) => x - b[i]);
  const m = mean(d);
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, d.length - 1));
  return [Math.round(m * 1e4) / 1e4, Math.round((sd / Math.sqrt(Math.max(1, d.length))) * 1e4) / 1e4];
}

export interface ModeScore {
  ndcg10: number;
  recall100: number;
  /** nDCG@10 relative to plain BM25, in percent. */
  vs_bm25_pct: number;
}

export interface Abstention {
  /** Whose queries were asked. */
  queries_from: string;
  queries: number;
  /** Share of these out-of-domain queries with no semantic-only hit in hybrid mode. */
  hybrid_no_semantic_only: number;
  /** Share answered with data: [] in semantic mode. */
  semantic_empty: number;
  /** The same share under the previous method (every k-NN neighbour was served). */
  before_hybrid_no_semantic_only: number;
}

export interface CollectionResult {
  collection: string;
  docs: number;
  queries: number;
  ingest_seconds: number;
  modes: Record<EvalMode, ModeScore>;
  /** The same numbers on odd and even query positions: a split-half check of stability. */
  halves: Record<'odd' | 'even', Record<EvalMode, number>>;
  /** In-domain queries (this collection's own) with no semantic-only hit: the cost of abstaining. */
  in_domain_no_semantic_only: number;
  abstention: Abstention[];
  /** Per feedback setting (method:docs:terms:weight). */
  feedback: Record<string, FeedbackScore>;
}

/** Per query: the raw sides and the judged documents (kept for fusion experiments). */
export interface QueryTrace {
  /** true: another collection's query (nothing here is relevant to it). */
  foreign: boolean;
  text: string;
  relevant: Set<string>;
  sides: SearchSides;
  idOf: Map<number, string>;
  /** Mean and standard deviation of the query's cosine over all the tenant's notes (fusion experiments). */
  background?: { mean: number; std: number };
}

export const FOREIGN_QUERIES = 100;

export async function evaluateSearch(
  c: Collection,
  embedder: Embedder & { ready?: Promise<void> },
  foreign: Collection[] = [],
  onTrace?: (t: QueryTrace) => void,
): Promise<CollectionResult> {
  const app = await openEvalApp(embedder, 'search-eval');
  const { s, db, tenantId } = app;
  try {
    const t0 = Date.now();
    const docOf = new Map<string, string>();
    for (const d of c.docs) docOf.set((await s.nodes.create(tenantId, { title: (d.title || d.text).slice(0, 500) || d.id, content: d.text })).id, d.id);
    await s.queue.idle(60 * 60_000);
    const ingestSeconds = (Date.now() - t0) / 1000;
    const allVectors: { seq: number; v: Float32Array }[] = [];
    for (const [seq, id] of db.prepare('SELECT seq, id FROM nodes WHERE tenant_id = ?').raw().all(tenantId) as [number, string][]) {
      const v = await s.vectors.get(tenantId, id);
      if (v) allVectors.push({ seq, v });
    }
    const exact = onTrace ? async (text: string) => background(await s.embedding.embedQuery(text), allVectors) : async () => ({});
    const idOfSeq = new Map((db.prepare('SELECT seq, id FROM nodes WHERE tenant_id = ?').raw().all(tenantId) as [number, string][]).map(([seq, id]) => [seq, id]));

    const perQuery = Object.fromEntries(EVAL_MODES.map((m) => [m, [] as { ndcg: number; recall: number }[]])) as Record<EvalMode, { ndcg: number; recall: number }[]>;
    const docs = (ids: string[]) => ids.map((id) => docOf.get(id) ?? id);
    let inDomainAbstained = 0;
    const route = s.keywordRoute!;
    const served = route.feedback;
    const sweep = feedbackSweep();
    const perSetting = new Map(sweep.map((f) => [formatFeedback(f), { keyword: [] as number[], hybrid: [] as number[] }]));
    /** Keyword (page of 100) and hybrid rankings with this feedback setting. */
    const withFeedback = async (f: FeedbackSettings | null, text: string) => {
      route.feedback = f;
      try {
        const keyword = (await s.search.search(tenantId, { query: text, mode: 'keyword', page: 1, per_page: 100 })).data.map((n) => n.id);
        const hybrid = rankSides(await s.search.sides(tenantId, text, {}, 'hybrid', HYBRID_POOL), 'hybrid')
          .slice(0, 100)
          .map((h) => idOfSeq.get(h.seq)!);
        return { keyword, hybrid };
      } finally {
        route.feedback = served;
      }
    };
    for (const q of c.queries) {
      const rel = c.relevant.get(q.id)!;
      const run = async (mode: 'keyword' | 'semantic') => (await s.search.search(tenantId, { query: q.text, mode, page: 1, per_page: 100 })).data.map((n) => n.id);
      const sides = await s.search.sides(tenantId, q.text, {}, 'hybrid', HYBRID_POOL);
      onTrace?.({ foreign: false, text: q.text, relevant: new Set([...rel]), sides, idOf: new Map([...idOfSeq].map(([seq, id]) => [seq, docOf.get(id)!])), ...(await exact(q.text)) });
      const ids = (hits: { seq: number }[]) => hits.slice(0, 100).map((h) => idOfSeq.get(h.seq)!);
      const hybridHits = rankSides(sides, 'hybrid');
      if (!hybridHits.some((h) => h.semantic && !h.keyword)) inDomainAbstained++;
      const plain = buildPlainFtsQuery(q.text);
      const bm25 = plain ? await plainBm25(s.db, tenantId, plain, 100) : [];
      const semantic = await run('semantic');
      s.vectors.usePassages = false;
      const semanticWhole = await run('semantic');
      // The model's plain cosine: whole-note vectors, nearest first, no gate (the baseline for the semantic mode).
      const qv = await s.embedding.embedQuery(q.text);
      const cosine = qv ? (await s.vectors.knn(tenantId, qv, 100)).map((h) => h.id) : [];
      const hybridWhole = ids(rankSides(await s.search.sides(tenantId, q.text, {}, 'hybrid', HYBRID_POOL), 'hybrid'));
      s.vectors.usePassages = true;
      const rm3 = await withFeedback(FEEDBACK_DEFAULTS.rm3, q.text);
      const bo1 = await withFeedback(FEEDBACK_DEFAULTS.bo1, q.text);
      for (const f of sweep) {
        const got = await withFeedback(f, q.text);
        const at = perSetting.get(formatFeedback(f))!;
        at.keyword.push(ndcgAt(docs(got.keyword), rel, 10));
        at.hybrid.push(ndcgAt(docs(got.hybrid), rel, 10));
      }
      const seqOf = new Map([...bm25, ...semantic].map((id, i) => [id, i]));
      const idOf = new Map([...seqOf].map(([id, i]) => [i, id]));
      const asHits = (list: string[]) => list.map((id, r) => ({ seq: seqOf.get(id)!, score: -r }));
      const rankings: Record<EvalMode, string[]> = {
        bm25,
        cosine,
        keyword: await run('keyword'),
        semantic,
        before: ids(fuseConvex(sides.keyword, sides.semantic, keywordWeight(contentTerms(q.text).length))),
        hybrid: (await s.search.search(tenantId, { query: q.text, mode: 'hybrid', page: 1, per_page: 100 })).data.map((n) => n.id), // as GET /nodes serves it (a period said orders)
        rrf60: fuseReciprocalRank(asHits(bm25), asHits(semantic)).map((h) => idOf.get(h.seq)!),
        semantic_whole: semanticWhole,
        hybrid_whole: hybridWhole,
        keyword_rm3: rm3.keyword,
        hybrid_rm3: rm3.hybrid,
        keyword_bo1: bo1.keyword,
        hybrid_bo1: bo1.hybrid,
        context: (await s.context.context(tenantId, { query: q.text, mode: 'hybrid', limit: 100 })).nodes.map((n) => n.id),
      };
      for (const m of EVAL_MODES) {
        const ranked = docs(rankings[m]);
        perQuery[m].push({ ndcg: ndcgAt(ranked, rel, 10), recall: recallAt(ranked, rel, 100) });
      }
    }

    const abstention: Abstention[] = [];
    for (const f of foreign) {
      const qs = f.queries.slice(0, FOREIGN_QUERIES);
      let hybridNone = 0;
      let semanticEmpty = 0;
      let beforeNone = 0;
      for (const q of qs) {
        // The whole ranked set, not a first page: a semantic-only hit on page 9 still counts.
        const sides = await s.search.sides(tenantId, q.text, {}, 'hybrid', HYBRID_POOL);
        if (!rankSides(sides, 'hybrid').some((x) => x.semantic && !x.keyword)) hybridNone++;
        const sem = await s.search.search(tenantId, { query: q.text, mode: 'semantic', page: 1, per_page: 20 });
        if (sem.total === 0) semanticEmpty++;
        onTrace?.({ foreign: true, text: q.text, relevant: new Set(), sides, idOf: new Map(), ...(await exact(q.text)) });
        const before = fuseConvex(sides.keyword, sides.semantic, keywordWeight(contentTerms(q.text).length));
        if (!before.some((x) => x.semantic && !x.keyword)) beforeNone++;
      }
      abstention.push({
        queries_from: f.name,
        queries: qs.length,
        hybrid_no_semantic_only: r4(hybridNone / Math.max(1, qs.length)),
        semantic_empty: r4(semanticEmpty / Math.max(1, qs.length)),
        before_hybrid_no_semantic_only: r4(beforeNone / Math.max(1, qs.length)),
      });
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
    const halfOf = (xs: number[]): [number, number] => [r4(mean(xs.filter((_, i) => i % 2 === 1))), r4(mean(xs.filter((_, i) => i % 2 === 0)))];
    const feedback = Object.fromEntries(
      [...perSetting].map(([k, v]) => [
        k,
        {
          keyword: r4(mean(v.keyword)),
          hybrid: r4(mean(v.hybrid)),
          keyword_halves: halfOf(v.keyword),
          hybrid_halves: halfOf(v.hybrid),
          keyword_diff: pairedDiff(v.keyword, perQuery.keyword.map((x) => x.ndcg)),
          hybrid_diff: pairedDiff(v.hybrid, perQuery.hybrid.map((x) => x.ndcg)),
        },
      ]),
    );
    return {
      feedback,
      collection: c.name,
      docs: c.docs.length,
      queries: c.queries.length,
      ingest_seconds: r1(ingestSeconds),
      modes,
      halves: { odd: half(true), even: half(false) },
      in_domain_no_semantic_only: r4(inDomainAbstained / Math.max(1, c.queries.length)),
      abstention,
    };
  } finally {
    await app.close();
  }
}

/** The query's cosine over all the tenant's notes: its mean and spread. */
function background(q: Float32Array | null, all: { seq: number; v: Float32Array }[]): Pick<QueryTrace, 'background'> {
  if (!q || all.length === 0) return {};
  let sum = 0;
  let sq = 0;
  for (const { v } of all) {
    let c = 0;
    for (let i = 0; i < v.length; i++) c += v[i] * q[i];
    sum += c;
    sq += c * c;
  }
  const mean = sum / all.length;
  return { background: { mean, std: Math.sqrt(Math.max(0, sq / all.length - mean * mean)) } };
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const r1 = (x: number) => Math.round(x * 10) / 10;

export function formatTable(r: CollectionResult): string {
  const label: Record<EvalMode, string> = { bm25: 'bm25', cosine: 'plain cosine (whole notes, no gate)', keyword: 'keyword', semantic: 'semantic', before: 'hybrid (previous: min-max)', hybrid: 'hybrid (calibrated)', rrf60: 'rrf60', context: 'context (POST /context)', semantic_whole: 'semantic, no passages', hybrid_whole: 'hybrid, no passages', keyword_rm3: `keyword + ${formatFeedback(FEEDBACK_DEFAULTS.rm3)}`, hybrid_rm3: `hybrid + ${formatFeedback(FEEDBACK_DEFAULTS.rm3)}`, keyword_bo1: `keyword + ${formatFeedback(FEEDBACK_DEFAULTS.bo1)}`, hybrid_bo1: `hybrid + ${formatFeedback(FEEDBACK_DEFAULTS.bo1)}` };
  const rows = EVAL_MODES.map(
    (m) =>
      `| ${label[m].padEnd(26)} | ${r.modes[m].ndcg10.toFixed(4)} | ${(r.modes[m].vs_bm25_pct >= 0 ? '+' : '') + r.modes[m].vs_bm25_pct.toFixed(1)}% | ${r.modes[m].recall100.toFixed(4)} | ${r.halves.odd[m].toFixed(4)} / ${r.halves.even[m].toFixed(4)} |`,
  );
  const abst = r.abstention.map(
    (a) =>
      `  ${a.queries} ${a.queries_from} queries against ${r.collection}: no semantic-only hit ${pct(a.hybrid_no_semantic_only)} (previous method ${pct(a.before_hybrid_no_semantic_only)}), semantic mode empty ${pct(a.semantic_empty)}`,
  );
  return [
    `${r.collection}: ${r.docs} docs, ${r.queries} judged queries, ingested through the job queue in ${r.ingest_seconds}s`,
    `| mode                       | nDCG@10 | vs BM25 | recall@100 | nDCG@10 odd / even queries |`,
    `|----------------------------|---------|---------|------------|----------------------------|`,
    ...rows,
    `abstention (out-of-domain queries):`,
    ...abst,
    `  own queries with no semantic-only hit: ${pct(r.in_domain_no_semantic_only)}`,
    ...(Object.keys(r.feedback).length
      ? [
          `pseudo-relevance feedback (nDCG@10; as served: keyword ${r.modes.keyword.ndcg10.toFixed(4)} (${r.halves.odd.keyword.toFixed(4)} / ${r.halves.even.keyword.toFixed(4)}), hybrid ${r.modes.hybrid.ndcg10.toFixed(4)} (${r.halves.odd.hybrid.toFixed(4)} / ${r.halves.even.hybrid.toFixed(4)})):`,
          `| setting | keyword | odd / even | difference ± s.e. | hybrid | odd / even | difference ± s.e. |`,
          `|---|---|---|---|---|---|---|`,
          ...Object.entries(r.feedback).map(
            ([k, f]) =>
              `| ${k} | ${f.keyword.toFixed(4)} | ${f.keyword_halves[0].toFixed(4)} / ${f.keyword_halves[1].toFixed(4)} | ${sign(f.keyword_diff[0])} ± ${f.keyword_diff[1].toFixed(4)} | ${f.hybrid.toFixed(4)} | ${f.hybrid_halves[0].toFixed(4)} / ${f.hybrid_halves[1].toFixed(4)} | ${sign(f.hybrid_diff[0])} ± ${f.hybrid_diff[1].toFixed(4)} |`,
          ),
        ]
      : []),
  ].join('\n');
}

const sign = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(4)}`;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
