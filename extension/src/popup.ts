// The toolbar popup: shows what will be saved, lets the user edit it, saves it and follows
// the capture until it is processed. `popup.html?tab=ID` targets a given tab (tests use it);
// otherwise the active tab, which the toolbar click grants access to (activeTab).
import { ApiError, dashboardLink, follow, RhizomeApi, type Capture } from './api.js';
import { ext } from './browser.js';
import { CONTENT_TYPES, guessUrlContentType, parseTags, readTab, send } from './capture.js';
import { utf8Bytes } from './page.js';
import { loadSettings, type Settings } from './settings.js';
import { highlightSelection, redraw } from './highlight.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function link(href: string, text: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = href;
  a.target = '_blank';
  a.rel = 'noopener';
  a.textContent = text;
  return a;
}

const LABELS: Record<string, string> = { pending: 'Queued', processing: 'Processing…', completed: 'Saved ✓', failed: 'Failed' };

function badge(status: string): HTMLElement {
  const b = document.createElement('span');
  b.className = `badge ${status}`;
  b.textContent = LABELS[status] ?? status;
  return b;
}

function say(...parts: (string | Node)[]) {
  $('status').replaceChildren(...parts);
}

function kb(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KB`;
}

async function targetTab(): Promise<number | undefined> {
  const given = Number(new URLSearchParams(location.search).get('tab'));
  if (Number.isInteger(given) && given > 0) return given;
  const [tab] = await ext.tabs.query({ active: true, currentWindow: true });
  return tab?.id;
}

function showAlready(s: Settings, c: Capture) {
  const el = $('already');
  el.replaceChildren('Already saved ', badge(c.status), ' · ', link(dashboardLink(s, 'captures', c.id), 'open in Rhizome'));
  if (c.node_id) el.append(' · ', link(dashboardLink(s, 'nodes', c.node_id), 'node'));
  el.hidden = false;
}

function showResult(s: Settings, c: Capture, note: string) {
  const parts: (string | Node)[] = [badge(c.status), ' '];
  // A capture still being retried may already have its bookmark node.
  if (c.node_id) parts.push(link(dashboardLink(s, 'nodes', c.node_id), 'Open node'), ' · ');
  if (c.status === 'failed') parts.push(Object.assign(document.createElement('span'), { className: 'err', textContent: (c.error ?? 'Processing failed') + ' ' }));
  parts.push(link(dashboardLink(s, 'captures', c.id), c.status === 'pending' || c.status === 'processing' ? 'Follow in Rhizome' : 'Capture'));
  if (note) parts.push(Object.assign(document.createElement('span'), { className: 'note', textContent: note }));
  say(...parts);
  document.body.dataset.status = c.status;
}

async function main() {
  const settings = await loadSettings();
  const openOptions = () => void ext.runtime.openOptionsPage();
  $('open-options').addEventListener('click', openOptions);
  if (!settings.apiKey) {
    $('setup').hidden = false;
    $('setup-options').addEventListener('click', openOptions);
    return;
  }
  const api = new RhizomeApi(settings);
  const tabId = await targetTab();
  const tab = tabId ? await ext.tabs.get(tabId).catch(() => undefined) : undefined;
  const snap = tabId ? await readTab(tabId) : null;
  const url = snap?.url ?? tab?.url ?? '';

  const form = $<HTMLFormElement>('form');
  form.hidden = false;
  $<HTMLInputElement>('title').value = snap?.title || tab?.title || url;
  $('url').textContent = url;
  $('url').title = url;
  const type = $<HTMLSelectElement>('type');
  const guessed = url ? guessUrlContentType(url) : 'note';
  for (const t of CONTENT_TYPES) type.add(new Option(t, t, t === guessed, t === guessed));
  if (snap?.selection.trim()) {
    const q = $('selection');
    q.replaceChildren(
      Object.assign(document.createElement('span'), { className: 'label', textContent: 'Selected text' }),
      Object.assign(document.createElement('span'), { className: 'text', textContent: snap.selection.trim().slice(0, 600) }),
    );
    q.hidden = false;
  }
  $('page-info').textContent = snap
    ? `The page as you see it (${kb(utf8Bytes(snap.html))}, without scripts and styles) is sent with it.`
    : 'This page cannot be read by extensions; Rhizome will fetch the URL itself.';

  if (/^https?:/i.test(url)) {
    api.check(url).then((c) => c && showAlready(settings, c), () => undefined);
    // Opening the popup grants this tab: the page's highlights are drawn again.
    if (tabId) void redraw(api, tabId, url).then((n) => (document.body.dataset.drawn = String(n)));
  }
  if (tabId && snap?.selection.trim() && /^https?:/i.test(url)) {
    $('highlight').hidden = false;
    $('highlight-save').addEventListener('click', async () => {
      const button = $<HTMLButtonElement>('highlight-save');
      const status = $('hl-status');
      button.disabled = true;
      status.textContent = 'Highlighting… (the page is saved first if Rhizome does not have it)';
      try {
        const h = await highlightSelection(api, tabId, { note: $<HTMLTextAreaElement>('hl-note').value });
        status.textContent = h ? 'Highlighted ✓' : 'Select some words on the page first.';
        if (h) document.body.dataset.highlightId = h.id;
      } catch (err) {
        status.textContent = err instanceof ApiError ? err.message : String(err);
        button.disabled = false;
      }
    });
  }
  document.body.dataset.ready = 'true';

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const save = $<HTMLButtonElement>('save');
    save.disabled = true;
    say('Saving…');
    const tags = parseTags($<HTMLInputElement>('tags').value);
    try {
      const created = await send(api, {
        title: $<HTMLInputElement>('title').value,
        url,
        content_type: type.value,
        why: $<HTMLTextAreaElement>('why').value,
        selected_text: snap?.selection,
        raw_content: snap?.html,
        tags,
      });
      document.body.dataset.captureId = created.id;
      const note = created.truncated ? 'Page content shortened to fit the 1 MB limit.' : '';
      const done = await follow(api, created.id, (c) => showResult(settings, c, note));
      save.textContent = done.status === 'failed' ? 'Save' : 'Saved';
      save.disabled = done.status !== 'failed';
      document.body.dataset.done = 'true';
    } catch (err) {
      say(Object.assign(document.createElement('span'), { className: 'err', textContent: err instanceof ApiError ? err.message : String(err) }));
      save.disabled = false;
    }
  });
}

void main();
