// Loads a BEIR-style collection (corpus.jsonl, queries.jsonl, qrels.tsv).
import { readFileSync } from 'node:fs';

const DIRS = { cisi: '/work/shared/eval/cisi', debian: '/tmp/rz-eval/debian', pydoc: '/tmp/rz-eval/pydoc' };

export function loadCollection(name) {
  const dir = DIRS[name] ?? name;
  const lines = (f) => readFileSync(`${dir}/${f}`, 'utf8').split('\n').filter((l) => l.trim());
  const docs = lines('corpus.jsonl').map((l) => JSON.parse(l));
  const qrels = new Map();
  for (const l of lines('qrels.tsv').slice(1)) {
    const [q, d, s] = l.split('\t');
    if (Number(s) <= 0) continue;
    if (!qrels.has(q)) qrels.set(q, new Set());
    qrels.get(q).add(d);
  }
  const queries = lines('queries.jsonl').map((l) => JSON.parse(l));
  return { name, docs, queries, qrels };
}

export const docText = (d) => `${d.title}\n\n${d.text}`;

export function cutQuery(q, max = 500) {
  if (q.length <= max) return q;
  const cut = q.slice(0, max);
  const sp = cut.lastIndexOf(' ');
  return sp > 0 ? cut.slice(0, sp) : cut;
}
