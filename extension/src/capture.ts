// Building and sending one capture, shared by the popup and the context menu.
import { guessUrlContentType } from '../../src/client/capture-kind.js';
import { CAPTURE_CONTENT_TYPES } from '../../src/schemas/enums.js';
import type { RhizomeApi, CaptureBody } from './api.js';
import { fitBody, SELECTION_MAX_CHARS, snapshotPage, type PageSnapshot } from './page.js';
import { ext } from './browser.js';

export { guessUrlContentType };
/** The API's own list (one definition, bundled in). */
export const CONTENT_TYPES = CAPTURE_CONTENT_TYPES;

/** Reads the tab's DOM and selection; null when the browser does not let us (e.g. chrome:// pages). */
export async function readTab(tabId: number): Promise<PageSnapshot | null> {
  try {
    const [res] = await ext.scripting.executeScript({ target: { tabId }, func: snapshotPage });
    return res?.result ?? null;
  } catch {
    return null;
  }
}

/** What the popup and the context menu gather: the capture body before `source` is set. */
export type Draft = Omit<CaptureBody, 'source'>;

/** The capture body as the API wants it: trimmed, within the schema's caps and the 1 MB limit. */
export function toBody(d: Draft): CaptureBody & { truncated: boolean } {
  const body: CaptureBody = {
    title: (d.title.trim() || d.url || 'Untitled').slice(0, 500),
    content_type: d.content_type,
    source: 'browser-extension',
  };
  if (d.url && /^https?:/i.test(d.url)) body.url = d.url;
  if (d.why?.trim()) body.why = d.why.trim().slice(0, 10_000);
  if (d.selected_text?.trim()) body.selected_text = d.selected_text.trim().slice(0, SELECTION_MAX_CHARS);
  if (d.tags?.length) body.tags = d.tags;
  if (d.raw_content) body.raw_content = d.raw_content;
  return fitBody(body);
}

export async function send(api: RhizomeApi, d: Draft) {
  const { truncated, ...body } = toBody(d);
  const created = await api.create(body);
  return { ...created, truncated };
}

/** `a, b ,c` → ['a', 'b', 'c'] (at most 50 tags of 100 characters, as the API allows). */
export function parseTags(input: string): string[] {
  const tags = input.split(',').map((t) => t.trim().replace(/^#/, '').slice(0, 100)).filter(Boolean);
  return [...new Set(tags)].slice(0, 50);
}
