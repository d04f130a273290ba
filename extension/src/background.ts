// Context menu: save the page, the selection, a link or an image without opening the popup.
// The click grants access to the tab (activeTab); the result shows as a badge on the button.
import { dashboardLink, follow, RhizomeApi } from './api.js';
import { ext, type MenuClick, type Tab } from './browser.js';
import { guessUrlContentType, readTab, send, type Draft } from './capture.js';
import { loadSettings } from './settings.js';
import { highlightSelection, redraw } from './highlight.js';

const MENUS = [
  { id: 'save-page', title: 'Save page to Rhizome', contexts: ['page'] },
  { id: 'save-selection', title: 'Save selection to Rhizome', contexts: ['selection'] },
  { id: 'save-link', title: 'Save link to Rhizome', contexts: ['link'] },
  { id: 'save-image', title: 'Save image to Rhizome', contexts: ['image'] },
  { id: 'highlight', title: 'Highlight in Rhizome', contexts: ['selection'] },
  { id: 'highlight-note', title: 'Highlight with note in Rhizome', contexts: ['selection'] },
];

ext.runtime.onInstalled.addListener((details) => {
  void (async () => {
    await ext.contextMenus.removeAll();
    for (const m of MENUS) ext.contextMenus.create(m);
    // First install: nothing works until the server and key are set, so ask for them.
    if (details.reason === 'install' && !(await loadSettings()).apiKey) await ext.runtime.openOptionsPage();
  })();
});

function lastSegment(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).pop() ?? '') || url;
  } catch {
    return url;
  }
}

/** What each menu item sends. Exported (and put on globalThis) so tests can drive it. */
export async function draftFor(info: MenuClick, tab?: Tab): Promise<Draft> {
  const pageUrl = info.pageUrl ?? tab?.url ?? '';
  const pageTitle = tab?.title || pageUrl;
  switch (info.menuItemId) {
    case 'save-link':
      return { title: info.linkText?.trim() || lastSegment(info.linkUrl!), url: info.linkUrl, content_type: guessUrlContentType(info.linkUrl!) };
    case 'save-image':
      return { title: lastSegment(info.srcUrl!), url: info.srcUrl, content_type: 'image', why: pageUrl ? `Image from ${pageUrl}` : undefined };
    case 'save-selection':
      return { title: pageTitle, url: pageUrl, content_type: guessUrlContentType(pageUrl), selected_text: info.selectionText };
    default: {
      const snap = tab?.id ? await readTab(tab.id) : null;
      const url = snap?.url ?? pageUrl;
      return { title: snap?.title || pageTitle, url, content_type: guessUrlContentType(url), raw_content: snap?.html, selected_text: snap?.selection };
    }
  }
}

async function badge(text: string, color: string, title: string, tabId?: number) {
  await ext.action.setBadgeBackgroundColor({ color, tabId });
  await ext.action.setBadgeText({ text, tabId });
  await ext.action.setTitle({ title, tabId });
}

/** Sends the capture and returns once the API accepted it; the badge then follows it. */
export async function saveFromMenu(info: MenuClick, tab?: Tab): Promise<{ id: string }> {
  const settings = await loadSettings();
  const tabId = tab?.id;
  if (!settings.apiKey) {
    await badge('!', '#b42318', 'Rhizome: set the server and API key in the extension settings', tabId);
    void ext.runtime.openOptionsPage();
    throw new Error('not configured');
  }
  const api = new RhizomeApi(settings);
  try {
    await badge('…', '#59615d', 'Saving to Rhizome…', tabId);
    const created = await send(api, await draftFor(info, tab));
    void follow(api, created.id, () => undefined).then(
      (done) => {
        const ok = done.status !== 'failed';
        const title = ok ? `Saved to Rhizome: ${dashboardLink(settings, 'captures', done.id)}` : `Rhizome could not process it: ${done.error ?? ''}`;
        return badge(ok ? '✓' : '!', ok ? '#0f766e' : '#b42318', title, tabId);
      },
      () => undefined,
    );
    return { id: created.id };
  } catch (e) {
    await badge('!', '#b42318', `Rhizome: ${(e as Error).message}`, tabId);
    throw e;
  }
}

/** Highlight / Highlight with note: the page is captured first when Rhizome does not have it. */
export async function highlightFromMenu(info: MenuClick, tab?: Tab): Promise<{ id: string } | null> {
  const settings = await loadSettings();
  const tabId = tab?.id;
  if (!settings.apiKey || tabId === undefined) {
    await badge('!', '#b42318', 'Rhizome: set the server and API key in the extension settings', tabId);
    if (!settings.apiKey) void ext.runtime.openOptionsPage();
    throw new Error('not configured');
  }
  try {
    await badge('…', '#59615d', 'Highlighting in Rhizome…', tabId);
    const h = await highlightSelection(new RhizomeApi(settings), tabId, { askNote: info.menuItemId === 'highlight-note' });
    await badge(h ? '✓' : '', '#0f766e', h ? 'Highlighted in Rhizome' : 'Save to Rhizome', tabId);
    return h ? { id: h.id } : null;
  } catch (e) {
    await badge('!', '#b42318', `Rhizome: ${(e as Error).message}`, tabId);
    throw e;
  }
}

ext.contextMenus.onClicked.addListener((info, tab) => {
  const run = String(info.menuItemId).startsWith('highlight') ? highlightFromMenu : saveFromMenu;
  void run(info, tab).catch(() => undefined);
});
// A page with highlights shows them again when it loads, wherever the extension may read
// the page (a site it was granted); elsewhere, when the popup is opened on it.
ext.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (change.status !== 'complete' || !tab.url) return;
  void loadSettings().then((s) => (s.apiKey ? redraw(new RhizomeApi(s), tabId, tab.url!) : 0));
});
(globalThis as Record<string, unknown>).rhizomeSaveFromMenu = saveFromMenu;
(globalThis as Record<string, unknown>).rhizomeHighlightFromMenu = highlightFromMenu;
