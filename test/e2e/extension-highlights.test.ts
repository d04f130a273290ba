// Highlights from the browser extension in real Chromium: the unpacked build on a local test
// page. "Highlight with note" from the context menu captures the page (Rhizome did not have
// it), saves the highlight with its W3C quote on the page's node and draws it; on a reload the
// highlight is drawn again. The popup highlights too. No permission beyond the existing four.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM build script without types
import { buildExtension } from '../../extension/build.mjs';
import { ARTIFACTS, chromiumPath, ROOT } from '../web/harness.js';
import { credentials, startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';

const ARTICLE = `<!doctype html><html><head><title>Old hedges</title></head><body><article>
<h1>Old hedges</h1>
<p id="one">A hedge can be dated by counting the woody species in a thirty-yard stretch: roughly one species for every century.</p>
<p id="two">Blackthorn flowers before its leaves open, so a hedge of it turns white in March while the fields are still bare.</p>
<p id="three">Counting species is a rough rule, but it is a good reason to look closely at a hedge.</p>
</article></body></html>`;

let server: ChildServer;
let dataDir: string;
let apiKey: string;
let pages: Server;
let pageOrigin: string;
let ctx: BrowserContext;
let sw: Worker;
let extId: string;
let profile: string;
let extDir: string;

async function api<T>(path: string): Promise<T> {
  const res = await fetch(server.url + '/api/v1' + path, { headers: { Authorization: `ApiKey ${apiKey}` } });
  return (await res.json()) as T;
}

async function tabIdOf(url: string): Promise<number> {
  return sw.evaluate(async (u) => {
    const tabs = await (globalThis as any).chrome.tabs.query({});
    return tabs.find((t: { url?: string }) => t.url === u).id as number;
  }, url);
}

async function select(page: Page, id: string, from: number, to: number) {
  await page.evaluate(([el, a, b]) => {
    const text = document.getElementById(el as string)!.firstChild!;
    const r = document.createRange();
    r.setStart(text, a as number);
    r.setEnd(text, b as number);
    getSelection()!.removeAllRanges();
    getSelection()!.addRange(r);
  }, [id, from, to] as const);
}

beforeAll(async () => {
  const built = await buildExtension();
  // As in extension.test.ts: a test cannot click the toolbar (activeTab), so this copy is
  // granted the test page's host up front, as a user who allowed the site would have.
  extDir = mkdtempSync(join(tmpdir(), 'rhizome-ext-hl-'));
  cpSync(built.dir, extDir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(extDir, 'manifest.json'), 'utf8'));
  manifest.host_permissions = ['http://localhost/*'];
  writeFileSync(join(extDir, 'manifest.json'), JSON.stringify(manifest));

  dataDir = tempDataDir();
  server = await startServer(dataDir);
  apiKey = credentials(dataDir).api_key;
  pages = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(ARTICLE));
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
  pageOrigin = `http://localhost:${(pages.address() as AddressInfo).port}`;

  profile = mkdtempSync(join(tmpdir(), 'rhizome-ext-hl-profile-'));
  ctx = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: false,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--load-extension=${extDir}`, `--disable-extensions-except=${extDir}`],
  });
  sw = ctx.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ?? (await ctx.waitForEvent('serviceworker', { timeout: 30_000 }));
  extId = new URL(sw.url()).host;
  await sw.evaluate(([url, key]) => (globalThis as any).chrome.storage.local.set({ serverUrl: url, apiKey: key }), [server.url, apiKey] as const);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await server?.stop();
  pages?.close();
  for (const d of [profile, extDir, dataDir]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('highlights from the extension', () => {
  it('keeps the permissions it had: no new ones for highlighting', () => {
    const m = JSON.parse(readFileSync(join(ROOT, 'dist/extension/manifest.json'), 'utf8'));
    expect(m.permissions).toEqual(['activeTab', 'scripting', 'storage', 'contextMenus']);
    expect(m.host_permissions).toBeUndefined();
    expect(m.content_scripts).toBeUndefined();
  });

  it('highlights a passage with a note from the context menu, capturing the page first, and draws it again on a reload', async () => {
    const page = await ctx.newPage();
    const url = pageOrigin + '/hedges.html';
    await page.goto(url);
    const passage = 'roughly one species for every century';
    const p1 = (await page.textContent('#one'))!;
    await select(page, 'one', p1.indexOf(passage), p1.indexOf(passage) + passage.length);
    page.once('dialog', (d) => void d.accept('Hooper’s rule'));
    const tab = { id: await tabIdOf(url), url, title: await page.title() };
    const made = (await sw.evaluate(([i, t]) => (globalThis as any).rhizomeHighlightFromMenu(i, t), [{ menuItemId: 'highlight-note', pageUrl: url }, tab] as const)) as { id: string };
    expect(made.id).toMatch(/^hl_/);

    // Drawn in the page at once…
    const mark = page.locator(`mark[data-rhizome-highlight="${made.id}"]`);
    await mark.waitFor();
    expect(await mark.textContent()).toBe(passage);
    expect(await mark.getAttribute('title')).toBe('Hooper’s rule');
    // …saved on the node of the page, which was captured for it.
    const cap = await api<{ id: string; node_id: string; source: string }>(`/captures/check?url=${encodeURIComponent(url)}`);
    expect(cap.source).toBe('browser-extension');
    const list = (await api<{ data: Array<{ id: string; text: string; note: string; orphaned: boolean; selectors: Array<Record<string, unknown>> }> }>(`/nodes/${cap.node_id}/highlights`)).data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: made.id, text: passage, note: 'Hooper’s rule', orphaned: false });
    expect(list[0].selectors[0]).toMatchObject({ type: 'TextQuoteSelector', exact: passage, prefix: expect.stringContaining('stretch: '), suffix: expect.stringMatching(/^\./) });

    // A later visit: the highlight is drawn again, with nothing selected and nothing clicked.
    await page.reload();
    await page.locator(`mark[data-rhizome-highlight="${made.id}"]`).waitFor({ timeout: 30_000 });
    expect(await page.locator('mark[data-rhizome-highlight]').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'extension-highlight-redrawn.png') });
    await page.close();
  }, 180_000);

  it('highlights the selection from the popup, on the page already captured, with a note', async () => {
    const page = await ctx.newPage();
    const url = pageOrigin + '/hedges.html';
    await page.goto(url);
    await page.locator('mark[data-rhizome-highlight]').first().waitFor({ timeout: 30_000 });
    const passage = 'turns white in March';
    const p2 = (await page.textContent('#two'))!;
    await select(page, 'two', p2.indexOf(passage), p2.indexOf(passage) + passage.length);
    const popup = await ctx.newPage();
    await popup.setViewportSize({ width: 380, height: 600 });
    await popup.goto(`chrome-extension://${extId}/popup.html?tab=${await tabIdOf(url)}`);
    await popup.locator('body[data-ready="true"]').waitFor();
    await popup.fill('#hl-note', 'blackthorn winter');
    await popup.click('#highlight-save');
    await popup.getByText('Highlighted ✓').waitFor({ timeout: 60_000 });
    const id = (await popup.getAttribute('body', 'data-highlight-id'))!;
    await page.locator(`mark[data-rhizome-highlight="${id}"]`).waitFor();
    await popup.screenshot({ path: join(ARTIFACTS, 'extension-popup-highlight.png') });

    const cap = await api<{ node_id: string }>(`/captures/check?url=${encodeURIComponent(url)}`);
    const list = (await api<{ data: Array<{ text: string; note: string | null }> }>(`/nodes/${cap.node_id}/highlights`)).data;
    expect(list.map((h) => [h.text, h.note])).toEqual([['roughly one species for every century', 'Hooper’s rule'], [passage, 'blackthorn winter']]);
    // Still one capture of the page.
    expect((await api<{ total: number }>('/captures')).total).toBe(1);
    await Promise.all([popup.close(), page.close()]);
  }, 180_000);
});
