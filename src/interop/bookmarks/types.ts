// The one shape every bookmark format is read into. The caller turns each into a URL
// capture that keeps these fields.
import type { Problem } from '../types.js';

export const BOOKMARK_FORMATS = ['netscape', 'pocket', 'omnivore', 'karakeep', 'linkwarden'] as const;
export type BookmarkFormat = (typeof BOOKMARK_FORMATS)[number];

export const BOOKMARK_FORMAT_NAMES: Record<BookmarkFormat, string> = {
  netscape: 'Netscape bookmark HTML (what every browser exports)',
  pocket: 'Pocket CSV export',
  omnivore: 'Omnivore export JSON (metadata_*.json)',
  karakeep: 'Karakeep export JSON',
  linkwarden: 'Linkwarden export JSON',
};

export interface ImportedBookmark {
  url: string;
  /** null when the file gives none (the page's own title is used then). */
  title: string | null;
  tags: string[];
  /** The user's own note or description, when the format has one. */
  note: string | null;
  /** When the bookmark was first saved, ISO 8601 UTC, or null when unknown. */
  created_at: string | null;
}

export interface BookmarkFile {
  format: BookmarkFormat;
  bookmarks: ImportedBookmark[];
  /** Entries that were not taken (no http(s) URL, text-only items...), `path` naming the entry. */
  problems: Problem[];
}

/** The file is none of the formats understood. Names them, for a clear 400. */
export class UnrecognizedBookmarkFile extends Error {
  readonly formats = BOOKMARK_FORMATS.map((f) => BOOKMARK_FORMAT_NAMES[f]);
  constructor(why: string) {
    super(`${why}. Bookmark files understood: ${BOOKMARK_FORMATS.map((f) => BOOKMARK_FORMAT_NAMES[f]).join('; ')}.`);
    this.name = 'UnrecognizedBookmarkFile';
  }
}
