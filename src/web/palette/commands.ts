// What the command palette offers: actions, places to go, and matching nodes. Pure data and
// ranking, so the dialog only renders and runs them.
import { asUrl } from '../lib/capture-type.js';

export interface Command {
  id: string;
  group: 'Actions' | 'Go to' | 'Nodes';
  label: string;
  hint?: string;
  /** A route to open, or an action to run. */
  href?: string;
  run?: 'new-node' | 'capture-url';
}

export const PLACES: Command[] = [
  { id: 'go-search', group: 'Go to', label: 'Search', href: '/', hint: '/' },
  { id: 'go-ask', group: 'Go to', label: 'Ask your notes', href: '/ask' },
  { id: 'go-graph', group: 'Go to', label: 'Graph', href: '/graph' },
  { id: 'go-captures', group: 'Go to', label: 'Captures', href: '/captures' },
  { id: 'go-para', group: 'Go to', label: 'PARA', href: '/para' },
  { id: 'go-tags', group: 'Go to', label: 'Tags', href: '/tags' },
  { id: 'go-import', group: 'Go to', label: 'Import', href: '/import' },
  { id: 'go-settings', group: 'Go to', label: 'Settings', href: '/settings' },
];

/** How well a label answers the typed text: 0 = not at all; prefix beats word start beats inside. */
export function matchScore(label: string, text: string): number {
  const l = label.toLowerCase();
  const t = text.trim().toLowerCase();
  if (!t) return 1;
  if (l.startsWith(t)) return 3;
  if (l.split(/[\s/-]+/).some((w) => w.startsWith(t))) return 2;
  return l.includes(t) ? 1 : 0;
}

/**
 * Everything offered for the typed text, best first: a page whose name starts with it, then
 * the matching nodes, then the actions (capture the pasted URL, new node), then other pages.
 */
export function rankCommands(text: string, nodes: Command[]): Command[] {
  const url = asUrl(text);
  const t = text.trim();
  const ranked: Array<{ c: Command; rank: number }> = nodes.map((c) => ({ c, rank: 2.5 }));
  if (url) ranked.push({ c: { id: 'capture-url', group: 'Actions', label: `Capture ${url}`, run: 'capture-url', hint: 'fetch and file it' }, rank: 4 });
  else ranked.push({ c: { id: 'new-node', group: 'Actions', label: t ? `New node “${t}”` : 'New node', run: 'new-node' }, rank: 2.2 });
  // A question is asked first; other text can be asked too, after the nodes it matches.
  if (t && !url) ranked.push({ c: { id: 'ask', group: 'Actions', label: `Ask your notes: “${t}”`, href: `/ask?q=${encodeURIComponent(t)}`, hint: 'answer with citations' }, rank: isQuestion(t) ? 3.5 : 2.3 });
  if (!t) ranked.push({ c: { id: 'capture-hint', group: 'Actions', label: 'Capture a URL, a note or a file…', hint: 'or paste a link here', href: '/captures' }, rank: 2.1 });
  if (!url) for (const p of PLACES) {
    const score = matchScore(p.label, t);
    if (score > 0) ranked.push({ c: p, rank: score === 3 && t ? 3 : score });
  }
  return ranked.sort((a, b) => b.rank - a.rank).map((x) => x.c);
}

/** Reads as a question: ends with "?" or opens with a question word. */
export function isQuestion(text: string): boolean {
  return /\?\s*$/.test(text) || /^(who|what|when|where|why|how|which|did|do|does|is|are|was|were|can|should)\b/i.test(text.trim());
}
