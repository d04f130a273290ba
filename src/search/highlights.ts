// Where a node matched the query's words: a short window of its text with the matching
// words located, so a result can say why it is there. Computed from the node row (the
// FTS5 tables are contentless, so FTS5's snippet() has no text to cut). Words match the
// way the keyword side does, case and accents folded, light stemming on both sides
// ("graphs" meets "graph"). Pure functions.
import { stem } from './text.js';

export interface Highlight {
  field: 'title' | 'summary' | 'body' | 'tags';
  /** Plain text, at most about SNIPPET_CHARS long ("…" marks a cut). */
  snippet: string;
  /** [start, end) offsets of the matched words in `snippet`. */
  matches: [number, number][];
}

export const SNIPPET_CHARS = 160;
const MAX_HIGHLIGHTS = 2;

// Printable ASCII has nothing to decompose or strip: lower-cased as it is.
const fold = (s: string) => (/[^ -~]/.test(s) ? s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase() : s.toLowerCase());

/** Whether a word of the text answers to one of the query's terms (each distinct word folded and stemmed once a call). */
function matcher(terms: string[]): (word: string) => boolean {
  const stems = new Set(terms.map((t) => stem(fold(t))).filter((t) => t.length > 0));
  const prefixes = [...stems].filter((t) => t.length >= 4);
  const seen = new Map<string, boolean>();
  return (w) => {
    let m = seen.get(w);
    if (m === undefined) {
      const f = fold(w);
      const s = stem(f);
      m = stems.has(f) || stems.has(s) || prefixes.some((p) => f.startsWith(p));
      seen.set(w, m);
    }
    return m;
  };
}

/** Offsets of the matching words of a text. */
export function matchSpans(text: string, isMatch: (w: string) => boolean): [number, number][] {
  const out: [number, number][] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) if (isMatch(m[0])) out.push([m.index!, m.index! + m[0].length]);
  return out;
}

/** The SNIPPET_CHARS window of `text` holding the most matches, cut at word boundaries. */
export function snippetOf(text: string, spans: [number, number][], width = SNIPPET_CHARS): { snippet: string; matches: [number, number][] } {
  if (text.length <= width) return { snippet: text, matches: spans };
  let best = 0;
  let bestCount = -1;
  for (let i = 0; i < spans.length; i++) {
    let n = 0;
    for (let j = i; j < spans.length && spans[j][1] - spans[i][0] <= width; j++) n++;
    if (n > bestCount) {
      bestCount = n;
      best = i;
    }
  }
  const first = spans[best]?.[0] ?? 0;
  let start = Math.max(0, first - Math.floor(width / 4));
  if (start > 0) {
    const sp = text.lastIndexOf(' ', start);
    start = sp >= 0 && first - sp < width / 2 ? sp + 1 : start;
  }
  let end = Math.min(text.length, start + width);
  if (end < text.length) {
    const sp = text.lastIndexOf(' ', end);
    if (sp > start + width / 2) end = sp;
  }
  const pre = start > 0 ? '…' : '';
  const body = text.slice(start, end);
  const matches = spans
    .filter(([a, b]) => a >= start && b <= end)
    .map(([a, b]) => [a - start + pre.length, b - start + pre.length] as [number, number]);
  return { snippet: `${pre}${body}${end < text.length ? '…' : ''}`, matches };
}

const plain = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Highlights of a node for the query's terms: where they matched, best field first (empty: no word matched). */
export function highlightsFor(node: { title: string; summary: string; body_markdown: string; tags: string }, terms: string[]): Highlight[] {
  if (terms.length === 0) return [];
  const isMatch = matcher(terms);
  let tags: string[] = [];
  try {
    tags = JSON.parse(node.tags) as string[];
  } catch {
    /* not a list: no tags */
  }
  const fields: [Highlight['field'], string][] = [
    ['title', plain(node.title)],
    ['summary', plain(node.summary)],
    ['body', plain(node.body_markdown.slice(0, 100_000))],
    ['tags', tags.join(', ')],
  ];
  const out: Highlight[] = [];
  for (const [field, text] of fields) {
    if (!text) continue;
    const spans = matchSpans(text, isMatch);
    if (spans.length === 0) continue;
    out.push({ field, ...snippetOf(text, spans) });
    if (out.length >= MAX_HIGHLIGHTS) break;
  }
  return out;
}

/** A highlight of the node (what its owner marked, with their note) that the query's words met. */
export interface AnnotationMatch {
  highlight_id: string;
  text: string;
  note: string | null;
  /** [start, end) offsets of the matched words in `text`. */
  text_matches: [number, number][];
  /** [start, end) offsets of the matched words in `note`. */
  note_matches: [number, number][];
}

const MAX_ANNOTATION_MATCHES = 3;

/**
 * The node's highlights the query's words meet, in their words or in their note, the most
 * matched first (equal: in the node's order): a hit on a highlight leads to it. Orphaned
 * highlights (their words edited away) have nowhere to lead and are left out.
 */
export function annotationMatches(annotations: { id: string; text: string; note: string | null; orphaned?: boolean }[], terms: string[]): AnnotationMatch[] {
  if (terms.length === 0) return [];
  const isMatch = matcher(terms);
  const out: AnnotationMatch[] = [];
  for (const a of annotations) {
    if (a.orphaned) continue;
    const text_matches = matchSpans(a.text, isMatch);
    const note_matches = a.note ? matchSpans(a.note, isMatch) : [];
    if (text_matches.length + note_matches.length > 0) out.push({ highlight_id: a.id, text: a.text, note: a.note, text_matches, note_matches });
  }
  const count = (m: AnnotationMatch) => m.text_matches.length + m.note_matches.length;
  return out
    .map((m, i) => ({ m, i }))
    .sort((x, y) => count(y.m) - count(x.m) || x.i - y.i)
    .slice(0, MAX_ANNOTATION_MATCHES)
    .map((x) => x.m);
}
