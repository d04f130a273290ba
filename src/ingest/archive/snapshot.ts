// A captured web page as one self-contained HTML file: stylesheets and images inlined as
// data, and everything that could run or reach the network removed (scripts, event
// handlers, frames, plugins, javascript: URLs, <base>, meta refresh, preloads, srcset).
// A Content-Security-Policy in the document itself allows only inline styles and data:
// resources, so the copy stays inert even opened from an export on disk.
import { parseHTML } from 'linkedom';
import { inlineCss, inlineStyleAttribute } from './css.js';
import { SNAPSHOT_CSP } from './csp.js';
import type { ResourceFetcher } from './resources.js';


const REMOVE = 'script, noscript, iframe, frame, frameset, object, embed, applet, base, portal, template, meta[http-equiv], source[srcset], track';
const URL_ATTRS = ['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'data', 'background', 'ping'];

type El = Element & { attributes: NamedNodeMap };

export async function buildSnapshot(html: string, pageUrl: string, fetcher: ResourceFetcher, info: { archivedAt: string }): Promise<string> {
  const { document } = parseHTML(html.includes('<html') ? html : `<!doctype html><html><head></head><body>${html}</body></html>`);
  const all = (sel: string) => [...document.querySelectorAll(sel)] as unknown as El[];
  const base = baseUrl(document, pageUrl);

  for (const el of all(REMOVE)) el.remove();
  for (const link of all('link')) if (!/(^|\s)stylesheet(\s|$)/i.test(link.getAttribute('rel') ?? '')) link.remove();
  // Stylesheets, in document order, become <style> with their url()s inlined.
  for (const link of all('link')) {
    const href = abs(link.getAttribute('href'), base);
    const sheet = href ? await fetcher.text(href) : null;
    if (sheet) {
      const style = document.createElement('style');
      const media = link.getAttribute('media');
      if (media) style.setAttribute('media', media);
      style.textContent = await inlineCss(sheet.text, sheet.url, fetcher);
      link.replaceWith(style);
    } else link.remove();
  }
  for (const style of all('style')) style.textContent = await inlineCss(style.textContent ?? '', base, fetcher);
  for (const img of all('img, input[type="image" i], video[poster], image')) {
    const attr = img.tagName.toLowerCase() === 'video' ? 'poster' : img.hasAttribute('src') ? 'src' : 'href';
    const src = img.getAttribute(attr) ?? img.getAttribute('data-src');
    const data = src?.startsWith('data:') ? src : src ? await fetcher.dataUri(abs(src, base) ?? '') : null;
    img.removeAttribute('srcset');
    img.removeAttribute('data-src');
    if (data) img.setAttribute(attr, data);
    else img.removeAttribute(attr);
  }
  // Media would stream from the network: the copy keeps the element, not the stream.
  for (const m of all('video, audio, source')) m.removeAttribute('src');
  for (const el of all('*')) await scrub(el, base, fetcher);

  const head = document.head ?? document.documentElement;
  for (const m of all('meta[charset]')) m.remove();
  const csp = document.createElement('meta');
  csp.setAttribute('http-equiv', 'Content-Security-Policy');
  csp.setAttribute('content', SNAPSHOT_CSP);
  const charset = document.createElement('meta');
  charset.setAttribute('charset', 'utf-8');
  head.prepend(charset, csp);
  const note = document.createComment(` Archived by Rhizome from ${pageUrl.replace(/--/g, '%2D%2D')} at ${info.archivedAt} `);
  head.prepend(note);
  return `<!DOCTYPE html>\n${document.documentElement.outerHTML}`;
}

/** Event handlers and script URLs go; links stay absolute so they still lead to the web. */
async function scrub(el: El, base: string, fetcher: ResourceFetcher): Promise<void> {
  for (const a of [...el.attributes]) {
    const name = a.name.toLowerCase();
    if (name.startsWith('on')) el.removeAttribute(a.name);
    else if (URL_ATTRS.includes(name) && /^\s*(javascript|vbscript|data:text\/html)/i.test(a.value)) el.removeAttribute(a.name);
    else if (name === 'style') el.setAttribute('style', await inlineStyleAttribute(a.value, base, fetcher));
    else if (name === 'href' && el.tagName.toLowerCase() === 'a') {
      const u = abs(a.value, base);
      if (u && !a.value.startsWith('#')) el.setAttribute('href', u);
    } else if ((name === 'action' || name === 'formaction' || name === 'ping' || name === 'background') ) el.removeAttribute(a.name);
  }
}

function baseUrl(document: Document, pageUrl: string): string {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  return (href && abs(href, pageUrl)) || pageUrl;
}

function abs(url: string | null | undefined, base: string): string | null {
  if (!url) return null;
  try {
    return new URL(url.trim(), base).toString();
  } catch {
    return null;
  }
}
