// Citations: the extractive answer written out with a numbered citation after each sentence.
// (A model's answer is checked against the passages it was given in schemas/citation-markers.ts,
// where the dashboard reads the markers too.) Pure functions.
import { roundScore } from '../score.js';
import type { AnswerSource, QuotedSentence } from './extract.js';

export interface Citation {
  node_id: string;
  title: string;
  /** The passage's text, and its [start, end) in the node's field (body_markdown unless `field` says otherwise). */
  passage: string;
  start: number;
  end: number;
  field: 'body' | 'summary' | 'title';
  score: number;
}

export interface AnswerSentence {
  text: string;
  /** 1-based number of its citation. */
  citation: number;
  /** The sentence's own [start, end) in the cited field (within the passage). */
  start: number;
  end: number;
}

/** One citation per passage quoted, numbered in the order the answer first cites them. */
export function citeSentences(sentences: QuotedSentence[], sources: AnswerSource[]): { answer: string; citations: Citation[]; sentences: AnswerSentence[] } {
  const citations: Citation[] = [];
  const numberOf = new Map<string, number>();
  const out: AnswerSentence[] = [];
  for (const s of sentences) {
    const src = sources[s.source];
    const key = `${s.source}:${s.passage.start}`;
    let n = numberOf.get(key);
    if (n === undefined) {
      citations.push(citationOf(src, s.passage, s.score));
      numberOf.set(key, (n = citations.length));
    }
    out.push({ text: s.text, citation: n, start: s.start, end: s.end });
  }
  return { answer: out.map((s) => `${s.text} [${s.citation}]`).join(' '), citations, sentences: out };
}

export function citationOf(src: AnswerSource, span: { start: number; end: number }, score: number): Citation {
  return { node_id: src.node_id, title: src.title, passage: src.text.slice(span.start, span.end), start: span.start, end: span.end, field: src.field, score: roundScore(score) };
}
