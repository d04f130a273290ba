// Assembling Tesseract's words into text: confidence filter, paragraphs, and reading order
// across columns. Words are built by hand with the boxes Tesseract would give.
import type { Block, Word } from 'tesseract.js';
import { describe, expect, it } from 'vitest';
import { assembleText } from '../../src/ingest/ocr/assemble.js';

const H = 14; // text height in px

/** One line of words starting at x, on row y; `conf` per word (default 95). */
function line(x: number, y: number, text: string, conf: number[] = []): Word[] {
  let at = x;
  return text.split(' ').map((t, i) => {
    const w = { text: t, confidence: conf[i] ?? 95, bbox: { x0: at, y0: y, x1: at + t.length * 8, y1: y + H } } as Word;
    at += t.length * 8 + 4;
    return w;
  });
}

/** A block of paragraphs, each a list of lines; Tesseract's shape, reduced to what is read. */
const page = (...paragraphs: Word[][][]): Block[] => [{ paragraphs: paragraphs.map((lines) => ({ lines: lines.map((words) => ({ words })) })) } as unknown as Block];

describe('assembleText', () => {
  it('joins lines with line breaks and paragraphs with a blank line; confidence is the mean of kept words', () => {
    const r = assembleText(page([line(10, 10, 'Shopping list for Saturday'), line(10, 30, 'lentils and saffron')], [line(10, 70, 'Call the plumber')]));
    expect(r.text).toBe('Shopping list for Saturday\nlentils and saffron\n\nCall the plumber');
    expect(r).toMatchObject({ lines: 3, words: 10, dropped_words: 0, confidence: 0.95 });
  });

  it('drops words the model doubts, and lines left empty by it', () => {
    const r = assembleText(page([line(10, 10, 'Remember the tomatoes', [96, 90, 92]), line(10, 30, 'REE ICR ¥', [16, 9, 20]), line(10, 50, 'every morning ee', [95, 93, 12])]));
    expect(r.text).toBe('Remember the tomatoes\nevery morning');
    expect(r).toMatchObject({ lines: 2, words: 5, dropped_words: 4 });
    expect(r.confidence).toBeCloseTo(0.932, 3);
  });

  it('nothing legible: empty text, no confidence', () => {
    expect(assembleText(page([line(10, 10, 'x', [3])]))).toEqual({ text: '', confidence: null, lines: 0, words: 0, dropped_words: 1 });
    expect(assembleText(null)).toMatchObject({ text: '', lines: 0 });
  });

  it('a sidebar that Tesseract ran into the main text is read as its own column first', () => {
    // Each row holds a sidebar item at x=10 and main text at x=200: one Tesseract line.
    const rows = [['Inbox', 'Roadmap review, 3 June'], ['Drafts', 'We agreed to ship offline search.'], ['Sent mail', 'Open questions: pricing for teams.'], ['Archive', '']];
    const lines = rows.map(([side, main], i) => [...line(10, 10 + i * 24, side), ...(main ? line(200, 10 + i * 24, main) : [])]);
    const r = assembleText(page(lines));
    expect(r.text).toBe('Inbox\nDrafts\nSent mail\nArchive\n\nRoadmap review, 3 June\nWe agreed to ship offline search.\nOpen questions: pricing for teams.');
    expect(r.lines).toBe(7);
  });

  it('a heading across both columns ends the columns above it and is read in its place', () => {
    const lines = [
      [...line(10, 10, 'Left one'), ...line(300, 10, 'Right one')],
      [...line(10, 34, 'Left two'), ...line(300, 34, 'Right two')],
      line(10, 60, 'A heading that runs across the whole page width for sure'),
      [...line(10, 90, 'Left three'), ...line(300, 90, 'Right three')],
    ];
    expect(assembleText(page(lines)).text).toBe('Left one\nLeft two\n\nRight one\nRight two\n\nA heading that runs across the whole page width for sure\n\nLeft three\n\nRight three');
  });

  it('ordinary word spacing never splits a line', () => {
    const r = assembleText(page([line(10, 10, 'The quick brown fox jumps over the lazy dog near the riverbank.')]));
    expect(r.text).toBe('The quick brown fox jumps over the lazy dog near the riverbank.');
  });
});
