// Omnivore's export: a zip of metadata_<from>_to_<to>.json files, each an array of
// {id, slug, title, description, author, url, state, labels[], savedAt, updatedAt, ...}.
// One such JSON file (or several merged into one array) is read here. `description` is
// the page's own description, not the reader's, so it is not taken as a note.
import { z } from 'zod';
import { collectBookmarks } from './collect.js';
import type { BookmarkFile } from './types.js';

export const omnivoreShape = z.array(z.object({
  url: z.string(),
  title: z.string().nullish(),
  labels: z.array(z.union([z.string(), z.object({ name: z.string() })])).nullish(),
  savedAt: z.string().nullish(),
  slug: z.string().nullish(),
}).loose()).min(1);

export function isOmnivore(data: unknown): boolean {
  if (!omnivoreShape.safeParse(data).success) return false;
  const first = (data as Array<Record<string, unknown>>)[0];
  return 'savedAt' in first || 'labels' in first;
}

export function readOmnivore(data: unknown): BookmarkFile {
  const items = omnivoreShape.parse(data);
  const raw = items.map((i) => ({
    url: i.url,
    title: i.title,
    tags: (i.labels ?? []).map((l) => (typeof l === 'string' ? l : l.name)),
    created: i.savedAt,
  }));
  const { bookmarks, problems } = collectBookmarks(raw, (n) => `item ${n + 1}`);
  return { format: 'omnivore', bookmarks, problems };
}
