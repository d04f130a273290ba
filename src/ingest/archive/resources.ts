// What an archived copy may pull in: stylesheets, images and fonts, each fetched through the
// guarded fetcher (SSRF guard, timeout, byte cap), cached per URL, and counted against one
// budget for the whole copy, so a page cannot make its copy larger than the size cap.
import { safeFetch } from '../fetch.js';

export interface ResourceFetcher {
  /** The resource as a data: URI, or null when it could not be kept (refused, failed, over budget). */
  dataUri(url: string): Promise<string | null>;
  /** A stylesheet's text and final URL (for its own relative URLs). */
  text(url: string): Promise<{ text: string; url: string } | null>;
  /** What was kept and what was not, for the record. */
  report(): { inlined: number; skipped: Record<string, string>; bytes: number };
}

const TIMEOUT_MS = 8_000;
const MAX_RESOURCES = 300;
/** Types a copy may embed: raster and vector images, fonts, stylesheets. Nothing that runs. */
const KEEPABLE = /^(image\/(png|jpe?g|gif|webp|avif|svg\+xml|x-icon|vnd\.microsoft\.icon|bmp)|font\/|application\/(font-|x-font-|vnd\.ms-fontobject)|text\/css)/;

export function resourceFetcher(opts: { budget: number; allowPrivate: boolean; fetch?: typeof safeFetch }): ResourceFetcher {
  const fetch = opts.fetch ?? safeFetch;
  let left = opts.budget;
  let inlined = 0;
  let used = 0;
  const skipped: Record<string, string> = {};
  const cache = new Map<string, Promise<{ bytes: Buffer; mime: string; url: string } | null>>();
  const skip = (url: string, why: string) => {
    if (Object.keys(skipped).length < 50) skipped[url.slice(0, 300)] = why;
    return null;
  };
  const get = (url: string) => {
    if (!/^https?:\/\//i.test(url)) return Promise.resolve(skip(url || '(empty)', 'not an http(s) URL'));
    let hit = cache.get(url);
    if (!hit) {
      hit = (async () => {
        if (cache.size > MAX_RESOURCES) return skip(url, `more than ${MAX_RESOURCES} resources`);
        if (left <= 0) return skip(url, 'the copy reached its size cap');
        try {
          const res = await fetch(url, { maxBytes: Math.max(1, Math.floor(left * 0.75)), timeoutMs: TIMEOUT_MS, maxRedirects: 3, allowPrivate: opts.allowPrivate });
          const mime = res.contentType.split(';')[0].trim() || 'application/octet-stream';
          if (!KEEPABLE.test(mime)) return skip(url, `not kept: ${mime}`);
          return { bytes: res.bytes, mime, url: res.finalUrl };
        } catch (e) {
          return skip(url, e instanceof Error ? e.message : String(e));
        }
      })();
      cache.set(url, hit);
    }
    return hit;
  };
  const charge = (n: number) => {
    if (n > left) return false;
    left -= n;
    used += n;
    return true;
  };
  return {
    async dataUri(url) {
      const r = await get(url);
      if (!r || r.mime === 'text/css') return null;
      const uri = `data:${r.mime};base64,${r.bytes.toString('base64')}`;
      if (!charge(uri.length)) return skip(url, 'the copy reached its size cap');
      inlined++;
      return uri;
    },
    async text(url) {
      const r = await get(url);
      if (!r) return null;
      if (r.mime !== 'text/css') return skip(url, `not a stylesheet: ${r.mime}`);
      if (!charge(r.bytes.length)) return skip(url, 'the copy reached its size cap');
      inlined++;
      return { text: r.bytes.toString('utf8'), url: r.url };
    },
    report: () => ({ inlined, skipped, bytes: used }),
  };
}
