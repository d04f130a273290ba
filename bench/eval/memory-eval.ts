// Conversation memory through the service layer, as an agent uses Rhizome: each turn of a
// long multi-session chat is one node (one tenant per conversation, dated by its session),
// then every question is asked, in the same run, by
//   bm25      plain FTS5 BM25 over the turns (every term OR-ed): the baseline
//   cosine    the model's plain cosine over every turn, no threshold
//   keyword / semantic / hybrid   GET /nodes as served
//   context   POST /context with the question as its query
//   keyword_rm3 / hybrid_rm3 / keyword_bo1 / hybrid_bo1   keyword and hybrid with pseudo-relevance
//             feedback (FEEDBACK_DEFAULTS); and each setting of the sweep (search-eval.ts
//             feedbackSweep) in `feedback`, with odd / even question halves
// scoring recall@10: the share of a question's evidence turns in the first 10.
// Then abstention: another collection's queries (about something else) are asked of each
// conversation, counting how many get no hit drawn in by meaning alone.
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { buildContainer } from '../../src/container.js';
import { openDatabase } from '../../src/db/open.js';
import type { Embedder } from '../../src/embed/embedder.js';
import { memoryLogger } from '../../src/logger.js';
import { buildPlainFtsQuery } from '../../src/search/fts-query.js';
import { HYBRID_POOL, rankSides } from '../../src/services/nodes/search.service.js';
import { wire } from '../../src/wiring.js';
import type { Collection } from './collection.js';
import { mean, recallAt } from './metrics.js';
import { FEEDBACK_DEFAULTS, type FeedbackSettings, formatFeedback } from '../../src/search/keyword/feedback.js';
import { type FeedbackScore, feedbackSweep, pairedDiff } from './search-eval.js';
import { plainBm25 } from '../../test/helpers/engine-bm25.js';

interface Turn { id: string; speaker: string; text: string }
interface Conversation { id: string; speakers: string[]; sessions: { date: string; turns: Turn[] }[] }
interface Question { id: string; conversation: string; text: string; evidence: string[]; category: string }

export const MEMORY_ROUTES = ['bm25', 'cosine', 'keyword', 'semantic', 'hybrid', 'context', 'keyword_rm3', 'hybrid_rm3', 'keyword_bo1', 'hybrid_bo1'] as const;
export type MemoryRoute = (typeof MEMORY_ROUTES)[number];

export interface MemoryResult {
  collection: string;
  conversations: number;
  turns: number;
  questions: number;
  recall10: Record<MemoryRoute, number>;
  /** recall@10 per question category (fact, temporal, month, ...). */
  by_category: Record<string, Record<MemoryRoute, number>>;
  /** Share of questions the semantic mode answered with nothing. */
  semantic_empty: number;
  /** Out-of-domain queries asked of every conversation: share with no semantic-only hit (hybrid), and empty semantic mode. */
  abstention: { queries_from: string; queries: number; hybrid_no_semantic_only: number; semantic_empty: number };
  ingest_seconds: number;
  /** recall@10 as served, all and odd / even questions, beside `feedback`. */
  halves: Record<'keyword' | 'hybrid', [number, number, number]>;
  /** Per feedback setting (method:docs:terms:weight): recall@10 (FeedbackScore's fields hold recall here). */
  feedback: Record<string, FeedbackScore>;
}

export function loadConversations(dir: string): { name: string; conversations: Conversation[]; questions: Question[] } {
  const lines = (f: string) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  return { name: dir.split('/').pop()!, conversations: lines('conversations.jsonl'), questions: lines('questions.jsonl') };
}

