// A cited passage found in a node's rendered body and marked: the passage's Markdown (offsets
// into body_markdown) is read as the text it renders to, located in the page's text, and
// wrapped in <mark class="ask-passage">, one per text node it crosses; the first is scrolled
// to. Formatting can make the rendered text differ a little, so the words are matched with
// whitespace and Markdown punctuation ignored, and failing that the passage's first line.

/** The words a piece of Markdown shows: link targets, emphasis, code ticks and list markers left out. */
export function shownText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[\[([^\]|]*)(?:\|([^\]]*))?\]\]/g, (_, a, b) => b ?? a)
    .replace(/^\s{0,3}(?:#{1,6}|[-*+]|\d+[.)]|>)\s+/gm, '')
    .replace(/[*_`~]/g, '');
}

const squash = (s: string) => s.replace(/[\s*_`~]+/g, '');

/** Marks the passage in `root`; returns the first mark, or null when it cannot be found. */
export function markPassage(root: HTMLElement, markdown: string): HTMLElement | null {
  const nodes: Text[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
  // The page's text without whitespace, and where each of its characters stands.
  const where: Array<[Text, number]> = [];
  let flat = '';
  for (const n of nodes) {
    for (let i = 0; i < n.data.length; i++) {
      if (/[\s*_`~]/.test(n.data[i])) continue;
      flat += n.data[i];
      where.push([n, i]);
    }
  }
  const shown = shownText(markdown);
  for (const want of [squash(shown), squash(shown.split('\n').find((l) => l.trim()) ?? '')]) {
    if (!want) continue;
    const at = flat.indexOf(want);
    if (at < 0) continue;
    return wrapRange(where, at, at + want.length);
  }
  return null;
}

function wrapRange(where: Array<[Text, number]>, from: number, to: number): HTMLElement | null {
  // Per text node: the first and last character of the range in it.
  const spans = new Map<Text, [number, number]>();
  for (let k = from; k < to; k++) {
    const [n, i] = where[k];
    const s = spans.get(n);
    spans.set(n, s ? [s[0], i + 1] : [i, i + 1]);
  }
  let first: HTMLElement | null = null;
  for (const [n, [a, b]] of spans) {
    const middle = n.splitText(a);
    middle.splitText(b - a);
    const mark = document.createElement('mark');
    mark.className = 'ask-passage';
    middle.replaceWith(mark);
    mark.append(middle);
    first ??= mark;
  }
  return first;
}
