// Reads a bookmark file of any understood format. The format is recognised from the
// content (markup, JSON shape, CSV header), never from the file name.
import { parse } from 'csv-parse/sync';
import { decodeUtf8 } from '../vault/decode.js';
import { isOmnivore, readOmnivore } from './omnivore.js';
import { karakeepShape, readKarakeep } from './karakeep.js';
import { linkwardenShape, readLinkwarden } from './linkwarden.js';
import { readNetscape } from './netscape.js';
import { POCKET_COLUMNS, readPocket } from './pocket.js';
import { UnrecognizedBookmarkFile, type BookmarkFile, type BookmarkFormat } from './types.js';

function detectJson(data: unknown): BookmarkFormat | null {
  if (isOmnivore(data)) return 'omnivore';
  if (karakeepShape.safeParse(data).success) return 'karakeep';
  if (linkwardenShape.safeParse(data).success) return 'linkwarden';
  return null;
}

function csvHeader(text: string): string[] | null {
  try {
    const rows = parse(text, { to_line: 1, bom: true, relax_column_count: true }) as string[][];
    return rows[0]?.map((c) => c.trim().toLowerCase()) ?? null;
  } catch {
    return null;
  }
}

/** @throws UnrecognizedBookmarkFile when the content is none of the formats. */
export function readBookmarkFile(input: Uint8Array | string): BookmarkFile {
  const text = typeof input === 'string' ? input : decodeUtf8(input);
  if (text === null) throw new UnrecognizedBookmarkFile('The file is not UTF-8 text');
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('<')) {
    if (/^<!DOCTYPE\s+NETSCAPE-Bookmark-file-1\s*>/i.test(head) || (/<dl[\s>]/i.test(head) && /<a\s[^>]*href\s*=/i.test(head))) return readNetscape(head);
    throw new UnrecognizedBookmarkFile('This HTML file is not a Netscape bookmark file (no <DL> list of <A HREF> links)');
  }
  if (head.startsWith('{') || head.startsWith('[')) {
    let data: unknown;
    try {
      data = JSON.parse(head);
    } catch {
      throw new UnrecognizedBookmarkFile('The file looks like JSON but does not parse');
    }
    switch (detectJson(data)) {
      case 'omnivore': return readOmnivore(data);
      case 'karakeep': return readKarakeep(data);
      case 'linkwarden': return readLinkwarden(data);
      default: throw new UnrecognizedBookmarkFile('This JSON has none of the shapes understood');
    }
  }
  const header = csvHeader(head);
  if (header && POCKET_COLUMNS.every((c) => header.includes(c))) return readPocket(head);
  throw new UnrecognizedBookmarkFile('The file is not a bookmark file');
}
