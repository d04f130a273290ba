// Readwise's CSV export: one row per highlight with the columns "Highlight", "Book Title",
// "Book Author", "Note", "Color", "Location", "Highlighted at" (and others Rhizome does not
// need). Rows are grouped by book (title and author). A row's key is its book and text, so
// importing the same export, or a later and longer one, adds only what is new.
import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { HighlightedBook, HighlightFile } from './types.js';

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 24);

export function looksLikeReadwise(text: string): boolean {
  const head = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return /(^|,)"?Highlight"?(,|$)/.test(head) && /"?Book Title"?/.test(head);
}

export function readReadwiseCsv(text: string): HighlightFile {
  const rows = parse(text.replace(/^\uFEFF/, ''), { columns: true, skip_empty_lines: true, relax_column_count: true, trim: false }) as Array<Record<string, string | undefined>>;
  const books = new Map<string, HighlightedBook>();
  const problems: HighlightFile['problems'] = [];
  rows.forEach((r, i) => {
    const body = (r['Highlight'] ?? '').trim();
    if (!body) {
      problems.push({ path: `row ${i + 2}`, kind: 'unreadable', detail: 'no highlight text; skipped' });
      return;
    }
    const title = (r['Book Title'] ?? '').trim() || 'Untitled';
    const author = (r['Book Author'] ?? '').trim() || undefined;
    const bookKey = `${title}\u0000${author ?? ''}`;
    let book = books.get(bookKey);
    if (!book) books.set(bookKey, (book = { title, ...(author ? { author } : {}), highlights: [] }));
    if (book.highlights.some((h) => h.text === body)) return;
    const when = (r['Highlighted at'] ?? '').trim();
    const t = when ? Date.parse(when.replace(' ', 'T')) : NaN;
    const location = (r['Location'] ?? '').trim();
    book.highlights.push({
      text: body,
      key: `readwise:${hash(bookKey)}:${hash(body)}`,
      note: (r['Note'] ?? '').trim() || null,
      color: (r['Color'] ?? '').trim().toLowerCase() || undefined,
      ...(Number.isNaN(t) ? {} : { created_at: new Date(t).toISOString() }),
      ...(location ? { location } : {}),
    });
  });
  return { format: 'readwise', books: [...books.values()], problems };
}
