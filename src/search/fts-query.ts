// Turns any user text into a safe FTS5 MATCH expression: terms are extracted the way the
// unicode61 tokenizer sees them (see text.ts) and each is double-quoted, so FTS5 syntax in
// the input ("quotes", NEAR, *, ^, -, :, parentheses, AND/OR/NOT) is only ever text.
import { ftsAnyOf, STOPWORDS, words } from './text.js';

export const MAX_QUERY_TERMS = 64;

/** Distinct terms of the text, in order of first appearance. */
export function queryTerms(text: string): string[] {
  return [...new Set(words(text, true))].slice(0, MAX_QUERY_TERMS);
}

/** The terms that carry meaning: stopwords dropped, unless nothing else is left ("to be or not to be"). */
export function contentTerms(text: string): string[] {
  const all = queryTerms(text);
  const content = all.filter((t) => !STOPWORDS.has(t));
  return content.length ? content : all;
}

/** The keyword side's MATCH expression: content terms OR-ed, or null when there is none. */
export function buildFtsQuery(text: string): string | null {
  return ftsAnyOf(contentTerms(text));
}

/** Every term OR-ed, stopwords included: the plain BM25 baseline that `npm run eval` compares against. */
export function buildPlainFtsQuery(text: string): string | null {
  return ftsAnyOf(queryTerms(text));
}
