import { describe, expect, it } from 'vitest';
import { bestPassages, splitPassages } from '../../src/search/passages.js';

describe('passages', () => {
  it('cuts a text at paragraph, then sentence boundaries, with offsets into it', () => {
    const para = 'One sentence here. Another one follows it. '.repeat(12).trim();
    const text = `${para}\n\n${para}\n\n${para}`;
    const spans = splitPassages(text, 700);
    expect(spans.length).toBeGreaterThan(2);
    for (const s of spans) {
      expect(s.end - s.start).toBeLessThanOrEqual(700);
      const piece = text.slice(s.start, s.end);
      expect(piece).toBe(piece.trim());
      expect(piece).toMatch(/[.]$/); // ends where a sentence does
    }
    expect(spans.map((s) => text.slice(s.start, s.end)).join(' ').replace(/\s+/g, ' ')).toBe(text.replace(/\s+/g, ' '));
  });

  it('cuts a text without boundaries at a word, never mid-word', () => {
    const text = 'word '.repeat(400).trim();
    for (const s of splitPassages(text, 300)) expect(text.slice(s.start, s.end)).toMatch(/^word( word)*$/);
  });

  it("finds the passage holding the query's words, and the opening one when none does", () => {
    const filler = 'The weather was grey and we stayed in. '.repeat(30);
    const text = `${filler}\n\nWe adopted a beagle named Biscuit.\n\n${filler}`;
    const [best] = bestPassages(text, ['beagle', 'names'], 1);
    expect(best.text).toContain('We adopted a beagle named Biscuit.');
    expect(best.text.length).toBeLessThanOrEqual(700);
    expect(text.slice(best.start, best.end)).toBe(best.text);
    expect(bestPassages(text, ['zebra'], 2)).toHaveLength(1);
    expect(bestPassages(text, ['zebra'], 2)[0].start).toBe(0);
    expect(bestPassages('', ['x'])).toEqual([]);
  });
});