export async function evaluateMemory(dir: string, embedder: Embedder, foreign: Collection | null, foreignPerConversation = 25): Promise<MemoryResult> {
  const { name, conversations, questions } = loadConversations(dir);
  const dataDir = mkdtempSync(join(tmpdir(), 'rhizome-memory-eval-'));
  const db = openDatabase(join(dataDir, 'rhizome.db'));
  const s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG: 'silent' }), db: new SqliteStore(db), embedder, log: memoryLogger() }));
  await s.embedding.init();
  await s.queue.start();
  try {
    const t0 = Date.now();
    const tenantOf = new Map<string, string>();
    const turnOf = new Map<string, string>(); // node id → turn id
    let turns = 0;
    for (const c of conversations) {
      const { tenant_id } = await s.tenants.create(`memory-${c.id}`);
      tenantOf.set(c.id, tenant_id);
      for (const session of c.sessions) {
        for (const t of session.turns) {
          const node = await s.nodes.create(tenant_id, { title: t.speaker, content: t.text }, { created_at: session.date });
          turnOf.set(node.id, t.id);
          turns++;
        }
      }
    }
    await s.queue.idle(60 * 60_000);
    const ingestSeconds = (Date.now() - t0) / 1000;

    const per: Record<MemoryRoute, number[]> = Object.fromEntries(MEMORY_ROUTES.map((r) => [r, []])) as never;
    const cats: Record<string, Record<MemoryRoute, number[]>> = {};
    let semanticEmpty = 0;
    const route = s.keywordRoute!;
    const served = route.feedback;
    const sweep = feedbackSweep();
    const perSetting = new Map(sweep.map((f) => [formatFeedback(f), { keyword: [] as number[], hybrid: [] as number[] }]));
    const fed = async (f: FeedbackSettings | null, tenantId: string, text: string) => {
      route.feedback = f;
      try {
        const run = async (mode: 'keyword' | 'hybrid') => (await s.search.search(tenantId, { query: text, mode, page: 1, per_page: 10 })).data.map((n) => n.id);
        return { keyword: await run('keyword'), hybrid: await run('hybrid') };
      } finally {
        route.feedback = served;
      }
    };
    const turnsOf = (ids: string[]) => ids.map((id) => turnOf.get(id) ?? id);
    for (const q of questions) {
      const tenantId = tenantOf.get(q.conversation)!;
      const rel = new Set(q.evidence);
      const search = async (mode: 'keyword' | 'semantic' | 'hybrid') => (await s.search.search(tenantId, { query: q.text, mode, page: 1, per_page: 10 })).data.map((n) => n.id);
      const plain = buildPlainFtsQuery(q.text);
      const semantic = await search('semantic');
      if (semantic.length === 0) semanticEmpty++;
      const rm3 = await fed(FEEDBACK_DEFAULTS.rm3, tenantId, q.text);
      const bo1 = await fed(FEEDBACK_DEFAULTS.bo1, tenantId, q.text);
      for (const f of sweep) {
        const got = await fed(f, tenantId, q.text);
        const at = perSetting.get(formatFeedback(f))!;
        at.keyword.push(recallAt(turnsOf(got.keyword), rel, 10));
        at.hybrid.push(recallAt(turnsOf(got.hybrid), rel, 10));
      }
      const ranked: Record<MemoryRoute, string[]> = {
        bm25: plain ? await plainBm25(s.db, tenantId, plain, 10) : [],
        cosine: await plainCosine(s, tenantId, q.text, 10),
        keyword: await search('keyword'),
        semantic,
        hybrid: await search('hybrid'),
        context: (await s.context.context(tenantId, { mode: 'hybrid', query: q.text, limit: 10 })).nodes.map((n) => n.id),
        keyword_rm3: rm3.keyword,
        hybrid_rm3: rm3.hybrid,
        keyword_bo1: bo1.keyword,
        hybrid_bo1: bo1.hybrid,
      };
      cats[q.category] ??= Object.fromEntries(MEMORY_ROUTES.map((r) => [r, []])) as never;
      for (const r of MEMORY_ROUTES) {
        const recall = recallAt(turnsOf(ranked[r]), rel, 10);
        per[r].push(recall);
        cats[q.category][r].push(recall);
      }
    }

    let hybridNone = 0;
    let semEmpty = 0;
    let asked = 0;
    if (foreign) {
      for (const c of conversations) {
        const tenantId = tenantOf.get(c.id)!;
        for (const fq of foreign.queries.slice(0, foreignPerConversation)) {
          asked++;
          const sides = await s.search.sides(tenantId, fq.text, {}, 'hybrid', HYBRID_POOL);
          if (!rankSides(sides, 'hybrid').some((x) => x.semantic && !x.keyword)) hybridNone++;
          if ((await s.search.search(tenantId, { query: fq.text, mode: 'semantic', page: 1, per_page: 10 })).total === 0) semEmpty++;
        }
      }
    }
    const avg = (xs: Record<MemoryRoute, number[]>) => Object.fromEntries(MEMORY_ROUTES.map((r) => [r, r4(mean(xs[r]))])) as Record<MemoryRoute, number>;
    const halfOf = (xs: number[]): [number, number] => [r4(mean(xs.filter((_, i) => i % 2 === 1))), r4(mean(xs.filter((_, i) => i % 2 === 0)))];
    const halves = { keyword: [r4(mean(per.keyword)), ...halfOf(per.keyword)], hybrid: [r4(mean(per.hybrid)), ...halfOf(per.hybrid)] } as MemoryResult['halves'];
    const feedback = Object.fromEntries(
      [...perSetting].map(([k, v]) => [
        k,
        { keyword: r4(mean(v.keyword)), hybrid: r4(mean(v.hybrid)), keyword_halves: halfOf(v.keyword), hybrid_halves: halfOf(v.hybrid), keyword_diff: pairedDiff(v.keyword, per.keyword), hybrid_diff: pairedDiff(v.hybrid, per.hybrid) },
      ]),
    );
    return {
      halves,
      feedback,
      collection: name,
      conversations: conversations.length,
      turns,
      questions: questions.length,
      recall10: avg(per),
      by_category: Object.fromEntries(Object.entries(cats).map(([k, v]) => [k, avg(v)])),
      semantic_empty: r4(semanticEmpty / Math.max(1, questions.length)),
      abstention: { queries_from: foreign?.name ?? 'none', queries: asked, hybrid_no_semantic_only: r4(hybridNone / Math.max(1, asked)), semantic_empty: r4(semEmpty / Math.max(1, asked)) },
      ingest_seconds: Math.round(ingestSeconds * 10) / 10,
    };
  } finally {
    await s.queue.stop();
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The model's plain cosine over every note of the tenant: the top k, no threshold. */
async function plainCosine(s: ReturnType<typeof wire>, tenantId: string, text: string, k: number): Promise<string[]> {
  const q = await s.embedding.embedQuery(text);
  if (!q) return [];
  return (await s.vectors.knn(tenantId, q, k)).map((h) => h.id);
}

export function formatMemoryTable(r: MemoryResult): string {
  const cats = Object.keys(r.by_category);
  return [
    `${r.collection}: ${r.conversations} conversations, ${r.turns} turns, ${r.questions} questions (ingested in ${r.ingest_seconds}s)`,
    `| route | recall@10 | ${cats.join(' | ')} |`,
    `|---|---|${cats.map(() => '---').join('|')}|`,
    ...MEMORY_ROUTES.map((m) => `| ${m} | ${r.recall10[m].toFixed(3)} | ${cats.map((c) => r.by_category[c][m].toFixed(3)).join(' | ')} |`),
    `semantic mode empty for ${(r.semantic_empty * 100).toFixed(1)}% of the questions`,
    `abstention: ${r.abstention.queries} ${r.abstention.queries_from} queries: no semantic-only hit ${(r.abstention.hybrid_no_semantic_only * 100).toFixed(1)}%, semantic mode empty ${(r.abstention.semantic_empty * 100).toFixed(1)}%`,
    ...(Object.keys(r.feedback).length
      ? [
          `pseudo-relevance feedback (recall@10; as served: keyword ${r.halves.keyword[0].toFixed(4)} (${r.halves.keyword[1].toFixed(4)} / ${r.halves.keyword[2].toFixed(4)}), hybrid ${r.halves.hybrid[0].toFixed(4)} (${r.halves.hybrid[1].toFixed(4)} / ${r.halves.hybrid[2].toFixed(4)})):`,
          `| setting | keyword | odd / even | hybrid | odd / even |`,
          `|---|---|---|---|---|`,
          ...Object.entries(r.feedback).map(([k, f]) => `| ${k} | ${f.keyword.toFixed(4)} | ${f.keyword_halves[0].toFixed(4)} / ${f.keyword_halves[1].toFixed(4)} | ${f.hybrid.toFixed(4)} | ${f.hybrid_halves[0].toFixed(4)} / ${f.hybrid_halves[1].toFixed(4)} |`),
        ]
      : []),
  ].join('\n');
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
