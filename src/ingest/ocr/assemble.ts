// Tesseract's page layout (blocks → paragraphs → lines → words, in its reading order)
// becomes plain text: a paragraph's lines joined by line breaks, paragraphs by a blank line,
// or column by column when lines run across a gutter (see columns.ts). Words the model
// itself doubts are dropped: on a noisy photo they are texture read as letters ("REE ICR"),
// which would only pollute search.
import type { Block, Word } from 'tesseract.js';
import { readColumns } from './columns.js';

/**
 * Words below this confidence (0–100, Tesseract's scale) are left out. Measured on the eval
 * images: real words in clean screenshots score 30 and up (a narrow font's last word ~31).
 */
export const MIN_WORD_CONFIDENCE = 30;

export interface AssembledText {
  text: string;
  /** Mean confidence of the kept words, 0–1; null when none was kept. */
  confidence: number | null;
  lines: number;
  words: number;
  dropped_words: number;
}

export function assembleText(blocks: Block[] | null, minConfidence = MIN_WORD_CONFIDENCE): AssembledText {
  const paragraphs: Word[][][] = [];
  let dropped = 0;
  for (const block of blocks ?? []) {
    for (const para of block.paragraphs) {
      const kept: Word[][] = [];
      for (const line of para.lines) {
        const good = line.words.filter((w) => w.text.trim() && w.confidence >= minConfidence);
        dropped += line.words.length - good.length;
        if (good.length) kept.push(good);
      }
      if (kept.length) paragraphs.push(kept);
    }
  }
  const allWords = paragraphs.flat(2);
  const lineText = (ws: Word[]) => ws.map((w) => w.text.trim()).join(' ');
  const text = (readColumns(paragraphs.flat()) ?? paragraphs.map((p) => p.map(lineText).join('\n'))).join('\n\n');
  const confidenceSum = allWords.reduce((s, w) => s + w.confidence, 0);
  return {
    text,
    confidence: allWords.length ? Math.round((confidenceSum / allWords.length) * 10) / 1000 : null,
    lines: text ? text.split('\n').filter((l) => l.trim()).length : 0,
    words: allWords.length,
    dropped_words: dropped,
  };
}
