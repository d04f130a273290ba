// Netscape bookmark HTML, the format every browser exports: <DT><H3> folders holding
// <DL> lists of <DT><A HREF ADD_DATE TAGS> bookmarks, each optionally followed by a <DD>
// description. The markup is famously unclosed, so folders are found from the DOM: a
// bookmark's folders are the <H3> headings just before each <DL> that contains it.
import { parseHTML } from 'linkedom';
import { collectBookmarks, type RawBookmark } from './collect.js';
import type { BookmarkFile } from './types.js';

// Browser root folders say where a bookmark sat in the browser's UI, not what it is about.
const ROOT_FOLDER_FLAGS = ['personal_toolbar_folder', 'unfiled_bookmarks_folder'];

/** Attribute values regardless of case (the parser keeps HREF and ADD_DATE as written). */
function attr(el: Element, name: string): string | null {
  for (const a of Array.from(el.attributes)) if (a.name.toLowerCase() === name) return a.value;
  return null;
}

function folderOf(dl: Element): string | null {
  let prev = dl.previousElementSibling;
  while (prev && prev.tagName === 'P') prev = prev.previousElementSibling;
  if (prev?.tagName !== 'H3') return null;
  if (ROOT_FOLDER_FLAGS.some((f) => attr(prev!, f)?.toLowerCase() === 'true')) return null;
  return prev.textContent?.trim() || null;
}

function descriptionOf(a: Element): string | null {
  const dt = a.parentElement;
  const next = a.nextElementSibling?.tagName === 'DD' ? a.nextElementSibling : dt?.tagName === 'DT' ? dt.nextElementSibling : null;
  if (next?.tagName !== 'DD') return null;
  // The <DD> text runs until the next tag; nested <DT>s (unclosed markup) are not part of it.
  let text = '';
  for (const n of Array.from(next.childNodes)) {
    if (n.nodeType !== 3) break;
    text += n.textContent ?? '';
  }
  return text.trim() || null;
}

export function readNetscape(html: string): BookmarkFile {
  const { document } = parseHTML(html);
  const raw: RawBookmark[] = [];
  for (const a of Array.from(document.querySelectorAll('a'))) {
    const folders: string[] = [];
    for (let el = a.parentElement; el; el = el.parentElement) {
      if (el.tagName !== 'DL') continue;
      const f = folderOf(el);
      if (f) folders.unshift(f);
    }
    const ownTags = (attr(a, 'tags') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
    raw.push({
      url: attr(a, 'href'),
      title: a.textContent,
      tags: [...(folders.length ? [folders.join('/')] : []), ...ownTags],
      note: descriptionOf(a),
      created: attr(a, 'add_date'),
    });
  }
  const { bookmarks, problems } = collectBookmarks(raw, (i) => `bookmark ${i + 1}`);
  return { format: 'netscape', bookmarks, problems };
}
