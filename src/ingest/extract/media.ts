// Images yield the text OCR finds in them (a screenshot becomes searchable), their metadata
// and whatever the user said about them (alt text, selection, why). Audio and video carry
// no text of their own here.
import { imageSize } from 'image-size';
import { recognizeImage, type OcrOutcome } from '../ocr/index.js';
import { lib } from '../versions.js';
import { wordCount } from '../text-stats.js';
import type { Extracted } from './types.js';

export interface UserText {
  alt?: string | null;
  selectedText?: string | null;
  why?: string | null;
}

function userLines(u: UserText): string[] {
  const lines: string[] = [];
  if (u.alt) lines.push(u.alt);
  if (u.selectedText) lines.push(u.selectedText);
  return lines;
}

export async function extractImage(bytes: Uint8Array, user: UserText = {}): Promise<Extracted> {
  let dims: { width?: number; height?: number; type?: string } = {};
  try {
    dims = imageSize(bytes);
  } catch {
    /* unreadable header: still keep the user's text */
  }
  const format = dims.type?.toUpperCase() ?? 'unknown format';
  const size = dims.width && dims.height ? `, ${dims.width}×${dims.height} px` : '';
  const ocr = await recognizeImage(bytes, dims);
  const found = ocr.status === 'ok' && ocr.text ? ocr.text : '';
  // The recognised text is the body; when OCR found nothing, or could not run (too large,
  // timed out), the description stands in and provenance says why.
  const head = found ? `Image (${format}${size}), text recognised by OCR:` : `Image (${format}${size}).`;
  const markdown = [head, found, ...userLines(user)].filter(Boolean).join('\n\n');
  return {
    markdown,
    metadata: {
      width: dims.width ?? null,
      height: dims.height ?? null,
      format: dims.type ?? null,
      word_count: wordCount([found, ...userLines(user)].join(' ')),
      ocr: ocrProvenance(ocr),
    },
    // Provenance names the OCR model when it read the image, else the header reader alone.
    extractor: ocr.status === 'ok' ? `image-ocr:${ocr.model}` : lib('image-size'),
  };
}

function ocrProvenance(o: OcrOutcome): Record<string, unknown> {
  if (o.status === 'ok') return { model: o.model, status: o.status, confidence: o.confidence, lines: o.lines, words: o.words, dropped_words: o.dropped_words, ms: o.ms };
  return { model: o.model, status: o.status, detail: o.detail, confidence: null, lines: 0, ms: o.ms };
}

export function extractMediaInfo(kind: 'audio' | 'video', info: { mime?: string; bytes?: number | null }, user: UserText = {}): Extracted {
  const facts = [info.mime, info.bytes ? `${info.bytes} bytes` : ''].filter(Boolean).join(', ');
  const markdown = [`${kind === 'audio' ? 'Audio' : 'Video'}${facts ? ` (${facts})` : ''}; no transcript available.`, ...userLines(user)].join('\n\n');
  return { markdown, metadata: { media_mime: info.mime ?? null, word_count: wordCount(userLines(user).join(' ')) }, extractor: 'rhizome-media-info@1' };
}
