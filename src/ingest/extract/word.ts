// Word documents: .docx through mammoth (structure kept: headings, lists, tables as
// HTML → markdown), legacy .doc through word-extractor (plain text, best effort).
import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import { lib } from '../versions.js';
import { wordCount } from '../text-stats.js';
import { htmlToMarkdown } from './html.js';
import type { Extracted } from './types.js';

export async function extractDocx(bytes: Uint8Array): Promise<Extracted> {
  const res = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
  const markdown = htmlToMarkdown(res.value);
  const heading = markdown.match(/^#{1,2}\s+(.+)$/m)?.[1]?.trim();
  return {
    title: heading,
    markdown,
    metadata: { word_count: wordCount(markdown), ...(res.messages.length ? { warnings: res.messages.length } : {}) },
    extractor: `${lib('mammoth')}+${lib('turndown')}`,
  };
}

export async function extractDoc(bytes: Uint8Array): Promise<Extracted> {
  const doc = await new WordExtractor().extract(Buffer.from(bytes));
  const markdown = doc.getBody().replace(/\r\n?/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  return { markdown, metadata: { word_count: wordCount(markdown) }, extractor: lib('word-extractor') };
}
