// What the extension reads from the page, and how it fits under the API's 1 MB body limit.

export interface PageSnapshot {
  url: string;
  title: string;
  selection: string;
  html: string;
}

/**
 * Runs inside the visited page (chrome.scripting.executeScript serialises this function,
 * so it must not use anything from outside its own body). The DOM as the reader sees it,
 * after scripts ran and while logged in, minus what never helps reading.
 */
export function snapshotPage(): PageSnapshot {
  const root = document.documentElement.cloneNode(true) as HTMLElement;
  const drop = 'script, style, noscript, template, link[rel~="stylesheet"], link[rel~="preload"], link[rel~="modulepreload"], link[rel~="prefetch"]';
  for (const el of Array.from(root.querySelectorAll(drop))) el.remove();
  const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>` : '';
  return {
    url: location.href,
    title: document.title,
    selection: String(window.getSelection() ?? ''),
    html: doctype + root.outerHTML,
  };
}

/** The API refuses JSON bodies over 1 MiB; stay a little below it. */
export const BODY_BUDGET_BYTES = 1024 * 1024 - 8 * 1024;
/** The schema's own caps (characters). */
export const RAW_CONTENT_MAX_CHARS = 1_000_000;
export const SELECTION_MAX_CHARS = 200_000;

const encoder = new TextEncoder();
export const utf8Bytes = (s: string) => encoder.encode(s).length;

/** Bytes `value` takes inside a JSON body, as UTF-8 (quotes, escapes and all). */
function jsonBytes(value: string): number {
  return utf8Bytes(JSON.stringify(value));
}

/** Cuts a string at `n` UTF-16 units without splitting a surrogate pair. */
function cut(s: string, n: number): string {
  if (n >= s.length) return s;
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

/**
 * Returns the body with `raw_content` shortened (never dropped) so the whole JSON body,
 * measured as UTF-8, fits the budget. Inline `data:` URIs (often megabytes of base64
 * images) go first, then the tail of the HTML.
 */
export function fitBody<T extends { raw_content?: string }>(body: T, budget = BODY_BUDGET_BYTES): T & { truncated: boolean } {
  let raw = body.raw_content;
  if (raw === undefined) return { ...body, truncated: false };
  const overhead = utf8Bytes(JSON.stringify({ ...body, raw_content: '' }));
  const room = budget - overhead;
  const fits = (s: string) => s.length <= RAW_CONTENT_MAX_CHARS && jsonBytes(s) <= room;
  if (fits(raw)) return { ...body, truncated: false };
  raw = raw.replace(/(["'(])data:[^"')]{256,}(["')])/g, '$1data:,$2');
  let truncated = false;
  for (let i = 0; !fits(raw) && i < 20; i++) {
    truncated = true;
    const ratio = Math.min(RAW_CONTENT_MAX_CHARS / raw.length, room / jsonBytes(raw));
    raw = cut(raw, Math.max(0, Math.floor(raw.length * ratio * 0.98)));
  }
  return { ...body, raw_content: raw, truncated };
}
