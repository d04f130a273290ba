// A local feed server: RSS 2.0, Atom and JSON Feed documents the test edits, plus malformed,
// huge, redirecting and gzip-encoded feeds, item pages, and a page that names its feed. It
// answers conditional requests (ETag, Last-Modified) with 304 and counts them.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

export interface Item {
  guid: string;
  title: string;
  link: string;
  content: string;
  date?: string;
}

export interface FeedServer {
  base: string;
  url(path: string): string;
  /** Items per feed path (/rss.xml, /atom.xml, /feed.json, /gzip.xml, /moved.xml serves /rss.xml's). */
  items: Map<string, Item[]>;
  /** Paths answered with this status instead (e.g. 500 to make a feed fail). */
  failing: Map<string, number>;
  /** Item pages: path → HTML (others 404). */
  pages: Map<string, string>;
  requests: Map<string, number>;
  /** Requests that carried If-None-Match / If-Modified-Since, and how many of them were answered 304. */
  conditional: { asked: number; notModified: number };
  close(): Promise<void>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function rss(title: string, items: Item[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>${esc(title)}</title><link>http://example.com/</link><description>d</description>
${items.map((i) => `<item><title>${esc(i.title)}</title><link>${esc(i.link)}</link><guid isPermaLink="false">${esc(i.guid)}</guid><pubDate>${new Date(i.date ?? '2026-01-05T10:00:00Z').toUTCString()}</pubDate><description>${esc(i.content)}</description></item>`).join('\n')}
</channel></rss>`;
}

export function atom(title: string, items: Item[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>${esc(title)}</title><id>urn:feed:atom</id><updated>2026-01-05T10:00:00Z</updated><link rel="alternate" href="http://example.com/blog"/>
${items.map((i) => `<entry><title>${esc(i.title)}</title><id>${esc(i.guid)}</id><link rel="alternate" href="${esc(i.link)}"/><updated>${i.date ?? '2026-01-05T10:00:00Z'}</updated><content type="html">${esc(i.content)}</content></entry>`).join('\n')}
</feed>`;
}

export function jsonFeed(title: string, items: Item[]): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1', title, home_page_url: 'http://example.com/',
    items: items.map((i) => ({ id: i.guid, url: i.link, title: i.title, content_html: i.content, date_published: i.date ?? '2026-01-05T10:00:00Z' })),
  });
}

export async function startFeedServer(): Promise<FeedServer> {
  const fs: FeedServer = {
    base: '', url: (p) => fs.base + p, items: new Map(), failing: new Map(), pages: new Map(), requests: new Map(),
    conditional: { asked: 0, notModified: 0 }, close: async () => {},
  };
  const doc = (path: string): { type: string; body: string } | null => {
    const items = fs.items.get(path) ?? [];
    if (path === '/rss.xml') return { type: 'application/rss+xml', body: rss('Garden Notes', items) };
    if (path === '/atom.xml') return { type: 'application/atom+xml', body: atom('Atom Allotment', items) };
    if (path === '/feed.json') return { type: 'application/feed+json', body: jsonFeed('Json Journal', items) };
    if (path === '/gzip.xml') return { type: 'application/rss+xml', body: rss('Zipped Zinnias', items) };
    if (path === '/malformed.xml') return { type: 'application/rss+xml', body: '<rss version="2.0"><channel><title>Broken</title><item><title>half' };
    if (path === '/blog') return { type: 'text/html', body: `<!doctype html><html><head><title>Blog</title><link rel="alternate" type="application/atom+xml" title="Atom" href="/atom.xml"></head><body>hello</body></html>` };
    if (path === '/plain-page') return { type: 'text/html', body: '<!doctype html><html><head><title>No feed</title></head><body>nothing</body></html>' };
    return null;
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    fs.requests.set(path, (fs.requests.get(path) ?? 0) + 1);
    const failing = fs.failing.get(path);
    if (failing) return res.writeHead(failing).end('trouble');
    if (path === '/moved.xml') return res.writeHead(301, { location: '/rss.xml' }).end();
    if (path === '/huge.xml') {
      // 11 MB of items: past the 10 MB feed cap.
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.write('<?xml version="1.0"?><rss version="2.0"><channel><title>Huge</title>');
      const chunk = `<item><title>x</title><description>${'y'.repeat(1000)}</description></item>`.repeat(100);
      for (let i = 0; i < 110; i++) res.write(chunk);
      return res.end('</channel></rss>');
    }
    const page = fs.pages.get(path);
    if (page) return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    const d = doc(path);
    if (!d) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    const etag = `"${createHash('sha1').update(d.body).digest('hex').slice(0, 16)}"`;
    const lastModified = 'Mon, 05 Jan 2026 10:00:00 GMT';
    if (req.headers['if-none-match'] || req.headers['if-modified-since']) {
      fs.conditional.asked++;
      if (req.headers['if-none-match'] === etag) {
        fs.conditional.notModified++;
        return res.writeHead(304, { etag }).end();
      }
    }
    const headers = { 'content-type': d.type, etag, 'last-modified': lastModified };
    if (path === '/gzip.xml') return res.writeHead(200, { ...headers, 'content-encoding': 'gzip' }).end(gzipSync(d.body));
    res.writeHead(200, headers).end(d.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  fs.base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  fs.close = () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  return fs;
}

export function article(title: string, text: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>${text.split('\n').map((p) => `<p>${p}</p>`).join('')}</article></body></html>`;
}
