// A note's text cut into sentences with their offsets, so an answer can quote a sentence and
// point back at exactly where it stands. Lines are cut first (a list item or a heading is a
// sentence of its own even without a full stop), then Intl.Segmenter finds the sentences in
// each line; Markdown's line markers ("#", "-", "1.", ">") are left out of a sentence's
// span. Pure functions.
import type { Span } from '../passages.js';

export interface Sentence extends Span {
  text: string;
}

/** Longer sentences are cut at a word near this many characters: an answer quotes, it does not paste. */
export const MAX_SENTENCE_CHARS = 400;

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const LINE_MARKER = /^(?:\s*(?:#{1,6}|[-*+]|\d{1,3}[.)]|>)\s+)+/;

export function splitSentences(text: string, max = MAX_SENTENCE_CHARS): Sentence[] {
  const out: Sentence[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const marker = LINE_MARKER.exec(line)?.[0].length ?? 0;
    const body = line.slice(marker);
    for (const seg of segmenter.segment(body)) {
      let start = lineStart + marker + seg.index;
      let end = start + seg.segment.length;
      while (start < end && /\s/.test(text[start])) start++;
      while (end > start && /\s/.test(text[end - 1])) end--;
      if (end - start < 2 || !/[\p{L}\p{N}]/u.test(text.slice(start, end))) continue;
      if (end - start > max) end = cutAtWord(text, start, max);
      out.push({ start, end, text: text.slice(start, end) });
    }
    lineStart += line.length + 1;
  }
  return out;
}

function cutAtWord(text: string, start: number, max: number): number {
  const space = text.lastIndexOf(' ', start + max);
  return space > start + max / 2 ? space : start + max;
}
