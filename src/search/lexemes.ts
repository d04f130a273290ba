// The keyword terms of a node as the PostgreSQL backend indexes them, made to match what
// SQLite's FTS5 tokenizer ('porter unicode61 remove_diacritics 2') produces: words split
// and folded by text.ts's words() (lower case, accents removed), then Porter-stemmed like
// FTS5's porter tokenizer (tokens of 3 to 64 characters). PostgreSQL never parses the text
// itself: the lexemes go in as a tsvector literal and are searched with the 'simple'
// semantics, so both backends see the same terms. Stopwords are indexed (FTS5 indexes
// every token, and lengths count them); the query side drops them (fts-query.ts). Pure.
import { stemmer } from 'stemmer';
import { contentTerms } from './fts-query.js';
import { FIELD_WEIGHTS } from './keyword-score.js';
import { words } from './text.js';

/** Longest lexeme indexed (a GIN entry must stay well under its ~2.7 kB limit). */
export const MAX_LEXEME = 255;

export interface NodeLexemes {
  /** tsvector literal: the distinct lexemes, no positions (nothing here searches phrases). */
  tsvector: string;
  /** lexeme → column-weighted frequency (title 4, summary 2, body 1, tags 3 as FTS5's bm25 weights). */
  tf: Record<string, number>;
  /** Tokens in all four fields: BM25's |D| as FTS5 counts it. */
  len: number;
}

export function lexeme(word: string): string {
  return word.length >= 3 && word.length <= 64 ? stemmer(word) : word;
}

function quote(l: string): string {
  return `'${l.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

export function nodeLexemes(f: { title: string; summary: string; body: string; tags: string }): NodeLexemes {
  const tf = new Map<string, number>();
  let len = 0;
  const fields = [f.title, f.summary, f.body, f.tags];
  fields.forEach((text, i) => {
    for (const w of words(text)) {
      len++;
      const l = lexeme(w);
      if (l.length > MAX_LEXEME) continue;
      tf.set(l, (tf.get(l) ?? 0) + FIELD_WEIGHTS[i]);
    }
  });
  return { tsvector: [...tf.keys()].map(quote).join(' '), tf: Object.fromEntries(tf), len };
}

/** The query's lexemes, one per content term (two terms with one stem count twice, as two FTS5 phrases do). */
export function queryLexemes(text: string): string[] {
  return contentTerms(text)
    .map((t) => lexeme(words(t).join('')))
    .filter((l) => l.length > 0 && l.length <= MAX_LEXEME);
}

/** The tsquery literal matching any of the lexemes (null when there is none). */
export function anyOfTsquery(lexemes: string[]): string | null {
  const distinct = [...new Set(lexemes)];
  return distinct.length ? distinct.map(quote).join(' | ') : null;
}
