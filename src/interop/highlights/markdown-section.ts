// A node's highlights in its exported Markdown note: a "Highlights" section under the
// body, one blockquote per highlight, its note as plain text below it, and a comment before
// each carrying what a blockquote cannot (colour, date, anchor context, import key). Import
// cuts the section out of the body again and reads the highlights back, so a vault
// exported and re-imported has the same notes with the same highlights.
import type { Root, RootContent } from 'mdast';
import { parseMarkdown } from '../vault/markdown-tree.js';
import type { HighlightRecord } from './types.js';

export const HIGHLIGHTS_MARKER = '<!-- rhizome:highlights';
const ITEM_MARKER = '<!-- rhizome:highlight ';

/** Comments end at the first `-->`: the JSON inside must never contain one. */
const safeJson = (v: unknown) => JSON.stringify(v).replace(/-->/g, '--\\u003e');

export function writeHighlightsSection(highlights: HighlightRecord[]): string {
  if (highlights.length === 0) return '';
  const items = highlights.map((h) => {
    const meta = { key: h.key, color: h.color, created: h.created_at, prefix: h.prefix || undefined, suffix: h.suffix || undefined };
    const quote = h.text.split('\n').map((l) => (l ? `> ${l}` : '>')).join('\n');
    return [`${ITEM_MARKER}${safeJson(meta)} -->`, quote, ...(h.note ? [h.note] : [])].join('\n\n');
  });
  return `${HIGHLIGHTS_MARKER}: generated from the node's highlights; each blockquote is one, its note below it -->\n## Highlights\n\n${items.join('\n\n')}\n`;
}

/** The body without its highlights section, and the highlights it held (none when it has no section). */
export function readHighlightsSection(body: string): { body: string; highlights: HighlightRecord[] } {
  const tree: Root = parseMarkdown(body);
  const kids = tree.children;
  const at = kids.findIndex((n: RootContent) => n.type === 'html' && n.value.startsWith(HIGHLIGHTS_MARKER));
  if (at < 0) return { body, highlights: [] };
  const start = kids[at].position!.start.offset!;
  const highlights: HighlightRecord[] = [];
  let current: HighlightRecord | null = null;
  let noteFrom = -1;
  const closeNote = (until: number) => {
    if (current && noteFrom >= 0) {
      const note = body.slice(noteFrom, until).trim();
      if (note) current.note = note;
    }
    noteFrom = -1;
  };
  for (const n of kids.slice(at + 1)) {
    const from = n.position!.start.offset!;
    const to = n.position!.end.offset!;
    if (n.type === 'html' && n.value.startsWith(ITEM_MARKER)) {
      closeNote(from);
      current = null;
      const meta = parseMeta(n.value.slice(ITEM_MARKER.length, n.value.lastIndexOf('-->')));
      if (meta) current = meta;
    } else if (n.type === 'blockquote' && current && current.text === '') {
      current.text = body.slice(from, to).split('\n').map((l) => l.replace(/^\s*> ?/, '')).join('\n');
      highlights.push(current);
      noteFrom = to;
    } else if (n.type === 'heading' && !current && highlights.length === 0) {
    }
  }
  closeNote(body.length);
  let rest = body.slice(0, start);
  if (rest.endsWith('\n\n')) rest = rest.slice(0, -2);
  return { body: rest, highlights: highlights.filter((h) => h.text.trim()) };
}

function parseMeta(json: string): HighlightRecord | null {
  try {
    const m = JSON.parse(json) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return { text: '', key: str(m.key), color: str(m.color), created_at: str(m.created), prefix: str(m.prefix) ?? '', suffix: str(m.suffix) ?? '' };
  } catch {
    return null;
  }
}
