// A BEIR-style retrieval collection: corpus.jsonl {_id,title,text}, queries.jsonl {_id,text},
// qrels.tsv (query-id, corpus-id, score; header line). Only judged queries are kept.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

export interface Collection {
  name: string;
  docs: { id: string; title: string; text: string }[];
  queries: { id: string; text: string }[];
  relevant: Map<string, Set<string>>;
}

export function loadCollection(dir: string): Collection {
  const lines = (f: string) => readFileSync(`${dir}/${f}`, 'utf8').split('\n').filter((l) => l.trim());
  const relevant = new Map<string, Set<string>>();
  for (const l of lines('qrels.tsv').slice(1)) {
    const [q, d, score] = l.split('\t');
    if (Number(score) <= 0) continue;
    (relevant.get(q) ?? relevant.set(q, new Set()).get(q)!).add(d);
  }
  const docs = lines('corpus.jsonl').map((l) => {
    const d = JSON.parse(l) as { _id: string; title?: string; text?: string };
    return { id: String(d._id), title: d.title ?? '', text: d.text ?? '' };
  });
  const queries = lines('queries.jsonl')
    .map((l) => JSON.parse(l) as { _id: string; text: string })
    .map((q) => ({ id: String(q._id), text: cutAtWord(q.text, 500) }))
    .filter((q) => relevant.has(q.id));
  return { name: basename(dir), docs, queries, relevant };
}

/** The API takes queries up to `max` chars: longer ones are cut at the last word boundary. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > 0 ? cut.slice(0, space) : cut).trim();
}
