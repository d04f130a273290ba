// Pocket's CSV export: title,url,time_added,tags,status with tags separated by '|' and
// time_added in seconds since the epoch.
import { parse } from 'csv-parse/sync';
import { collectBookmarks } from './collect.js';
import type { BookmarkFile } from './types.js';

export const POCKET_COLUMNS = ['title', 'url', 'time_added', 'tags'];

export function readPocket(csv: string): BookmarkFile {
  const rows = parse(csv, { columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), skip_empty_lines: true, relax_column_count: true, bom: true }) as Array<Record<string, string | undefined>>;
  const raw = rows.map((r) => ({
    url: r.url,
    title: r.title,
    tags: (r.tags ?? '').split('|'),
    created: r.time_added,
  }));
  const { bookmarks, problems } = collectBookmarks(raw, (i) => `row ${i + 2}`);
  return { format: 'pocket', bookmarks, problems };
}
