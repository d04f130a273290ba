// What a capture card says about a capture, from the capture record alone.
import type { Capture } from '../lib/types.js';

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

export function hostOf(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return undefined;
  }
}

/** The site's own name (og:site_name), else the host, else what kind of capture it is. */
export function siteName(c: Capture): string {
  const m = c.metadata ?? {};
  return str(m.site_name) ?? hostOf(str(m.final_url) ?? c.url) ?? (str(m.filename) ? 'Uploaded file' : c.content_type === 'note' ? 'Note' : 'Capture');
}

/** The first lines a reader sees: the page's description or excerpt, else what the user gave. */
export function firstLines(c: Capture): string | undefined {
  const m = c.metadata ?? {};
  const text = str(m.description) ?? str(m.excerpt) ?? str(c.selected_text) ?? str(c.why);
  return text ? (text.length > 280 ? `${text.slice(0, 277).trimEnd()}…` : text) : undefined;
}

export const hasImage = (c: Capture) => Boolean(c.metadata?.kept_image);
export const hasFavicon = (c: Capture) => Boolean(c.metadata?.kept_favicon);
