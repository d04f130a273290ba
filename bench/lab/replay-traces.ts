// Re-scores fusion variants on query traces recorded by `npm run eval` (no model, no
// database): RHIZOME_EVAL_TRACES=traces.jsonl npm run eval, then
//   npx esbuild bench/lab/replay-traces.ts --bundle --platform=node --format=esm --packages=external --outfile=/tmp/replay.mjs && node /tmp/replay.mjs traces.jsonl
// Prints one line per variant and collection: nDCG@10 on all queries and on the odd / even
// halves, each against the previous method (min-max) on the same traces.
import { readFileSync } from 'node:fs';
import { sweep } from '../eval/fusion-sweep.js';
import { contentTerms } from '../../src/search/fts-query.js';
import type { QueryTrace } from '../eval/search-eval.js';

const byCollection = new Map<string, QueryTrace[]>();
for (const line of readFileSync(process.argv[2], 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const t = JSON.parse(line);
  // Traces recorded before `queryTerms` existed get it from the query's text.
  const trace: QueryTrace = { ...t, sides: { queryTerms: contentTerms(t.text).length, ...t.sides }, relevant: new Set(t.relevant), idOf: new Map(t.idOf) };
  const list = byCollection.get(t.collection) ?? [];
  list.push(trace);
  byCollection.set(t.collection, list);
}
const log = console.log;
for (const [collection, traces] of byCollection) {
  const gates: { gate: string; ndcg10: number; foreign_no_semantic_only: number; own_no_semantic_only: number }[] = [];
  const rows: { variant: string; ndcg10: number; odd: number; even: number; diff: number; diff_se: number; foreign_no_semantic_only: number }[] = [];
  console.log = (s: string) => {
    const o = JSON.parse(s);
    if (o.kind === 'fusion_variant') rows.push(o);
    if (o.kind === 'gate_sweep') gates.push(o);
  };
  sweep(collection, traces);
  console.log = log;
  const ref = rows[0];
  const pct = (x: number, y: number) => `${x >= y ? '+' : ''}${((x / y - 1) * 100).toFixed(1)}%`.padStart(6);
  log(`== ${collection}`);
  for (const r of rows)
    log(`${r.variant.padEnd(48)} ${r.ndcg10.toFixed(4)} ${pct(r.ndcg10, ref.ndcg10)}  odd ${pct(r.odd, ref.odd)}  even ${pct(r.even, ref.even)}  diff ${r.diff.toFixed(4)} ± ${r.diff_se.toFixed(4)}  foreign no semantic-only ${(r.foreign_no_semantic_only * 100).toFixed(1)}%`);
  for (const g of gates) log(`gate ${g.gate.padEnd(40)} nDCG@10 ${g.ndcg10.toFixed(4)}  foreign no semantic-only ${(g.foreign_no_semantic_only * 100).toFixed(1)}%  own ${(g.own_no_semantic_only * 100).toFixed(1)}%`);
}
