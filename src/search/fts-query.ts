// Turns any user text into a safe FTS5 MATCH expression: terms are extracted the way the
// unicode61 tokenizer sees them and each is double-quoted, so FTS5 syntax in the input
// ("quotes", NEAR, *, ^, -, :, parentheses, AND/OR/NOT) is only ever text.
export const MAX_QUERY_TERMS = 64;

export function queryTerms(text: string): string[] {
  const terms = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(terms)].slice(0, MAX_QUERY_TERMS);
}

/** OR of quoted terms, or null when the text has no searchable term. */
export function buildFtsQuery(text: string): string | null {
  const terms = queryTerms(text);
  return terms.length ? terms.map((t) => `"${t}"`).join(' OR ') : null;
}
