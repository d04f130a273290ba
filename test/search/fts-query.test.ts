import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { buildFtsQuery, buildPlainFtsQuery, contentTerms, MAX_QUERY_TERMS, queryTerms } from '../../src/search/fts-query.js';
import { quoteTerm } from '../../src/search/text.js';

// The same tokenizer as schema.sql's nodes_fts, so every built query is run for real.
function ftsTable() {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE f USING fts5(title, summary, body, tags, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`);
  const ins = db.prepare('INSERT INTO f(rowid, title, summary, body, tags) VALUES (?, ?, ?, ?, ?)');
  ins.run(1, 'Near the title', '', 'c plus plus and rust', 'code');
  ins.run(2, 'Café notes', '', 'What is the meaning of information retrieval?', '');
  ins.run(3, 'Seedlings', '', 'harden off seedlings before planting', 'garden');
  const match = (q: string) => db.prepare('SELECT rowid FROM f WHERE f MATCH ? ORDER BY rank').pluck().all(q) as number[];
  return { db, match };
}

const hostile = ['"unbalanced', 'NEAR(a b)', 'NEAR/3', 'seed*', '^start', 'a - b', '-rust', 'title:compost', 'body : x', '(((', ')', 'AND OR NOT', 'a AND b', 'NOT rust', "it's", '*', '""', '"', '-', 'c++ && ||', '{title body}: x', 'col:"x" + y', '\u0000', '😀 emoji', 'x"; DROP TABLE f; --'];

describe('FTS5 query building', () => {
  const { match } = ftsTable();

  it.each(hostile)('%j becomes a valid MATCH expression (or none)', (text) => {
    for (const q of [buildFtsQuery(text), buildPlainFtsQuery(text)]) {
      if (q === null) continue;
      expect(() => match(q)).not.toThrow();
    }
  });

  it('treats FTS5 operators and column filters as words', () => {
    expect(match(buildFtsQuery('NEAR(title)')!)).toEqual([1]);
    expect(match(buildFtsQuery('title:seedlings')!)).toEqual([3, 1]); // "title" is a word, not a column
    expect(match(buildFtsQuery('seed*')!)).toEqual([]); // no prefix query: "seed" is a whole term
    expect(match(buildFtsQuery('-rust')!)).toEqual([1]); // not a negation
  });

  it('drops stopwords on the keyword side but keeps an all-stopword query', () => {
    expect(contentTerms('What is the meaning of information retrieval?')).toEqual(['meaning', 'information', 'retrieval']);
    expect(contentTerms('AND OR NOT')).toEqual(['and', 'or', 'not']);
    expect(buildFtsQuery('to be or not to be')).toBe('"to" OR "be" OR "or" OR "not"');
    expect(buildPlainFtsQuery('the rust')).toBe('"the" OR "rust"');
    expect(buildFtsQuery('the rust')).toBe('"rust"');
  });

  it('lower-cases, de-duplicates, keeps unicode letters and matches through porter and diacritics', () => {
    expect(queryTerms('Rust rust RUST café')).toEqual(['rust', 'café']);
    expect(match(buildFtsQuery('cafe')!)).toEqual([2]);
    expect(match(buildFtsQuery('seedling planted')!)).toEqual([3]);
  });

  it('has no term for punctuation-only text and caps the number of terms', () => {
    expect(buildFtsQuery('!!! ??? ---')).toBeNull();
    expect(buildFtsQuery('')).toBeNull();
    const many = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    expect(queryTerms(many)).toHaveLength(MAX_QUERY_TERMS);
  });

  it('doubles embedded quotes when quoting a term', () => {
    expect(quoteTerm('a"b')).toBe('"a""b"');
  });
});
