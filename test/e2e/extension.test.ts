// The browser extension end to end: built by the real build script, loaded unpacked into
// real Chromium, configured through its options page, saving a localhost page through its
// popup and its context-menu handler into a real `rhizome serve` child process.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM build script without types
import { buildExtension } from '../../extension/build.mjs';
import { fitBody, utf8Bytes } from '../../extension/src/page.js';
import { ARTIFACTS, chromiumPath, distinctColours, ROOT } from '../web/harness.js';
import { credentials, startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';

const ARTICLE = `<!doctype html><html><head><title>Mycorrhizal networks in old forests</title>
<style>body { font-family: serif }</style><link rel="stylesheet" href="/missing.css"></head><body>
<script>window.addEventListener('DOMContentLoaded', () => {
  const p = document.createElement('p'); p.id = 'late'; p.textContent = 'Added by a script after load: the page as the reader sees it.';
  document.querySelector('article').append(p);
});</script>
<noscript>Turn on JavaScript</noscript>
<article><h1>Mycorrhizal networks in old forests</h1>
<p id="quote">Fungal threads link the roots of neighbouring trees and carry sugar from old trees to seedlings in the shade.</p>
<p>Foresters call the oldest, best-connected trees hub trees. Felling them cuts many seedlings off at once.</p>
<p><a id="repo" href="https://github.com/example/rhizome-notes">notes repository</a> <img id="pic" src="/fern.png" alt="fern"></p>
</article></body></html>`;

/** 1.4 MB of mostly two- and four-byte UTF-8 characters, quotes and newlines. */
const BIG = `<!doctype html><html><head><title>Very long page</title></head><body><h1>Very long page</h1>${'<p>Ça « "quoted" » 🌱 naïve façade\n</p>'.repeat(40_000)}</body></html>`;

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

async function api<T>(path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(server.url + '/api/v1' + path, { headers: { Authorization: `ApiKey ${apiKey}` } });
  const text = await res.text();
  return { status: res.status, body: (text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T };
}

async function _waitFor<T>(fn: () => Promise<T | undefined>, what: string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function tabIdOf(url: string): Promise<number> {
  return sw.evaluate(async (u) => {
    const tabs = await (globalThis as any).chrome.tabs.query({});
    return tabs.find((t: { url?: string }) => t.url === u).id as number;
  }, url);
}

async function openPopup(tabId: number): Promise<Page> {
  const popup = await ctx.newPage();
  await popup.setViewportSize({ width: 380, height: 560 });
  await popup.goto(`chrome-extension://${extId}/popup.html?tab=${tabId}`);
  await popup.locator('body[data-ready="true"]').waitFor();
  return popup;
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const built = await buildExtension();
  // The toolbar click grants the popup access to the tab it was opened on (activeTab).
  // A test cannot click the browser's toolbar, so this copy of the build is granted the
  // test page's host up front; every line of extension code is the same.
  extDir = mkdtempSync(join(tmpdir(), 'rhizome-ext-'));
  cpSync(built.dir, extDir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(extDir, 'manifest.json'), 'utf8'));
  manifest.host_permissions = ['http://localhost/*'];
  writeFileSync(join(extDir, 'manifest.json'), JSON.stringify(manifest));

  dataDir = tempDataDir();
  server = await startServer(dataDir);
  apiKey = credentials(dataDir).api_key;

  pages = createServer((req, res) => {
    const body = req.url === '/big.html' ? BIG : req.url?.endsWith('.png') ? '' : ARTICLE;
    res.writeHead(req.url?.endsWith('.png') ? 404 : 200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(body);
  });
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
  // `localhost`, a different origin from the server's 127.0.0.1.
  pageOrigin = `http://localhost:${(pages.address() as AddressInfo).port}`;

  profile = mkdtempSync(join(tmpdir(), 'rhizome-ext-profile-'));
  ctx = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: false,
    args: [
      '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
      `--load-extension=${extDir}`, `--disable-extensions-except=${extDir}`,
    ],
  });
  sw = ctx.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ?? (await ctx.waitForEvent('serviceworker', { timeout: 30_000 }));
  extId = new URL(sw.url()).host;
  // First install with no key: the extension opens its own options page (onInstalled). Wait
  // for it and close it, so that a test's own navigation to that page is never interrupted.
  for (let i = 0; i < 100; i++) {
    const opened = ctx.pages().find((p) => p.url().includes(`${extId}/options.html`));
    if (opened) {
      await opened.close();
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await server?.stop();
  pages?.close();
  for (const d of [profile, extDir, dataDir]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('the built extension', () => {
  it('is a Manifest V3 extension for Chromium and Firefox, zipped', async () => {
    const m = JSON.parse(readFileSync(join(ROOT, 'dist/extension/manifest.json'), 'utf8'));
    expect(m.manifest_version).toBe(3);
    expect(m.action.default_title).toBe('Save to Rhizome');
    expect(m.browser_specific_settings.gecko.id).toBeTruthy();
    expect(m.background.service_worker).toBe('background.js');
    expect(m.background.scripts).toEqual(['background.js']);
    expect(m.host_permissions).toBeUndefined(); // nothing up front; the server's host is asked for at run time
    const zip = readFileSync(join(ROOT, 'dist/rhizome-extension.zip'));
    expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    for (const f of ['manifest.json', 'popup.html', 'popup.js', 'options.html', 'background.js']) expect(zip.includes(Buffer.from(f))).toBe(true);
  });

  it('keeps a body under the 1 MB limit counting UTF-8 bytes and JSON escapes', () => {
    const raw = '"é🌱\n'.repeat(300_000);
    const fitted = fitBody({ title: 't', source: 'browser-extension', raw_content: raw });
    expect(fitted.truncated).toBe(true);
    const { truncated: _t, ...body } = fitted;
    expect(utf8Bytes(JSON.stringify(body))).toBeLessThan(1024 * 1024);
    expect(fitted.raw_content!.length).toBeGreaterThan(100_000);
    expect(fitBody({ title: 't', raw_content: '<p>small</p>' })).toEqual({ title: 't', raw_content: '<p>small</p>', truncated: false });
  });
});

describe('extension in Chromium', () => {
  it('is configured on its options page and checks the connection', async () => {
    const page = await ctx.newPage();
    await page.goto(`chrome-extension://${extId}/options.html`);
    await expect.poll(() => page.inputValue('#server')).toBe('http://127.0.0.1:7777');
    await page.fill('#server', server.url + '/some/path');
    await page.fill('#key', 'wrong.key');
    await page.click('#check');
    await page.locator('#status.err').waitFor();
    expect(await page.textContent('#status')).toMatch(/401|API key|Unauthorized/i);
    await page.fill('#key', apiKey);
    await page.click('text=Save');
    await page.locator('#status.ok').waitFor();
    expect(await page.inputValue('#server')).toBe(server.url);
    await page.click('#check');
    await page.getByText('the API key works').waitFor();
    const stored = await sw.evaluate(() => (globalThis as any).chrome.storage.local.get(['serverUrl', 'apiKey']));
    expect(stored).toEqual({ serverUrl: server.url, apiKey });
    // Nobody answered the browser's host-permission prompt: every call below goes through
    // the server's CORS answer for the extension's origin.
    expect(await sw.evaluate((o) => (globalThis as any).chrome.permissions.contains({ origins: [o] }), server.url + '/*')).toBe(false);
    await page.close();
  }, 60_000);

  it('saves the page with a selection from the popup and follows the capture to its node', async () => {
    const page = await ctx.newPage();
    await page.goto(pageOrigin + '/article.html');
    await page.locator('#late').waitFor();
    await page.evaluate(() => {
      const r = document.createRange();
      r.selectNodeContents(document.getElementById('quote')!);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(r);
    });
    const popup = await openPopup(await tabIdOf(page.url()));
    expect(await popup.inputValue('#title')).toBe('Mycorrhizal networks in old forests');
    expect(await popup.inputValue('#type')).toBe('article');
    await popup.getByText('Fungal threads link the roots').waitFor();
    await popup.fill('#why', 'For the forest-soil project: hub trees matter.');
    await popup.fill('#tags', 'forests, fungi');
    await popup.click('#save');
    await popup.locator('body[data-done="true"]').waitFor({ timeout: 90_000 });
    expect(await popup.getAttribute('body', 'data-status')).toBe('completed');
    const id = (await popup.getAttribute('body', 'data-capture-id'))!;

    const cap = await api<{ source: string; selected_text: string; url: string; why: string; node_id: string; content_type: string; metadata: Record<string, unknown> }>(`/captures/${id}`);
    expect(cap.status).toBe(200);
    expect(cap.body).toMatchObject({ source: 'browser-extension', url: pageOrigin + '/article.html', content_type: 'article', why: 'For the forest-soil project: hub trees matter.' });
    expect(cap.body.selected_text).toContain('Fungal threads link the roots of neighbouring trees');
    const raw = await api<string>(`/captures/${id}/content`);
    expect(raw.body).toContain('Foresters call the oldest');
    expect(raw.body).toContain('Added by a script after load'); // the DOM after scripts ran
    expect(raw.body).not.toMatch(/<script|<style|<noscript|stylesheet/i);
    const node = await api<{ tags: string[]; body_markdown: string }>(`/nodes/${cap.body.node_id}`);
    expect(node.body.tags).toEqual(expect.arrayContaining(['forests', 'fungi']));

    const open = popup.getByRole('link', { name: 'Open node' });
    expect(await open.getAttribute('href')).toBe(`${server.url}/#/nodes/${cap.body.node_id}`);
    const shot = join(ARTIFACTS, 'extension-popup.png');
    await popup.locator('body').screenshot({ path: shot });
    expect(distinctColours(readFileSync(shot))).toBeGreaterThan(20);
    if (process.env.RHIZOME_DOCS_SCREENSHOTS) copyFileSync(shot, join(ROOT, 'docs/extension-popup.png'));

    // Opened again on the same page, the popup says it is already saved and links to it.
    const again = await openPopup(await tabIdOf(page.url()));
    const already = again.locator('#already');
    await already.getByText('Already saved').waitFor();
    expect(await already.getByRole('link', { name: 'open in Rhizome' }).getAttribute('href')).toBe(`${server.url}/#/captures/${id}`);
    await Promise.all([again.close(), popup.close(), page.close()]);
  }, 150_000);

  it('shortens a page bigger than the 1 MB body limit instead of failing', async () => {
    const page = await ctx.newPage();
    await page.goto(pageOrigin + '/big.html');
    const popup = await openPopup(await tabIdOf(page.url()));
    await popup.click('#save');
    await popup.locator('body[data-capture-id]').waitFor({ timeout: 30_000 });
    await popup.getByText('shortened to fit the 1 MB limit').waitFor();
    const id = (await popup.getAttribute('body', 'data-capture-id'))!;
    const cap = await api<{ source: string; metadata: { raw_content_bytes: number } }>(`/captures/${id}`);
    expect(cap.body.source).toBe('browser-extension');
    expect(cap.body.metadata.raw_content_bytes).toBeGreaterThan(500_000);
    expect(cap.body.metadata.raw_content_bytes).toBeLessThan(1024 * 1024);
    await Promise.all([popup.close(), page.close()]);
  }, 60_000);

  it('saves a selection, a link, an image and a page from the context menu handler', async () => {
    const page = await ctx.newPage();
    await page.goto(pageOrigin + '/menu.html');
    const tabId = await tabIdOf(page.url());
    const tab = { id: tabId, url: page.url(), title: await page.title() };
    const menu = (info: Record<string, unknown>) => sw.evaluate(([i, t]) => (globalThis as any).rhizomeSaveFromMenu(i, t), [info, tab] as const) as Promise<{ id: string }>;
    type Cap = { source: string; url: string; content_type: string; selected_text: string | null; title: string; metadata: Record<string, unknown> };
    const get = async (id: string) => (await api<Cap>(`/captures/${id}`)).body;

    const sel = await get((await menu({ menuItemId: 'save-selection', pageUrl: page.url(), selectionText: 'hub trees' })).id);
    expect(sel).toMatchObject({ source: 'browser-extension', url: page.url(), selected_text: 'hub trees', title: 'Mycorrhizal networks in old forests' });

    const link = await get((await menu({ menuItemId: 'save-link', pageUrl: page.url(), linkUrl: 'https://github.com/example/rhizome-notes' })).id);
    expect(link).toMatchObject({ source: 'browser-extension', url: 'https://github.com/example/rhizome-notes', content_type: 'repo', title: 'rhizome-notes' });

    const img = await get((await menu({ menuItemId: 'save-image', pageUrl: page.url(), srcUrl: pageOrigin + '/fern.png', mediaType: 'image' })).id);
    expect(img).toMatchObject({ source: 'browser-extension', url: pageOrigin + '/fern.png', content_type: 'image', title: 'fern.png' });

    const whole = await get((await menu({ menuItemId: 'save-page', pageUrl: page.url() })).id);
    expect(whole).toMatchObject({ source: 'browser-extension', url: page.url(), content_type: 'article' });
    expect(whole.metadata.raw_content_bytes).toBeGreaterThan(300);
    await page.close();
  }, 60_000);

  it('gives an ordinary web page no access to the API, even with a valid key', async () => {
    const page = await ctx.newPage();
    await page.goto(pageOrigin + '/article.html');
    const outcome = await page.evaluate(
      ([url, key]) =>
        fetch(url + '/api/v1/captures', { headers: { Authorization: `ApiKey ${key}` } }).then(
          (r) => `read ${r.status}`,
          (e: Error) => `blocked: ${e.name}`,
        ),
      [server.url, apiKey] as const,
    );
    expect(outcome).toBe('blocked: TypeError');
    await page.close();
  }, 60_000);
});
