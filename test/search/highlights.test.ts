// Where a result matched: words meet the query's terms with case and accents folded and light
// stemming on both sides, each occurrence located, in the best window of the field.
import { describe, expect, it } from 'vitest';
import { highlightsFor } from '../../src/search/highlights.js';

const node = (body: string, title = 'Untitled') => ({ title, summary: '', body_markdown: body, tags: '[]' });
const words = (h: { snippet: string; matches: [number, number][] }) => h.matches.map(([a, b]) => h.snippet.slice(a, b));

describe('highlights', () => {
  it('folds case and accents and meets stems, every occurrence of a repeated word', () => {
    const [h] = highlightsFor(node('Le Café was busy. A cafe, another CAFÉ; graphs and a graph. Naïve readers.'), ['cafe', 'graph', 'naive']);
    expect(h.field).toBe('body');
    expect(words(h)).toEqual(['Café', 'cafe', 'CAFÉ', 'graphs', 'graph', 'Naïve']);
  });

  it('an accented query term meets the plain word', () => {
    const [h] = highlightsFor(node('A small cafe by the river.'), ['café']);
    expect(words(h)).toEqual(['cafe']);
  });

  it('the title first, then the body; nothing when no word matches', () => {
    const hs = highlightsFor(node('Nothing about it here, then heron twice: heron.', 'Heron notes'), ['heron']);
    expect(hs.map((h) => h.field)).toEqual(['title', 'body']);
    expect(words(hs[1])).toEqual(['heron', 'heron']);
    expect(highlightsFor(node('unrelated text'), ['heron'])).toEqual([]);
  });
});
