// Highlights drawn on rendered text: the article's text nodes read as one string, a
// highlight's quote located in it (highlights/anchor.ts, the server's own rule: context
// first, then the old position), and the matching stretch wrapped in <mark>s, one per text
// node it crosses. And the other way: a selection read back as a quote with its context.
import { CONTEXT_CHARS, locate } from '../../schemas/highlight-selectors.js';

export interface DrawnHighlight {
  id: string;
  text: string;
  color: string;
  note: string | null;
  selectors: Array<{ type: 'TextQuoteSelector'; exact: string; prefix: string; suffix: string } | { type: 'TextPositionSelector'; start: number; end: number }>;
}

function textNodes(root: Node): Text[] {
  const out: Text[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) out.push(n as Text);
  return out;
}

/** Wraps each highlight's words in <mark data-highlight>; returns the ids that could not be found. */
export function drawHighlights(root: HTMLElement, highlights: DrawnHighlight[]): string[] {
  const missing: string[] = [];
  for (const h of highlights) {
    const quote = h.selectors.find((s) => s.type === 'TextQuoteSelector') as { exact: string; prefix: string; suffix: string } | undefined;
    const text = root.textContent ?? '';
    const at = locate(text, { exact: h.text, prefix: quote?.prefix ?? '', suffix: quote?.suffix ?? '' });
    if (!at) {
      missing.push(h.id);
      continue;
    }
    wrap(root, at.start, at.end, (mark) => {
      mark.className = `hl hl-${h.color}`;
      mark.dataset.highlight = h.id;
      if (h.note) mark.title = h.note;
    });
  }
  return missing;
}

function wrap(root: HTMLElement, start: number, end: number, dress: (m: HTMLElement) => void): void {
  let pos = 0;
  for (const node of textNodes(root)) {
    const len = node.data.length;
    const from = Math.max(start, pos);
    const to = Math.min(end, pos + len);
    if (from < to && node.data.slice(from - pos, to - pos).trim()) {
      const middle = node.splitText(from - pos);
      middle.splitText(to - from);
      const mark = document.createElement('mark');
      dress(mark);
      middle.replaceWith(mark);
      mark.append(middle);
    }
    pos += len;
    if (pos >= end) break;
  }
}

/** The selection inside root as a W3C quote (trimmed of outer whitespace), or null. */
export function quoteOfSelection(root: HTMLElement, sel: Selection | null): { exact: string; prefix: string; suffix: string; start: number; end: number } | null {
  if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return null;
  const range = sel.getRangeAt(0);
  if (!root.contains(range.commonAncestorContainer)) return null;
  const before = document.createRange();
  before.setStart(root, 0);
  before.setEnd(range.startContainer, range.startOffset);
  const text = root.textContent ?? '';
  let start = before.toString().length;
  let end = start + range.toString().length;
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  if (end <= start) return null;
  return { exact: text.slice(start, end), prefix: text.slice(Math.max(0, start - CONTEXT_CHARS), start), suffix: text.slice(end, end + CONTEXT_CHARS), start, end };
}
