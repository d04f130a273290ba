// Karakeep's export JSON: {bookmarks: [{createdAt (seconds), title, tags[], lists[],
// content: {type: "link", url} | {type: "text", text}, note, archived}], lists: [{id,
// name, type, parentId}]}. Manual lists work like folders and become a tag holding the
// list path; smart lists are saved searches and are ignored. Text items have no URL: they
// are reported, not imported as bookmarks.
import { z } from 'zod';
import { collectBookmarks, type RawBookmark } from './collect.js';
import type { BookmarkFile } from './types.js';

export const karakeepShape = z.object({
  bookmarks: z.array(z.object({
    createdAt: z.union([z.number(), z.string()]).nullish(),
    title: z.string().nullish(),
    tags: z.array(z.string()).nullish(),
    lists: z.array(z.string()).nullish(),
    content: z.object({ type: z.string(), url: z.string().optional(), text: z.string().optional() }).loose().nullish(),
    note: z.string().nullish(),
  }).loose()),
  lists: z.array(z.object({ id: z.string(), name: z.string(), type: z.string().optional(), parentId: z.string().nullish() }).loose()).nullish(),
}).loose();

function listPaths(lists: z.infer<typeof karakeepShape>['lists']): Map<string, string> {
  const byId = new Map((lists ?? []).filter((l) => l.type !== 'smart').map((l) => [l.id, l]));
  const path = (id: string, seen: Set<string>): string[] => {
    const l = byId.get(id);
    if (!l || seen.has(id)) return [];
    seen.add(id);
    return [...(l.parentId ? path(l.parentId, seen) : []), l.name.trim()];
  };
  return new Map([...byId.keys()].map((id) => [id, path(id, new Set()).join('/')]));
}

export function readKarakeep(data: unknown): BookmarkFile {
  const file = karakeepShape.parse(data);
  const paths = listPaths(file.lists);
  const raw: RawBookmark[] = [];
  const texts: number[] = [];
  file.bookmarks.forEach((b, i) => {
    if (b.content?.type !== 'link') { texts.push(i); return; }
    const listTags = (b.lists ?? []).map((id) => paths.get(id)).filter((p): p is string => !!p);
    raw.push({ url: b.content.url, title: b.title, tags: [...listTags, ...(b.tags ?? [])], note: b.note, created: b.createdAt });
  });
  const { bookmarks, problems } = collectBookmarks(raw, (n) => `bookmark ${n + 1}`);
  for (const i of texts) problems.push({ path: `bookmark ${i + 1}`, kind: 'ignored_value', detail: 'a text or asset item with no URL; skipped' });
  return { format: 'karakeep', bookmarks, problems };
}
