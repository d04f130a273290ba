// The pictures a captured web page offers: its Open Graph image and its favicon
// (<link rel="icon">, else /favicon.ico). Fetched through the same guarded fetcher as the
// page (SSRF guard, byte cap, timeout) and kept only when the bytes really are an image.
// Any failure just means no picture: a capture never fails because of its image.
import { fileTypeFromBuffer } from 'file-type';
import { parseHTML } from 'linkedom';
import { safeFetch } from './fetch.js';

export const PAGE_IMAGE_MAX_BYTES = 1024 * 1024;
export const FAVICON_MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 8_000;

/** Raster types a browser shows in <img>; SVG is left out (it is a document that can carry script). */
const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/x-icon', 'image/vnd.microsoft.icon', 'image/bmp']);

export interface KeptImage {
  mime: string;
  bytes: Uint8Array;
  url: string;
}

export interface PageImages {
  image?: KeptImage;
  favicon?: KeptImage;
  /** Why a picture the page named was not kept, for the provenance record. */
  skipped: Record<string, string>;
}

/** The favicon URL the page declares, else the site's /favicon.ico. */
export function faviconUrl(html: string, pageUrl: string): string | undefined {
  try {
    const { document } = parseHTML(html);
    const links = [...document.querySelectorAll('link[rel][href]')] as unknown as Element[];
    const icon = links.find((l) => /(^|\s)icon(\s|$)/i.test(l.getAttribute('rel') ?? '') && !/svg/i.test(l.getAttribute('type') ?? ''))
      ?? links.find((l) => /(^|\s)apple-touch-icon(\s|$)/i.test(l.getAttribute('rel') ?? ''));
    return new URL(icon?.getAttribute('href') ?? '/favicon.ico', pageUrl).toString();
  } catch {
    return undefined;
  }
}

/** Downloads one picture; the reason it was not kept otherwise. */
export async function fetchImage(url: string, maxBytes: number, allowPrivate: boolean): Promise<KeptImage | string> {
  try {
    const res = await safeFetch(new URL(url).toString(), { maxBytes, timeoutMs: TIMEOUT_MS, maxRedirects: 3, allowPrivate });
    const type = await fileTypeFromBuffer(res.bytes);
    if (!type || !IMAGE_MIMES.has(type.mime)) return `not an image (${res.contentType || 'no content type'})`;
    return { mime: type.mime === 'image/vnd.microsoft.icon' ? 'image/x-icon' : type.mime, bytes: new Uint8Array(res.bytes), url: res.finalUrl };
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

export async function fetchPageImages(html: string, pageUrl: string, ogImage: string | undefined, allowPrivate: boolean): Promise<PageImages> {
  const out: PageImages = { skipped: {} };
  const icon = faviconUrl(html, pageUrl);
  let imageUrl: string | undefined;
  try {
    imageUrl = ogImage ? new URL(ogImage, pageUrl).toString() : undefined;
  } catch {
    out.skipped.image = 'not a URL';
  }
  const [image, favicon] = await Promise.all([
    imageUrl ? fetchImage(imageUrl, PAGE_IMAGE_MAX_BYTES, allowPrivate) : undefined,
    icon ? fetchImage(icon, FAVICON_MAX_BYTES, allowPrivate) : undefined,
  ]);
  if (typeof image === 'string') out.skipped.image = image;
  else if (image) out.image = image;
  if (typeof favicon === 'string') out.skipped.favicon = favicon;
  else if (favicon) out.favicon = favicon;
  return out;
}
