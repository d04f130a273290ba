import { describe, expect, it } from 'vitest';
import { ftsAnyOf, quoteTerm, keyTerms, stemSet, titleMention } from '../../src/search/text.js';

describe('text terms', () => {
  it('keeps the most frequent content words, first seen first on ties, without stop words', () => {
    expect(keyTerms('The graph and the GRAPH database; a database of notes, notes, notes.', 3)).toEqual(['notes', 'graph', 'database']);
    expect(keyTerms('the and of to', 5)).toEqual([]);
  });

  it('folds accents and case', () => {
    expect(keyTerms('Café CAFE café', 2)).toEqual(['cafe']);
  });

  it('quotes every term so FTS5 sees plain words', () => {
    expect(ftsAnyOf(['near', 'and'])).toBe('"near" OR "and"');
    expect(quoteTerm('a"b')).toBe('"a""b"');
  });

  it('measures how much of a title a text mentions, plural-insensitive', () => {
    const text = stemSet('I keep graphs of my compost temperatures');
    expect(titleMention('Compost temperature graph', text)).toBe(1);
    expect(titleMention('Compost heap', text)).toBe(0.5);
    expect(titleMention('The', text)).toBe(0);
  });
});
