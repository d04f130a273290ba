// PDFs: text per page through pdf-parse (pdf.js), pages joined with blank lines and
// words broken across line ends rejoined.
import { PDFParse } from 'pdf-parse';
import { lib } from '../versions.js';
import { wordCount } from '../text-stats.js';
import type { Extracted } from './types.js';

function cleanPage(text: string): string {
  return text
    .replace(/(\p{L})-\n(\p{Ll})/gu, '$1$2')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export async function extractPdf(bytes: Uint8Array): Promise<Extracted> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    const text = await parser.getText();
    const pages = (text.pages ?? []).map((p) => cleanPage(p.text)).filter(Boolean);
    const markdown = pages.join('\n\n');
    const metadata: Record<string, unknown> = { page_count: text.total, word_count: wordCount(markdown) };
    let title: string | undefined;
    try {
      const info = await parser.getInfo();
      const i = (info.info ?? {}) as Record<string, unknown>;
      if (typeof i.Title === 'string' && i.Title.trim()) title = i.Title.trim();
      if (typeof i.Author === 'string' && i.Author.trim()) metadata.author = i.Author.trim();
    } catch {
      /* document info is optional */
    }
    if (!markdown) metadata.note = 'no text layer (a scanned PDF?)';
    return { title, markdown, metadata, extractor: lib('pdf-parse') };
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}
