// Turns any user text into a safe FTS5 MATCH expression: terms are extracted the way the
// unicode61 tokenizer sees them and each is double-quoted, so FTS5 syntax in the input
// ("quotes", NEAR, *, ^, -, :, parentheses, AND/OR/NOT) is only ever text.
import { STOPWORDS } from './stopwords.js';

export const MAX_QUERY_TERMS = 64;

/** Distinct lower-cased terms of the text, in order of first appearance. */
export function queryTerms(text: string): string[] {
  const terms = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(terms)].slice(0, MAX_QUERY_TERMS);
}

/** The terms that carry meaning: stopwords dropped, unless nothing else is left ("to be or not to be"). */
export function contentTerms(text: string): string[] {
  const all = queryTerms(text);
  const content = all.filter((t) => !STOPWORDS.has(t));
  return content.length ? content : all;
}

/** A phrase token FTS5 reads as plain text whatever it contains. */
export function quoteTerm(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

const orOf = (terms: string[]) => (terms.length ? terms.map(quoteTerm).join(' OR ') : null);

/** The keyword side's MATCH expression: content terms OR-ed, or null when there is none. */
export function buildFtsQuery(text: string): string | null {
  return orOf(contentTerms(text));
}

/** Every term OR-ed, stopwords included: the plain BM25 baseline that `npm run eval` compares against. */
export function buildPlainFtsQuery(text: string): string | null {
  return orOf(queryTerms(text));
}
