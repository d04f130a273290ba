// Fetching a feed (conditionally) and an item's page, through the SSRF guard, with a host's
// requests spaced apart. A feed document is capped at 10 MB; a page kept as a capture's
// raw HTML at the capture's own 1 MB limit.
import { safeFetch, type Fetched } from '../../ingest/fetch.js';
import { HostSpacing } from '../../ingest/host-spacing.js';

export const FEED_MAX_BYTES = 10 * 1024 * 1024;
export const PAGE_MAX_CHARS = 1_000_000;
const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.8, text/xml;q=0.8, text/html;q=0.5, */*;q=0.1';

export interface FeedFetcher {
  fetchFeed(url: string, cond: { etag: string | null; lastModified: string | null }): Promise<Fetched>;
  /** The item's page as HTML, or null when it cannot be had (then the item's own content is used). */
  fetchPage(url: string): Promise<string | null>;
}

const header = (h: Fetched['headers'], name: string): string | null => {
  const v = h[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v[0] ?? null : null;
};
export const etagOf = (f: Fetched) => header(f.headers, 'etag');
export const lastModifiedOf = (f: Fetched) => header(f.headers, 'last-modified');

export function feedFetcher(allowPrivate: boolean, spacing = new HostSpacing()): FeedFetcher {
  return {
    async fetchFeed(url, cond) {
      await spacing.wait(url);
      const headers: Record<string, string> = { accept: FEED_ACCEPT };
      if (cond.etag) headers['if-none-match'] = cond.etag;
      if (cond.lastModified) headers['if-modified-since'] = cond.lastModified;
      return safeFetch(url, { headers, maxBytes: FEED_MAX_BYTES, timeoutMs: 20_000, allowPrivate });
    },
    async fetchPage(url) {
      try {
        await spacing.wait(url);
        const res = await safeFetch(url, { maxBytes: 5 * 1024 * 1024, timeoutMs: 15_000, allowPrivate, headersOnly: (t) => !t.startsWith('text/html') && !t.startsWith('application/xhtml') });
        if (res.bodySkipped || res.status !== 200) return null;
        const html = res.bytes.toString('utf8');
        return html.length <= PAGE_MAX_CHARS ? html : null;
      } catch {
        return null;
      }
    },
  };
}
