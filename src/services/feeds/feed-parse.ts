// RSS 2.0, RSS 1.0 (RDF), Atom and JSON Feed, read by feedsmith into one item shape. An item
// is known by its GUID / id when it has one, else by its URL; relative links are resolved
// against the feed's URL.
import type { parseFeed } from 'feedsmith';

export interface FeedItem {
  /** GUID, Atom id or JSON Feed id; else the URL. */
  key: string;
  url: string | null;
  title: string;
  /** The item's own content (HTML or text): the capture falls back to it. */
  content: string;
  published: string | null;
}

export interface ParsedFeed {
  format: 'rss' | 'atom' | 'json' | 'rdf';
  title: string;
  siteUrl: string | null;
  items: FeedItem[];
}

export class FeedParseError extends Error {}

type Text = string | { value?: string } | undefined;
const text = (t: Text): string => (typeof t === 'string' ? t : t?.value ?? '').trim();

function absolute(href: string | undefined, base: string): string | null {
  if (!href) return null;
  try {
    const u = new URL(href.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

function date(s: string | undefined): string | null {
  if (!s) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

function item(key: string | undefined, url: string | null, title: string, content: string, published: string | null): FeedItem | null {
  const k = key?.trim() || url;
  if (!k) return null;
  return { key: k.slice(0, 2000), url, title: title || url || 'Untitled item', content, published };
}

/** feedsmith is loaded on the first feed read, not at start (test/foundation/startup-imports.test.ts). */
export async function parseFeedDocument(body: string, feedUrl: string): Promise<ParsedFeed> {
  const feedsmith = await import('feedsmith');
  let parsed: ReturnType<typeof parseFeed>;
  try {
    parsed = feedsmith.parseFeed(body);
  } catch (e) {
    throw new FeedParseError(`not a feed Rhizome can read (${e instanceof Error ? e.message : String(e)})`);
  }
  const items: Array<FeedItem | null> = [];
  // biome-ignore lint/suspicious/noExplicitAny: feedsmith types each format apart; each branch below reads its own format's fields
  const f = parsed.feed as any;
  let title = '';
  let siteUrl: string | null = null;
  if (parsed.format === 'rss' || parsed.format === 'rdf') {
    title = text(f.title);
    siteUrl = absolute(f.link, feedUrl);
    for (const i of f.items ?? []) {
      const url = absolute(i.link, feedUrl) ?? (i.guid?.isPermaLink !== false ? absolute(i.guid?.value, feedUrl) : null);
      items.push(item(i.guid?.value ?? i.rdf?.about, url, text(i.title), i.content?.encoded ?? i.description ?? '', date(i.pubDate ?? i.dc?.date)));
    }
  } else if (parsed.format === 'atom') {
    title = text(f.title);
    // biome-ignore lint/suspicious/noExplicitAny: Atom link objects, as feedsmith hands them
    const alt = (links: any[] | undefined) => (links ?? []).find((l) => !l.rel || l.rel === 'alternate')?.href;
    siteUrl = absolute(alt(f.links), feedUrl);
    for (const e of f.entries ?? []) {
      items.push(item(e.id, absolute(alt(e.links), feedUrl), text(e.title), text(e.content) || text(e.summary), date(e.published ?? e.updated)));
    }
  } else {
    title = text(f.title);
    siteUrl = absolute(f.home_page_url, feedUrl);
    for (const i of f.items ?? []) {
      items.push(item(i.id === undefined ? undefined : String(i.id), absolute(i.url ?? i.external_url, feedUrl), text(i.title), i.content_html ?? i.content_text ?? i.summary ?? '', date(i.date_published ?? i.date_modified)));
    }
  }
  return { format: parsed.format, title: title || siteUrl || feedUrl, siteUrl, items: items.filter((i): i is FeedItem => i !== null) };
}

/** The feeds a page announces with <link rel="alternate" type="application/rss+xml" …> (Atom, JSON Feed, RDF too), resolved. */
export async function discoverFeeds(html: string, pageUrl: string): Promise<string[]> {
  // linkedom loads on the first page given instead of a feed, not at start-up.
  const { parseHTML } = await import('linkedom');
  const { document } = parseHTML(html);
  const out: string[] = [];
  for (const link of document.querySelectorAll('link[rel][href]')) {
    const rel = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    const type = (link.getAttribute('type') ?? '').toLowerCase().split(';')[0].trim();
    if (!rel.includes('alternate') || !FEED_TYPES.has(type)) continue;
    const href = absolute(link.getAttribute('href') ?? undefined, pageUrl);
    if (href && !out.includes(href)) out.push(href);
  }
  return out;
}

const FEED_TYPES = new Set(['application/rss+xml', 'application/atom+xml', 'application/feed+json', 'application/json', 'application/rdf+xml']);
