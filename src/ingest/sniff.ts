// What a file really is: magic bytes first (file-type), then a text sniff for plain text
// and markdown, and the file name's extension must agree with what the bytes say.

export type DocKind = 'pdf' | 'image' | 'docx' | 'doc' | 'text' | 'markdown' | 'html';

export interface Detected {
  kind: DocKind;
  mime: string;
  ext: string;
}

const BINARY: Record<string, Detected> = {
  pdf: { kind: 'pdf', mime: 'application/pdf', ext: 'pdf' },
  png: { kind: 'image', mime: 'image/png', ext: 'png' },
  jpg: { kind: 'image', mime: 'image/jpeg', ext: 'jpg' },
  gif: { kind: 'image', mime: 'image/gif', ext: 'gif' },
  webp: { kind: 'image', mime: 'image/webp', ext: 'webp' },
  docx: { kind: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: 'docx' },
  // Legacy Word files are OLE compound files; file-type calls every such container "cfb".
  cfb: { kind: 'doc', mime: 'application/msword', ext: 'doc' },
};

/** Extensions each detected type may carry. */
const EXT_OK: Record<string, string[]> = {
  pdf: ['pdf'],
  png: ['png'],
  jpg: ['jpg', 'jpeg', 'jpe', 'jfif'],
  gif: ['gif'],
  webp: ['webp'],
  docx: ['docx'],
  doc: ['doc'],
  text: ['txt', 'text', 'log', 'csv', 'tsv'],
  markdown: ['md', 'markdown', 'mdown', 'mkd', 'mdx'],
  html: ['html', 'htm', 'xhtml'],
};

export function extensionOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** Valid UTF-8 with no NUL and few control characters: text a person wrote. */
export function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 64 * 1024);
  if (sample.includes(0)) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(sample);
  } catch {
    // A multi-byte character cut at the sample edge is still text.
    if (sample.length < bytes.length) {
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, sample.length - 4));
      } catch {
        return false;
      }
    } else return false;
  }
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) control++;
  }
  return control <= text.length / 100;
}

/** Markdown structure: headings, lists, links, emphasis, fences, front matter. */
export function looksLikeMarkdown(text: string): boolean {
  const signals = [/^#{1,6} \S/m, /^\s*[-*+] \S/m, /^\s*\d+\. \S/m, /\[[^\]]+\]\([^)]+\)/, /^```/m, /^---\n[\s\S]*?\n---/, /\*\*[^*]+\*\*/, /^> \S/m];
  return signals.filter((re) => re.test(text)).length >= 2;
}

export function looksLikeHtml(text: string): boolean {
  return /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text) || /<(p|div|article|section|h[1-6])[\s>][\s\S]*<\/\1>/i.test(text.slice(0, 20000));
}

/** Detects by content alone (for fetched bodies and raw content); null when unsupported. */
export async function detectContent(bytes: Uint8Array): Promise<Detected | null> {
  const { fileTypeFromBuffer } = await import('file-type'); // loaded on first use, not at start
  const ft = await fileTypeFromBuffer(bytes);
  if (ft) return BINARY[ft.ext] ?? null;
  if (!looksLikeText(bytes)) return null;
  const text = new TextDecoder().decode(bytes.subarray(0, 64 * 1024));
  if (looksLikeHtml(text)) return { kind: 'html', mime: 'text/html', ext: 'html' };
  if (looksLikeMarkdown(text)) return { kind: 'markdown', mime: 'text/markdown', ext: 'md' };
  return { kind: 'text', mime: 'text/plain', ext: 'txt' };
}

export class UnsupportedFile extends Error {}

/**
 * Detects an uploaded file and checks its extension against its bytes.
 * Throws UnsupportedFile (→ 415) for anything not allowed or any disagreement.
 */
export async function detectUpload(bytes: Uint8Array, filename: string): Promise<Detected> {
  const ext = extensionOf(filename);
  const { fileTypeFromBuffer } = await import('file-type'); // loaded on first use, not at start
  const ft = await fileTypeFromBuffer(bytes);
  if (ft) {
    const d = BINARY[ft.ext];
    if (!d) throw new UnsupportedFile(`files of type ${ft.mime} are not accepted; send PDF, PNG, JPEG, GIF, WebP, Word, text, markdown or a saved HTML page`);
    const okExts = EXT_OK[ft.ext === 'cfb' ? 'doc' : ft.ext];
    if (ext && !okExts.includes(ext)) throw new UnsupportedFile(`the file's content is ${d.mime} but its name ends in .${ext}`);
    if (d.kind === 'doc' && ext !== 'doc') throw new UnsupportedFile('an OLE compound file is accepted only as a .doc Word document');
    return d;
  }
  if (!looksLikeText(bytes)) throw new UnsupportedFile('the file is neither a supported document or image nor UTF-8 text');
  if (EXT_OK.markdown.includes(ext)) return { kind: 'markdown', mime: 'text/markdown', ext };
  if (EXT_OK.text.includes(ext)) return { kind: 'text', mime: 'text/plain', ext };
  if (EXT_OK.html.includes(ext)) {
    // A saved web page goes through the same readability extraction as a URL capture.
    if (looksLikeHtml(new TextDecoder().decode(bytes.subarray(0, 64 * 1024)))) return { kind: 'html', mime: 'text/html', ext };
    throw new UnsupportedFile(`the file's name ends in .${ext} but its content is not HTML`);
  }
  if (ext) throw new UnsupportedFile(`the file's content is text but its name ends in .${ext}; use .txt or .md`);
  const text = new TextDecoder().decode(bytes.subarray(0, 64 * 1024));
  return looksLikeMarkdown(text) ? { kind: 'markdown', mime: 'text/markdown', ext: 'md' } : { kind: 'text', mime: 'text/plain', ext: 'txt' };
}
