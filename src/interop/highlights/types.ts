// Highlights as the import and export formats carry them: plain records, no database.

/** A highlight written to or read from a file. */
export interface HighlightRecord {
  text: string;
  note?: string | null;
  color?: string;
  /** The TextQuoteSelector's context as Rhizome had it (Markdown export only). */
  prefix?: string;
  suffix?: string;
  created_at?: string;
  /** What makes a second import of the same highlight a no-op. */
  key?: string;
}

/** A book (or article) with its highlights, from a Kindle or Readwise export. */
export interface HighlightedBook {
  title: string;
  author?: string;
  /** A link to the source, when the export has one (Readwise). */
  url?: string;
  highlights: Array<HighlightRecord & { key: string; location?: string }>;
}

export interface HighlightFile {
  format: 'kindle' | 'readwise';
  books: HighlightedBook[];
  problems: Array<{ path: string; kind: 'unreadable' | 'ignored_value'; detail: string }>;
}
