// Tesseract's page layout (blocks → paragraphs → lines → words, already in its reading
// order: columns left to right, each top to bottom) becomes plain text. Words the model
// itself doubts are dropped: on a noisy photo they are texture read as letters ("REE ICR"),
// which would only pollute search.
import type { Block } from 'tesseract.js';

/** Words below this confidence (0–100, Tesseract's scale) are left out. */
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
  const paragraphs: string[] = [];
  let lines = 0;
  let words = 0;
  let dropped = 0;
  let confidenceSum = 0;
  for (const block of blocks ?? []) {
    for (const para of block.paragraphs) {
      const kept: string[] = [];
      for (const line of para.lines) {
        const good = line.words.filter((w) => w.text.trim() && w.confidence >= minConfidence);
        dropped += line.words.length - good.length;
        if (!good.length) continue;
        kept.push(good.map((w) => w.text.trim()).join(' '));
        words += good.length;
        confidenceSum += good.reduce((s, w) => s + w.confidence, 0);
      }
      if (kept.length) paragraphs.push(kept.join('\n'));
      lines += kept.length;
    }
  }
  return {
    text: paragraphs.join('\n\n'),
    confidence: words ? Math.round((confidenceSum / words) * 10) / 1000 : null,
    lines,
    words,
    dropped_words: dropped,
  };
}
