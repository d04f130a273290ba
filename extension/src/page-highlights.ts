// What runs inside the visited page for highlights. chrome.scripting.executeScript
// serialises each function, so each must be self-contained (nothing from outside its body).

export interface PageQuote {
  url: string;
  title: string;
  exact: string;
  prefix: string;
  suffix: string;
  /** The note typed into the page's prompt, when one was asked for (null: cancelled). */
  note?: string | null;
}

export interface DrawnQuote {
  id: string;
  exact: string;
  prefix: string;
  suffix: string;
  color: string;
  note: string | null;
}

/** The selection as a W3C TextQuoteSelector (32 characters of context each side); null when nothing is selected. */
export function selectionQuote(askNote: boolean): PageQuote | { cancelled: true } | null {
  const sel = window.getSelection();
  if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return null;
  const range = sel.getRangeAt(0);
  const before = document.createRange();
  before.setStart(document.body, 0);
  before.setEnd(range.startContainer, range.startOffset);
  const text = document.body.textContent ?? '';
  let start = before.toString().length;
  let end = start + range.toString().length;
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  if (end <= start) return null;
  let note: string | null | undefined;
  if (askNote) {
    note = window.prompt('Rhizome: a note for this highlight', '');
    if (note === null) return { cancelled: true };
  }
  return { url: location.href, title: document.title, exact: text.slice(start, end), prefix: text.slice(Math.max(0, start - 32), start), suffix: text.slice(end, end + 32), ...(askNote ? { note } : {}) };
}

/**
 * Wraps each quote's words in <mark data-rhizome-highlight>, choosing among repeated words
 * by how much of the context still surrounds them. Already drawn ones are left alone.
 * Returns how many are drawn on the page afterwards.
 */
export function drawQuotes(quotes: DrawnQuote[]): number {
  const COLORS: Record<string, string> = { yellow: '#fff1a8', green: '#c9f2cf', blue: '#cfe4ff', pink: '#ffd3e4', purple: '#e4d6ff' };
  const nodes = (): Text[] => {
    const out: Text[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) out.push(n as Text);
    return out;
  };
  const common = (a: string, b: string, fromEnd: boolean) => {
    let n = 0;
    while (n < a.length && n < b.length && (fromEnd ? a[a.length - 1 - n] === b[b.length - 1 - n] : a[n] === b[n])) n++;
    return n;
  };
  for (const q of quotes) {
    if (!q.exact || document.querySelector(`mark[data-rhizome-highlight="${CSS.escape(q.id)}"]`)) continue;
    const text = document.body.textContent ?? '';
    let best = -1;
    let bestScore = -1;
    for (let i = text.indexOf(q.exact); i !== -1; i = text.indexOf(q.exact, i + 1)) {
      const score = common(text.slice(Math.max(0, i - q.prefix.length), i), q.prefix, true) + common(text.slice(i + q.exact.length, i + q.exact.length + q.suffix.length), q.suffix, false);
      if (score > bestScore) [best, bestScore] = [i, score];
    }
    if (best < 0) continue;
    const end = best + q.exact.length;
    let pos = 0;
    for (const node of nodes()) {
      const len = node.data.length;
      const from = Math.max(best, pos);
      const to = Math.min(end, pos + len);
      if (from < to && node.data.slice(from - pos, to - pos).trim()) {
        const middle = node.splitText(from - pos);
        middle.splitText(to - from);
        const mark = document.createElement('mark');
        mark.dataset.rhizomeHighlight = q.id;
        mark.style.background = COLORS[q.color] ?? COLORS.yellow;
        mark.style.color = 'inherit';
        if (q.note) mark.title = q.note;
        middle.replaceWith(mark);
        mark.append(middle);
      }
      pos += len;
      if (pos >= end) break;
    }
  }
  return document.querySelectorAll('mark[data-rhizome-highlight]').length;
}
