// Images, audio and video carry no text of their own: what they yield is their metadata
// and whatever the user said about them (alt text, selection, why).
import { imageSize } from 'image-size';
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

export function extractImage(bytes: Uint8Array, user: UserText = {}): Extracted {
  let dims: { width?: number; height?: number; type?: string } = {};
  try {
    dims = imageSize(bytes);
  } catch {
    /* unreadable header: still keep the user's text */
  }
  const format = dims.type?.toUpperCase() ?? 'unknown format';
  const size = dims.width && dims.height ? `, ${dims.width}×${dims.height} px` : '';
  const markdown = [`Image (${format}${size}).`, ...userLines(user)].join('\n\n');
  return {
    markdown,
    metadata: { width: dims.width ?? null, height: dims.height ?? null, format: dims.type ?? null, word_count: wordCount(userLines(user).join(' ')) },
    extractor: lib('image-size'),
  };
}

export function extractMediaInfo(kind: 'audio' | 'video', info: { mime?: string; bytes?: number | null }, user: UserText = {}): Extracted {
  const facts = [info.mime, info.bytes ? `${info.bytes} bytes` : ''].filter(Boolean).join(', ');
  const markdown = [`${kind === 'audio' ? 'Audio' : 'Video'}${facts ? ` (${facts})` : ''}; no transcript available.`, ...userLines(user)].join('\n\n');
  return { markdown, metadata: { media_mime: info.mime ?? null, word_count: wordCount(userLines(user).join(' ')) }, extractor: 'rhizome-media-info@1' };
}
