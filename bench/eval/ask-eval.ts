// Answers through the service layer (POST /ask's service, extractive): a collection is loaded
// as the search eval loads it, and for every judged query the answer's FIRST citation is
// checked against the judgments, beside hybrid search's precision@1 on the same queries (the
// issue's bar: the first citation comes from a relevant document at least as often as
// hybrid's first hit is relevant). An abstained answer counts as not relevant. Other
// collections' queries (about something else) measure how often the answer abstains where
// it should. With RHIZOME_EVAL_SWEEP=1 the answer's constants are swept over the same
// retrievals.
import type { Embedder } from '../../src/embed/embedder.js';
import { extractAnswer, meaningLine } from '../../src/search/answer/extract.js';
import { retrieve } from '../../src/services/ask/retrieve.js';
import type { Collection } from './collection.js';
import { openEvalApp } from './eval-app.js';
import { mean } from './metrics.js';

export interface AskQuality {
  collection: string;
  queries: number;
  /** Share of the judged queries whose answer's first citation is a relevant document. */
  first_citation_relevant: number;
  /** Share whose hybrid search's first hit is relevant (precision@1). */
  hybrid_p1: number;
  /** Share of the judged queries answered (not abstained). */
  answered: number;
  /** Per other collection: the share of its queries answered with "Your notes don't say". */
  foreign_abstained: Array<{ queries_from: string; queries: number; abstained: number }>;
  /** Mean extractive answer time (ms, query embedding included; the bench measures without). */
  ask_ms_mean: number;
  sweep?: Array<{ rule: number; min_coverage: number; coverage_weight: number; title_share: number; top_first: boolean; first_citation_relevant: number; answered: number; foreign_abstained: number }>;
}

const FOREIGN_QUERIES = 100;
const SWEEP = [0.3, 0.4];
const WEIGHTS = [0];
/** Which notes answer as they stand: those whose cosine clears floor + λ·(gate − floor) (λ = 1: the tenant's semantic gate). */
const RULES = [0, 0.25, 0.5, 0.75, 1] as const;
const TITLE_SHARES = [0.5, 0.75, 1];
const KEYS = RULES.flatMap((rule) => SWEEP.flatMap((m) => WEIGHTS.flatMap((w) => TITLE_SHARES.map((ts) => ({ rule, m, w, ts, top: true, key: `${rule}:${m}:${w}:${ts}` })))));

export async function evaluateAsk(c: Collection, embedder: Embedder & { ready?: Promise<void> }, foreign: Collection[] = []): Promise<AskQuality> {
  const app = await openEvalApp(embedder, 'ask-eval');
  const { s, db, tenantId } = app;
  try {
    const docOf = new Map<string, string>();
    for (const d of c.docs) docOf.set((await s.nodes.create(tenantId, { title: (d.title || d.text).slice(0, 500) || d.id, content: d.text })).id, d.id);
    await s.queue.idle(60 * 60_000);
    const idOfSeq = new Map((db.prepare('SELECT seq, id FROM nodes WHERE tenant_id = ?').raw().all(tenantId) as [number, string][]).map(([seq, id]) => [seq, id]));
    const sweepOn = !!process.env.RHIZOME_EVAL_SWEEP;
    const firstRel: number[] = [];
    const p1: number[] = [];
    const answered: number[] = [];
    const ms: number[] = [];
    const swept = new Map(KEYS.map((k) => [k.key, { rel: [] as number[], ans: [] as number[], foreign: [] as number[] }]));
    const sweepOne = async (question: string, rel: Set<string> | null) => {
      if (!sweepOn) return;
      const r = await retrieve(s.search, s.repos.context, tenantId, question, {}, new Date(s.clock.now()));
      const rarity = await s.search.termRarity(tenantId, question);
      for (const { rule, m, w, ts, top, key } of KEYS) {
        const sources = r.sources.map((src, i) => ({ ...src, byMeaning: r.cosines[i] > meaningLine(r.floor, r.gate, rule) }));
        const ex = extractAnswer(question, sources, { minCoverage: m, coverageWeight: w, topFirst: top, rarity, titleShare: ts });
        const first = ex.sentences[0] ? r.sources[ex.sentences[0].source].node_id : null;
        const row = swept.get(key)!;
        if (rel) {
          row.rel.push(first && rel.has(docOf.get(first)!) ? 1 : 0);
          row.ans.push(first ? 1 : 0);
        } else row.foreign.push(first ? 0 : 1);
      }
    };
    for (const q of c.queries) {
      const rel = c.relevant.get(q.id)!;
      const { hits } = await s.search.rankWithEvidence(tenantId, q.text);
      const top = hits[0] ? docOf.get(idOfSeq.get(hits[0].seq)!) : undefined;
      p1.push(top && rel.has(top) ? 1 : 0);
      const t0 = performance.now();
      const a = await s.ask.ask(tenantId, { question: q.text, mode: 'extractive' });
      ms.push(performance.now() - t0);
      const first = a.citations[0] ? docOf.get(a.citations[0].node_id) : undefined;
      firstRel.push(first && rel.has(first) ? 1 : 0);
      answered.push(a.abstained ? 0 : 1);
      await sweepOne(q.text, rel);
    }
    const foreignAbstained = [];
    for (const f of foreign) {
      const qs = f.queries.slice(0, FOREIGN_QUERIES);
      let none = 0;
      for (const q of qs) {
        if ((await s.ask.ask(tenantId, { question: q.text, mode: 'extractive' })).abstained) none++;
        await sweepOne(q.text, null);
      }
      foreignAbstained.push({ queries_from: f.name, queries: qs.length, abstained: r4(none / Math.max(1, qs.length)) });
    }
    return {
      collection: c.name,
      queries: c.queries.length,
      first_citation_relevant: r4(mean(firstRel)),
      hybrid_p1: r4(mean(p1)),
      answered: r4(mean(answered)),
      foreign_abstained: foreignAbstained,
      ask_ms_mean: Math.round(mean(ms) * 10) / 10,
      ...(sweepOn ? { sweep: KEYS.map(({ rule, m, w, ts, top, key }) => ({ rule, min_coverage: m, coverage_weight: w, title_share: ts, top_first: top, first_citation_relevant: r4(mean(swept.get(key)!.rel)), answered: r4(mean(swept.get(key)!.ans)), foreign_abstained: r4(mean(swept.get(key)!.foreign)) })) } : {}),
    };
  } finally {
    await app.close();
  }
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function formatAskTable(r: AskQuality): string {
  const lines = [
    `${r.collection}: answers (POST /ask, extractive) on ${r.queries} judged queries`,
    `| first citation from a relevant doc | hybrid precision@1 | answered | mean answer time |`,
    `|---|---|---|---|`,
    `| ${r.first_citation_relevant.toFixed(4)} | ${r.hybrid_p1.toFixed(4)} | ${pct(r.answered)} | ${r.ask_ms_mean} ms |`,
    ...r.foreign_abstained.map((f) => `  ${f.queries} ${f.queries_from} queries against ${r.collection}: "Your notes don't say" for ${pct(f.abstained)}`),
  ];
  if (r.sweep) {
    lines.push('| answers as it stands | MIN_COVERAGE | COVERAGE_WEIGHT | TITLE_SHARE | first citation relevant | answered | foreign abstained |', '|---|---|---|---|---|---|---|');
    for (const x of r.sweep) lines.push(`| ${x.rule} | ${x.min_coverage} | ${x.coverage_weight} | ${x.title_share} | ${x.first_citation_relevant.toFixed(4)} | ${pct(x.answered)} | ${pct(x.foreign_abstained)} |`);
  }
  return lines.join('\n');
}
