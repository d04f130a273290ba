// One entry point: the fetched or uploaded source, whatever it is, becomes Extracted.
import type { DocKind } from '../sniff.js';
import { wordCount } from '../text-stats.js';
import type { PageFlavor } from './html.js';
import type { UserText } from './media.js';
import { extractText } from './text.js';
import type { Extracted } from './types.js';

export type SourceKind = DocKind | 'audio' | 'video' | 'empty';

export interface Source {
  /** Where the content came from: the uploaded file, text sent with the capture, or the URL. */
  origin: 'upload' | 'raw_content' | 'selected_text' | 'url' | 'note';
  kind: SourceKind;
  mime: string;
  bytes: Uint8Array;
  finalUrl?: string;
  declaredBytes?: number | null;
}

export type { Extracted } from './types.js';

// Each format's parser (linkedom, pdf.js, mammoth, tesseract.js...) is loaded on its first
// use, not when the server starts: together they were ~40% of the time to /health.

export async function extractSource(src: Source, ctx: { flavor: PageFlavor; url?: string; user: UserText }): Promise<Extracted> {
  const text = () => new TextDecoder().decode(src.bytes);
  switch (src.kind) {
    case 'html':
      return (await import('./html.js')).extractHtml(text(), { url: src.finalUrl ?? ctx.url, flavor: ctx.flavor });
    case 'pdf':
      return (await import('./pdf.js')).extractPdf(src.bytes);
    case 'docx':
      return (await import('./word.js')).extractDocx(src.bytes);
    case 'doc':
      return (await import('./word.js')).extractDoc(src.bytes);
    case 'image':
      return (await import('./media.js')).extractImage(src.bytes, ctx.user);
    case 'audio':
    case 'video':
      return (await import('./media.js')).extractMediaInfo(src.kind, { mime: src.mime, bytes: src.declaredBytes ?? (src.bytes.length || null) }, ctx.user);
    case 'text':
    case 'markdown':
      return extractText(text(), src.kind);
    case 'empty': {
      // Only a title and perhaps a reason: the user's words are the content.
      const markdown = [ctx.user.selectedText, ctx.user.why].filter(Boolean).join('\n\n');
      return { markdown, metadata: { word_count: wordCount(markdown) }, extractor: 'rhizome-note@1' };
    }
  }
}
