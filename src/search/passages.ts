// Passages: a note cut into pieces an agent can read in one go, and the piece that answers
// a query. A passage ends at a paragraph or sentence boundary near PASSAGE_CHARS (a long
// sentence is cut at a word), so its text reads as written; offsets are [start, end) in the
// node's body_markdown, so a citation can point into the note. Pure functions.
import { contentWords, stem } from './text.js';

/** About a paragraph: long enough to carry a fact with its context, short enough to read at once. */
export const PASSAGE_CHARS = 700;

export interface Span {
  start: number;
  end: number;
}

export interface Passage extends Span {
  text: string;
}

/** Cuts a text into passages of at most about `max` characters, at paragraph, then sentence, then word boundaries. */
export function splitPassages(text: string, max = PASSAGE_CHARS): Span[] {
  const out: Span[] = [];
  let start = skipSpace(text, 0);
  while (start < text.length) {
    let end = Math.min(text.length, start + max);
    if (end < text.length) end = boundary(text, start, end, max);
    const trimmed = trimEnd(text, start, end);
    if (trimmed > start) out.push({ start, end: trimmed });
    start = skipSpace(text, end);
  }
  return out;
}

/** The best place to end a passage begun at `start` no later than `limit`. */
function boundary(text: string, start: number, limit: number, max: number): number {
  const window = text.slice(start, limit);
  const min = Math.floor(max * 0.4); // never a sliver: a boundary in the first 40% is passed over
  const para = window.lastIndexOf('\n\n');
  if (para >= min) return start + para;
  let best = -1;
  for (const m of window.matchAll(/[.!?…]["')\]]*\s/g)) if (m.index! + m[0].length >= min) best = m.index! + m[0].length;
  if (best > 0) return start + best;
  const line = window.lastIndexOf('\n');
  if (line >= min) return start + line;
  const space = window.lastIndexOf(' ');
  return space >= min ? start + space : limit;
}

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text[i])) i++;
  return i;
}
function trimEnd(text: string, start: number, end: number): number {
  while (end > start && isSpace(text[end - 1])) end--;
  return end;
}

/**
 * The passages of `text` that best answer a query, best first, at most `n`: each scored by
 * the query's distinct content terms it contains, each term weighted by `weight` (e.g. its
 * rarity; 1 by default). With no term in any passage the opening passage stands for the note.
 */
export function bestPassages(text: string, queryTerms: string[], n = 1, weight: (stem: string) => number = () => 1, max = PASSAGE_CHARS): Array<Passage & { score: number }> {
  const spans = splitPassages(text, max);
  if (spans.length === 0) return [];
  const stems = [...new Set(queryTerms.flatMap((t) => contentWords(t)).map(stem))];
  const scored = spans.map((s, i) => {
    const here = new Set(contentWords(text.slice(s.start, s.end)).map(stem));
    const score = stems.reduce((acc, t) => acc + (here.has(t) ? weight(t) : 0), 0);
    return { ...s, text: text.slice(s.start, s.end), score, i };
  });
  const hits = scored.filter((p) => p.score > 0).sort((a, b) => b.score - a.score || a.i - b.i);
  const chosen = hits.length ? hits.slice(0, n) : scored.slice(0, 1);
  return chosen.map(({ i: _i, ...p }) => p);
}

/** Passages a note is embedded in at most: a longer text gets longer passages (a 100-page PDF is not 300 model calls). */
export const MAX_EMBEDDED_PASSAGES = 48;

/**
 * The passages of a body that get their own vectors: none when the body fits in one passage
 * (the note's own vector already reads all of it closely); else the body cut as
 * splitPassages cuts it, passages stretched so there are at most MAX_EMBEDDED_PASSAGES.
 */
export function embeddedPassages(body: string): Span[] {
  if (body.trim().length <= PASSAGE_CHARS) return [];
  const max = Math.max(PASSAGE_CHARS, Math.ceil(body.length / MAX_EMBEDDED_PASSAGES) + 100);
  return splitPassages(body, max).slice(0, MAX_EMBEDDED_PASSAGES);
}
