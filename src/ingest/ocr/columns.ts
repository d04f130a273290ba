// Reading order across columns. Tesseract's layout analysis sometimes runs a line straight
// across a narrow gutter (a sidebar beside the main text of a screenshot), giving
// "Inbox Roadmap review" then "Drafts We agreed...". Where a line has a gap much wider
// than its text is tall, it is cut there; the gaps that line up down the page are the
// gutters; text is then read column by column, top to bottom, and a line that crosses a
// gutter (a heading over both columns) ends the columns above it.
import type { Word } from 'tesseract.js';

/** A gap wider than this many line heights separates columns (word spaces are ~0.3). */
export const COLUMN_GAP = 2;

interface Segment {
  words: Word[];
  x0: number;
  x1: number;
  y0: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const textOf = (s: Segment) => s.words.map((w) => w.text.trim()).join(' ');

function cutAtGaps(words: Word[]): Segment[] {
  const height = median(words.map((w) => w.bbox.y1 - w.bbox.y0));
  const segments: Segment[] = [];
  for (const w of [...words].sort((a, b) => a.bbox.x0 - b.bbox.x0)) {
    const last = segments.at(-1);
    if (last && w.bbox.x0 - last.x1 <= COLUMN_GAP * height) {
      last.words.push(w);
      last.x1 = Math.max(last.x1, w.bbox.x1);
      last.y0 = Math.min(last.y0, w.bbox.y0);
    } else segments.push({ words: [w], x0: w.bbox.x0, x1: w.bbox.x1, y0: w.bbox.y0 });
  }
  return segments;
}

/**
 * The lines (each a list of words) as blocks of text in column reading order, or null when
 * no line has a column gap and Tesseract's own order stands.
 */
export function readColumns(lines: Word[][]): string[] | null {
  const cut = lines.map(cutAtGaps);
  if (cut.every((segs) => segs.length < 2)) return null;
  // Gutters: the gaps of different lines that overlap, narrowed to what they share.
  const gutters: { a: number; b: number }[] = [];
  for (const segs of cut) {
    for (let i = 1; i < segs.length; i++) {
      const gap = { a: segs[i - 1].x1, b: segs[i].x0 };
      const same = gutters.find((g) => g.a < gap.b && gap.a < g.b);
      if (same) {
        same.a = Math.max(same.a, gap.a);
        same.b = Math.min(same.b, gap.b);
      } else gutters.push(gap);
    }
  }
  const mids = gutters.map((g) => (g.a + g.b) / 2).sort((a, b) => a - b);
  const columns: Segment[][] = [[], ...mids.map(() => [])];
  const blocks: string[] = [];
  const flush = () => {
    for (const col of columns) {
      if (col.length) blocks.push(col.map(textOf).join('\n'));
      col.length = 0;
    }
  };
  for (const s of cut.flat().sort((p, q) => p.y0 - q.y0)) {
    if (mids.some((m) => s.x0 < m && s.x1 > m)) {
      flush();
      blocks.push(textOf(s));
    } else columns[mids.filter((m) => m <= s.x0).length].push(s);
  }
  flush();
  return blocks;
}
