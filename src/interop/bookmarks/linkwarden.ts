// Linkwarden's export ("Export data" in its settings): the user record with its
// collections, each holding links {name, url, description, tags: [{name}], createdAt}.
// A collection is a folder and becomes a tag, except Linkwarden's default "Unorganized".
import { z } from 'zod';
import { collectBookmarks, type RawBookmark } from './collect.js';
import type { BookmarkFile } from './types.js';

export const linkwardenShape = z.object({
  collections: z.array(z.object({
    name: z.string().nullish(),
    links: z.array(z.object({
      url: z.string().nullish(),
      name: z.string().nullish(),
      description: z.string().nullish(),
      tags: z.array(z.object({ name: z.string() }).loose()).nullish(),
      createdAt: z.string().nullish(),
    }).loose()).nullish(),
  }).loose()),
}).loose();

const DEFAULT_COLLECTION = 'unorganized';

export function readLinkwarden(data: unknown): BookmarkFile {
  const file = linkwardenShape.parse(data);
  const raw: RawBookmark[] = [];
  for (const c of file.collections) {
    const folder = c.name?.trim() && c.name.trim().toLowerCase() !== DEFAULT_COLLECTION ? [c.name.trim()] : [];
    for (const l of c.links ?? []) {
      raw.push({ url: l.url, title: l.name, tags: [...folder, ...(l.tags ?? []).map((t) => t.name)], note: l.description, created: l.createdAt });
    }
  }
  const { bookmarks, problems } = collectBookmarks(raw, (n) => `link ${n + 1}`);
  return { format: 'linkwarden', bookmarks, problems };
}
