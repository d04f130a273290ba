// Turning free user text into a few keyword terms that are safe to hand to FTS5, and a
// cheap "does this text mention that title" measure. Pure functions.

// Words too common to say anything about what a text is about.
const STOPWORDS = new Set(
  ('a an and are as at be been but by can did do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our she so than that the their them then there these they this those to too up us was we ' +
    'were what when where which who why will with you your about after all also any because before being both each ' +
    'more most other over same some such only own very just should would could out off again further once here')
    .split(' '),
);

export function words(text: string): string[] {
  return (text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** Light suffix stripping, the same on both sides of a comparison ("graphs" meets "graph"). */
export function stem(w: string): string {
  if (w.length > 5 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith('es') && /(?:ss|sh|ch|x|z)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

export function contentWords(text: string): string[] {
  return words(text).filter((w) => w.length >= 2 && !STOPWORDS.has(w));
}

/** The `max` most frequent content words of a text (ties: first seen first). */
export function keyTerms(text: string, max: number): string[] {
  const counts = new Map<string, number>();
  for (const w of contentWords(text)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts.entries()]
    .map(([w, n], i) => ({ w, n, i }))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .slice(0, max)
    .map((e) => e.w);
}

/** One FTS5 phrase per term, OR-ed: any user text becomes a valid query. */
export function ftsAnyOf(terms: string[]): string {
  return terms.map(ftsPhrase).join(' OR ');
}

export function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** Share of a title's content words that the text contains, in [0,1]. */
export function titleMention(title: string, textStems: Set<string>): number {
  const t = [...new Set(contentWords(title).map(stem))];
  if (t.length === 0) return 0;
  return t.filter((w) => textStems.has(w)).length / t.length;
}

export function stemSet(text: string): Set<string> {
  return new Set(contentWords(text).map(stem));
}
