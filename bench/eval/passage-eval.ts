// The paragraph in the middle (`npm run eval -- --passages`): what passages are for, measured.
// A collection's judged queries whose one relevant document is short (one passage) are each
// given a long note of their own: that document hidden in the middle of seven others, under a
// title that says nothing. The document is not in the tenant otherwise; the rest of the
// collection is, one note each. A query finds its answer only by finding that long note: with
// its own vector alone the paragraph is a seventh of the note's meaning. The rules for a long
// note's similarity (its own vector's and its passages') are compared on the same tenant.
import type { Embedder } from '../../src/embed/embedder.js';
import { PASSAGE_CHARS } from '../../src/search/passages.js';
import type { Collection } from './collection.js';
import { openEvalApp } from './eval-app.js';
import { mean } from './metrics.js';

/** Long notes built (one per query), and documents around the hidden one in each. */
const QUERIES = 150;
const AROUND = 7;
/** Fewer single-answer short documents than this: the collection is left out (CISI has one). */
const MIN_QUERIES = 30;

export interface PassageRule {
  name: string;
  /** Applied before the rule's queries run, undone after. */
  set: (s: { vectors: { usePassages: boolean } }) => () => void;
}

export interface PassageQuality {
  collection: string;
  queries: number;
  long_note_chars: number;
  rules: Array<{ rule: string; semantic: { found_at_10: number; mrr10: number; empty: number }; hybrid: { found_at_10: number; mrr10: number } }>;
}

const rank = (ids: string[], target: string) => {
  const i = ids.slice(0, 10).indexOf(target);
  return { found: i >= 0 ? 1 : 0, rr: i >= 0 ? 1 / (i + 1) : 0 };
};

export async function evaluatePassages(c: Collection, embedder: Embedder & { ready?: Promise<void> }, rules: PassageRule[]): Promise<PassageQuality | null> {
  const byId = new Map(c.docs.map((d) => [d.id, d]));
  const picked = c.queries
    .filter((q) => c.relevant.get(q.id)!.size === 1)
    .map((q) => ({ q, doc: byId.get([...c.relevant.get(q.id)!][0]) }))
    .filter((x): x is { q: (typeof c.queries)[number]; doc: Collection['docs'][number] } => !!x.doc && x.doc.text.length >= 80 && x.doc.text.length <= PASSAGE_CHARS)
    .slice(0, QUERIES);
  if (picked.length < MIN_QUERIES) return null;
  const hidden = new Set(picked.map((x) => x.doc.id));
  const others = c.docs.filter((d) => !hidden.has(d.id) && d.text.length <= 1500);
  const app = await openEvalApp(embedder, 'passage-eval');
  const { s, tenantId } = app;
  try {
    for (const d of c.docs) if (!hidden.has(d.id)) await s.nodes.create(tenantId, { title: (d.title || d.text).slice(0, 500) || d.id, content: d.text });
    const longOf = new Map<string, string>();
    const lengths: number[] = [];
    for (const [i, { q, doc }] of picked.entries()) {
      // Deterministic neighbours: a stride through the other documents.
      const around = Array.from({ length: AROUND }, (_, k) => others[(i * 37 + k * 101) % others.length]);
      const paras = [...around.slice(0, 3), doc, ...around.slice(3)].map((d) => d.text.trim());
      const body = paras.join('\n\n');
      lengths.push(body.length);
      longOf.set(q.id, (await s.nodes.create(tenantId, { title: `Reading notes ${i + 1}`, content: body })).id);
    }
    await s.queue.idle(60 * 60_000);
    const out: PassageQuality['rules'] = [];
    for (const rule of rules) {
      const undo = rule.set(s);
      try {
        const sem = { found: [] as number[], rr: [] as number[], empty: 0 };
        const hyb = { found: [] as number[], rr: [] as number[] };
        for (const { q } of picked) {
          const target = longOf.get(q.id)!;
          const semantic = (await s.search.search(tenantId, { query: q.text, mode: 'semantic', page: 1, per_page: 10 })).data.map((n) => n.id);
          if (!semantic.length) sem.empty++;
          const a = rank(semantic, target);
          sem.found.push(a.found);
          sem.rr.push(a.rr);
          const hybrid = (await s.search.search(tenantId, { query: q.text, mode: 'hybrid', page: 1, per_page: 10 })).data.map((n) => n.id);
          const b = rank(hybrid, target);
          hyb.found.push(b.found);
          hyb.rr.push(b.rr);
        }
        out.push({ rule: rule.name, semantic: { found_at_10: r4(mean(sem.found)), mrr10: r4(mean(sem.rr)), empty: r4(sem.empty / picked.length) }, hybrid: { found_at_10: r4(mean(hyb.found)), mrr10: r4(mean(hyb.rr)) } });
      } finally {
        undo();
      }
    }
    return { collection: c.name, queries: picked.length, long_note_chars: Math.round(mean(lengths)), rules: out };
  } finally {
    await app.close();
  }
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

export function formatPassageTable(r: PassageQuality): string {
  return [
    `${r.collection}: ${r.queries} judged documents each hidden in the middle of a long note (${r.long_note_chars} characters on average)`,
    '| rule | semantic: found in top 10 | MRR@10 | empty | hybrid: found in top 10 | MRR@10 |',
    '|---|---|---|---|---|---|',
    ...r.rules.map((x) => `| ${x.rule} | ${x.semantic.found_at_10.toFixed(4)} | ${x.semantic.mrr10.toFixed(4)} | ${(x.semantic.empty * 100).toFixed(1)}% | ${x.hybrid.found_at_10.toFixed(4)} | ${x.hybrid.mrr10.toFixed(4)} |`),
  ].join('\n');
}
