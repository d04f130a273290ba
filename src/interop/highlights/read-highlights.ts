// A highlights export, recognised from its content: Kindle's My Clippings.txt or Readwise's CSV.
import { readKindleClippings, looksLikeKindle } from './kindle.js';
import { looksLikeReadwise, readReadwiseCsv } from './readwise.js';
import type { HighlightFile } from './types.js';

export class UnrecognizedHighlightsFile extends Error {}

export function readHighlightsFile(bytes: Uint8Array): HighlightFile {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (looksLikeReadwise(text)) return readReadwiseCsv(text);
  if (looksLikeKindle(text)) return readKindleClippings(text);
  throw new UnrecognizedHighlightsFile("the file is neither Kindle's My Clippings.txt nor a Readwise CSV export");
}
