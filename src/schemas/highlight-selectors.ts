// Anchoring a highlight in a text the way the W3C Web Annotation model does: the quoted
// words with a little context on each side (TextQuoteSelector) and their offsets
// (TextPositionSelector). The quote is the anchor; the offsets only break ties and are
// recomputed. A highlight survives edits elsewhere in the text; when its words are gone
// it is reported orphaned instead of drawn on the wrong words. Pure functions.

export interface TextQuote {
  exact: string;
  prefix: string;
  suffix: string;
}

export interface TextPosition {
  start: number;
  end: number;
}

/** Characters of context kept each side (what Hypothesis keeps, enough to tell repeats apart). */
export const CONTEXT_CHARS = 32;

/** The quote and position selectors for text[start, end). */
export function describe(text: string, start: number, end: number): { quote: TextQuote; position: TextPosition } {
  return {
    quote: {
      exact: text.slice(start, end),
      prefix: text.slice(Math.max(0, start - CONTEXT_CHARS), start),
      suffix: text.slice(end, end + CONTEXT_CHARS),
    },
    position: { start, end },
  };
}

/**
 * Where the quote is in `text` now: every place its words occur is scored by how much of the
 * prefix and suffix still surround it, then by nearness to the old position. Whitespace
 * differences (a re-wrapped paragraph, a Markdown line break) are forgiven. null: orphaned.
 */
export function locate(text: string, quote: TextQuote, hint?: TextPosition | null): TextPosition | null {
  if (!quote.exact.trim()) return null;
  let found = occurrences(text, quote.exact).map((start) => ({ start, end: start + quote.exact.length }));
  if (found.length === 0) found = looseOccurrences(text, quote.exact);
  if (found.length === 0) return null;
  let best = found[0];
  let bestScore = -Infinity;
  for (const f of found) {
    const score =
      commonSuffix(text.slice(Math.max(0, f.start - quote.prefix.length), f.start), quote.prefix) +
      commonPrefix(text.slice(f.end, f.end + quote.suffix.length), quote.suffix) -
      (hint ? Math.min(Math.abs(f.start - hint.start) / 1e6, 0.5) : 0);
    if (score > bestScore) {
      best = f;
      bestScore = score;
    }
  }
  return best;
}

/** Anchors a highlight given only its words: the first occurrence (or a loose one), else null. */
export function anchorText(text: string, exact: string): { quote: TextQuote; position: TextPosition } | null {
  const at = locate(text, { exact, prefix: '', suffix: '' });
  return at ? describe(text, at.start, at.end) : null;
}

function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1 && out.length < 1000; i = text.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** Matches with every run of whitespace (and Markdown emphasis marks) counted as one space. */
function looseOccurrences(text: string, needle: string): TextPosition[] {
  const folded = fold(text);
  const want = fold(needle).text.trim();
  if (!want) return [];
  return occurrences(folded.text, want).map((i) => ({ start: folded.map[i], end: folded.map[i + want.length - 1] + 1 }));
}

/** The text with whitespace runs collapsed and `*`/`_` dropped, and each kept char's offset in the original. */
function fold(s: string): { text: string; map: number[] } {
  let text = '';
  const map: number[] = [];
  let space = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '*' || ch === '_') continue;
    if (/\s/.test(ch)) {
      if (!space) {
        text += ' ';
        map.push(i);
      }
      space = true;
      continue;
    }
    space = false;
    text += ch;
    map.push(i);
  }
  return { text, map };
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function commonSuffix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}
