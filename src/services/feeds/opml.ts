// OPML 2.0 subscription lists, read and written by feedsmith. Folders (outlines without a
// feed URL) become tags on the feeds inside them.
import { normalizeTag } from '../../ingest/tags.js';

export interface OpmlFeed {
  url: string;
  title: string | null;
  siteUrl: string | null;
  tags: string[];
}

export class OpmlError extends Error {}

interface Outline {
  text?: string;
  title?: string;
  xmlUrl?: string;
  htmlUrl?: string;
  outlines?: Outline[];
}

/** feedsmith is loaded on the first OPML read or write, not at start. */
export async function readOpml(xml: string): Promise<OpmlFeed[]> {
  const { parseOpml } = await import('feedsmith');
  let doc: { body?: { outlines?: Outline[] } };
  try {
    doc = parseOpml(xml) as typeof doc;
  } catch (e) {
    throw new OpmlError(`not an OPML document (${e instanceof Error ? e.message : String(e)})`);
  }
  const out: OpmlFeed[] = [];
  const walk = (outlines: Outline[] | undefined, folders: string[]) => {
    for (const o of outlines ?? []) {
      if (o.xmlUrl) out.push({ url: o.xmlUrl.trim(), title: o.title ?? o.text ?? null, siteUrl: o.htmlUrl ?? null, tags: folders });
      else walk(o.outlines, [...folders, normalizeTag(o.title ?? o.text ?? '')].filter(Boolean));
    }
  };
  walk(doc.body?.outlines, []);
  return out;
}

export async function writeOpml(title: string, feeds: Array<{ url: string; title: string; siteUrl: string | null }>, now: Date): Promise<string> {
  // feedsmith refuses a body without outlines: an empty list is written as OPML's empty body.
  if (feeds.length === 0) return `<?xml version="1.0" encoding="utf-8"?>\n<opml version="2.0">\n  <head>\n    <title>${title.replace(/[<&]/g, '')}</title>\n  </head>\n  <body/>\n</opml>\n`;
  const { generateOpml } = await import('feedsmith');
  return generateOpml({
    head: { title, dateCreated: now },
    body: { outlines: feeds.map((f) => ({ text: f.title, title: f.title, type: 'rss', xmlUrl: f.url, ...(f.siteUrl ? { htmlUrl: f.siteUrl } : {}) })) },
  });
}
