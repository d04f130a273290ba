// What the CLI and MCP send as content_type when the user does not say.
import type { ContentType } from './types.js';

export function guessUrlContentType(url: string): ContentType {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'article';
  }
  const host = u.hostname.replace(/^www\./, '').toLowerCase();
  const path = u.pathname.toLowerCase();
  if (host === 'twitter.com' || host === 'x.com' || host === 'mobile.twitter.com') return 'tweet';
  if (host === 'youtube.com' || host === 'youtu.be' || host === 'm.youtube.com' || host === 'vimeo.com') return 'video';
  if ((host === 'github.com' || host === 'gitlab.com' || host === 'codeberg.org') && path.split('/').filter(Boolean).length >= 2) return 'repo';
  if (path.endsWith('.pdf')) return 'pdf';
  if (/\.(png|jpe?g|gif|webp)$/.test(path)) return 'image';
  if (/\.(mp3|m4a|wav|ogg|flac)$/.test(path)) return 'audio';
  if (/\.(mp4|webm|mov)$/.test(path)) return 'video';
  return 'article';
}

/** A note's title when none is given: its first non-empty line, shortened. */
export function noteTitle(text: string): string {
  const first = text.split('\n').map((l) => l.replace(/^#+\s*/, '').trim()).find(Boolean) ?? 'Note';
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
}

/** The field a note's text travels in (a capture has no separate body field). */
export const NOTE_TEXT_FIELD = 'raw_content' as const;
