// Real text for the load bench: the held-out collections committed in bench/lab/collections
// (Debian package descriptions, Python docstrings) as notes, and their queries as search
// text. Notes are cycled (with a suffix) up to the size asked; queries are made distinct
// by pairing, so the query-vector cache only helps where a real client would repeat itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../synthetic.js';

const COLLECTIONS = ['bench/lab/collections/debian', 'bench/lab/collections/pydoc'];

function jsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
}

export interface LoadNote {
  title: string;
  content: string;
}

export function loadNotes(root: string, count: number): LoadNote[] {
  const docs = COLLECTIONS.flatMap((c) => jsonl<{ title?: string; text: string }>(join(root, c, 'corpus.jsonl')));
  return Array.from({ length: count }, (_, i) => {
    const d = docs[i % docs.length];
    const round = Math.floor(i / docs.length);
    const title = (d.title || d.text.split(/[.!?]/)[0]).slice(0, 120);
    return { title: round ? `${title} (${round + 1})` : title, content: d.text };
  });
}

/** `count` distinct query strings, shuffled: each collection query alone, then pairs. */
export function loadQueries(root: string, count: number, seed = 11): string[] {
  const qs = COLLECTIONS.flatMap((c) => jsonl<{ text: string }>(join(root, c, 'queries.jsonl')).map((q) => q.text.replace(/[.?!]+$/, '')));
  const rand = mulberry32(seed);
  const out = new Set<string>(qs);
  while (out.size < count) {
    const a = qs[Math.floor(rand() * qs.length)];
    const b = qs[Math.floor(rand() * qs.length)].split(' ').slice(0, 3).join(' ');
    out.add(`${a} ${b}`);
  }
  const list = [...out].slice(0, count);
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}
