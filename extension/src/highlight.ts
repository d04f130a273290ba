// Highlighting from the extension (context menu or popup): the selection is read as a W3C
// quote, the page is captured first if Rhizome does not have it yet, the highlight is saved
// on the page's node, and drawn in the page. On later visits the page's highlights are
// drawn again (redraw): when the page loads, on sites the extension may read, and whenever
// the popup is opened (the toolbar click grants the tab).
import { follow, type RhizomeApi } from './api.js';
import { ext } from './browser.js';
import { readTab, send } from './capture.js';
import { guessUrlContentType } from '../../src/client/capture-kind.js';
import { drawQuotes, selectionQuote, type DrawnQuote, type PageQuote } from './page-highlights.js';

export interface SavedHighlight {
  id: string;
  text: string;
  note: string | null;
  color: string;
  selectors: Array<{ type: string; exact?: string; prefix?: string; suffix?: string }>;
}

export async function readSelection(tabId: number, askNote: boolean): Promise<PageQuote | 'cancelled' | null> {
  const [res] = await ext.scripting.executeScript({ target: { tabId }, func: selectionQuote, args: [askNote] });
  const r = res?.result;
  if (r && 'cancelled' in r) return 'cancelled';
  return (r as PageQuote | null) ?? null;
}

/** The node the page became: its capture's, or a new capture of the page (waited for). */
export async function nodeForPage(api: RhizomeApi, tabId: number, url: string, title: string): Promise<string> {
  let cap = await api.check(url);
  if (!cap || (!cap.node_id && cap.status === 'failed')) {
    const snap = await readTab(tabId);
    cap = { ...(await api.get((await send(api, { title: snap?.title || title || url, url, content_type: guessUrlContentType(url), raw_content: snap?.html })).id)) };
  }
  if (!cap.node_id || cap.status === 'pending' || cap.status === 'processing') cap = await follow(api, cap.id, () => undefined);
  if (!cap.node_id) throw new Error(cap.error ? `Rhizome could not capture the page: ${cap.error}` : 'Rhizome has no node for this page yet');
  return cap.node_id;
}

/** Highlights the selection in the tab; null when nothing is selected or the note was cancelled. */
export async function highlightSelection(api: RhizomeApi, tabId: number, opts: { note?: string; askNote?: boolean; color?: string } = {}): Promise<SavedHighlight | null> {
  const q = await readSelection(tabId, !!opts.askNote);
  if (!q || q === 'cancelled') return null;
  const nodeId = await nodeForPage(api, tabId, q.url, q.title);
  const note = (opts.note ?? q.note ?? '').trim();
  const h = await api.addHighlight<SavedHighlight>(nodeId, {
    text: q.exact,
    ...(note ? { note } : {}),
    ...(opts.color ? { color: opts.color } : {}),
    selectors: [{ type: 'TextQuoteSelector', exact: q.exact, prefix: q.prefix, suffix: q.suffix }],
  });
  await draw(tabId, [h]);
  return h;
}

/** Draws the page's highlights, if Rhizome has the page; how many are on the page after. Never throws. */
export async function redraw(api: RhizomeApi, tabId: number, url: string): Promise<number> {
  try {
    if (!/^https?:/i.test(url)) return 0;
    const cap = await api.check(url);
    if (!cap?.node_id) return 0;
    return await draw(tabId, (await api.highlights(cap.node_id)) as SavedHighlight[]);
  } catch {
    return 0; // no access to this tab, or the server is away: nothing to draw
  }
}

async function draw(tabId: number, list: SavedHighlight[]): Promise<number> {
  const quotes: DrawnQuote[] = list.map((h) => {
    const q = h.selectors.find((s) => s.type === 'TextQuoteSelector');
    return { id: h.id, exact: h.text, prefix: q?.prefix ?? '', suffix: q?.suffix ?? '', color: h.color, note: h.note };
  });
  const [res] = await ext.scripting.executeScript({ target: { tabId }, func: drawQuotes, args: [quotes] });
  return (res?.result as number | undefined) ?? 0;
}
