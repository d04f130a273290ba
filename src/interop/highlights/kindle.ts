// Kindle's "My Clippings.txt": one clipping per block, blocks separated by a line of ten
// "=". Each block: the book's title with its author in the last parentheses, a line
// "- Your Highlight on page 3 | Location 40-42 | Added on Sunday, 5 May 2019 18:02:43",
// a blank line, the text. Notes ("- Your Note … Location 42") attach to the highlight
// that ends where the note is; bookmarks carry no text and are skipped. Extending a
// highlight on the device appends a new clipping at the same start location: the later
// one wins. Dates have no zone on the device: they are read as UTC.
import { createHash } from 'node:crypto';
import type { HighlightedBook, HighlightFile } from './types.js';

const SEPARATOR = /^={10}\s*$/m;
const META = /^-\s*(?:Your\s+)?(Highlight|Note|Bookmark)\b(.*)$/i;

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 24);

export function looksLikeKindle(text: string): boolean {
  return SEPARATOR.test(text) && /^-\s*Your (Highlight|Note|Bookmark)/im.test(text);
}

export function readKindleClippings(text: string): HighlightFile {
  const books = new Map<string, HighlightedBook & { byStart: Map<string, number> }>();
  const problems: HighlightFile['problems'] = [];
  const notes: Array<{ bookKey: string; location: [number, number] | null; text: string; created_at?: string }> = [];
  const blocks = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split(SEPARATOR);
  blocks.forEach((block, i) => {
    const lines = block.replace(/^\uFEFF/, '').split('\n');
    while (lines.length && !lines[0].trim()) lines.shift();
    if (lines.length === 0) return;
    const head = lines[0].trim();
    const meta = lines[1]?.trim().match(META);
    if (!meta) {
      problems.push({ path: `clipping ${i + 1}`, kind: 'unreadable', detail: 'not a Kindle clipping (no "- Your Highlight/Note" line)' });
      return;
    }
    const kind = meta[1].toLowerCase();
    const body = lines.slice(2).join('\n').trim();
    if (kind === 'bookmark' || !body) return;
    const { title, author } = splitTitle(head);
    const bookKey = `${title}\u0000${author ?? ''}`;
    const location = readLocation(meta[2]);
    const created_at = readDate(meta[2]);
    if (kind === 'note') {
      notes.push({ bookKey, location, text: body, created_at });
      return;
    }
    let book = books.get(bookKey);
    if (!book) books.set(bookKey, (book = { title, ...(author ? { author } : {}), highlights: [], byStart: new Map() }));
    const where = location ? `${location[0]}-${location[1]}` : undefined;
    const h = { text: body, key: `kindle:${hash(bookKey)}:${hash(body)}`, ...(where ? { location: where } : {}), ...(created_at ? { created_at } : {}) };
    const startKey = location ? String(location[0]) : `#${book.highlights.length}`;
    const earlier = book.byStart.get(startKey);
    if (earlier !== undefined) book.highlights[earlier] = h; // extended on the device: the later clipping is the highlight now
    else if (!book.highlights.some((x) => x.text === body)) {
      book.byStart.set(startKey, book.highlights.length);
      book.highlights.push(h);
    }
  });
  for (const n of notes) {
    const book = books.get(n.bookKey);
    const target = book?.highlights.filter((h) => n.location && h.location && inRange(h.location, n.location[0])).pop();
    if (target) target.note = target.note ? `${target.note}\n\n${n.text}` : n.text;
    else problems.push({ path: n.bookKey.replace('\u0000', ' — '), kind: 'ignored_value', detail: `a note with no highlight at its location was skipped: "${n.text.slice(0, 80)}"` });
  }
  return { format: 'kindle', books: [...books.values()].map(({ byStart: _b, ...b }) => b), problems };
}

/** "Title (Last, First)" → title and author; a title with no parentheses has no author. */
function splitTitle(head: string): { title: string; author?: string } {
  const m = head.match(/^(.*\S)\s*\(([^()]*)\)\s*$/);
  if (!m) return { title: head || 'Untitled' };
  return { title: m[1], author: m[2].trim() || undefined };
}

function readLocation(meta: string): [number, number] | null {
  const m = meta.match(/location\s+(\d+)(?:\s*-\s*(\d+))?/i);
  if (!m) return null;
  const start = Number(m[1]);
  let end = m[2] ? Number(m[2]) : start;
  // "Location 1005-12" means 1005-1012 on some devices.
  if (end < start && m[2]) end = Number(m[1].slice(0, m[1].length - m[2].length) + m[2]);
  return [start, Math.max(start, end)];
}

function inRange(range: string, at: number): boolean {
  const [a, b] = range.split('-').map(Number);
  return at >= a && at <= b;
}

function readDate(meta: string): string | undefined {
  const m = meta.match(/Added on\s+(?:[A-Za-z]+,\s*)?(.+)$/i);
  if (!m) return undefined;
  const t = Date.parse(`${m[1].trim()} UTC`);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}
