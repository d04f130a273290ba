// Web pages: Readability finds the article inside the boilerplate (navigation, footers,
// cookie banners), Turndown writes it as markdown. Pages Readability cannot read (tweets,
// video pages, app shells) still yield their Open Graph / meta description.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { lib } from '../versions.js';
import { wordCount } from '../text-stats.js';
import type { Extracted } from './types.js';

export type PageFlavor = 'article' | 'tweet' | 'repo' | 'video' | 'audio' | 'other';

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button'] as never);

function meta(doc: Document, ...names: string[]): string | undefined {
  for (const n of names) {
    const el = doc.querySelector(`meta[property="${n}"], meta[name="${n}"]`);
    const v = el?.getAttribute('content')?.trim();
    if (v) return v;
  }
  return undefined;
}

/** Relative links and images resolved against the page, so the markdown stands alone. */
function absolutize(doc: Document, base: string | undefined): void {
  if (!base) return;
  for (const [sel, attr] of [['a[href]', 'href'], ['img[src]', 'src']] as const) {
    for (const el of doc.querySelectorAll(sel)) {
      const v = el.getAttribute(attr);
      if (!v || v.startsWith('#') || /^(data|javascript):/i.test(v)) continue;
      try {
        el.setAttribute(attr, new URL(v, base).toString());
      } catch {
        /* leave it */
      }
    }
  }
}

export function extractHtml(html: string, opts: { url?: string; flavor?: PageFlavor } = {}): Extracted {
  const { document } = parseHTML(html);
  absolutize(document as unknown as Document, opts.url);
  const doc = document as unknown as Document;
  const info = {
    description: meta(doc, 'og:description', 'twitter:description', 'description'),
    site_name: meta(doc, 'og:site_name', 'application-name'),
    author: meta(doc, 'author', 'article:author', 'twitter:creator'),
    published_at: meta(doc, 'article:published_time', 'og:published_time', 'datePublished'),
    image: meta(doc, 'og:image', 'twitter:image'),
    og_type: meta(doc, 'og:type'),
    duration_seconds: meta(doc, 'video:duration', 'og:video:duration', 'music:duration'),
    language: doc.documentElement?.getAttribute('lang') || undefined,
    canonical_url: doc.querySelector('link[rel="canonical"]')?.getAttribute('href') || undefined,
  };
  const metaTitle = meta(doc, 'og:title', 'twitter:title') ?? doc.querySelector('title')?.textContent?.trim();

  let article: ReturnType<Readability['parse']> = null;
  try {
    article = new Readability(doc.cloneNode(true) as Document, { charThreshold: 200 }).parse();
  } catch {
    article = null;
  }
  let markdown = '';
  if (article?.content) markdown = turndown.turndown(article.content).trim();
  const words = wordCount(markdown);
  // Short pages (tweets, video pages) carry their substance in the description.
  if (info.description && (words < 40 || opts.flavor === 'video' || opts.flavor === 'tweet' || opts.flavor === 'audio')) {
    if (!markdown.includes(info.description.slice(0, 60))) markdown = [info.description, markdown].filter(Boolean).join('\n\n');
  }
  if (!markdown) {
    const body = doc.querySelector('body');
    markdown = body ? turndown.turndown(body.innerHTML ?? '').trim() : '';
  }
  const metadata: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(info)) if (v) metadata[k] = v;
  if (article?.byline) metadata.author ??= article.byline;
  if (article?.siteName) metadata.site_name ??= article.siteName;
  if (article?.excerpt) metadata.excerpt = article.excerpt;
  metadata.readable = Boolean(article?.content);
  metadata.word_count = wordCount(markdown);
  return {
    title: article?.title?.trim() || metaTitle || undefined,
    markdown,
    metadata,
    extractor: `${lib('@mozilla/readability')}+${lib('linkedom')}+${lib('turndown')}`,
  };
}

/** HTML fragments (a docx converted by mammoth) to markdown. */
export function htmlToMarkdown(html: string): string {
  return turndown.turndown(html).trim();
}
