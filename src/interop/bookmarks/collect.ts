// Shared finishing for every format: keep http(s) URLs only, clean titles and tags,
// turn dates into ISO strings, and merge repeats of the same URL (tags united, the
// earliest date and the first title kept, notes joined).
import { normalizeUrl } from '../../ingest/url.js';
import { parseHttpUrl } from '../../schemas/url.js';
import type { Problem } from '../types.js';
import type { ImportedBookmark } from './types.js';

export interface RawBookmark {
  url: string | null | undefined;
  title?: string | null;
  tags?: string[];
  note?: string | null;
  /** Seconds or milliseconds since the epoch, or a date string. */
  created?: number | string | null;
}

function isoDate(v: RawBookmark['created']): string | null {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
  const d = Number.isFinite(n) ? new Date(n < 1e11 ? n * 1000 : n) : new Date(String(v));
  return Number.isNaN(d.getTime()) || (Number.isFinite(n) && n <= 0) ? null : d.toISOString();
}

function clean(s: string | null | undefined): string | null {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return t ? t : null;
}

export function collectBookmarks(raw: RawBookmark[], where: (i: number) => string): { bookmarks: ImportedBookmark[]; problems: Problem[] } {
  const byUrl = new Map<string, ImportedBookmark>();
  const problems: Problem[] = [];
  raw.forEach((r, i) => {
    const url = (r.url ?? '').trim();
    if (!parseHttpUrl(url)) {
      problems.push({ path: where(i), kind: 'ignored_value', detail: url ? `"${url.slice(0, 100)}" is not an http(s) URL; skipped` : 'no URL; skipped' });
      return;
    }
    const key = normalizeUrl(url) ?? url;
    const title = clean(r.title);
    const tags = [...new Set((r.tags ?? []).map((t) => t.trim().replace(/^#/, '')).filter(Boolean))];
    const note = r.note?.trim() ? r.note.trim() : null;
    const created = isoDate(r.created);
    const seen = byUrl.get(key);
    if (!seen) {
      byUrl.set(key, { url, title: title === url ? null : title, tags, note, created_at: created });
      return;
    }
    for (const t of tags) if (!seen.tags.includes(t)) seen.tags.push(t);
    if (!seen.title && title && title !== url) seen.title = title;
    if (note && seen.note !== note) seen.note = seen.note ? `${seen.note}\n\n${note}` : note;
    if (created && (!seen.created_at || created < seen.created_at)) seen.created_at = created;
  });
  return { bookmarks: [...byUrl.values()], problems };
}
